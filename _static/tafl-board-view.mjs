// A board on the page: its squares, controls, move list, key, "how to play" box and games list,
// drawn from the state the rules worker sends, and the reader's clicks, taps, drags and keys,
// passed on to the game (tafl-board-game.mjs). It decides nothing about the rules.
// Text from outside (share links, storage, imported records, error messages) is only ever set
// with textContent or attributes, never parsed as HTML.

import {
  FILES, capturedWords, levelWords, otherSide, parseLevel, pieceAt, pieceWords, scrollToShow, sideHeading, squareSpecs, turnAt,
} from "./tafl-board-model.mjs";
import * as words from "./tafl-board-words.mjs";
import { plural, sideWords, t } from "./tafl-board-words.mjs";

/** @typedef {import("./tafl-protocol.mjs").BoardState} BoardState */

export function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text) node.textContent = text;
  return node;
}

export function button(label, onClick, attrs = {}) {
  const node = el("button", { type: "button", ...attrs }, label);
  node.addEventListener("click", onClick);
  return node;
}

const capitalised = (text) => (text ? `${text[0].toUpperCase()}${text.slice(1)}` : text);

export class BoardView {
  /** @param {HTMLElement} container @param {import("./tafl-board-game.mjs").Board} game */
  constructor(container, game) {
    this.container = container;
    this.game = game;
    this.selected = null;
    this.focus = null;
    this.flipped = false;
    this.drag = null;
    this.suppressClick = false;
    this.grid = null;
    this.status = container.querySelector(".tafl-board-status") || container.appendChild(el("p", { class: "tafl-board-status", role: "status", "aria-live": "polite" }));
  }

  get built() {
    return this.grid !== null;
  }

  // ------------------------------------------------------------ the board's parts

  build() {
    const c = this.container;
    const game = this.game;
    this.turnLine = c.querySelector(".tafl-turn") || el("p", { class: "tafl-turn" });
    this.grid = el("div", { class: "tafl-grid", role: "group" });
    this.capturedLine = el("p", { class: "tafl-captured" });
    this.controls = el("div", { class: "tafl-controls", role: "toolbar", "aria-label": t("Game controls") });
    this.undoButton = button(t("Undo"), () => game.undo(), { class: "tafl-undo" });
    this.redoButton = button(t("Redo"), () => game.redo(), { class: "tafl-redo" });
    this.restartButton = button(t("Restart"), () => game.restart(), { class: "tafl-restart" });
    this.flipButton = button(t("Flip board"), () => { this.flipped = !this.flipped; this.draw(); }, { class: "tafl-flip", "aria-pressed": "false" });
    this.shareButton = button(t("Share link"), () => game.share(), { class: "tafl-share" });
    this.controls.append(this.undoButton, this.redoButton, this.restartButton, this.flipButton, this.shareButton);
    this.retryButton = button(t("Retry"), () => game.retry(), { class: "tafl-retry", hidden: "" });

    this.playerBar = el("div", { class: "tafl-players" });
    const humanLabel = el("label", {}, words.youPlayLabel());
    this.humanSelect = el("select", { class: "tafl-human" });
    for (const [value, text] of words.sideChoices()) this.humanSelect.append(el("option", { value }, text));
    humanLabel.append(this.humanSelect);
    const aiLabel = el("label", {}, words.computerLabel());
    this.aiSelect = el("select", { class: "tafl-ai" });
    for (const entry of game.levels) this.aiSelect.append(el("option", { value: String(entry[0]) }, levelWords(entry)));
    aiLabel.append(this.aiSelect);
    this.stopButton = button(t("Stop thinking"), () => game.stopThinking(), { class: "tafl-stop", hidden: "" });
    this.humanSelect.addEventListener("change", () => game.chooseSide(this.humanSelect.value));
    this.aiSelect.addEventListener("change", () => game.chooseLevel(parseLevel(this.aiSelect.value)));
    this.playerBar.append(humanLabel, aiLabel, this.stopButton);
    this.syncMenus();

    this.shareField = el("input", { class: "tafl-share-link", type: "text", readonly: "", "aria-label": t("Share link"), hidden: "" });
    this.movesBox = el("div", { class: "tafl-moves-box" });
    this.movesHeading = el("p", { class: "tafl-moves-heading" }, t("Moves"));
    // A list of numbered pairs (not a table: rows of a list can skip layout while scrolled out of
    // view, which keeps a game of thousands of moves quick).
    this.moveHead = el("div", { class: "tafl-moves-head", "aria-hidden": "true" });
    this.moveBody = el("ol", { class: "tafl-moves", "aria-label": t("Moves (select one to go to it)") });
    this.noMoves = el("p", { class: "tafl-no-moves" }, t("No moves yet."));
    this.movesBox.append(this.movesHeading, this.noMoves, this.moveHead, this.moveBody);
    this.renderedLine = [];
    this.renderedCursor = 0;
    this.moveButtons = [];
    this.renderedFirst = null;

    this.gamesBox = el("details", { class: "tafl-games", open: "" });
    this.gamesSummary = el("summary", {}, words.gamesHeading(0));
    this.gamesList = el("ul", { class: "tafl-games-list" });
    this.forgetAllButton = button(words.forgetAllButton(), () => this.askForgetAll(), { class: "tafl-games-forget-all", "aria-label": words.forgetAllLabel() });
    this.gamesBox.append(this.gamesSummary, this.gamesList, this.forgetAllButton);

    const record = el("details", { class: "tafl-record" });
    record.append(el("summary", {}, t("Game record (OTN)")));
    this.recordText = el("textarea", { class: "tafl-otn", rows: "6", "aria-label": t("OTN game record"), spellcheck: "false" });
    const recordButtons = el("div", { class: "tafl-controls" });
    recordButtons.append(
      button(t("Export"), () => game.exportRecord(), { class: "tafl-export" }),
      button(t("Import"), () => game.importRecord(this.recordText.value), { class: "tafl-import" }),
    );
    record.append(this.recordText, recordButtons);

    // The picture drawn at build time is replaced by live squares in the same frame.
    this.frame = c.querySelector(".tafl-frame") || el("div", { class: "tafl-frame" });
    this.ranksColumn = el("div", { class: "tafl-ranks", "aria-hidden": "true" });
    this.filesRow = el("div", { class: "tafl-files", "aria-hidden": "true" });
    this.frame.replaceChildren(this.ranksColumn, this.grid, el("span", {}), this.filesRow);
    const scroller = c.querySelector(".tafl-scroll") || el("div", { class: "tafl-scroll" });
    scroller.replaceChildren(this.frame);
    this.scroller = scroller;
    this.key = c.querySelector(".tafl-key") || el("ul", { class: "tafl-key", "aria-label": t("Key") });
    this.howto = c.querySelector(".tafl-howto") || el("details", { class: "tafl-howto", open: "" });
    const main = el("div", { class: "tafl-main" });
    const scrollHint = el("p", { class: "tafl-scroll-hint" }, t("The board is wider than the screen: swipe it sideways to see the rest."));
    main.append(scroller, scrollHint, this.status, this.retryButton, this.capturedLine, this.controls, this.playerBar, this.shareField);
    const aside = el("div", { class: "tafl-aside" });
    const sandboxPanel = c.querySelector(".tafl-sandbox-panel");  // a sandbox's choices come first beside the board
    aside.append(...(sandboxPanel ? [sandboxPanel] : []), this.key, this.howto, this.movesBox, this.gamesBox, record);
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
    this.moveBody.addEventListener("click", (event) => {
      const item = event.target.closest("[data-ply]");
      if (item) game.goto(Number(item.dataset.ply));
    });
    // A board wider than its column (19x19 on a phone) scrolls sideways in its own box; touches
    // on it then pan that box, and a move is made by tapping the piece and then its target.
    if (window.ResizeObserver) {
      new ResizeObserver(() => scroller.classList.toggle("tafl-overflows", scroller.scrollWidth > scroller.clientWidth + 1)).observe(scroller);
    }
  }

  /** The level menu's times for a board of ``size`` (the sandbox changes a board's size). */
  labelLevels(size) {
    if (!this.aiSelect) return;
    this.menuSize = size;
    this.game.levels.forEach((entry, i) => { this.aiSelect.options[i].textContent = levelWords(entry, size, this.game.levelNotes); });
  }

  syncMenus() {
    if (!this.humanSelect) return;
    this.humanSelect.value = this.game.human;
    this.aiSelect.value = String(this.game.aiLevel);
  }

  // ------------------------------------------------------------ drawing a state

  /** Everything that follows from a new state. @param {BoardState} state */
  show(state, notes, taken) {
    if (!this.built) this.build();  // the board's controls replace the picture with its first position
    this.taken = taken;
    this.selected = null;
    this.draw();
    this.drawKey(state.special);
    this.drawHowto(notes.howto);
    this.drawMoves(state);
    this.turnLine.textContent = state.outcome ? t("Game over") : state.turn === "attackers" ? t("Attackers to move") : t("Defenders to move");
    this.container.classList.toggle("tafl-over", Boolean(state.outcome));
    this.capturedLine.textContent = capturedWords(state);
    this.undoButton.disabled = state.cursor === 0;
    this.redoButton.disabled = state.cursor >= state.line.length;
    this.retryButton.hidden = true;
    this.keepLastMoveInView(state);
  }

  // A board wider than its box (19x19 on a phone) scrolls sideways: the last move is brought into
  // view, both its squares where they fit, else the square it went to.
  keepLastMoveInView(state) {
    const move = state.last_move;
    const box = this.scroller;
    if (!move || !box || box.scrollWidth <= box.clientWidth + 1) return;
    const edges = (name) => {
      const square = this.grid.querySelector(`[data-square="${name}"]`);
      if (!square) return null;
      const at = square.getBoundingClientRect();
      const left = at.left - box.getBoundingClientRect().left + box.scrollLeft;
      return { left, right: left + at.width };
    };
    const to = edges(move.to);
    const from = edges(move.from) || to;
    if (to) box.scrollLeft = scrollToShow(to, from, { scrollLeft: box.scrollLeft, width: box.clientWidth });
  }

  /** Back to how the board first looked, for the next visitor of a kiosk. */
  resetForKiosk() {
    if (!this.built) return;
    this.flipped = false;
    this.selected = null;
    this.shareField.hidden = true;
    this.shareField.value = "";
    this.recordText.value = "";
    this.container.querySelectorAll(".tafl-notice, .tafl-back").forEach((node) => node.remove());
    this.container.querySelectorAll("details.tafl-record").forEach((node) => node.removeAttribute("open"));
    this.scroller.scrollLeft = 0;
    this.movesBox.scrollTop = 0;
  }

  draw() {
    const state = this.game.state;
    if (!state || !this.built) return;
    const size = state.size;
    if (size !== this.menuSize) this.labelLevels(size);
    this.container.style.setProperty("--size", size);
    this.container.classList.toggle("tafl-large", size > 13);  // big boards keep the whole column
    this.grid.setAttribute("aria-label", this.flipped ? t("Board, {size} by {size}, flipped", { size }) : t("Board, {size} by {size}", { size }));
    this.flipButton.setAttribute("aria-pressed", String(this.flipped));
    if (!this.focus || FILES.indexOf(this.focus[0]) >= size || Number(this.focus.slice(1)) > size) this.focus = `${FILES[0]}1`;
    const squares = squareSpecs(state, { flipped: this.flipped, selected: this.selected, taken: this.taken || new Set() })
      .map(({ name, classes, words }) => el("button", {
        type: "button",
        class: classes.join(" "),
        "data-square": name,
        "aria-label": words.join(", "),
        tabindex: name === this.focus ? "0" : "-1",
      }));
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

  drawKey(special) {
    const signature = JSON.stringify([Boolean(special.throne), special.corners.length > 0, special.camps.length > 0]);
    if (this.keySignature === signature) return;
    this.keySignature = signature;
    const items = [["attacker", t("attacker")], ["defender", t("defender")], ["king", t("king")]];
    if (special.throne) items.push(["throne", t("throne")]);
    if (special.corners.length) items.push(["corner", t("corner")]);
    if (special.camps.length) items.push(["camp", t("camp")]);
    items.push(["last", t("last move")], ["taken", t("taken by the last move")], ["target", t("where the picked-up piece can go")]);
    this.key.replaceChildren(...items.map(([kind, words]) => {
      const item = el("li");
      item.append(el("span", { class: "tafl-swatch", "data-kind": kind, "aria-hidden": "true" }), document.createTextNode(words));
      return item;
    }));
  }

  drawHowto(lines) {
    if (!lines || this.howtoShown === lines) return;
    this.howtoShown = lines;
    const list = el("dl");
    for (const [heading, text] of lines) list.append(el("dt", {}, heading), el("dd", {}, text));
    const open = this.howto.hasAttribute("open") || !this.howto.querySelector("summary");
    this.howto.replaceChildren(el("summary", {}, t("How to play these rules")), list);
    if (open) this.howto.setAttribute("open", "");
  }

  // The move list: numbered in pairs, one column per side. Only what changed is redrawn, so a
  // game of thousands of moves costs little per move.
  drawMoves(state) {
    const { line, cursor } = state;
    const first = turnAt(state, 0);
    if (first !== this.renderedFirst) {
      this.renderedFirst = first;
      this.renderedLine = [];
      this.moveButtons = [];
      this.moveBody.replaceChildren();
      this.moveHead.replaceChildren(el("span", {}, "#"), el("span", {}, sideHeading(first)), el("span", {}, sideHeading(otherSide(first))));
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
        if (ply > line.length) continue;
        const side = turnAt(state, ply - 1);
        const item = el("button", { type: "button", class: "tafl-move", "data-ply": String(ply), "aria-label": t("Move {number}, {side}: {move}", { number: pair + 1, side: side === "attackers" ? t("attackers") : t("defenders"), move: line[ply - 1] }) }, line[ply - 1]);
        this.markMove(item, ply, cursor);
        this.moveButtons.push(item);
        row.append(item);
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
    this.moveBody.hidden = line.length === 0;
    this.moveHead.hidden = line.length === 0;
    const count = plural(line.length, "1 move", "{count} moves");
    this.movesHeading.textContent = !line.length ? t("Moves")
      : cursor < line.length ? t("Moves ({moves}, showing move {cursor})", { moves: count, cursor }) : t("Moves ({moves})", { moves: count });
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

  /**
   * The games list: each saved game of this board, newest first, named by its rules, how far it
   * went and who played it, with a button that opens it; and "Forget all". A kiosk lists none.
   * @param {{id: string, record: object, current: boolean, elsewhere: boolean}[]} games
   * @param {{variant: string, name: string, rules: string}} own  the board's own game
   */
  drawGames(games, now, own = {}) {
    if (!this.built) return;
    const shown = games.filter((g) => g.current || g.record.moves?.length);
    this.gamesBox.hidden = this.game.kiosk || (shown.length < 2 && !shown.some((g) => !g.current));
    this.gamesSummary.textContent = words.gamesHeading(shown.length);
    this.gamesList.replaceChildren(...shown.map(({ id, record, current, elsewhere }) => {
      const item = el("li", { "data-game": id });
      const entry = words.gameWords(record, now, own);
      if (current) {
        item.append(el("span", { class: "tafl-game-current" }, `${entry} ${words.onTheBoard()}`));
        return item;
      }
      item.append(button(entry, () => this.game.openGame(id), { class: "tafl-game-open", "aria-label": words.openGameLabel(entry, elsewhere) }));
      if (elsewhere) item.append(el("span", { class: "tafl-game-elsewhere" }, ` ${words.inAnotherTab()}`));
      else item.append(button(words.forgetLabel(), () => this.game.forgetGame(id), { class: "tafl-game-forget", "aria-label": words.forgetGameLabel(entry) }));
      return item;
    }));
    this.forgetAllButton.hidden = !games.some((g) => !g.current && !g.elsewhere);
  }

  // "Forget all" asks first, with the number of games it would forget.
  async askForgetAll() {
    const count = await this.game.forgettableGames();
    if (!count) return;
    this.notice(words.forgetAllQuestion(count), [
      [words.forgetAllYes(), () => this.game.forgetAllGames(), { class: "tafl-forget-all-yes" }],
      [words.forgetAllNo(), () => {}, { class: "tafl-forget-all-no" }],
    ], "tafl-forget-all", this.forgetAllButton);
  }

  // A board of a variant page that now plays another variant (a share link, an imported record)
  // says so, and offers the page's own game back.
  drawOtherVariant(state, notes, ownVariant, sandbox) {
    const other = ownVariant && !sandbox && state.variant !== ownVariant;
    if (!other) { this.otherLine?.remove(); this.otherLine = null; return; }
    if (!this.otherLine) {
      this.otherLine = el("p", { class: "tafl-other-variant" });
      this.turnLine.after(this.otherLine);
    }
    this.otherLine.replaceChildren(
      document.createTextNode(words.otherRulesWords(notes)),
      button(words.playOwnVariant(), () => this.game.playOwnVariant(), { class: "tafl-own-variant" }),
    );
  }

  // ------------------------------------------------------------ words

  /** Set the status line: text, or parts from `announcement` (a glossary term becomes a link). */
  say(message, problem = false) {
    if (Array.isArray(message)) {
      const nodes = [];
      for (const part of message) {
        if (nodes.length) nodes.push(document.createTextNode(" "));
        if (typeof part === "string") nodes.push(document.createTextNode(part));
        else if (this.game.glossary) nodes.push(el("a", { href: `${this.game.glossary}#term-${part.term}`, class: "tafl-term" }, part.text));
        else nodes.push(document.createTextNode(part.text));
      }
      this.status.replaceChildren(...nodes);
    } else {
      this.status.textContent = message;
    }
    this.status.classList.toggle("tafl-problem", problem);
  }

  /** Set the status line to text and nodes (a link), as they are. */
  sayNodes(nodes, problem = false) {
    this.status.replaceChildren(...nodes.map((n) => (typeof n === "string" ? document.createTextNode(n) : n)));
    this.status.classList.toggle("tafl-problem", problem);
  }

  /** A notice with buttons, under the status line or after `after` (a game changed in another tab, "Forget all"). */
  notice(text, actions, className, after = this.status) {
    this.container.querySelector(`.${className}`)?.remove();
    const box = el("div", { class: `tafl-notice ${className}`, role: "group", "aria-label": text });
    box.append(el("p", {}, text));
    for (const [label, act, attrs = {}] of actions) {
      box.append(button(label, () => { box.remove(); act(); }, attrs));
    }
    after.after(box);
    return box;
  }

  // ------------------------------------------------------------ input

  activate(name) {
    const game = this.game;
    const state = game.state;
    if (!state) return;
    this.focus = name;
    if (state.outcome) {
      this.say(t("The game is over: {reason}.", { reason: state.outcome.reason }), true);
      return;
    }
    if (!game.isReady()) {
      this.say(t("Wait: the rules engine is not running. Press Retry if it does not come back."), true);
      return;
    }
    if (!game.humanToMove()) {
      this.say(game.thinking ? t("Wait: the computer is thinking.")
        : game.human === "attackers" ? t("You play the attackers; the computer moves the defenders.")
          : t("You play the defenders; the computer moves the attackers."), true);
      return;
    }
    const legal = state.legal;
    if (this.selected && this.selected !== name && !legal[name]) {
      game.play(`${this.selected}-${name}`);  // the engine says why if it is refused
      return;
    }
    const piece = pieceAt(state, name);
    if (!legal[name] && piece) {
      game.explain(name);  // a piece with no move, or the other side's piece: the engine says which
      return;
    }
    if (!piece && !this.selected) {
      this.say(t("{square} is empty. {side} to move: pick up one of their pieces first.", { square: name, side: capitalised(sideWords(state.turn)) }));
      return;
    }
    const picked = legal[name] && this.selected !== name ? name : null;
    this.selected = picked;
    this.draw();
    if (picked) this.say(t("{square} picked up ({piece}): {squares} marked where it can go.", { square: name, piece: pieceWords(piece), squares: plural(legal[name].length, "1 square", "{count} squares") }));
    else this.say(t("Put down. {side} to move.", { side: capitalised(sideWords(state.turn)) }));
  }

  onPointerDown(event) {
    const square = event.target.closest("[data-square]");
    const state = this.game.state;
    if (!square || !state || !state.legal[square.dataset.square] || !this.game.humanToMove()) return;
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
    this.game.play(`${from}-${square.dataset.square}`);
  }

  onKey(event) {
    const state = this.game.state;
    if (!state) return;
    const size = state.size;
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
      this.say(t("Selection cancelled. {side} to move.", { side: capitalised(sideWords(state.turn)) }));
    }
    // Enter and Space press the focused square's button, which arrives as a click.
  }
}
