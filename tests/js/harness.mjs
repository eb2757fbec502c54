// A page without a browser for the board script: a happy-dom window as the page's globals, and a
// fake rules worker that answers as the real one does, by passing each request to tafl_rules.webapi
// in a CPython process (so no rule is written here either). Used by tests/js/board-*.test.mjs.

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Window } from "happy-dom";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PYTHON = process.env.TAFL_PYTHON || (existsSync(`${ROOT}.venv/bin/python`) ? `${ROOT}.venv/bin/python` : "python3");
const LOOP = `
import json, sys
from tafl_rules import webapi
for line in sys.stdin:
    message = json.loads(line)
    reply = webapi.handle(message["type"], json.dumps(message["payload"]))
    sys.stdout.write(json.dumps({"seq": message["seq"], "reply": json.loads(reply)}) + "\\n")
    sys.stdout.flush()
`;

/** tafl_rules.webapi in one CPython process, shared by every fake worker of a test file. */
class Rules {
  constructor() {
    this.process = null;
    this.seq = 0;
    this.waiting = new Map();
  }

  start() {
    if (this.process) return;
    this.process = spawn(PYTHON, ["-c", LOOP], { cwd: ROOT, stdio: ["pipe", "pipe", "inherit"] });
    createInterface({ input: this.process.stdout }).on("line", (line) => {
      const { seq, reply } = JSON.parse(line);
      this.waiting.get(seq)?.(reply);
      this.waiting.delete(seq);
    });
  }

  handle(type, payload) {
    this.start();
    const seq = ++this.seq;
    return new Promise((resolve) => {
      this.waiting.set(seq, resolve);
      this.process.stdin.write(`${JSON.stringify({ seq, type, payload })}\n`);
    });
  }

  stop() {
    this.process?.kill();
    this.process = null;
  }
}

export const rules = new Rules();

/**
 * A module worker's stand-in: it says "alive" and "ready" as tafl-worker.mjs does, answers pings
 * itself and every other request through tafl_rules.webapi. `FakeWorker.made` lists the workers
 * made; a test may hold a worker's replies (`hold = true`) and let them go (`release()`).
 */
export class FakeWorker {
  static made = [];

  constructor(url, options) {
    this.url = String(url);
    this.options = options;
    this.onmessage = null;
    this.onerror = null;
    this.terminated = false;
    this.requests = [];
    this.hold = false;
    this.held = [];
    FakeWorker.made.push(this);
    queueMicrotask(() => {
      this.send({ id: 0, ok: true, type: "alive", payload: {} });
      this.send({ id: 0, ok: true, type: "ready", payload: { build: "" } });
    });
  }

  send(message) {
    if (!this.terminated) this.onmessage?.({ data: message });
  }

  postMessage({ id, type, payload }) {
    if (this.terminated) return;
    this.requests.push({ type, payload });
    if (type === "ping") {
      queueMicrotask(() => this.send({ id, ok: true, type, payload: {} }));
      return;
    }
    const answer = () => rules.handle(type, payload).then((reply) => this.send({ id, ok: !("error" in reply), type, payload: reply }));
    if (this.hold) this.held.push(answer);
    else answer();
  }

  release() {
    this.hold = false;
    for (const answer of this.held.splice(0)) answer();
  }

  terminate() {
    this.terminated = true;
  }
}

const GLOBALS = ["window", "document", "location", "history", "localStorage", "sessionStorage", "navigator",
  "CustomEvent", "Event", "HTMLElement", "Node", "getComputedStyle", "IntersectionObserver", "ResizeObserver"];

/**
 * A fresh page at `url` holding `html`, its window's objects as this process's globals (as a
 * module of the page finds them). Returns the window; `page.close()` ends it.
 */
export function openPage(url, html = "") {
  const window = new Window({ url, width: 375, height: 740 });
  window.Worker = FakeWorker;
  for (const name of GLOBALS) {
    Object.defineProperty(globalThis, name, { value: name === "window" ? window : window[name], configurable: true, writable: true });
  }
  globalThis.addEventListener = window.addEventListener.bind(window);
  globalThis.removeEventListener = window.removeEventListener.bind(window);
  globalThis.dispatchEvent = window.dispatchEvent.bind(window);
  globalThis.Worker = FakeWorker;
  window.document.body.innerHTML = html;
  return window;
}

/** A board container as board.py draws it (the parts the script reads), for `variant` ("" = the engine's default rules). */
export function boardHTML(variant, { human = "", name = "", rulesOtn = "", sandbox = false } = {}) {
  const levels = JSON.stringify([[1, "beginner", ""], [2, "casual", ""], [3, "intermediate", ""], [4, "strong", ""],
    [5, "stronger", ""], [6, "strongest", ""], ["people", "plays as people do", ""]]);
  const attrs = { class: "tafl-board", "data-variant": variant, "data-toggles": "{}", "data-position": "", "data-moves": "",
    "data-human": human, "data-ai": "none", "data-levels": levels, "data-level-notes": "{}", "data-default-level": "3",
    "data-name": name, "data-ready": "false" };
  if (rulesOtn) attrs["data-rules-otn"] = rulesOtn;
  const text = Object.entries(attrs).map(([k, v]) => `${k}='${v.replace(/'/g, "&#39;")}'`).join(" ");
  const board = `<div ${text}><p class="tafl-turn"></p><div class="tafl-layout"><div class="tafl-main"><div class="tafl-scroll"></div>`
    + `<p class="tafl-board-status" role="status"></p></div><div class="tafl-aside"></div></div></div>`;
  return sandbox ? `<div class="tafl-sandbox">${board}<div class="tafl-sandbox-panel"></div></div>` : board;
}

/** Wait until `check()` is true (polled), or fail after `ms` with `what`. */
export async function until(check, what = "a condition", ms = 20000) {
  const began = Date.now();
  while (!check()) {
    if (Date.now() - began > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Stop every board's worker (its watchdog keeps the process alive) and close the page. */
export async function closePage(window, boards = []) {
  for (const board of boards) {
    board.worker.stop();
    clearInterval(board.waitTimer);
  }
  await window.happyDOM.abort();
  window.close();
}

let opened = null;

/**
 * A board on a fresh page at `url` (a brandubh page unless told), started and ready: `html` in place
 * of the container board.py draws, `before(window)` run before the board starts (to seed storage),
 * the other options those of `boardHTML`. The page stays open until `closeBoard()`.
 */
export async function startBoard({ url = "http://localhost/docs/variants/brandubh.html", variant = "brandubh", html = null,
  kiosk = false, before = () => {}, ...options } = {}) {
  const window = openPage(url, html ?? boardHTML(variant, options));
  before(window);
  const container = window.document.querySelector("div.tafl-board");
  const { Board } = await import("../../_static/tafl-board-game.mjs");
  const board = new Board(container, 0, { kiosk, boardCount: 1 });
  opened = { window, boards: [board] };
  await board.start();
  await until(() => board.isReady() && !board.thinking, "the board to be ready");
  return { window, board, container };
}

/** Close the page `startBoard` opened, if one is open (each test file's afterEach). */
export async function closeBoard() {
  if (opened) await closePage(opened.window, opened.boards);
  opened = null;
  FakeWorker.made = [];
}
