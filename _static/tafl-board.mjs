// The board: draws the state the worker sends and forwards the reader's input.
// It decides nothing about the rules: legal targets, captures, announcements and results
// all come from tafl_rules (Python, in one module worker shared by every board on the page).
// Text from outside (share links, storage, imported records, error messages) is only ever
// set with textContent or attributes, never parsed as HTML.

const workerURL = new URL("./tafl-worker.mjs", import.meta.url);
const FILES = "abcdefghijklmnopqrs";
const PIECE_NAMES = { t: "attacker", T: "defender", K: "king" };
const START_TIMEOUT_MS = 60000;
const SAFE = /^[A-Za-z0-9_.:,=+-]*$/;

// ---------------------------------------------------------------- the worker, shared by all boards

class RulesWorker {
  constructor() {
    this.worker = null;
    this.nextId = 1;
    this.pending = new Map();
    this.boards = new Set();
  }

  start() {
    if (this.worker) return this.worker;
    const early = window.__taflEarlyWorker;
    window.__taflEarlyWorker = null;
    this.worker = early || new Worker(workerURL, { type: "module" });
    this.worker.onmessage = (event) => this.receive(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.crashed(`the rules worker stopped: ${event.message || "it could not be loaded"}`);
    };
    const worker = this.worker;
    queueMicrotask(() => {
      for (const said of worker.early || []) {
        if (said.error) this.crashed(`the rules worker stopped: ${said.error}`);
        else this.receive(said.data);
      }
      worker.early = null;
    });
    return worker;
  }

  receive({ id, ok, payload }) {
    if (id === 0) {
      if (!ok) this.failAll(payload.error);
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
      const entry = { resolve, reject, timer: null };
      if (timeout) {
        entry.timer = setTimeout(() => {
          if (!this.pending.delete(id)) return;
          reject(new Error(`the rules engine did not answer within ${timeout / 1000} s`));
        }, timeout);
      }
      this.pending.set(id, entry);
      this.start().postMessage({ id, type, payload });
    });
  }

  failAll(message) {
    for (const entry of this.pending.values()) {
      clearTimeout(entry.timer);
      entry.reject(new Error(message));
    }
    this.pending.clear();
  }

  // A crash (or a stopped AI search) loses the worker's games: start a fresh worker and
  // let every board replay its move list into it.
  crashed(message) {
    const hadStarted = [...this.boards].some((board) => board.state);
    this.failAll(message);
    this.restart(hadStarted ? message : null);
  }

  // Terminating the worker is also the only way to end a Python search at once; a request
  // still waiting for the old worker is refused (failPending), so nothing waits forever.
  restart(reason = null, { failPending = false } = {}) {
    if (this.worker) this.worker.terminate();
    this.worker = null;
    if (failPending) this.failAll(reason || "the rules worker was restarted");
    return Promise.all([...this.boards].map((board) => board.resync(reason)));
  }
}

const rulesWorker = new RulesWorker();

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

function parseToggles(text) {
  const toggles = {};
  for (const pair of (text || "").split(",").filter(Boolean)) {
    const [name, value] = pair.split(":");
    if (!name || !value) throw new Error(`toggle ${pair} is not name:value`);
    toggles[name] = value;
  }
  return toggles;
}

// The line of a state as plain moves (d1-d4), without the captures its OTN records carry.
function movesOf(state) {
  return state.line.map((record) => record.split("x")[0]);
}

function formatToggles(toggles) {
  return Object.entries(toggles).map(([name, value]) => `${name}:${value}`).join(",");
}

// ---------------------------------------------------------------- one board

class Board {
  constructor(container, index) {
    this.container = container;
    this.index = index;
    this.id = `board-${index}`;
    this.storageKey = `tafl:${location.pathname}:${index}`;
    this.state = null;
    this.selected = null;
    this.focus = null;
    this.flipped = false;
    this.drag = null;
    this.suppressClick = false;
    this.thinking = false;
    const data = container.dataset;
    this.choice = {
      variant: data.variant || "",
      toggles: JSON.parse(data.toggles || "{}"),
      position: data.position || "",
      moves: (data.moves || "").split(/\s+/).filter(Boolean),
      cursor: null,
    };
    this.human = data.human || "both";
    this.aiLevel = data.ai && data.ai !== "none" ? Number(data.ai) : 0;
    this.levels = JSON.parse(data.levels || "[]");  // [[1, "beginner"], ...] from tafl_rules.ai.LEVELS
    this.status = container.querySelector(".tafl-board-status") || container.appendChild(el("p", { class: "tafl-board-status", role: "status", "aria-live": "polite" }));
    rulesWorker.boards.add(this);
  }

  build() {
    const c = this.container;
    this.turnLine = el("p", { class: "tafl-turn" });
    this.grid = el("div", { class: "tafl-grid", role: "group" });
    this.capturedLine = el("p", { class: "tafl-captured" });
    this.controls = el("div", { class: "tafl-controls", role: "toolbar", "aria-label": "Game controls" });
    this.undoButton = button("Undo", () => this.send("undo", {}), { class: "tafl-undo" });
    this.redoButton = button("Redo", () => this.send("redo", {}), { class: "tafl-redo" });
    this.restartButton = button("Restart", () => this.restart(), { class: "tafl-restart" });
    this.flipButton = button("Flip board", () => { this.flipped = !this.flipped; this.draw(); }, { class: "tafl-flip", "aria-pressed": "false" });
    this.shareButton = button("Share link", () => this.share(), { class: "tafl-share" });
    this.controls.append(this.undoButton, this.redoButton, this.restartButton, this.flipButton, this.shareButton);

    this.playerBar = el("div", { class: "tafl-players" });
    const humanLabel = el("label", {}, "You play ");
    this.humanSelect = el("select", { class: "tafl-human" });
    for (const [value, text] of [["both", "both sides"], ["attackers", "the attackers"], ["defenders", "the defenders"]]) {
      this.humanSelect.append(el("option", { value }, text));
    }
    this.humanSelect.value = this.human;
    humanLabel.append(this.humanSelect);
    const aiLabel = el("label", {}, " Computer ");
    this.aiSelect = el("select", { class: "tafl-ai" });
    this.aiSelect.append(el("option", { value: "0" }, "off"));
    for (const [level, label] of this.levels) this.aiSelect.append(el("option", { value: String(level) }, `level ${level} (${label})`));
    this.aiSelect.value = String(this.aiLevel);
    aiLabel.append(this.aiSelect);
    this.stopButton = button("Stop thinking", () => this.stopThinking(), { class: "tafl-stop", hidden: "" });
    this.humanSelect.addEventListener("change", () => { this.human = this.humanSelect.value; this.save(); this.maybeComputerMove(); });
    this.aiSelect.addEventListener("change", () => { this.aiLevel = Number(this.aiSelect.value); this.save(); this.maybeComputerMove(); });
    this.playerBar.append(humanLabel, aiLabel, this.stopButton);

    this.shareField = el("input", { class: "tafl-share-link", type: "text", readonly: "", "aria-label": "Share link", hidden: "" });
    this.moveList = el("ol", { class: "tafl-moves", "aria-label": "Moves (select one to go to it)" });

    const record = el("details", { class: "tafl-record" });
    record.append(el("summary", {}, "Game record (OTN)"));
    this.recordText = el("textarea", { class: "tafl-otn", rows: "6", "aria-label": "OTN game record", spellcheck: "false" });
    const recordButtons = el("div", { class: "tafl-controls" });
    recordButtons.append(
      button("Export", () => this.exportRecord(), { class: "tafl-export" }),
      button("Import", () => this.importRecord(), { class: "tafl-import" }),
    );
    record.append(this.recordText, recordButtons);

    this.ranksColumn = el("div", { class: "tafl-ranks", "aria-hidden": "true" });
    this.filesRow = el("div", { class: "tafl-files", "aria-hidden": "true" });
    const frame = el("div", { class: "tafl-frame" });
    frame.append(this.ranksColumn, this.grid, el("span", {}), this.filesRow);
    c.replaceChildren(this.turnLine, frame, this.status, this.capturedLine, this.controls, this.playerBar, this.shareField, this.moveList, record);

    this.grid.addEventListener("click", (event) => {
      if (this.suppressClick) { this.suppressClick = false; return; }
      const square = event.target.closest("[data-square]");
      if (square) this.activate(square.dataset.square);
    });
    this.grid.addEventListener("keydown", (event) => this.onKey(event));
    this.grid.addEventListener("pointerdown", (event) => this.onPointerDown(event));
    this.grid.addEventListener("pointerup", (event) => this.onPointerUp(event));
    this.moveList.addEventListener("click", (event) => {
      const item = event.target.closest("[data-ply]");
      if (item) this.send("goto", { ply: Number(item.dataset.ply) });
    });
  }

  // ------------------------------------------------------------ starting, saving, restoring

  async start() {
    this.say("Loading the rules engine…");
    const fromLink = this.readShareLink();
    if (fromLink === false) return;
    const saved = fromLink ? null : this.load();
    const choice = fromLink || saved || this.choice;
    try {
      await this.open(choice);
    } catch (error) {
      if (choice === saved) {
        localStorage.removeItem(this.storageKey);
        try {
          await this.open(this.choice);
          this.say(`The saved game could not be restored (${error.message}); a new game has started.`, true);
          return;
        } catch (second) {
          error = second;
        }
      }
      this.fail(error);
    }
  }

  async open(choice) {
    const payload = { variant: choice.variant, toggles: choice.toggles, position: choice.position || "", moves: choice.moves };
    if (Number.isInteger(choice.cursor)) payload.cursor = choice.cursor;
    await this.send("new", payload, { fatal: true, timeout: START_TIMEOUT_MS });
    this.choice = { ...choice, moves: [], cursor: null };
    this.container.dataset.ready = "true";
  }

  fail(error) {
    this.container.classList.add("tafl-failed");
    this.container.dataset.ready = "error";
    this.grid?.replaceChildren();
    this.say(`The board could not start: ${error.message}`, true);
  }

  // Share links carry variant, toggles and moves: ?board=0&variant=lewis-1&toggles=first:defenders&moves=d1-d3,e5-e2
  readShareLink() {
    const params = new URLSearchParams(location.search);
    if (params.get("board") !== String(this.index)) return null;
    const fields = ["variant", "toggles", "moves", "ply", "board"];
    for (const [key, value] of params) {
      if (!fields.includes(key) || !SAFE.test(value)) {
        this.fail(new Error(`the share link was refused: its ${fields.includes(key) ? key : "parameters"} field holds characters a game never uses`));
        return false;
      }
    }
    try {
      const moves = (params.get("moves") || "").split(",").filter(Boolean);
      const ply = params.has("ply") ? Number(params.get("ply")) : null;
      return { variant: params.get("variant") || "", toggles: parseToggles(params.get("toggles")), position: "", moves, cursor: ply };
    } catch (error) {
      this.fail(new Error(`the share link was refused: ${error.message}`));
      return false;
    }
  }

  shareURL() {
    const s = this.state;
    const params = new URLSearchParams({ board: String(this.index) });
    if (s.variant) params.set("variant", s.variant);
    if (Object.keys(s.toggles).length) params.set("toggles", formatToggles(s.toggles));
    if (s.line.length) params.set("moves", movesOf(s).join(","));
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
    const record = { variant: s.variant, toggles: s.toggles, moves: movesOf(s), cursor: s.cursor, human: this.human, ai: this.aiLevel };
    try { localStorage.setItem(this.storageKey, JSON.stringify(record)); } catch { /* storage full or disabled */ }
  }

  load() {
    try {
      const record = JSON.parse(localStorage.getItem(this.storageKey) || "null");
      if (!record || record.variant !== this.choice.variant) return null;
      this.human = record.human || this.human;
      this.aiLevel = Number(record.ai) || 0;
      return { variant: record.variant, toggles: record.toggles || {}, position: this.choice.position, moves: record.moves || [], cursor: record.cursor };
    } catch {
      return null;
    }
  }

  async restart(choice = null) {
    const s = this.state;
    const next = choice || { variant: s ? s.variant : this.choice.variant, toggles: s ? s.toggles : this.choice.toggles, position: this.choice.position, moves: [] };
    this.choice = next;
    try {
      await this.open(next);
    } catch (error) {
      this.say(`The game could not restart: ${error.message}`, true);
      return false;
    }
    return true;
  }

  // The worker was replaced: replay this board's game into the new one.
  async resync(reason) {
    if (!this.state) return;
    const s = this.state;
    this.container.dataset.ready = "false";
    try {
      await this.open({ variant: s.variant, toggles: s.toggles, position: this.choice.position, moves: movesOf(s), cursor: s.cursor });
      if (reason) this.say(`The rules engine was restarted (${reason}); the game was replayed.`);
    } catch (error) {
      this.fail(error);
    }
  }

  // ------------------------------------------------------------ talking to the worker

  async send(type, payload, { fatal = false, timeout = 0 } = {}) {
    try {
      const state = await rulesWorker.request(type, { board: this.id, ...payload }, timeout);
      this.show(state);
      return state;
    } catch (error) {
      if (fatal) throw error;
      this.say(error.payload && error.payload.illegal ? `Illegal move: ${error.message}.` : `${error.message}.`, true);
      this.selected = null;
      this.draw();
      return null;
    }
  }

  async exportRecord() {
    try {
      const reply = await rulesWorker.request("export", { board: this.id });
      this.recordText.value = reply.otn;
      this.say("The game record is in the box below.");
    } catch (error) {
      this.say(error.message, true);
    }
  }

  async importRecord() {
    const before = this.state;
    const state = await this.send("import", { otn: this.recordText.value });
    if (state) this.say(`Game record imported: ${state.line.length} moves.`);
    else if (before) this.say(`The record was refused and the game is unchanged: ${this.status.textContent}`, true);
  }

  // ------------------------------------------------------------ the computer opponent

  computerToMove() {
    const s = this.state;
    return s && !s.outcome && this.aiLevel > 0 && this.human !== "both" && s.turn !== this.human && s.cursor === s.line.length;
  }

  async maybeComputerMove() {
    if (!this.computerToMove() || this.thinking) return;
    this.thinking = true;
    this.stopButton.hidden = false;
    this.container.setAttribute("aria-busy", "true");
    this.say(`The computer (level ${this.aiLevel}) is thinking…`);
    try {
      await this.send("ai_move", { level: this.aiLevel, seed: this.index });
    } finally {
      this.thinking = false;
      this.stopButton.hidden = true;
      this.container.removeAttribute("aria-busy");
    }
  }

  // The computer is switched off before the game is replayed into a fresh worker, or it would
  // start the same search again; the reader may then move for it or choose a level.
  async stopThinking() {
    this.aiLevel = 0;
    this.aiSelect.value = "0";
    await rulesWorker.restart("the search was stopped", { failPending: true });
    this.save();
    this.say("Search stopped; the computer is off. Move for it yourself, or choose a level to let it play again.");
  }

  // ------------------------------------------------------------ drawing

  say(message, problem = false) {
    this.status.textContent = message;
    this.status.classList.toggle("tafl-problem", problem);
  }

  show(state) {
    if (!this.grid) this.build();  // the board's controls appear with its first position
    const previous = this.state;
    this.state = state;
    this.selected = null;
    this.draw();
    this.announce(state, previous);
    this.turnLine.textContent = state.outcome ? "Game over" : `${state.turn === "attackers" ? "Attackers" : "Defenders"} to move`;
    this.capturedLine.textContent = `Captured by the attackers: ${state.captured.attackers}. Captured by the defenders: ${state.captured.defenders}.`;
    this.moveList.replaceChildren(...state.line.map((move, i) => {
      const item = el("li", {});
      const attrs = { type: "button", "data-ply": String(i + 1), class: "tafl-move" };
      if (i + 1 === state.cursor) attrs["aria-current"] = "step";
      if (i + 1 > state.cursor) attrs.class += " tafl-future";
      item.append(el("button", attrs, move));
      return item;
    }));
    this.undoButton.disabled = state.cursor === 0;
    this.redoButton.disabled = state.cursor >= state.line.length;
    this.save();
    if (this.computerToMove()) setTimeout(() => this.maybeComputerMove(), 0);
  }

  announce(state, previous) {
    const parts = [];
    if (state.played) {
      const [move, taken] = state.played.split("x");
      parts.push(taken ? `${move}, capturing ${taken.split("/").join(" and ")}.` : `${move}.`);
    }
    if (state.outcome) {
      const who = state.outcome.winner ? `The ${state.outcome.winner} win` : "The game is drawn";
      parts.push(`${who}: ${state.outcome.reason}.`);
    } else {
      for (const word of state.announcements) parts.push(`${word[0].toUpperCase()}${word.slice(1)}!`);
      parts.push(`The ${state.turn} to move.`);
    }
    this.say(parts.join(" "));
  }

  draw() {
    if (!this.state) return;
    const { size, ranks, special, legal, last } = this.state;
    const targets = new Set(this.selected ? legal[this.selected] || [] : []);
    const corners = new Set(special.corners);
    const camps = new Set(special.camps);
    const lastSquares = new Set(last ? last.split("x")[0].split("-") : []);
    this.grid.style.setProperty("--size", size);
    this.grid.setAttribute("aria-label", `Board, ${size} by ${size}${this.flipped ? ", flipped" : ""}`);
    this.flipButton.setAttribute("aria-pressed", String(this.flipped));
    if (!this.focus) this.focus = `${FILES[0]}1`;
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
        const square = el("button", {
          type: "button",
          class: classes.join(" "),
          "data-square": name,
          "aria-label": words.join(", "),
          tabindex: name === this.focus ? "0" : "-1",
        });
        squares.push(square);
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
    return s && !s.outcome && !this.thinking && (this.human === "both" || this.human === s.turn || this.aiLevel === 0);
  }

  activate(name) {
    if (!this.state) return;
    this.focus = name;
    if (this.state.outcome) {
      this.say(`The game is over: ${this.state.outcome.reason}.`, true);
      return;
    }
    if (!this.humanToMove()) {
      this.say(this.thinking ? "Wait: the computer is thinking." : `You play the ${this.human}.`, true);
      return;
    }
    const legal = this.state.legal;
    if (this.selected && this.selected !== name && !legal[name]) {
      this.send("play", { move: `${this.selected}-${name}` });  // the engine says why if it is refused
      return;
    }
    if (!legal[name] && this.state.ranks[this.state.size - Number(name.slice(1))][FILES.indexOf(name[0])] !== ".") {
      // A piece with no move, or the other side's piece: the engine says which.
      rulesWorker.request("explain", { board: this.id, square: name }).catch((error) => this.say(`Illegal move: ${error.message}.`, true));
      return;
    }
    this.selected = legal[name] && this.selected !== name ? name : null;
    this.draw();
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
    this.send("play", { move: `${from}-${square.dataset.square}` });
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
    form.append(label, this.variantSelect, this.toggleBox);
    this.container.replaceChildren(form, otnLine);
    try {
      const reply = await rulesWorker.request("catalogue", {}, START_TIMEOUT_MS);
      this.variants = new Map(reply.variants.map((v) => [v.id, v]));
    } catch (error) {
      this.otn.textContent = `(the catalogue could not be read: ${error.message})`;
      return;
    }
    for (const v of this.variants.values()) this.variantSelect.append(el("option", { value: v.id }, v.name));
    this.variantSelect.value = this.board.state?.variant || this.board.choice.variant || this.variantSelect.value;
    this.variantSelect.addEventListener("change", () => { this.drawToggles({}); this.apply(); });
    this.drawToggles(this.board.state?.applied || {});
    this.showOTN();
  }

  drawToggles(current) {
    const variant = this.variants.get(this.variantSelect.value);
    this.toggleBox.replaceChildren();
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
    for (const select of this.toggleBox.querySelectorAll("select[data-toggle]")) {
      const toggle = variant.toggles.find((t) => t.name === select.dataset.toggle);
      if (select.value !== toggle.default) toggles[toggle.name] = select.value;
    }
    if (await this.board.restart({ variant: variant.id, toggles, position: "", moves: [] })) {
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
window.tafl = { boards, worker: rulesWorker };
for (const board of boards) {
  const started = board.start();
  const sandbox = board.container.closest(".tafl-sandbox");
  if (sandbox) {
    const panel = sandbox.querySelector(".tafl-sandbox-panel");
    started.then(() => new Sandbox(panel, board).start());
  }
}
