// The page's side of a rules worker: requests with ids, replies matched to them, and a heartbeat
// that tells a busy worker from a dead one. One per board (so one board's search never makes
// another wait); the first board adopts the worker tafl-boot.js started in the page's head.

import { t, workerSaid } from "./tafl-board-words.mjs";

/** @typedef {import("./tafl-protocol.mjs").ErrorReply} ErrorReply */

export const START_BUDGET_MS = 60000;  // a start with no progress for this long (a stalled network), as a last resort
const PING_AFTER_MS = 1500;     // ask a silent worker whether it is alive...
export const SILENCE_MS = 6000;  // ...and give it up when it has not answered for this long

/** The worker's address: beside this module, with the page's build (so its files are that build's),
 *  and the start a page address may force (?tafl-start=snapshot|fresh, as in tafl-boot.js). */
export function workerURL(build) {
  const url = new URL("./tafl-worker.mjs", import.meta.url);
  if (build) url.searchParams.set("build", build);
  const start = new URLSearchParams(location.search).get("tafl-start");
  if (start) url.searchParams.set("start", start);
  return url;
}

/** The decoded size of each runtime file, as the build wrote it into the page (offline.py). */
function runtimeSizes() {
  try {
    return JSON.parse(document.querySelector('meta[name="tafl-runtime"]')?.content || "{}").sizes || {};
  } catch {
    return {};
  }
}

const FILES_OF = { snapshot: ["pyodide.asm.wasm", "tafl-snapshot.bin"], fresh: ["pyodide.asm.wasm", "tafl-stdlib.zip", "tafl_rules"] };

/** How far the worker's start has come: {percent (null until the way it starts is chosen), step:
 *  "download" or "start"}. @param {import("./tafl-protocol.mjs").Progress} progress */
export function loadingOf(progress, sizes = runtimeSizes()) {
  const names = FILES_OF[progress.start];
  if (!names) return { percent: null, step: progress.step };
  let have = 0;
  let want = 0;
  for (const prefix of names) {
    const name = Object.keys(sizes).find((n) => n.startsWith(prefix));
    if (!name) return { percent: null, step: progress.step };
    want += sizes[name];
    have += Math.min(progress.loaded[name] || 0, sizes[name]);
  }
  return { percent: progress.step === "start" ? 100 : Math.min(99, Math.floor((100 * have) / want)), step: progress.step };
}

export class RulesWorker {
  // `events` is the board: it hears when the engine is ready and when it was lost.
  constructor(events, url = workerURL("")) {
    this.events = events;
    this.url = url;
    this.worker = null;
    this.nextId = 1;
    this.pending = new Map();
    this.ready = false;
    this.startedBy = "";   // how it started: "snapshot" or "fresh" (the tests and the benchmark read it)
    this.progress = null;   // the last progress the worker sent (its chosen start, bytes so far)
    this.loading = { percent: null, step: "download" };
    this.lastHeard = 0;
    this.pingSent = 0;
    this.quietUntil = 0;
    this.watchdog = null;
  }

  start() {
    if (this.worker) return this.worker;
    const early = window.__taflEarlyWorker;
    window.__taflEarlyWorker = null;  // only the first board adopts the worker started in the page's head
    this.worker = early || new Worker(this.url, { type: "module" });
    this.ready = false;
    this.lastHeard = performance.now();
    this.pingSent = 0;
    this.worker.onmessage = (event) => this.receive(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.lost(t("the rules worker stopped: {error}", { error: event.message || t("it could not be loaded") }), { crashed: true });
    };
    const worker = this.worker;
    queueMicrotask(() => {
      for (const said of worker.early || []) {
        if (this.worker !== worker) break;
        if (said.error) this.lost(t("the rules worker stopped: {error}", { error: said.error }), { crashed: true });
        else this.receive(said.data);
      }
      worker.early = null;
    });
    clearInterval(this.watchdog);
    this.watchdog = setInterval(() => this.watch(), 500);
    return worker;
  }

  // The heartbeat: a worker that has said nothing for a while is pinged; one that does not
  // answer the ping within SILENCE_MS is dead (a busy search sends beats of its own).
  watch() {
    if (!this.worker) return;
    const now = performance.now();
    if (this.pingSent && now - this.pingSent > SILENCE_MS && now > this.quietUntil) {
      this.lost(t("the rules engine stopped answering (nothing heard from it for {seconds} s)", { seconds: SILENCE_MS / 1000 }));
    } else if (!this.pingSent && now - this.lastHeard > PING_AFTER_MS) {
      this.pingSent = now;
      this.worker.postMessage({ id: this.nextId++, type: "ping", payload: {} });
    }
  }

  receive({ id, ok, type, payload }) {
    this.lastHeard = performance.now();
    this.pingSent = 0;
    if (id === 0) {
      if (type === "busy") this.quietUntil = this.lastHeard + payload.seconds * 1000;
      if (type === "kept") {  // what it fetched is in the runtime cache (tafl-app.mjs waits for it)
        const board = this.events.container;
        if (board) {
          board.dataset.runtimeKept = "true";
          board.dispatchEvent(new CustomEvent("tafl-runtime-kept"));
        }
      }
      if (type === "progress") {  // the start budget runs from the last progress (a slow network is not a stall)
        for (const entry of this.pending.values()) if (entry.timeout) entry.arm();
        this.progress = payload;
        this.loading = loadingOf(payload);
        this.events.engineProgress?.(this.loading);
      }
      if (type === "ready" && ok) {
        this.ready = true;
        this.startedBy = payload.start || "";
        this.wasmRate = payload.rate ?? null;  // bytes a second the WebAssembly arrived at, as decoded
        this.marks = payload.marks || {};      // milliseconds from the worker's start to each step
        this.events.engineReady?.();
      } else if (type === "ready") {
        this.lost(workerSaid(payload), { starting: true, reload: Boolean(payload.reload) });
      }
      return;
    }
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    clearTimeout(entry.timer);
    if (ok) entry.resolve(payload);
    else entry.reject(Object.assign(new Error(workerSaid(payload) || t("request failed")), { payload }));
  }

  request(type, payload, timeout = 0) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const entry = { resolve, reject, timer: null, type, timeout };
      entry.arm = () => {
        clearTimeout(entry.timer);
        entry.timer = setTimeout(() => {
          if (!this.pending.delete(id)) return;
          reject(new Error(t("the rules engine did not start: nothing came of its loading for {seconds} s", { seconds: timeout / 1000 })));
        }, timeout);
      };
      if (timeout) entry.arm();
      this.pending.set(id, entry);
      this.start().postMessage({ id, type, payload });
    });
  }

  // `lost`: the engine is gone (the board offers Retry); otherwise the requests were simply cancelled.
  failAll(message, lost = true) {
    for (const entry of this.pending.values()) {
      clearTimeout(entry.timer);
      entry.reject(Object.assign(new Error(message), { lost }));
    }
    this.pending.clear();
  }

  stop() {
    clearInterval(this.watchdog);
    this.watchdog = null;
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.ready = false;
  }

  // The worker died, could not start, or stopped answering: every waiting request is refused
  // with the reason (so nothing is dropped silently) and the board decides what to do.
  lost(message, how = {}) {
    this.stop();
    this.failAll(message);
    this.events.engineLost?.(message, how);
  }

  // Kept for tests and the benchmark: a crash as the worker's error event reports it.
  crashed(message) {
    this.lost(message, { crashed: true });
  }
}
