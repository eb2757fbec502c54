// Start the rules worker (Pyodide + tafl_rules) early: board.py puts this script inline at the
// top of the head of every page with a board, so the worker is created while the page is still
// arriving, before the styles and scripts load. The worker's address carries the page's build, so
// it runs that build's snapshot. The board script (tafl-board.mjs) adopts the worker and replays
// whatever it said (or how it failed) before then; if it starts first, it makes its own worker.
// A page address with ?tafl-start=snapshot (or fresh) has the worker start that way (the tests and
// the benchmark weigh the two; tafl-worker.mjs chooses otherwise).
(function () {
  var script = document.currentScript;
  if (window.__taflEarlyWorker !== undefined) return;
  try {
    var url = new URL(script.dataset.worker, document.baseURI);
    if (script.dataset.taflBuild) url.searchParams.set("build", script.dataset.taflBuild);
    var start = new URLSearchParams(location.search).get("tafl-start");
    if (start) url.searchParams.set("start", start);
    var worker = new Worker(url, { type: "module" });
    worker.early = [];
    worker.onmessage = function (event) { worker.early.push({ data: event.data }); };
    worker.onerror = function (event) { event.preventDefault(); worker.early.push({ error: event.message || "it could not be loaded" }); };
    window.__taflEarlyWorker = worker;
  } catch (error) {
    window.__taflEarlyWorker = null; // tafl-board.mjs starts its own worker and reports any failure
  }
})();
