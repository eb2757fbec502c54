// Module worker: holds Pyodide and tafl_rules, answers {id, type, payload} with {id, ok, payload}.
// Every rule question is answered by Python (tafl_rules.webapi); this file only relays JSON.
// It also keeps the page informed that it is alive: it answers "ping" at once whenever it is
// not inside Python, and sends {id: 0, type: "beat"} during a long search (from the search's
// own polling), so the page can tell a busy worker from a dead one.
//
// Starting. Python starts one of two ways, chosen here:
// - from the build's memory snapshot (Python started, tafl_rules imported): little work for the
//   processor, but 3 MB to fetch beside Pyodide's WebAssembly (2.7 MB);
// - "fresh": Python starts from the standard library a board needs (1 MB, as bytecode) and loads
//   the wheel (0.25 MB): 2 MB less to fetch, a second or two more of work.
// On a fast connection the snapshot is first; on a slow one (a phone's) the fresh start is, by
// tens of seconds. So: the snapshot when this build's runtime cache (the service worker's) holds
// it; the fresh start when that cache holds the library but not yet the snapshot (an earlier visit
// started fresh, and the snapshot is on its way); otherwise the rate at which the WebAssembly
// arrives decides, measured on its first 2 MB or 1 s (on loopback a few tens of milliseconds). A
// page may force either (?start=snapshot|fresh in the worker's address: the tests and the benchmark).
//
// Nothing is fetched twice: what Pyodide asks for is fetched once, ahead of it, and every runtime
// file fetched is put in this build's runtime cache (once Python has started), where the service
// worker finds it instead of fetching it again. The page hears the progress ({id: 0, type: "progress"}).
//
// The page names its build in the worker's address (?build=...): the snapshot and the library
// are fetched for that build, and a snapshot made for another build is not run.

const codec = import("./tafl-snapshot-codec.mjs");
const here = new URL(import.meta.url);
const BUILD = here.searchParams.get("build") || "";
const FORCED = here.searchParams.get("start") || "";
const indexURL = new URL("./pyodide/", import.meta.url).href;
const ofBuild = (name) => `${indexURL}${name}${BUILD ? `?build=${encodeURIComponent(BUILD)}` : ""}`;
const SNAPSHOT = ofBuild("tafl-snapshot.bin");
const STDLIB = ofBuild("tafl-stdlib.zip");
const WASM = `${indexURL}pyodide.asm.wasm`;
const LOCK = `${indexURL}pyodide-lock.json`;
const RUNTIME_CACHE = BUILD ? `tafl-runtime-${BUILD}` : "";
const EMPTY_ZIP = "data:application/zip;base64,UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA==";
const PROBE_BYTES = 2_000_000;   // of the WebAssembly (as decoded), to measure how fast it arrives...
const PROBE_MS = 1000;           // ...or what arrived in this time, if less
const QUICK_BYTES = 131_072;     // ...or, sooner, the first 128 KB at 5 MB/s or more (loopback, a wired
const QUICK_RATE = 5_000_000;    // network, at least 10 Mbit/s: where the snapshot is quicker anyway)
// Bytes a second (decoded) from which the snapshot is quicker. The snapshot costs 2 MB more than the
// library and the wheel, and saves two or three seconds of work (bench_board.py --network at a load
// of 12 on this project's 2 cores: at 10 Mbit/s the snapshot's start 7.5 s, the fresh one 9-10 s; at
// 1.6 Mbit/s 35.5 s and 28-32 s), so the two cross near 6 Mbit/s. There the WebAssembly, sharing
// the connection with the page's own files, arrives at about 0.9 MB/s decoded (1.3 to 1.6 at 10
// Mbit/s, under 0.3 at 1.6).
const FAST = 900_000;
const BEAT_EVERY_MS = 500;
let lastBeat = 0;
const marks = {};  // milliseconds from the worker's start to each step (the ready message reports them)
const mark = (step) => { marks[step] ??= Math.round(performance.now()); };

function beat() {
  const now = performance.now();
  if (now - lastBeat < BEAT_EVERY_MS) return;
  lastBeat = now;
  postMessage({ id: 0, ok: true, type: "beat", payload: {} });
}

// A runtime file that cannot be fetched makes Pyodide wait for ever (it only warns), so every
// fetch goes through here: a failure is reported to the page at once, naming the file.
let startFailed = false;
function fatal(said, extra = {}) {
  if (startFailed) return;
  startFailed = true;
  postMessage({ id: 0, ok: false, type: "ready", payload: { ...said, ...extra } });
}

/**
 * A failure in words: `error` in English, and `words` (the English template and its values), which
 * the page says in its own language (`t` of tafl-board-words.mjs; the worker has no page to read).
 * Its English is a message of the board's catalogue, as a `t` call's is.
 * @param {string} text  the English, the catalogue's key
 * @param {Object<string, string|number>} [values]
 */
function failure(text, values = {}) {
  const error = text.replace(/\{(\w+)\}/g, (all, name) => (name in values ? String(values[name]) : all));
  return { error, words: { text, values } };
}
const nameOf = (url) => url.split("/").pop().split("?")[0];

// ---------------------------------------------------------------- progress

// {file name: bytes received (decoded)}; "start" once every file of the chosen start is in.
const progress = { loaded: {}, done: new Set(), start: "", step: "download", sent: 0 };
const FILES = { snapshot: [WASM, SNAPSHOT], fresh: [WASM, STDLIB] };  // (and the small wheel)
function tellProgress(force = false) {
  const now = performance.now();
  if (!force && now - progress.sent < 200) return;
  progress.sent = now;
  const { loaded, start, step } = progress;
  postMessage({ id: 0, ok: true, type: "progress", payload: { loaded: { ...loaded }, start, step } });
}

/** The response's body, counted as it arrives (its bytes when `keep`). */
async function counted(response, url, keep = false) {
  const name = nameOf(url);
  const reader = response.body.getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (keep) chunks.push(value);
    progress.loaded[name] = total;
    beat();
    tellProgress();
  }
  mark(name);
  progress.done.add(url);
  if (progress.start && FILES[progress.start].every((u) => progress.done.has(u))) progress.step = "start";
  tellProgress(true);
  if (!keep) return null;
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) { bytes.set(chunk, at); at += chunk.length; }
  return bytes;
}

// ---------------------------------------------------------------- fetching, once

let runtimeCache = null;
function openRuntimeCache() {
  if (!runtimeCache) runtimeCache = RUNTIME_CACHE && self.caches ? caches.open(RUNTIME_CACHE).catch(() => null) : Promise.resolve(null);
  return runtimeCache;
}

async function inRuntimeCache(url) {
  const cache = await openRuntimeCache();
  return Boolean(cache && (await cache.match(url).catch(() => undefined)));
}

// url -> a promise of copies of its response, one for each reader that will ask (this worker and
// Pyodide). A file fetched from the network is put in this build's runtime cache once Python has
// started (its writes would slow the start), from the bytes this worker read anyway.
const copies = new Map();
const aborts = new Map();
const fetched = new Map();  // url -> content type, for the files that came from the network
const keep = [];   // [url, bytes, type] to put in the runtime cache; the page hears "kept" once they are
function fetchOnce(url, readers) {
  if (copies.has(url)) return;
  const abort = new AbortController();
  aborts.set(url, abort);
  const promise = (async () => {
    const cache = await openRuntimeCache();
    const kept = cache && (await cache.match(url).catch(() => undefined));
    const response = kept || (await realFetch(url, { signal: abort.signal }));
    if (!kept && cache && response.ok && response.type === "basic") fetched.set(url, response.headers.get("content-type") || "");
    const out = [response];
    while (out.length < readers) out.push(response.clone());
    return out;
  })();
  promise.catch(() => {});  // (a failure is the reader's to report; a dropped snapshot is none)
  copies.set(url, promise);
}

/** Put `bytes` (the file at `url`, as it came) in the runtime cache once Python has started. */
function toKeep(url, bytes) {
  if (fetched.has(url)) keep.push([url, bytes, fetched.get(url)]);
}

/** Stop fetching `url` (a snapshot the slow connection will not wait for). */
function forget(url) {
  aborts.get(url)?.abort();
  copies.delete(url);
}

async function keepRuntime() {
  const cache = await openRuntimeCache();
  for (const [url, bytes, type] of keep.splice(0)) {
    await cache?.put(url, new Response(bytes, { headers: { "Content-Type": type } })).catch(() => {});
  }
}

async function take(url) {
  const out = await copies.get(url);
  const response = out.shift();
  if (!out.length) copies.delete(url);
  return response;
}

const realFetch = self.fetch.bind(self);
let wasmBytes = null;  // (a promise of the WebAssembly's bytes, dropped once Python has started)
self.fetch = async (input, init) => {
  const url = String(input instanceof Request ? input.url : input);
  beat();
  try {
    const response = await (url === WASM && wasmBytes
      ? wasmBytes.then((bytes) => new Response(bytes, { headers: { "Content-Type": "application/wasm" } }))
      : copies.has(url) ? take(url) : realFetch(input, init));
    beat();
    if (!response.ok && url !== SNAPSHOT) fatal(failure("Python could not start: {file} could not be loaded (HTTP {status})", { file: nameOf(url), status: response.status }));
    return response;
  } catch (error) {
    if (url !== SNAPSHOT) fatal(failure("Python could not start: {file} could not be loaded ({error})", { file: nameOf(url), error: String(error.message || error) }));
    throw error;
  }
};
let started = false;
self.addEventListener("unhandledrejection", (event) => {
  if (started) return;
  event.preventDefault();  // reported to the page, in words, as the reason the engine could not start
  fatal(failure("Python could not start: {error}", { error: String(event.reason?.message || event.reason) }));
});

// ---------------------------------------------------------------- which start

// Fetched at once, whichever way Python starts: Pyodide's JavaScript, its WebAssembly and lockfile.
const pyodideModule = import("./pyodide/pyodide.mjs");
import("./pyodide/pyodide.asm.mjs").catch(() => {});  // the module Pyodide imports: fetched now, once
fetchOnce(LOCK, 1);
const lockfile = self.fetch(LOCK).then((r) => r.arrayBuffer()).then((bytes) => {
  toKeep(LOCK, bytes);
  return JSON.parse(new TextDecoder().decode(bytes));
});
lockfile.catch(() => {});
// The WebAssembly is read here alone (its data segments decode the snapshot, its rate chooses the
// start), and Pyodide compiles it from these bytes: a second reader of the download (a clone) would
// pass every byte through this worker's thread, which cost 0.5 s on loopback.
fetchOnce(WASM, 1);
let measured;
let rateSeen = null;  // (the ready message reports it: the benchmark prints it)
const wasmRate = new Promise((resolve) => { measured = resolve; }).then((rate) => { rateSeen ??= Math.round(rate); return rate; });
wasmBytes = (async () => {
  const response = await self.fetch(WASM);
  const began = performance.now();
  const name = nameOf(WASM);
  const rate = () => measured((progress.loaded[name] || 0) / Math.max(0.001, (performance.now() - began) / 1000));
  // the rate once PROBE_BYTES have arrived, or after PROBE_MS, whichever comes first (or at once, if
  // the first QUICK_BYTES come at a rate only loopback or a wired network has)
  const probe = setInterval(() => {
    const bytes = progress.loaded[name] || 0;
    const seconds = (performance.now() - began) / 1000;
    if (bytes >= PROBE_BYTES || seconds >= PROBE_MS / 1000 || (bytes >= QUICK_BYTES && bytes / seconds >= QUICK_RATE)) rate();
  }, 5);
  try {
    const bytes = await counted(response, WASM, true);
    rate();
    toKeep(WASM, bytes);
    return bytes;
  } finally {
    clearInterval(probe);
    measured(0);
  }
})();
wasmBytes.catch(() => {});

/** How Python starts, and whether the snapshot may be fetched while that is decided. */
async function chooseStart() {
  if (FORCED === "snapshot") fetchOnce(SNAPSHOT, 1);
  if (FORCED === "snapshot" || FORCED === "fresh") return FORCED;
  if (navigator.connection?.saveData) return "fresh";
  if (await inRuntimeCache(SNAPSHOT)) return "snapshot";
  if (await inRuntimeCache(STDLIB)) return "fresh";  // an earlier start was fresh; the snapshot is on its way
  // (the snapshot waits for the measure: fetched beside the WebAssembly, it would halve the rate
  // measured, and be fetched in vain on a slow connection)
  return (await wasmRate) >= FAST ? "snapshot" : "fresh";
}
const chosen = chooseStart();

// ---------------------------------------------------------------- the two starts

class OtherBuild extends Error {}

async function fromSnapshot(loadPyodide) {
  let snapshot;
  let sent = () => {};
  try {
    fetchOnce(SNAPSHOT, 1);
    const response = await take(SNAPSHOT);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const [bytes, wasm, { decodeSnapshot }] = await Promise.all([counted(response, SNAPSHOT, true), wasmBytes, codec]);
    snapshot = decodeSnapshot(bytes, wasm);
    sent = () => toKeep(SNAPSHOT, bytes);  // (kept as it came, once it proved good)
    mark("decoded");
  } catch (error) {
    console.warn(`no Pyodide snapshot (${error.message || error}); starting Python without it`);
    return null;
  }
  let pyodide;
  try {
    pyodide = await loadPyodide({ indexURL, lockFileContents: lockfile, packageBaseUrl: indexURL, stdLibURL: EMPTY_ZIP, _loadSnapshot: snapshot });
    pyodide._api.config._loadSnapshot = null;  // (its 31 MB are in Python's memory now; Pyodide would keep them)
    sent();
  } catch (error) {
    console.warn(`the Pyodide snapshot did not load (${error.message || error}); starting Python without it`);
    return null;
  }
  const api = pyodide.pyimport("tafl_rules.webapi");
  if (BUILD && api.BUILD !== BUILD) throw new OtherBuild(`snapshot of build ${api.BUILD || "(none)"}, page of build ${BUILD}`);
  return api;
}

async function freshStart(loadPyodide) {
  // Python's start runs long stretches without a break: say so, so the page does not take the
  // silence for a dead worker.
  postMessage({ id: 0, ok: true, type: "busy", payload: { seconds: 45 } });
  progress.start = "fresh";
  const lock = await lockfile;
  const entry = lock.packages.tafl_rules || lock.packages["tafl-rules"];
  const wheel = `${indexURL}${entry.file_name}`;
  for (const url of [STDLIB, wheel]) {
    fetchOnce(url, 2);
    take(url).then((response) => counted(response, url, true)).then((bytes) => toKeep(url, bytes)).catch(() => {});
  }
  const pyodide = await loadPyodide({ indexURL, lockFileContents: lock, packageBaseUrl: indexURL, stdLibURL: STDLIB });
  // The wheel is loaded by name: Pyodide checks its sha256 against the served lockfile.
  await pyodide.loadPackage("tafl_rules", { messageCallback: () => {}, errorCallback: (m) => console.warn(m) });
  const api = pyodide.pyimport("tafl_rules.webapi");
  api.BUILD = BUILD;
  return api;
}

const ready = (async () => {
  const { loadPyodide } = await pyodideModule;
  mark("pyodide.mjs");
  const start = await chosen;
  if (start === "fresh") forget(SNAPSHOT);
  mark("chosen");
  progress.start = start;
  tellProgress(true);
  const api = (start === "snapshot" && (await fromSnapshot(loadPyodide))) || (await freshStart(loadPyodide));
  if (api.set_heartbeat) api.set_heartbeat(beat);
  mark("python");
  wasmBytes = null;
  return { api, start: progress.start };
})();

ready.then(
  ({ api, start }) => {
    started = true;
    postMessage({ id: 0, ok: true, type: "ready", payload: { build: api.BUILD, start, rate: rateSeen, marks } });
    keepRuntime().then(() => postMessage({ id: 0, ok: true, type: "kept", payload: {} }));
  },
  (error) => (error instanceof OtherBuild
    ? fatal(failure("the site was updated while this page was open, and its rules engine is now of another build: reload the page (your game is kept)"),
      { reload: true, detail: error.message })
    : fatal(failure("Python could not start: {error}", { error: String(error.message || error) }))),
);

// The people-like player's first move fetches its model (0.7 MB as sent) by a request that
// holds the worker until it is in: on a slow network a silence longer than the page waits for a
// worker, so the page is told first, and told again when the move is made.
const MODEL_FETCH_S = 180;
let peopleModelIn = false;

self.onmessage = async (event) => {
  const { id, type, payload } = event.data || {};
  if (type === "ping") {
    postMessage({ id, ok: true, type, payload: {} });
    return;
  }
  let api;
  try {
    ({ api } = await ready);
  } catch (error) {
    postMessage({ id, ok: false, type, payload: failure("Python could not start: {error}", { error: String(error.message || error) }) });
    return;
  }
  const fetchesModel = type === "ai_move" && payload?.level === "people" && !peopleModelIn;
  if (fetchesModel) postMessage({ id: 0, ok: true, type: "busy", payload: { seconds: MODEL_FETCH_S } });
  try {
    const reply = JSON.parse(api.handle(String(type), JSON.stringify(payload ?? {})));
    if (fetchesModel) {
      peopleModelIn = !("error" in reply);
      postMessage({ id: 0, ok: true, type: "busy", payload: { seconds: 0 } });
    }
    postMessage({ id, ok: !("error" in reply), type, payload: reply });
  } catch (error) {
    postMessage({ id, ok: false, type, payload: failure("internal error: {error}", { error: String(error.message || error) }) });
  }
};

postMessage({ id: 0, ok: true, type: "alive", payload: {} });
