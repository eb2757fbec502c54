// Module worker: holds Pyodide and tafl_rules, answers {id, type, payload} with {id, ok, payload}.
// Every rule question is answered by Python (tafl_rules.webapi); this file only relays JSON.
import { loadPyodide } from "./pyodide/pyodide.mjs";

const indexURL = new URL("./pyodide/", import.meta.url).href;

const ready = (async () => {
  const pyodide = await loadPyodide({ indexURL, fullStdLib: false });
  await pyodide.loadPackage("tafl_rules", { messageCallback: () => {}, errorCallback: (m) => console.warn(m) });
  const api = pyodide.pyimport("tafl_rules.webapi");
  return api;
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
