// Start the rules worker (Pyodide + tafl_rules) early: this classic script runs in the page's head
// and creates the worker as soon as the parser yields, in a task of its own (so it does not lengthen
// the parser's tasks); tafl-board.mjs adopts the worker and replays whatever it said (or how it
// failed) before then. If the board script starts first, it makes its own worker and this does nothing.
(function () {
  const url = new URL("tafl-worker.mjs", document.currentScript.src);
  setTimeout(() => {
    if (window.__taflEarlyWorker !== undefined) return;
    try {
      const worker = new Worker(url, { type: "module" });
      worker.early = [];
      worker.onmessage = (event) => worker.early.push({ data: event.data });
      worker.onerror = (event) => { event.preventDefault(); worker.early.push({ error: event.message || "it could not be loaded" }); };
      window.__taflEarlyWorker = worker;
    } catch (error) {
      window.__taflEarlyWorker = null; // tafl-board.mjs starts its own worker and reports any failure
    }
  }, 0);
})();
