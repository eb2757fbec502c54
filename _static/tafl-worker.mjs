// Module worker: holds Pyodide and tafl_rules, answers {id, type, payload} with {id, ok, payload}.
// Every rule question is answered by Python (tafl_rules.webapi); this file only relays JSON.
// It also keeps the page informed that it is alive: it answers "ping" at once whenever it is
// not inside Python, and sends {id: 0, type: "beat"} during a long search (from the search's
// own polling), so the page can tell a busy worker from a dead one.
//
// The page names its build in the worker's address (?build=...): the snapshot is fetched for that
// build, and one made for another build (the site was updated while the page was open) is not run.
import { loadPyodide } from "./pyodide/pyodide.mjs";

const indexURL = new URL("./pyodide/", import.meta.url).href;
const BUILD = new URL(import.meta.url).searchParams.get("build") || "";
const SNAPSHOT = `${indexURL}tafl-snapshot.bin${BUILD ? `?build=${encodeURIComponent(BUILD)}` : ""}`;
const BEAT_EVERY_MS = 500;
let lastBeat = 0;

function beat() {
  const now = performance.now();
  if (now - lastBeat < BEAT_EVERY_MS) return;
  lastBeat = now;
  postMessage({ id: 0, ok: true, type: "beat", payload: {} });
}

// A runtime file that cannot be fetched makes Pyodide wait for ever (it only warns), so every
// fetch goes through here: a failure is reported to the page at once, naming the file.
let startFailed = false;
function fatal(message, extra = {}) {
  if (startFailed) return;
  startFailed = true;
  postMessage({ id: 0, ok: false, type: "ready", payload: { error: message, ...extra } });
}
const realFetch = self.fetch.bind(self);
self.fetch = async (input, init) => {
  const url = String(input instanceof Request ? input.url : input);
  const name = url.split("/").pop().split("?")[0];
  beat();
  try {
    const response = await realFetch(input, init);
    beat();
    if (!response.ok && url !== SNAPSHOT) fatal(`Python could not start: ${name} could not be loaded (HTTP ${response.status})`);
    return response;
  } catch (error) {
    if (url !== SNAPSHOT) fatal(`Python could not start: ${name} could not be loaded (${error.message || error})`);
    throw error;
  }
};
let started = false;
self.addEventListener("unhandledrejection", (event) => {
  if (started) return;
  event.preventDefault();  // reported to the page, in words, as the reason the engine could not start
  fatal(`Python could not start: ${event.reason?.message || event.reason}`);
});

// Start from the build's memory snapshot (Python already started, tafl_rules imported), fetched
// while Pyodide's own files load; without it (or if it will not load) start Python the slow way.
async function fetchSnapshot() {
  try {
    const response = await fetch(SNAPSHOT);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return await response.arrayBuffer();
  } catch (error) {
    console.warn(`no Pyodide snapshot (${error.message || error}); starting Python the slow way`);
    return null;
  }
}

class OtherBuild extends Error {}

async function fromSnapshot() {
  const snapshot = fetchSnapshot();
  const bytes = snapshot.then((b) => b || Promise.reject(new Error("no snapshot")));
  bytes.catch(() => {});  // reported by fetchSnapshot; the slow way follows
  let pyodide;
  try {
    pyodide = await loadPyodide({ indexURL, _loadSnapshot: bytes });
  } catch (error) {
    if (await snapshot) console.warn(`the Pyodide snapshot did not load (${error.message || error}); starting Python the slow way`);
    return null;
  }
  const api = pyodide.pyimport("tafl_rules.webapi");
  if (BUILD && api.BUILD !== BUILD) throw new OtherBuild(`snapshot of build ${api.BUILD || "(none)"}, page of build ${BUILD}`);
  return api;
}

async function slowStart() {
  // Starting without the snapshot runs long stretches of Python's start-up without a break:
  // say so, so the page does not take the silence for a dead worker.
  postMessage({ id: 0, ok: true, type: "busy", payload: { seconds: 45 } });
  const pyodide = await loadPyodide({ indexURL });
  // The wheel is loaded by name: Pyodide checks its sha256 against the served lockfile.
  await pyodide.loadPackage("tafl_rules", { messageCallback: () => {}, errorCallback: (m) => console.warn(m) });
  return pyodide.pyimport("tafl_rules.webapi");
}

const ready = (async () => {
  const api = (await fromSnapshot()) || (await slowStart());
  if (api.set_heartbeat) api.set_heartbeat(beat);
  return api;
})();

ready.then(
  (api) => { started = true; postMessage({ id: 0, ok: true, type: "ready", payload: { build: api.BUILD } }); },
  (error) => (error instanceof OtherBuild
    ? fatal("the site was updated while this page was open, and its rules engine is now of another build: "
      + "reload the page (your game is kept)", { reload: true, detail: error.message })
    : fatal(`Python could not start: ${error.message || error}`)),
);

self.onmessage = async (event) => {
  const { id, type, payload } = event.data || {};
  if (type === "ping") {
    postMessage({ id, ok: true, type, payload: {} });
    return;
  }
  let api;
  try {
    api = await ready;
  } catch (error) {
    postMessage({ id, ok: false, type, payload: { error: `Python could not start: ${error.message || error}` } });
    return;
  }
  try {
    const reply = JSON.parse(api.handle(String(type), JSON.stringify(payload ?? {})));
    postMessage({ id, ok: !("error" in reply), type, payload: reply });
  } catch (error) {
    postMessage({ id, ok: false, type, payload: { error: `internal error: ${error.message || error}` } });
  }
};

postMessage({ id: 0, ok: true, type: "alive", payload: {} });
