// Module worker: holds Pyodide and tafl_rules, answers {id, type, payload} with {id, ok, payload}.
// Every rule question is answered by Python (tafl_rules.webapi); this file only relays JSON.
import { loadPyodide } from "./pyodide/pyodide.mjs";

const indexURL = new URL("./pyodide/", import.meta.url).href;

// Start from the build's memory snapshot (Python already started, tafl_rules imported) when it
// loads; otherwise start Python the slow way.
async function fetchSnapshot() {
  try {
    const response = await fetch(`${indexURL}tafl-snapshot.bin`);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return await response.arrayBuffer();
  } catch (error) {
    console.warn(`no Pyodide snapshot (${error.message || error}); starting Python the slow way`);
    return null;
  }
}

async function startPython() {
  const snapshot = await fetchSnapshot();
  if (snapshot) {
    try {
      return await loadPyodide({ indexURL, _loadSnapshot: snapshot });
    } catch (error) {
      console.warn(`the Pyodide snapshot did not load (${error.message || error}); starting Python the slow way`);
    }
  }
  return await loadPyodide({ indexURL });
}

const ready = (async () => {
  const pyodide = await startPython();
  // The wheel is still loaded by name: Pyodide checks its sha256 against the served lockfile.
  await pyodide.loadPackage("tafl_rules", { messageCallback: () => {}, errorCallback: (m) => console.warn(m) });
  return pyodide.pyimport("tafl_rules.webapi");
})();

ready.then(
  () => postMessage({ id: 0, ok: true, type: "ready", payload: {} }),
  (error) => postMessage({ id: 0, ok: false, type: "ready", payload: { error: `Python could not start: ${error.message || error}` } }),
);

self.onmessage = async (event) => {
  const { id, type, payload } = event.data || {};
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
