// The board: draws the state the worker sends and forwards the reader's input.
// It decides nothing about the rules: legal targets, captures, announcements, results and the
// "how to play" lines all come from tafl_rules (Python, in a module worker, one per board).
// Text from outside (share links, storage, imported records, error messages) is only ever
// set with textContent or attributes, never parsed as HTML.

const workerURL = new URL("./tafl-worker.mjs", import.meta.url);
const FILES = "abcdefghijklmnopqrs";
const PIECE_NAMES = { t: "attacker", T: "defender", K: "king" };
const SIDE_WORDS = { attackers: "Attackers", defenders: "Defenders" };
const START_BUDGET_MS = 60000;  // a start that never finishes (a stalled network), as a last resort
const PING_AFTER_MS = 1500;     // ask a silent worker whether it is alive...
const SILENCE_MS = 6000;        // ...and give it up when it has not answered for this long
const WAIT_NOTICE_MS = 700;     // a request pending this long makes the board say it is waiting
const SHARE_FIELDS = ["board", "variant", "toggles", "rules", "moves", "ply"];
const STORAGE_VERSION = 2;

// ---------------------------------------------------------------- one worker per board

class RulesWorker {
  // `events` is the board: it hears when the engine is ready and when it was lost.
  constructor(events) {
    this.events = events;
    this.worker = null;
    this.nextId = 1;
    this.pending = new Map();
    this.ready = false;
    this.lastHeard = 0;
    this.pingSent = 0;
    this.quietUntil = 0;
    this.watchdog = null;
  }

  start() {
    if (this.worker) return this.worker;
    const early = window.__taflEarlyWorker;
    window.__taflEarlyWorker = null;  // only the first board adopts the worker started in the page's head
    this.worker = early || new Worker(workerURL, { type: "module" });
    this.ready = false;
    this.lastHeard = performance.now();
    this.pingSent = 0;
    this.worker.onmessage = (event) => this.receive(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.lost(`the rules worker stopped: ${event.message || "it could not be loaded"}`, { crashed: true });
    };
    const worker = this.worker;
    queueMicrotask(() => {
      for (const said of worker.early || []) {
        if (this.worker !== worker) break;
        if (said.error) this.lost(`the rules worker stopped: ${said.error}`, { crashed: true });
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
      this.lost(`the rules engine stopped answering (nothing heard from it for ${SILENCE_MS / 1000} s)`);
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
      if (type === "ready" && ok) {
        this.ready = true;
        this.events.engineReady?.();
      } else if (type === "ready") {
        this.lost(payload.error, { starting: true });
      }
      return;
    }
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    clearTimeout(entry.timer);
    if (ok) entry.resolve(payload);
    else entry.reject(Object.assign(new Error(payload.error || "request failed"), { payload }));
  }

  request(type, payload, timeout = 0) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const entry = { resolve, reject, timer: null, type };
      if (timeout) {
        entry.timer = setTimeout(() => {
          if (!this.pending.delete(id)) return;
          reject(new Error(`the rules engine did not start within ${timeout / 1000} s`));
        }, timeout);
      }
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

// ---------------------------------------------------------------- small DOM helpers

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text) node.textContent = text;
  return node;
}

function button(label, onClick, attrs = {}) {
  const node = el("button", { type: "button", ...attrs }, label);
  node.addEventListener("click", onClick);
  return node;
}

function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function parseToggles(text) {
  const toggles = {};
  for (const pair of (text || "").split(",").filter(Boolean)) {
    const [name, value, extra] = pair.split(":");
    if (!name || !value || extra !== undefined) throw new Error(`its toggles field holds "${pair}", which is not name:value`);
    toggles[name] = value;
  }
  return toggles;
}

function formatToggles(toggles) {
  return Object.entries(toggles).map(([name, value]) => `${name}:${value}`).join(",");
}

function otherSide(side) {
  return side === "attackers" ? "defenders" : "attackers";
}

function moveWords(move) {
  if (!move) return "";
  const taken = move.captures.length ? `, taking ${move.captures.join(" and ")}` : "";
  return `${move.from}-${move.to}${taken}`;
}

// ---------------------------------------------------------------- one board

class Board {
  constructor(container, index) {
    this.container = container;
    this.index = index;
    this.id = `board-${index}`;
    this.storageKey = `tafl:${location.pathname}:${index}`;
    this.state = null;
    this.notes = { howto: null, terms: [], name: "" };
    this.taken = new Set();
    this.selected = null;
    this.focus = null;
    this.flipped = false;
    this.drag = null;
    this.suppressClick = false;
    this.thinking = false;
    this.lastHumanMove = null;
    this.autoRetried = -Infinity;
    const data = container.dataset;
    this.pageChoice = {
      variant: data.variant || "",
      toggles: JSON.parse(data.toggles || "{}"),
      rules: "",
      position: data.position || "",
      moves: (data.moves || "").split(/\s+/).filter(Boolean),
      cursor: null,
    };
    this.choice = this.pageChoice;
    // The computer plays whenever the reader plays one side ("both sides" is the computer off);
    // the level menu always shows the level it plays at, the default until the reader picks another.
    this.levels = JSON.parse(data.levels || "[]");  // [[level, name, note?], ...] from tafl_rules.ai.LEVELS
    this.defaultLevel = Number(data.defaultLevel || 3);
    this.human = data.human || "both";
    this.aiLevel = this.knownLevel(Number(data.ai)) || this.defaultLevel;
    this.glossary = data.glossary || "";
    this.status = container.querySelector(".tafl-board-status") || container.appendChild(el("p", { class: "tafl-board-status", role: "status", "aria-live": "polite" }));
    this.worker = new RulesWorker(this);
  }

  // ------------------------------------------------------------ the board's parts

  build() {
    const c = this.container;
    this.turnLine = c.querySelector(".tafl-turn") || el("p", { class: "tafl-turn" });
    this.grid = el("div", { class: "tafl-grid", role: "group" });
    this.capturedLine = el("p", { class: "tafl-captured" });
    this.controls = el("div", { class: "tafl-controls", role: "toolbar", "aria-label": "Game controls" });
    this.undoButton = button("Undo", () => this.undo(), { class: "tafl-undo" });
    this.redoButton = button("Redo", () => { if (!this.busy()) this.send("redo", {}); }, { class: "tafl-redo" });
    this.restartButton = button("Restart", () => this.restart(), { class: "tafl-restart" });
    this.flipButton = button("Flip board", () => { this.flipped = !this.flipped; this.draw(); }, { class: "tafl-flip", "aria-pressed": "false" });
    this.shareButton = button("Share link", () => this.share(), { class: "tafl-share" });
    this.controls.append(this.undoButton, this.redoButton, this.restartButton, this.flipButton, this.shareButton);
    this.retryButton = button("Retry", () => this.retry(), { class: "tafl-retry", hidden: "" });

    this.playerBar = el("div", { class: "tafl-players" });
    const humanLabel = el("label", {}, "You play ");
    this.humanSelect = el("select", { class: "tafl-human" });
    for (const [value, text] of [["both", "both sides (no computer)"], ["attackers", "the attackers"], ["defenders", "the defenders"]]) {
      this.humanSelect.append(el("option", { value }, text));
    }
    humanLabel.append(this.humanSelect);
    const aiLabel = el("label", {}, "Computer ");
    this.aiSelect = el("select", { class: "tafl-ai" });
    for (const [level, name, note] of this.levels) {
      this.aiSelect.append(el("option", { value: String(level) }, `level ${level} (${name}${note ? `, ${note}` : ""})`));
    }
    aiLabel.append(this.aiSelect);
    this.stopButton = button("Stop thinking", () => this.stopThinking(), { class: "tafl-stop", hidden: "" });
    this.humanSelect.addEventListener("change", () => this.chooseSide(this.humanSelect.value));
    this.aiSelect.addEventListener("change", () => this.chooseLevel(Number(this.aiSelect.value)));
    this.playerBar.append(humanLabel, aiLabel, this.stopButton);
    this.syncMenus();

    this.shareField = el("input", { class: "tafl-share-link", type: "text", readonly: "", "aria-label": "Share link", hidden: "" });
    this.movesBox = el("div", { class: "tafl-moves-box" });
    this.movesHeading = el("p", { class: "tafl-moves-heading" }, "Moves");
    // A list of numbered pairs (not a table: rows of a list can skip layout while scrolled out of
    // view, which keeps a game of thousands of moves quick).
    this.moveHead = el("div", { class: "tafl-moves-head", "aria-hidden": "true" });
    this.moveTable = el("ol", { class: "tafl-moves", "aria-label": "Moves (select one to go to it)" });
    this.moveBody = this.moveTable;
    this.noMoves = el("p", { class: "tafl-no-moves" }, "No moves yet.");
    this.movesBox.append(this.movesHeading, this.noMoves, this.moveHead, this.moveTable);
    this.renderedLine = [];
    this.renderedCursor = 0;
    this.moveButtons = [];
    this.renderedFirst = null;

    const record = el("details", { class: "tafl-record" });
    record.append(el("summary", {}, "Game record (OTN)"));
    this.recordText = el("textarea", { class: "tafl-otn", rows: "6", "aria-label": "OTN game record", spellcheck: "false" });
    const recordButtons = el("div", { class: "tafl-controls" });
    recordButtons.append(
      button("Export", () => this.exportRecord(), { class: "tafl-export" }),
      button("Import", () => this.importRecord(), { class: "tafl-import" }),
    );
    record.append(this.recordText, recordButtons);

    // The picture drawn at build time is replaced by live squares in the same frame.
    this.frame = c.querySelector(".tafl-frame") || el("div", { class: "tafl-frame" });
    this.ranksColumn = el("div", { class: "tafl-ranks", "aria-hidden": "true" });
    this.filesRow = el("div", { class: "tafl-files", "aria-hidden": "true" });
    this.frame.replaceChildren(this.ranksColumn, this.grid, el("span", {}), this.filesRow);
    const scroller = c.querySelector(".tafl-scroll") || el("div", { class: "tafl-scroll" });
    scroller.replaceChildren(this.frame);
    this.key = c.querySelector(".tafl-key") || el("ul", { class: "tafl-key", "aria-label": "Key" });
    this.howto = c.querySelector(".tafl-howto") || el("details", { class: "tafl-howto", open: "" });
    const main = el("div", { class: "tafl-main" });
    const scrollHint = el("p", { class: "tafl-scroll-hint" }, "The board is wider than the screen: swipe it sideways to see the rest.");
    main.append(scroller, scrollHint, this.status, this.retryButton, this.capturedLine, this.controls, this.playerBar, this.shareField);
    const aside = el("div", { class: "tafl-aside" });
    aside.append(this.key, this.howto, this.movesBox, record);
    const layout = el("div", { class: "tafl-layout" });
    layout.append(main, aside);
    c.replaceChildren(this.turnLine, layout);

    this.grid.addEventListener("click", (event) => {
      if (this.suppressClick) { this.suppressClick = false; return; }
      const square = event.target.closest("[data-square]");
      if (square) this.activate(square.dataset.square);
    });
    this.grid.addEventListener("keydown", (event) => this.onKey(event));
    this.grid.addEventListener("pointerdown", (event) => this.onPointerDown(event));
    this.grid.addEventListener("pointerup", (event) => this.onPointerUp(event));
    this.moveTable.addEventListener("click", (event) => {
      const item = event.target.closest("[data-ply]");
      if (item) this.goto(Number(item.dataset.ply));
    });
    // A board wider than its column (19x19 on a phone) scrolls sideways in its own box; touches
    // on it then pan that box, and a move is made by tapping the piece and then its target.
    if (window.ResizeObserver) {
      new ResizeObserver(() => scroller.classList.toggle("tafl-overflows", scroller.scrollWidth > scroller.clientWidth + 1)).observe(scroller);
    }
  }

  // ------------------------------------------------------------ starting, saving, restoring

  async start() {
    const link = this.readShareLink();
    const saved = this.load();
    const first = link?.choice || saved || this.pageChoice;
    let note = "";
    try {
      if (link?.error) throw link.error;
      await this.open(first);
    } catch (error) {
      if (error.lost) { this.engineFailed(error.message); return; }
      // A refused link falls back on the saved game, then on the start; a refused saved game on the start.
      const fallbacks = (link && saved ? [saved, this.pageChoice] : [this.pageChoice]);
      let shown = null;
      let last = error;
      for (const fallback of fallbacks) {
        try {
          await this.open(fallback);
          shown = fallback;
          break;
        } catch (next) {
          if (next.lost) { this.engineFailed(next.message); return; }
          if (fallback === saved) localStorage.removeItem(this.storageKey);
          last = next;
        }
      }
      if (!shown) { this.fail(last); return; }
      const where = shown === saved ? "your saved game" : "the start of the game";
      if (link) note = `The share link was refused: ${error.message}. The board shows ${where} instead.`;
      else {
        localStorage.removeItem(this.storageKey);
        note = `The saved game could not be restored (${error.message}); a new game has started.`;
      }
    }
    if (link) this.forgetShareLink();
    if (note) this.say(note, true);
    else if (link && saved && saved.moves.length) this.offerBack(saved);
    this.maybeComputerMove();
  }

  // A share link took the place of the reader's own game on this board: keep that game a click away.
  offerBack(saved) {
    const back = button("Back to your own game", async () => {
      back.remove();
      try { await this.open(saved); this.say("Your own game is back on the board."); } catch (error) {
        if (!error.lost) this.say(`Your own game could not be restored: ${error.message}.`, true);
      }
    }, { class: "tafl-back" });
    this.say(`The shared game is on the board (${plural(this.state.line.length, "move")}); your own game was kept.`);
    this.status.after(back);
  }

  async open(choice) {
    const payload = { variant: choice.variant, toggles: choice.toggles, position: choice.position || "", moves: choice.moves };
    if (choice.rules) payload.rules = choice.rules;
    if (Number.isInteger(choice.cursor)) payload.cursor = choice.cursor;
    if (!this.worker.ready) this.startWaiting();
    const state = await this.request("new", payload, { timeout: START_BUDGET_MS });
    this.choice = { ...choice, moves: [], cursor: null };
    this.show(state, { kind: "new" });
    this.container.dataset.ready = "true";
    return state;
  }

  // Says how long the board has waited for the engine, once that is more than a moment.
  startWaiting() {
    const began = performance.now();
    clearInterval(this.waitTimer);
    this.waitTimer = setInterval(() => {
      if (this.worker.ready || this.container.dataset.ready !== "false") { clearInterval(this.waitTimer); return; }
      const seconds = Math.round((performance.now() - began) / 1000);
      if (seconds >= 1) this.say(`Starting the rules engine… (${seconds} s)`);
    }, 1000);
  }

  fail(error) {
    this.container.classList.add("tafl-failed");
    this.container.dataset.ready = "error";
    this.say(`The board could not start: ${error.message}`, true);
  }

  // Share links carry the game: ?board=0&variant=lewis-1&toggles=first:defenders&moves=d1-d3,e5-e2&ply=1
  // (a game without a catalogue variant, such as an imported record, carries rules= instead).
  // Other parameters (utm_source and the like) are left alone.
  readShareLink() {
    const params = new URLSearchParams(location.search);
    if (params.get("board") !== String(this.index)) return null;
    const choice = { variant: params.get("variant") || "", toggles: {}, rules: params.get("rules") || "", position: "", moves: [], cursor: null };
    const pageRules = !choice.variant && !choice.rules;  // a link naming no rules plays the page's own
    try {
      choice.toggles = parseToggles(params.get("toggles"));
      if (pageRules) {
        choice.variant = this.pageChoice.variant;
        if (!params.has("toggles")) choice.toggles = this.pageChoice.toggles;
      }
      if (choice.variant === this.pageChoice.variant && !choice.rules) choice.position = this.pageChoice.position;
      choice.moves = (params.get("moves") || "").split(",").filter(Boolean);
      if (params.has("ply")) {
        const ply = params.get("ply");
        if (!/^\d{1,6}$/.test(ply)) throw new Error(`its ply field must be a whole number, not "${ply.slice(0, 20)}"`);
        choice.cursor = Number(ply);
      }
    } catch (error) {
      return { choice: null, error };
    }
    return { choice };
  }

  // Once the link's game is on the board (and saved), the address no longer holds it, so a
  // reload brings back the game as it is now, not as the link had it.
  forgetShareLink() {
    const url = new URL(location.href);
    for (const field of SHARE_FIELDS) url.searchParams.delete(field);
    history.replaceState(history.state, "", url.href);
  }

  shareURL() {
    const s = this.state;
    const params = new URLSearchParams({ board: String(this.index) });
    if (s.variant) params.set("variant", s.variant);
    else params.set("rules", s.rules_otn);
    if (Object.keys(s.toggles).length) params.set("toggles", formatToggles(s.toggles));
    if (s.line.length) params.set("moves", s.line.join(","));
    if (s.cursor !== s.line.length) params.set("ply", String(s.cursor));
    return `${location.origin}${location.pathname}?${params}`;
  }

  async share() {
    const url = this.shareURL();
    this.shareField.hidden = false;
    this.shareField.value = url;
    this.shareField.select();
    try {
      await navigator.clipboard.writeText(url);
      this.say("The share link is copied.");
    } catch {
      this.say("The share link is selected below; copy it from there.");
    }
  }

  save() {
    if (!this.state) return;
    const s = this.state;
    const record = {
      version: STORAGE_VERSION, variant: s.variant, toggles: s.toggles, rules: s.variant ? "" : s.rules_otn,
      position: s.variant ? this.choice.position || "" : "", moves: s.line, cursor: s.cursor, human: this.human, ai: this.aiLevel,
    };
    try { localStorage.setItem(this.storageKey, JSON.stringify(record)); } catch { /* storage full or disabled */ }
  }

  // Any saved game comes back: another variant (the sandbox, an imported record) included.
  load() {
    try {
      const record = JSON.parse(localStorage.getItem(this.storageKey) || "null");
      if (!record || typeof record !== "object" || !Array.isArray(record.moves)) return null;
      if (!record.version && record.variant !== this.pageChoice.variant) return null;  // saved before version 2
      this.human = ["both", "attackers", "defenders"].includes(record.human) ? record.human : this.human;
      if (record.ai === 0) this.human = "both";  // saved when the menu still had "off"
      this.aiLevel = this.knownLevel(Number(record.ai)) || this.aiLevel;
      return {
        variant: typeof record.variant === "string" ? record.variant : "",
        toggles: record.toggles && typeof record.toggles === "object" ? record.toggles : {},
        rules: typeof record.rules === "string" ? record.rules : "",
        position: typeof record.position === "string" ? record.position : this.pageChoice.position,
        moves: record.moves.map(String),
        cursor: Number.isInteger(record.cursor) ? record.cursor : null,
      };
    } catch {
      return null;
    }
  }

  async restart(choice = null) {
    if (this.busy()) return false;
    const s = this.state;
    const next = choice || (s
      ? { variant: s.variant, toggles: s.toggles, rules: s.variant ? "" : s.rules_otn, position: this.choice.position, moves: [] }
      : this.pageChoice);
    this.lastHumanMove = null;
    try {
      await this.open(next);
    } catch (error) {
      if (error.lost) return false;
      this.say(`The game could not restart: ${error.message}`, true);
      return false;
    }
    this.maybeComputerMove();
    return true;
  }

  // ------------------------------------------------------------ the engine's life

  engineReady() {
    clearInterval(this.waitTimer);
  }

  engineLost(message, how) {
    clearInterval(this.waitTimer);
    this.thinking = false;
    this.stopButton && (this.stopButton.hidden = true);
    this.container.removeAttribute("aria-busy");
    // A crash of a worker that had a game is repaired at once, once a minute at most.
    if (how.crashed && this.state && performance.now() - this.autoRetried > 60000) {
      this.autoRetried = performance.now();
      this.resync(message);
      return;
    }
    this.engineFailed(message);
  }

  engineFailed(message) {
    if (!this.state) {
      this.fail(new Error(message));
    } else {
      this.container.dataset.ready = "false";
      this.say(`${message[0].toUpperCase()}${message.slice(1)}. The game is kept; press Retry to start the rules engine again.`, true);
    }
    if (this.retryButton) this.retryButton.hidden = false;
    else this.showRetryOnly();
  }

  // A board that never started has no controls yet: give it a Retry button of its own.
  showRetryOnly() {
    if (this.container.querySelector(".tafl-retry")) return;
    this.container.append(button("Retry", () => this.retry(), { class: "tafl-retry" }));
  }

  async retry() {
    this.container.querySelector(".tafl-retry:not([hidden])")?.setAttribute("hidden", "");
    this.container.classList.remove("tafl-failed");
    this.container.dataset.ready = "false";
    this.say("Starting the rules engine again…");
    if (this.state) await this.resync(null);
    else await this.start();
  }

  // The worker was replaced: replay this board's game into the new one.
  async resync(reason) {
    const s = this.state;
    this.container.dataset.ready = "false";
    try {
      await this.open({ variant: s.variant, toggles: s.toggles, rules: s.variant ? "" : s.rules_otn, position: this.choice.position, moves: s.line, cursor: s.cursor });
      this.say(reason ? `The rules engine was restarted (${reason}); the game was replayed.` : "The rules engine is running again; the game was replayed.");
      this.maybeComputerMove({ announced: true });
    } catch (error) {
      if (!error.lost) this.engineFailed(error.message);
    }
  }

  // ------------------------------------------------------------ talking to the worker

  async request(type, payload, { timeout = 0 } = {}) {
    return this.worker.request(type, { board: this.id, ...payload }, timeout);
  }

  // While the engine is down (before Retry), nothing is sent: a fresh worker would not hold the game.
  engineDown() {
    if (this.container.dataset.ready === "true") return false;
    this.say(this.retryButton && !this.retryButton.hidden
      ? "The rules engine is not running, so nothing was done. The game is kept; press Retry to start the engine again."
      : "Wait: the rules engine is starting; nothing was done.", true);
    return true;
  }

  // One request that changes the game; a refusal or a lost engine is said in words.
  async send(type, payload, { refused = null } = {}) {
    if (this.engineDown()) return null;
    const waiting = setTimeout(() => {
      if (!this.thinking) this.say("Waiting for the rules engine…");
    }, WAIT_NOTICE_MS);
    try {
      const state = await this.request(type, payload);
      this.show(state, { kind: type });
      return state;
    } catch (error) {
      const what = { play: `Your move ${payload.move} was not played`, undo: "Undo was not done", redo: "Redo was not done",
        goto: "The game did not go to that move", import: "The record was not imported" }[type];
      if (error.lost) {
        this.say(`${what || "That was not done"}: ${error.message}. The game is kept; press Retry to start the rules engine again.`, true);
      } else if (refused) {
        refused(error);
      } else {
        this.say(error.payload && error.payload.illegal ? `Illegal move: ${error.message}.` : `${error.message}.`, true);
      }
      this.selected = null;
      this.draw();
      return null;
    } finally {
      clearTimeout(waiting);
    }
  }

  async exportRecord() {
    if (this.engineDown()) return;
    try {
      const reply = await this.request("export", {});
      this.recordText.value = reply.otn;
      this.say("The game record is in the box below.");
    } catch (error) {
      this.say(error.message, true);
    }
  }

  async importRecord() {
    if (this.busy()) return;
    const state = await this.send("import", { otn: this.recordText.value }, {
      refused: (error) => this.say(`The record was refused and the game is unchanged: ${error.message}.`, true),
    });
    if (state) this.say(`Game record imported: ${plural(state.line.length, "move")}.`);
  }

  // ------------------------------------------------------------ moving through the game

  async goto(ply) {
    if (this.busy()) return;
    this.lastHumanMove = null;
    await this.send("goto", { ply });
  }

  // Against the computer, Undo goes back to the reader's own previous turn (taking back the
  // computer's reply too); if the computer is then to move, it moves.
  async undo() {
    const s = this.state;
    if (!s || this.busy()) return;
    let ply = s.cursor - 1;
    if (this.computerPlays() && ply > 0 && this.turnAt(ply) !== this.human) ply -= 1;
    this.lastHumanMove = null;
    await this.send(ply === s.cursor - 1 ? "undo" : "goto", ply === s.cursor - 1 ? {} : { ply });
  }

  // Whose turn it is after `ply` plies of the current line (the sides take turns).
  turnAt(ply) {
    const s = this.state;
    return (s.cursor - ply) % 2 === 0 ? s.turn : otherSide(s.turn);
  }

  // ------------------------------------------------------------ the computer opponent

  computerPlays() {
    return this.human !== "both";
  }

  knownLevel(level) {
    return this.levels.some(([n]) => n === level) ? level : 0;
  }

  computerToMove() {
    const s = this.state;
    return Boolean(s && !s.outcome && this.computerPlays() && s.turn !== this.human && this.container.dataset.ready === "true");
  }

  syncMenus() {
    if (!this.humanSelect) return;
    this.humanSelect.value = this.human;
    this.aiSelect.value = String(this.aiLevel);
  }

  // Choosing a side has the computer play the other side, at the level the menu shows;
  // "both sides" turns it off.
  chooseSide(side) {
    this.human = side;
    this.syncMenus();
    this.save();
    this.maybeComputerMove();
  }

  // Choosing a level while playing both sides gives the reader the side to move.
  chooseLevel(level) {
    this.aiLevel = level;
    if (this.human === "both" && this.state) this.human = this.state.turn;
    this.syncMenus();
    this.save();
    this.maybeComputerMove();
  }

  async maybeComputerMove({ announced = false } = {}) {
    if (!this.computerToMove() || this.thinking) return;
    this.thinking = true;
    this.stopButton.hidden = false;
    this.container.setAttribute("aria-busy", "true");
    if (!announced) this.say(this.announcement(this.state, { thinking: true }));
    try {
      await this.send("ai_move", { level: this.aiLevel, seed: this.index });
    } finally {
      this.thinking = false;
      this.stopButton.hidden = true;
      this.container.removeAttribute("aria-busy");
    }
    if (this.computerToMove()) this.maybeComputerMove();  // the reader changed sides meanwhile
  }

  // While the computer searches, the game stays as it is: the reader may stop the search.
  busy() {
    if (!this.thinking) return false;
    this.say("Wait: the computer is thinking (or press Stop thinking).", true);
    return true;
  }

  // Terminating the worker is the only way to end a Python search at once; the computer is
  // switched off first, or the replayed game would start the same search again.
  async stopThinking() {
    this.human = "both";
    this.syncMenus();
    const s = this.state;
    this.worker.stop();
    this.worker.failAll("the search was stopped", false);
    this.thinking = false;
    this.container.dataset.ready = "false";
    try {
      await this.open({ variant: s.variant, toggles: s.toggles, rules: s.variant ? "" : s.rules_otn, position: this.choice.position, moves: s.line, cursor: s.cursor });
    } catch (error) {
      if (!error.lost) this.engineFailed(error.message);
      return;
    }
    this.save();
    this.say("Search stopped; the computer is off (you play both sides). Move for it yourself, or choose a side to let it play again.");
  }

  // ------------------------------------------------------------ words

  say(message, problem = false) {
    if (Array.isArray(message)) this.status.replaceChildren(...message);
    else this.status.textContent = message;
    this.status.classList.toggle("tafl-problem", problem);
  }

  // The status after a state: the move just made (the reader's own move stays in view when the
  // computer answers), announcements the rules use, and whose turn it is or who won.
  announcement(state, { kind = "", thinking = false } = {}) {
    const parts = [];
    const move = state.last_move;
    const vsComputer = this.computerPlays();
    if (kind === "ai_move" && move) {
      if (this.lastHumanMove) parts.push(`You played ${this.lastHumanMove}.`);
      parts.push(`The computer played ${moveWords(move)}.`);
      this.lastHumanMove = null;
    } else if (kind === "play" && move) {
      const words = moveWords(move);
      if (vsComputer) this.lastHumanMove = words;
      parts.push(vsComputer ? `You played ${words}.` : `${words}.`);
    }
    if (state.outcome) {
      const who = state.outcome.winner ? `The ${state.outcome.winner} win` : "The game is drawn";
      const you = vsComputer && state.outcome.winner ? (state.outcome.winner === this.human ? " You won." : " You lost.") : "";
      parts.push(`${who}: ${state.outcome.reason}.${you}`);
    } else {
      for (const word of state.announcements) {
        const term = `${word[0].toUpperCase()}${word.slice(1)}!`;
        if (this.notes.terms.includes(word)) {
          parts.push(this.glossary ? el("a", { href: `${this.glossary}#term-${word}`, class: "tafl-term" }, term) : term);
        } else if (word === "king threatened") {
          parts.push("The king can be taken next move.");
        }
      }
      if (thinking) parts.push(`The computer (level ${this.aiLevel}) is thinking…`);
      else if (vsComputer && state.turn === this.human) parts.push(`Your move (the ${state.turn}).`);
      else parts.push(`The ${state.turn} to move.`);
    }
    const nodes = [];
    for (const part of parts) {
      if (nodes.length) nodes.push(document.createTextNode(" "));
      nodes.push(typeof part === "string" ? document.createTextNode(part) : part);
    }
    return nodes;
  }

  show(state, { kind = "" } = {}) {
    if (!this.grid) this.build();  // the board's controls replace the picture with its first position
    const previous = this.state;
    this.state = state;
    if (state.howto) this.notes = { howto: state.howto, terms: state.terms || [], name: state.variant_name || "" };
    this.taken = this.takenBy(previous, state);
    this.selected = null;
    this.draw();
    this.drawKey();
    this.drawHowto();
    this.drawMoves();
    this.turnLine.textContent = state.outcome ? "Game over" : `${SIDE_WORDS[state.turn]} to move`;
    this.container.classList.toggle("tafl-over", Boolean(state.outcome));
    this.drawOtherVariant();
    const kingTaken = state.outcome && !state.ranks.some((rank) => rank.includes("K")) ? " and the king" : "";
    this.capturedLine.textContent = `Taken by the attackers: ${state.captured.attackers}${kingTaken}. Taken by the defenders: ${state.captured.defenders}.`;
    this.undoButton.disabled = state.cursor === 0;
    this.redoButton.disabled = state.cursor >= state.line.length;
    this.retryButton.hidden = true;
    this.save();
    const computerNext = kind !== "new" && kind !== "ai_move" && this.computerToMove();
    this.say(this.announcement(state, { kind, thinking: computerNext }));
    if (computerNext) setTimeout(() => this.maybeComputerMove({ announced: true }), 0);
  }

  // Squares emptied by the last move (the king too, when he is taken), marked on the board.
  takenBy(previous, state) {
    const taken = new Set(state.last_move ? state.last_move.captures : []);
    if (state.outcome && previous && previous.cursor + 1 === state.cursor && previous.size === state.size) {
      const before = previous.ranks.findIndex((rank) => rank.includes("K"));
      if (before >= 0 && !state.ranks.some((rank) => rank.includes("K"))) {
        taken.add(`${FILES[previous.ranks[before].indexOf("K")]}${state.size - before}`);
      }
    }
    return taken;
  }

  // A board of a variant page that now plays another variant (a share link, an imported record)
  // says so, and offers the page's own game back.
  drawOtherVariant() {
    const own = this.pageChoice.variant;
    const other = own && !this.container.closest(".tafl-sandbox") && this.state.variant !== own;
    if (!other) { this.otherLine?.remove(); this.otherLine = null; return; }
    if (!this.otherLine) {
      this.otherLine = el("p", { class: "tafl-other-variant" });
      this.turnLine.after(this.otherLine);
    }
    const what = this.notes.name || "the rules of an imported game record";
    this.otherLine.replaceChildren(
      document.createTextNode(`This board now plays ${what}, not this page's variant. `),
      button("Play this page's variant", () => this.restart({ ...this.pageChoice, moves: [], cursor: null }), { class: "tafl-own-variant" }),
    );
  }

  drawKey() {
    const special = this.state.special;
    const signature = JSON.stringify([Boolean(special.throne), special.corners.length > 0, special.camps.length > 0]);
    if (this.keySignature === signature) return;
    this.keySignature = signature;
    const items = [["attacker", "attacker"], ["defender", "defender"], ["king", "king"]];
    if (special.throne) items.push(["throne", "throne"]);
    if (special.corners.length) items.push(["corner", "corner"]);
    if (special.camps.length) items.push(["camp", "camp"]);
    items.push(["last", "last move"], ["taken", "taken by the last move"], ["target", "where the picked-up piece can go"]);
    this.key.replaceChildren(...items.map(([kind, words]) => {
      const item = el("li");
      item.append(el("span", { class: "tafl-swatch", "data-kind": kind, "aria-hidden": "true" }), document.createTextNode(words));
      return item;
    }));
  }

  drawHowto() {
    const lines = this.notes.howto;
    if (!lines || this.howtoShown === lines) return;
    this.howtoShown = lines;
    const list = el("dl");
    for (const [heading, text] of lines) list.append(el("dt", {}, heading), el("dd", {}, text));
    const open = this.howto.hasAttribute("open") || !this.howto.querySelector("summary");
    this.howto.replaceChildren(el("summary", {}, "How to play these rules"), list);
    if (open) this.howto.setAttribute("open", "");
  }

  // The move list: numbered in pairs, one column per side. Only what changed is redrawn, so a
  // game of thousands of moves costs little per move.
  drawMoves() {
    const { line, cursor } = this.state;
    const first = this.turnAt(0);
    if (first !== this.renderedFirst) {
      this.renderedFirst = first;
      this.renderedLine = [];
      this.moveButtons = [];
      this.moveBody.replaceChildren();
      this.moveHead.replaceChildren(el("span", {}, "#"), el("span", {}, SIDE_WORDS[first]), el("span", {}, SIDE_WORDS[otherSide(first)]));
    }
    let same = 0;
    const old = this.renderedLine;
    while (same < old.length && same < line.length && old[same] === line[same]) same++;
    // drop rows from the first difference (a half-filled row is rebuilt), then add the new ones
    const keepRows = Math.floor(same / 2);
    while (this.moveBody.children.length > keepRows) this.moveBody.lastElementChild.remove();
    this.moveButtons.length = keepRows * 2;
    const fragment = document.createDocumentFragment();
    for (let pair = keepRows; pair * 2 < line.length; pair++) {
      const row = el("li");
      row.append(el("span", { class: "tafl-move-no", "aria-hidden": "true" }, `${pair + 1}.`));
      for (const ply of [pair * 2 + 1, pair * 2 + 2]) {
        const cell = row;
        if (ply <= line.length) {
          const side = this.turnAt(ply - 1);
          const item = el("button", { type: "button", class: "tafl-move", "data-ply": String(ply), "aria-label": `Move ${pair + 1}, ${side}: ${line[ply - 1]}` }, line[ply - 1]);
          this.markMove(item, ply, cursor);
          this.moveButtons.push(item);
          cell.append(item);
        }
      }
      fragment.append(row);
    }
    this.moveBody.append(fragment);
    // only the moves between the old and the new cursor change their look
    const from = Math.max(1, Math.min(this.renderedCursor, cursor));
    const to = Math.min(keepRows * 2, Math.max(this.renderedCursor, cursor) + 1);
    for (let ply = from; ply <= to; ply++) this.markMove(this.moveButtons[ply - 1], ply, cursor);
    this.renderedLine = line.slice();
    this.renderedCursor = cursor;
    this.noMoves.hidden = line.length > 0;
    this.moveTable.hidden = line.length === 0;
    this.moveHead.hidden = line.length === 0;
    this.movesHeading.textContent = line.length ? `Moves (${plural(line.length, "move")}${cursor < line.length ? `, showing move ${cursor}` : ""})` : "Moves";
    const current = this.moveButtons[cursor - 1];
    if (current && this.movesBox.scrollHeight > this.movesBox.clientHeight) {
      const box = this.movesBox.getBoundingClientRect();
      const at = current.getBoundingClientRect();
      if (at.top < box.top || at.bottom > box.bottom) this.movesBox.scrollTop += at.top - box.top - box.height / 2;
    }
  }

  markMove(item, ply, cursor) {
    if (!item) return;
    if (ply === cursor) item.setAttribute("aria-current", "step");
    else item.removeAttribute("aria-current");
    item.classList.toggle("tafl-future", ply > cursor);
  }

  draw() {
    if (!this.state) return;
    const { size, ranks, special, legal, last_move: last } = this.state;
    const targets = new Set(this.selected ? legal[this.selected] || [] : []);
    const corners = new Set(special.corners);
    const camps = new Set(special.camps);
    const lastSquares = new Set(last ? [last.from, last.to] : []);
    this.container.style.setProperty("--size", size);
    this.container.classList.toggle("tafl-large", size > 13);  // big boards keep the whole column
    this.grid.setAttribute("aria-label", `Board, ${size} by ${size}${this.flipped ? ", flipped" : ""}`);
    this.flipButton.setAttribute("aria-pressed", String(this.flipped));
    if (!this.focus || FILES.indexOf(this.focus[0]) >= size || Number(this.focus.slice(1)) > size) this.focus = `${FILES[0]}1`;
    const squares = [];
    for (let row = 0; row < size; row++) {
      for (let column = 0; column < size; column++) {
        const col = this.flipped ? size - 1 - column : column;
        const rank = this.flipped ? row + 1 : size - row;
        const name = `${FILES[col]}${rank}`;
        const piece = PIECE_NAMES[ranks[size - rank][col]] || null;
        const classes = ["tafl-square"];
        const words = [name, piece || "empty"];
        if (name === special.throne) { classes.push("tafl-throne"); words.push("throne"); }
        if (corners.has(name)) { classes.push("tafl-corner"); words.push("corner"); }
        if (camps.has(name)) { classes.push("tafl-camp"); words.push("camp"); }
        if (piece) classes.push(`tafl-${piece}`);
        if (lastSquares.has(name)) { classes.push("tafl-last"); words.push("last move"); }
        if (targets.has(name)) { classes.push("tafl-target"); words.push("legal target"); }
        if (name === this.selected) { classes.push("tafl-selected"); words.push("selected"); }
        if (this.taken.has(name)) { classes.push("tafl-taken"); words.push("taken by the last move"); }
        squares.push(el("button", {
          type: "button",
          class: classes.join(" "),
          "data-square": name,
          "aria-label": words.join(", "),
          tabindex: name === this.focus ? "0" : "-1",
        }));
      }
    }
    // Coordinates beside the board for sighted readers (each square's accessible name already has its own).
    const fileLabels = [...FILES.slice(0, size)];
    const rankLabels = Array.from({ length: size }, (_, i) => String(size - i));
    if (this.flipped) { fileLabels.reverse(); rankLabels.reverse(); }
    this.filesRow.replaceChildren(...fileLabels.map((f) => el("span", {}, f)));
    this.ranksColumn.replaceChildren(...rankLabels.map((r) => el("span", {}, r)));
    const hadFocus = this.grid.contains(document.activeElement);
    this.grid.replaceChildren(...squares);
    if (hadFocus) this.grid.querySelector(`[data-square="${this.focus}"]`)?.focus();
  }

  // ------------------------------------------------------------ input

  humanToMove() {
    const s = this.state;
    return s && !s.outcome && !this.thinking && this.container.dataset.ready === "true"
      && (!this.computerPlays() || this.human === s.turn);
  }

  activate(name) {
    if (!this.state) return;
    this.focus = name;
    if (this.state.outcome) {
      this.say(`The game is over: ${this.state.outcome.reason}.`, true);
      return;
    }
    if (this.container.dataset.ready !== "true") {
      this.say("Wait: the rules engine is not running. Press Retry if it does not come back.", true);
      return;
    }
    if (!this.humanToMove()) {
      this.say(this.thinking ? "Wait: the computer is thinking." : `You play the ${this.human}; the computer moves the ${this.state.turn}.`, true);
      return;
    }
    const legal = this.state.legal;
    if (this.selected && this.selected !== name && !legal[name]) {
      this.play(`${this.selected}-${name}`);  // the engine says why if it is refused
      return;
    }
    const empty = this.state.ranks[this.state.size - Number(name.slice(1))][FILES.indexOf(name[0])] === ".";
    if (!legal[name] && !empty) {
      // A piece with no move, or the other side's piece: the engine says which (no move was tried).
      this.request("explain", { square: name }).catch((error) => this.say(`${error.message[0].toUpperCase()}${error.message.slice(1)}.`, true));
      return;
    }
    if (empty && !this.selected) {
      this.say(`${name} is empty. The ${this.state.turn} to move: pick up one of their pieces first.`);
      return;
    }
    const picked = legal[name] && this.selected !== name ? name : null;
    this.selected = picked;
    this.draw();
    if (picked) {
      const piece = this.container.querySelector(`[data-square="${name}"]`).getAttribute("aria-label").split(", ")[1];
      this.say(`${name} picked up (${piece}): ${plural(legal[name].length, "square")} marked where it can go.`);
    } else {
      this.say(`Put down. The ${this.state.turn} to move.`);
    }
  }

  play(move) {
    this.send("play", { move });
  }

  onPointerDown(event) {
    const square = event.target.closest("[data-square]");
    if (!square || !this.state || !this.state.legal[square.dataset.square] || !this.humanToMove()) return;
    this.drag = square.dataset.square;
  }

  onPointerUp(event) {
    const from = this.drag;
    this.drag = null;
    if (!from) return;
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const square = under && under.closest && under.closest("[data-square]");
    if (!square || square.dataset.square === from) return;
    this.suppressClick = true;
    setTimeout(() => { this.suppressClick = false; }, 0);
    this.play(`${from}-${square.dataset.square}`);
  }

  onKey(event) {
    if (!this.state) return;
    const size = this.state.size;
    const current = this.focus || `${FILES[0]}1`;
    let col = FILES.indexOf(current[0]);
    let rank = Number(current.slice(1));
    const sign = this.flipped ? -1 : 1;
    const steps = { ArrowLeft: [-sign, 0], ArrowRight: [sign, 0], ArrowUp: [0, sign], ArrowDown: [0, -sign] };
    if (event.key in steps) {
      const [dc, dr] = steps[event.key];
      col = Math.min(size - 1, Math.max(0, col + dc));
      rank = Math.min(size, Math.max(1, rank + dr));
      this.focus = `${FILES[col]}${rank}`;
      for (const square of this.grid.children) square.tabIndex = square.dataset.square === this.focus ? 0 : -1;
      this.grid.querySelector(`[data-square="${this.focus}"]`).focus();
      event.preventDefault();
    } else if (event.key === "Escape") {
      this.selected = null;
      this.draw();
      this.say(`Selection cancelled. The ${this.state.turn} to move.`);
    }
    // Enter and Space press the focused square's button, which arrives as a click.
  }
}

// ---------------------------------------------------------------- the rules sandbox

class Sandbox {
  constructor(container, board) {
    this.container = container;
    this.board = board;
  }

  async start() {
    const form = el("form", { class: "tafl-sandbox-form" });
    form.addEventListener("submit", (event) => event.preventDefault());
    this.variantSelect = el("select", { class: "tafl-sandbox-variant", id: `${this.board.id}-variant` });
    const label = el("label", { for: this.variantSelect.id }, "Layout and rules: ");
    this.toggleBox = el("div", { class: "tafl-sandbox-toggles" });
    this.otn = el("code", { class: "tafl-sandbox-otn" });
    const otnLine = el("p", {}, "Rules as an OTN string: ");
    otnLine.append(this.otn);
    const first = el("p", {});
    first.append(label, this.variantSelect);
    form.append(first, this.toggleBox);
    this.container.replaceChildren(form, otnLine);
    try {
      const reply = await this.board.request("catalogue", {}, { timeout: START_BUDGET_MS });
      this.variants = new Map(reply.variants.map((v) => [v.id, v]));
    } catch (error) {
      this.otn.textContent = `(the catalogue could not be read: ${error.message})`;
      return;
    }
    for (const v of this.variants.values()) this.variantSelect.append(el("option", { value: v.id }, v.name));
    const current = this.board.state?.variant;
    if (current && this.variants.has(current)) this.variantSelect.value = current;
    else if (!current && this.board.state) this.variantSelect.prepend(el("option", { value: "", selected: "" }, "(the rules of an imported record)"));
    this.variantSelect.addEventListener("change", () => { this.drawToggles({}); this.apply(); });
    this.drawToggles(this.board.state?.applied || {});
    this.showOTN();
  }

  drawToggles(current) {
    const variant = this.variants.get(this.variantSelect.value);
    this.toggleBox.replaceChildren();
    if (!variant) return;
    for (const toggle of variant.toggles) {
      const id = `${this.board.id}-toggle-${toggle.name}`;
      const select = el("select", { id, "data-toggle": toggle.name });
      for (const reading of toggle.readings) select.append(el("option", { value: reading.value }, reading.label));
      select.value = current[toggle.name] || toggle.default;
      select.addEventListener("change", () => this.apply());
      const row = el("p", {});
      row.append(el("label", { for: id }, /[?:]$/.test(toggle.label) ? `${toggle.label} ` : `${toggle.label}: `), select);
      this.toggleBox.append(row);
    }
  }

  async apply() {
    const toggles = {};
    const variant = this.variants.get(this.variantSelect.value);
    if (!variant) return;
    for (const select of this.toggleBox.querySelectorAll("select[data-toggle]")) {
      const toggle = variant.toggles.find((t) => t.name === select.dataset.toggle);
      if (select.value !== toggle.default) toggles[toggle.name] = select.value;
    }
    if (await this.board.restart({ variant: variant.id, toggles, rules: "", position: "", moves: [] })) {
      // Another toggle may have changed the same rule point: show the readings now in force.
      for (const select of this.toggleBox.querySelectorAll("select[data-toggle]")) {
        const inForce = this.board.state.applied[select.dataset.toggle];
        if (inForce) select.value = inForce;
      }
      this.showOTN();
    }
  }

  showOTN() {
    this.otn.textContent = this.board.state ? this.board.state.rules_otn : "";
  }
}

// ---------------------------------------------------------------- start every board on the page

const boards = [...document.querySelectorAll("div.tafl-board")].map((container, index) => new Board(container, index));
window.tafl = { boards, worker: boards[0]?.worker };
for (const board of boards) {
  const started = board.start();
  const sandbox = board.container.closest(".tafl-sandbox");
  if (sandbox) {
    const panel = sandbox.querySelector(".tafl-sandbox-panel");
    started.then(() => { if (board.state) new Sandbox(panel, board).start(); });
  }
}
