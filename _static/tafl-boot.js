// Start the rules worker (Pyodide + tafl_rules) as early as possible: this classic script runs in
// the page's head, before the rest of the page is parsed; tafl-board.mjs adopts the worker and
// replays whatever it said (or how it failed) before then.
(function () {
  try {
    const worker = new Worker(new URL("tafl-worker.mjs", document.currentScript.src), { type: "module" });
    worker.early = [];
    worker.onmessage = (event) => worker.early.push({ data: event.data });
    worker.onerror = (event) => { event.preventDefault(); worker.early.push({ error: event.message || "it could not be loaded" }); };
    window.__taflEarlyWorker = worker;
  } catch (error) {
    window.__taflEarlyWorker = null; // tafl-board.mjs starts its own worker and reports any failure
  }
})();
