// The board: draws the state the worker sends and forwards the reader's input.
// It decides nothing about the rules: legal targets, captures and results all come from
// tafl_rules (Python, in one module worker shared by every board on the page).

const workerURL = new URL("./tafl-worker.mjs", import.meta.url);
const FILES = "abcdefghijklmnopqrs";
const PIECE_NAMES = { t: "attacker", T: "defender", K: "king" };

let worker = null;
let nextId = 1;
const pending = new Map();

function failAll(message) {
  for (const { reject } of pending.values()) reject(new Error(message));
  pending.clear();
}

function getWorker() {
  if (worker) return worker;
  worker = new Worker(workerURL, { type: "module" });
  worker.onmessage = (event) => {
    const { id, ok, payload } = event.data;
    if (id === 0) {
      if (!ok) failAll(payload.error);
      return;
    }
    const entry = pending.get(id);
    if (!entry) return;
    pending.delete(id);
    if (ok) entry.resolve(payload);
    else entry.reject(Object.assign(new Error(payload.error || "request failed"), { payload }));
  };
  worker.onerror = (event) => {
    event.preventDefault();
    failAll(`the rules worker failed: ${event.message || "it could not be loaded"}`);
    worker = null;
  };
  return worker;
}

const START_TIMEOUT_MS = 60000;

function request(type, payload, timeout = 0) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    getWorker().postMessage({ id, type, payload });
    if (timeout) {
      setTimeout(() => {
        if (!pending.has(id)) return;
        pending.delete(id);
        reject(new Error(`the rules engine did not answer within ${timeout / 1000} s`));
      }, timeout);
    }
  });
}

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text) node.textContent = text;
  return node;
}

class Board {
  constructor(container, index) {
    this.container = container;
    this.id = `board-${index}`;
    this.state = null;
    this.selected = null;
    this.focus = null;
    this.status = container.querySelector(".tafl-board-status") || container.appendChild(el("p", { class: "tafl-board-status", role: "status", "aria-live": "polite" }));
    this.grid = el("div", { class: "tafl-grid", role: "group" });
    this.controls = el("div", { class: "tafl-controls" });
    this.undoButton = el("button", { type: "button", class: "tafl-undo" }, "Undo");
    this.undoButton.addEventListener("click", () => this.send("undo", {}));
    this.controls.append(this.undoButton);
    this.moveList = el("ol", { class: "tafl-moves", "aria-label": "Moves" });
    container.prepend(this.grid);
    container.append(this.controls, this.moveList);
    this.grid.addEventListener("click", (event) => {
      const square = event.target.closest("[data-square]");
      if (square) this.activate(square.dataset.square);
    });
    this.grid.addEventListener("keydown", (event) => this.onKey(event));
  }

  async start() {
    const data = this.container.dataset;
    this.say("Loading the rules engine…");
    const payload = {
      variant: data.variant || "",
      toggles: JSON.parse(data.toggles || "{}"),
      position: data.position || "",
      moves: (data.moves || "").split(/\s+/).filter(Boolean),
    };
    try {
      await this.send("new", payload, { fatal: true, timeout: START_TIMEOUT_MS });
      this.container.dataset.ready = "true";
    } catch (error) {
      this.container.classList.add("tafl-failed");
      this.container.dataset.ready = "error";
      this.say(`The board could not start: ${error.message}`);
    }
  }

  async send(type, payload, { fatal = false, timeout = 0 } = {}) {
    try {
      const state = await request(type, { board: this.id, ...payload }, timeout);
      this.show(state);
      return state;
    } catch (error) {
      if (fatal || !error.payload) throw error;
      this.say(error.payload.illegal ? `Illegal move: ${error.message}` : error.message, true);
      return null;
    }
  }

  say(message, problem = false) {
    this.status.textContent = message;
    this.status.classList.toggle("tafl-problem", problem);
  }

  show(state) {
    this.state = state;
    this.selected = null;
    this.draw();
    const last = state.played ? `${state.played}. ` : "";
    if (state.outcome) {
      const winner = state.outcome.winner ? `The ${state.outcome.winner} win` : "Draw";
      this.say(`${last}${winner}: ${state.outcome.reason}.`);
    } else {
      const extra = state.announcements.length ? ` (${state.announcements.join(", ")})` : "";
      this.say(`${last}The ${state.turn} to move${extra}.`);
    }
    this.moveList.replaceChildren(...state.moves.map((move) => el("li", {}, move)));
    this.undoButton.disabled = state.moves.length === 0;
  }

  draw() {
    const { size, ranks, special, legal } = this.state;
    const targets = new Set(this.selected ? legal[this.selected] || [] : []);
    const corners = new Set(special.corners);
    const camps = new Set(special.camps);
    this.grid.style.setProperty("--size", size);
    this.grid.setAttribute("aria-label", `Board, ${size} by ${size}`);
    if (!this.focus) this.focus = `${FILES[0]}1`;
    const squares = [];
    for (let row = 0; row < size; row++) {
      const rank = size - row;
      for (let col = 0; col < size; col++) {
        const name = `${FILES[col]}${rank}`;
        const piece = PIECE_NAMES[ranks[row][col]] || null;
        const classes = ["tafl-square"];
        if (name === special.throne) classes.push("tafl-throne");
        if (corners.has(name)) classes.push("tafl-corner");
        if (camps.has(name)) classes.push("tafl-camp");
        if (piece) classes.push(`tafl-${piece}`);
        if (targets.has(name)) classes.push("tafl-target");
        if (name === this.selected) classes.push("tafl-selected");
        const words = [name, piece || "empty"];
        if (name === special.throne) words.push("throne");
        if (corners.has(name)) words.push("corner");
        if (camps.has(name)) words.push("camp");
        if (targets.has(name)) words.push("legal target");
        if (name === this.selected) words.push("selected");
        squares.push(el("button", {
          type: "button",
          class: classes.join(" "),
          "data-square": name,
          "aria-label": words.join(", "),
          tabindex: name === this.focus ? "0" : "-1",
        }));
      }
    }
    const hadFocus = this.grid.contains(document.activeElement);
    this.grid.replaceChildren(...squares);
    if (hadFocus) this.grid.querySelector(`[data-square="${this.focus}"]`)?.focus();
  }

  activate(name) {
    if (!this.state || this.state.outcome) return;
    this.focus = name;
    const legal = this.state.legal;
    if (this.selected && (legal[this.selected] || []).includes(name)) {
      this.send("play", { move: `${this.selected}-${name}` });
      return;
    }
    if (this.selected && this.selected !== name && !legal[name]) {
      // Let the engine say why the move is refused.
      this.send("play", { move: `${this.selected}-${name}` });
      return;
    }
    this.selected = legal[name] ? (this.selected === name ? null : name) : null;
    this.draw();
  }

  onKey(event) {
    if (!this.state) return;
    const size = this.state.size;
    const current = this.focus || `${FILES[0]}1`;
    let col = FILES.indexOf(current[0]);
    let rank = Number(current.slice(1));
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    if (event.key in moves) {
      const [dc, dr] = moves[event.key];
      col = Math.min(size - 1, Math.max(0, col + dc));
      rank = Math.min(size, Math.max(1, rank + dr));
      this.focus = `${FILES[col]}${rank}`;
      for (const square of this.grid.children) square.tabIndex = square.dataset.square === this.focus ? 0 : -1;
      this.grid.querySelector(`[data-square="${this.focus}"]`).focus();
      event.preventDefault();
    } else if (event.key === "Escape") {
      this.selected = null;
      this.draw();
      this.grid.querySelector(`[data-square="${this.focus}"]`)?.focus();
    }
    // Enter and Space press the focused square's button, which arrives as a click.
  }
}

const containers = [...document.querySelectorAll(".tafl-board")];
containers.forEach((container, index) => new Board(container, index).start());
