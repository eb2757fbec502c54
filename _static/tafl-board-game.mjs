// One board's game: it opens the game (a share link, this tab's own game, the newest saved one
// or the page's start), sends every change to the rules worker and shows the answer, plays the
// computer's side, keeps the game saved, and keeps going when the worker stops. The rules are
// the worker's (tafl_rules.webapi); the drawing and input are the view's (tafl-board-view.mjs).

import { RulesWorker, START_BUDGET_MS, workerURL } from "./tafl-worker-client.mjs";
import { BoardView, button } from "./tafl-board-view.mjs";
import { EarlyMove } from "./tafl-board-early.mjs";
import { announcement, capitalise, parseLevel, takenSquares, turnAt } from "./tafl-board-model.mjs";
import {
  GameStore, MAX_SAVED_GAMES, choiceOfRecord, choiceOfState, readShareLink, recordOfState, shareQuery, sideWasChosen,
  withoutShareLink,
} from "./tafl-board-store.mjs";
import { copyOfListed, copyOpened, forgotten, pageLanguage, plural, strayLinkWords, t } from "./tafl-board-words.mjs";

/** The kiosk's single game of a board (tafl-kiosk.mjs): a new game replaces it. */
export const KIOSK_GAME = "kiosk";

/** @typedef {import("./tafl-protocol.mjs").BoardState} BoardState */
/** @typedef {import("./tafl-protocol.mjs").NewReply} NewReply */

const WAIT_NOTICE_MS = 700;     // a request pending this long makes the board say it is waiting

/** The page's games are kept under its address in the site's first language (its hreflang="x-default"
 *  link, tafl_sphinx.language), so that a page and its translation share them. */
const gamePage = () => new URL(document.querySelector('link[rel="alternate"][hreflang="x-default"]')?.href ?? location.href).pathname;

export class Board {
  /**
   * @param {HTMLElement} container  a div.tafl-board drawn at build time (board.py)
   * @param {{build?: string, kiosk?: boolean, boardCount?: number}} options  `kiosk`: one game per
   *   board, not listed (a museum's screen); `boardCount`: the page's boards, to tell a share link
   *   for a board it does not have
   */
  constructor(container, index, { build = "", kiosk = false, boardCount = 1 } = {}) {
    this.container = container;
    this.index = index;
    this.id = `board-${index}`;
    /** @type {BoardState|null} */
    this.state = null;
    this.notes = { howto: null, terms: [], name: "", rulesName: "" };
    this.thinking = false;
    this.lastHumanMove = null;
    this.autoRetried = -Infinity;
    const data = container.dataset;
    this.pageChoice = {
      variant: data.variant || "",
      toggles: JSON.parse(data.toggles || "{}"),
      rules: "",
      position: data.position || "",
      turn: "",
      moves: (data.moves || "").split(/\s+/).filter(Boolean),
      cursor: null,
    };
    // The computer plays whenever the reader plays one side ("both sides" is the computer off);
    // the level menu always shows the level it plays at, the default until the reader picks another.
    // A board starts with the reader playing the side to move and the computer the other
    // (data-human "" until the first position is known), unless the page or a saved game says otherwise.
    this.levels = JSON.parse(data.levels || "[]");  // [[level, name, note?], ...] from tafl_rules.ai.LEVELS
    this.levelNotes = JSON.parse(data.levelNotes || "{}");  // {size: {level: note}}: the menu's times on each board size
    this.defaultLevel = Number(data.defaultLevel || 3);
    this.defaultHuman = ["both", "attackers", "defenders"].includes(data.human) ? data.human : "";
    this.human = this.defaultHuman;
    this.aiLevel = this.knownLevel(parseLevel(data.ai)) || this.defaultLevel;
    this.pageLevel = this.aiLevel;
    // What the games list calls a game of the board's own rules when they have no catalogue name.
    this.own = { variant: this.pageChoice.variant, name: data.name || "", rules: data.rulesOtn || "" };
    this.kiosk = kiosk;
    this.boardCount = boardCount;
    this.isCopy = false;
    this.glossary = data.glossary || "";
    this.variantsPage = data.variants || "";
    this.sandbox = Boolean(container.closest(".tafl-sandbox"));
    this.view = new BoardView(container, this);
    this.early = new EarlyMove(this);  // a move made on the picture while the rules load
    this.worker = new RulesWorker(this, workerURL(build));
    this.store = new GameStore({
      prefix: `tafl:${gamePage()}:${index}`, local: localStorage, session: sessionStorage,
      locks: navigator.locks || null, single: kiosk ? KIOSK_GAME : "",
    });
    this.gameId = null;
    this.written = null;  // the record last saved for this game (as JSON), so an unchanged game is not saved again
    this.writtenRaw = null;  // ...and as stored, to tell another tab's change to it from ours
    this.openedFromRecord = false;
    this.needsReload = null;  // the words, once this page is of an older build than its rules engine
    addEventListener("storage", (event) => this.storageChanged(event));
  }

  // ------------------------------------------------------------ starting

  async start() {
    const link = readShareLink(location.search, this.index, this.pageChoice);
    const chosen = await this.store.choose();
    const savedRecord = chosen.record;
    const saved = savedRecord ? choiceOfRecord(savedRecord, this.pageChoice) : null;
    if (saved) this.takePrefs(savedRecord);
    this.gameId = chosen.id;
    this.isCopy = Boolean(chosen.copiedFrom) || Boolean(saved && savedRecord.copy);
    let note = null;
    try {
      if (link?.error) throw link.error;
      if (link) {
        if (saved?.moves.length) await this.useGameId(this.store.newId());  // the reader's own game stays as it was
        await this.open(link.choice);
      } else {
        await this.open(saved || this.pageChoice, savedRecord);
      }
    } catch (error) {
      if (error.lost) { this.engineFailed(error.message); return; }
      if (this.gameId !== chosen.id) await this.useGameId(chosen.id);
      // A refused link falls back on the saved game, then on the start; a refused saved game on the start.
      const fallbacks = link && saved ? [saved, this.pageChoice] : [this.pageChoice];
      let shown = null;
      let last = error;
      for (const fallback of fallbacks) {
        try {
          await this.open(fallback, fallback === saved ? savedRecord : null);
          shown = fallback;
          break;
        } catch (next) {
          if (next.lost) { this.engineFailed(next.message); return; }
          last = next;
        }
      }
      if (!shown) { this.fail(last); return; }
      const where = shown === saved && saved.moves.length ? t("your saved game") : t("the start of the game");
      note = link ? this.refusedLink(error, where)
        : [t("The saved game could not be restored ({error}); a new game has started.", { error: error.message })];
    }
    if (link) history.replaceState(history.state, "", withoutShareLink(location.href));
    if (link && !note) this.keepSharedGame();
    const stray = this.strayLink(link);
    if (stray) note = [strayLinkWords(stray, this.boardCount)];
    if (note) this.view.sayNodes(note, true);
    else if (link && saved && saved.moves.length) this.offerBack(chosen.copiedFrom ?? chosen.id);
    else if (chosen.copiedFrom && !link && saved?.moves.length) this.say(copyOpened());
    this.drawGames();
    if (!(await this.early.playKept(this.state))) this.maybeComputerMove();
  }

  // A shared game opens as it was shared: the computer, if it plays, takes the side that is not to
  // move, so that nothing is played on it before the reader has looked.
  keepSharedGame() {
    if (!this.computerToMove()) return;
    this.human = this.state.turn;
    this.view.syncMenus();
    this.save();
    this.say(this.words(this.state, { kind: "new" }));
  }

  /** The board field of a share link for no board of this page (said by the first board only), or "". */
  strayLink(link) {
    if (link || this.index !== 0) return "";
    const board = new URLSearchParams(location.search).get("board");
    if (board === null || (/^\d+$/.test(board) && Number(board) < this.boardCount)) return "";
    history.replaceState(history.state, "", withoutShareLink(location.href));
    return board;
  }

  /** The words for a refused share link; an unknown variant links the list of reconstructions. */
  refusedLink(error, where) {
    const after = t(". The board shows {where} instead.", { where });
    if (error.payload?.unknown_variant && this.variantsPage) {
      const link = document.createElement("a");
      link.href = this.variantsPage;
      link.textContent = t("the list of reconstructions");
      return [t("The share link was refused: {error} (see ", { error: error.message }), link, `)${after}`];
    }
    return [`${t("The share link was refused: {error}", { error: error.message })}${after}`];
  }

  /** Put game `id` (a new one, or one of this tab's own) on this tab's board from now on. */
  async useGameId(id) {
    await this.store.hold(id);
    this.gameId = id;
    this.store.tabGame = id;
    this.written = null;
    this.writtenRaw = null;
  }

  /** Before a game replaces the one on the board (a restart, an import, the page's own variant):
   *  a game with moves stays in Your games here, and the new one gets an id of its own. */
  async keepGameOnBoard() {
    if (this.state?.line.length) await this.useGameId(this.store.newId());
    this.isCopy = false;
  }

  // A saved game comes back with the side and level it was played with (the side of a game saved
  // with no moves by an older build is the default of its time, not the reader's choice).
  takePrefs(record) {
    if (sideWasChosen(record) && ["both", "attackers", "defenders"].includes(record.human)) this.human = record.human;
    if (record.ai === 0) this.human = "both";  // saved when the menu still had "off"
    this.aiLevel = this.knownLevel(parseLevel(record.ai)) || this.aiLevel;
    this.view.syncMenus();
  }

  // A share link took the place of the reader's own game on this board: keep that game a click away.
  offerBack(ownId) {
    this.say(t("The shared game is on the board ({moves}); your own game was kept.", { moves: plural(this.state.line.length, "1 move", "{count} moves") }));
    this.status.after(button(t("Back to your own game"), async (event) => {
      event.currentTarget.remove();
      if (await this.openGame(ownId, { quiet: true })) this.say(t("Your own game is back on the board."));
    }, { class: "tafl-back" }));
  }

  get status() {
    return this.view.status;
  }

  say(message, problem = false) {
    this.view.say(message, problem);
  }

  /** Set up `choice` on the board. `record`: the saved record it came from (not saved again while unchanged). */
  async open(choice, record = null) {
    const payload = { variant: choice.variant, toggles: choice.toggles, position: choice.position || "", turn: choice.turn || "", moves: choice.moves };
    if (choice.rules) payload.rules = choice.rules;
    if (Number.isInteger(choice.cursor)) payload.cursor = choice.cursor;
    if (!this.worker.ready) this.startWaiting();
    const state = await this.request("new", payload, { timeout: START_BUDGET_MS });
    this.openedFromRecord = Boolean(record);
    this.show(state, { kind: "new" });
    this.container.dataset.ready = "true";
    return state;
  }

  isReady() {
    return this.container.dataset.ready === "true";
  }

  // Says how far the engine's loading has come (or how long the board has waited for it), with
  // what becomes of a move made on the picture meanwhile.
  startWaiting() {
    this.waitBegan = performance.now();
    clearInterval(this.waitTimer);
    this.waitTimer = setInterval(() => this.engineProgress(this.worker.loading), 1000);
  }

  engineProgress({ percent, step }) {
    if (this.worker.ready || this.container.dataset.ready !== "false" || this.waitBegan === undefined) {
      clearInterval(this.waitTimer);
      return;
    }
    const seconds = Math.round((performance.now() - this.waitBegan) / 1000);
    const done = step === "start" ? t("starting Python") : percent === null ? `${seconds} s` : `${percent} %`;
    this.say(`${t("Loading the rules engine… ({done})", { done })} ${this.early.words()}`.trim());
  }

  fail(error) {
    this.container.classList.add("tafl-failed");
    this.container.dataset.ready = "error";
    this.say(t("The board could not start: {error}", { error: error.message }), true);
  }

  // ------------------------------------------------------------ saving, sharing, the games list

  recordText(state) {
    const record = recordOfState(state, {
      human: this.human || state.turn, ai: this.aiLevel, name: this.notes.name || this.notes.rulesName, copy: this.isCopy,
    });
    return JSON.stringify(record);
  }

  save() {
    if (!this.state || this.gameId === null) return;
    const text = this.recordText(this.state);
    if (text === this.written) return;  // unchanged (a game opened as it was saved is not saved again)
    const raw = this.store.write(this.gameId, JSON.parse(text));
    if (raw === false) {
      this.say(t("This browser's storage is full or switched off, so this game is no longer kept over a reload."), true);
      return;
    }
    this.written = text;
    this.writtenRaw = raw;
    this.drawGames({ prune: true });
  }

  /** Redraw the games list; `prune`: first forget the oldest games beyond the list's limit. */
  async drawGames({ prune = false } = {}) {
    if (this.gameId === null) return;
    const elsewhere = await this.store.heldElsewhere();
    if (prune) this.store.prune(MAX_SAVED_GAMES, new Set([this.gameId, ...elsewhere]));
    const games = this.store.list().map(({ id, record }) => ({ id, record, current: id === this.gameId, elsewhere: elsewhere.has(id) }));
    if (!games.some((g) => g.current) && this.state) {
      games.unshift({ id: this.gameId, record: JSON.parse(this.recordText(this.state)), current: true, elsewhere: false });
    }
    this.view.drawGames(games, Date.now(), this.own);
  }

  /** Put saved game `id` on the board (a copy, when another tab has it on its board). */
  async openGame(id, { quiet = false } = {}) {
    if (this.busy()) return false;
    const record = this.store.read(id);
    const choice = choiceOfRecord(record, this.pageChoice);
    if (!choice) { this.say(t("That game is no longer saved here."), true); this.drawGames(); return false; }
    const previousId = this.gameId;
    const copied = !(await this.store.hold(id));
    await this.useGameId(copied ? this.store.newId() : id);
    this.lastHumanMove = null;
    this.takePrefs(record);
    try {
      await this.open(choice, record);
    } catch (error) {
      await this.useGameId(previousId);
      if (!error.lost) this.say(t("That game could not be opened: {error}.", { error: error.message }), true);
      return false;
    }
    this.isCopy = copied || Boolean(record.copy);
    if (copied) this.say(copyOfListed());
    else if (!quiet) this.say(t("The game of {moves} is on the board.", { moves: plural(choice.moves.length, "1 move", "{count} moves") }));
    this.drawGames();
    this.maybeComputerMove();
    return true;
  }

  forgetGame(id) {
    if (id === this.gameId) return;
    this.store.remove(id);
    this.drawGames();
    this.say(forgotten(1));
  }

  /** Forget every game of the list but the one on the board and those open in other tabs. */
  async forgetAllGames() {
    const elsewhere = await this.store.heldElsewhere();
    const count = this.store.forgetAll(new Set([this.gameId, ...elsewhere]));
    await this.drawGames();
    this.say(forgotten(count));
  }

  /** How many games "Forget all" would forget. */
  async forgettableGames() {
    const elsewhere = await this.store.heldElsewhere();
    return this.store.list().filter(({ id }) => id !== this.gameId && !elsewhere.has(id)).length;
  }

  // Another tab saved a game of this board: the list follows, and if it changed the very game on
  // this board (a browser without locks, or storage edited by hand), say so and keep both.
  storageChanged(event) {
    const id = this.store.idOfKey(event.key);
    if (id === null && event.key !== null) return;
    if (id !== null && id === this.gameId && this.state && event.newValue !== this.writtenRaw) {
      if (event.newValue === null) {  // forgotten in another tab while on this board: keep it
        this.written = null;
        this.save();
      } else {
        this.changedElsewhere(id);
      }
    }
    this.drawGames();
  }

  changedElsewhere(id) {
    this.view.notice(t("This game was changed in another tab."), [
      [t("Show the other tab's version"), () => this.openGame(id)],
      [t("Keep this one"), async () => {
        await this.useGameId(this.store.newId());
        this.save();
        this.say(t("This game is kept as a game of its own; the other tab's version is in Your games here."));
        this.drawGames();
      }],
    ], "tafl-changed-elsewhere");
    this.say(t("This game was changed in another tab: choose which version to keep on this board (both stay in Your games here)."), true);
  }

  shareURL() {
    return `${location.origin}${location.pathname}?${shareQuery(this.state, this.index)}`;
  }

  async share() {
    const url = this.shareURL();
    const field = this.view.shareField;
    field.hidden = false;
    field.value = url;
    field.select();
    try {
      await navigator.clipboard.writeText(url);
      this.say(t("The share link is copied."));
    } catch {
      this.say(t("The share link is selected below; copy it from there."));
    }
  }

  async restart(choice = null) {
    if (this.busy()) return false;
    const s = this.state;
    const next = choice || (s ? { ...choiceOfState(s), moves: [], cursor: null } : this.pageChoice);
    this.lastHumanMove = null;
    await this.keepGameOnBoard();
    try {
      await this.open(next);
    } catch (error) {
      if (error.lost) return false;
      this.say(t("The game could not restart: {error}", { error: error.message }), true);
      return false;
    }
    this.maybeComputerMove();
    return true;
  }

  async playOwnVariant() {
    await this.restart({ ...this.pageChoice, moves: [], cursor: null });
  }

  // A kiosk left alone (tafl-kiosk.mjs): the board's game is forgotten and the page's own game
  // set out again with the page's side and level, as the next visitor should find it.
  async resetForKiosk() {
    if (this.thinking) {  // only ending the worker ends a search; the new game starts a fresh one
      this.worker.stop();
      this.worker.failAll(t("the kiosk set the board out again"), false);
      this.thinking = false;
    }
    this.store.remove(this.gameId);
    this.written = null;
    this.writtenRaw = null;
    this.lastHumanMove = null;
    this.isCopy = false;
    this.human = this.defaultHuman;
    this.aiLevel = this.pageLevel;
    this.view.resetForKiosk();
    this.container.dataset.ready = "false";
    try {
      await this.open({ ...this.pageChoice, moves: [], cursor: null });
    } catch (error) {
      if (!error.lost) this.engineFailed(error.message);
      return;
    }
    this.maybeComputerMove();
  }

  // ------------------------------------------------------------ the engine's life

  engineReady() {
    clearInterval(this.waitTimer);
  }

  engineLost(message, how) {
    clearInterval(this.waitTimer);
    this.thinking = false;
    if (this.view.stopButton) this.view.stopButton.hidden = true;
    this.container.removeAttribute("aria-busy");
    // A crash of a worker that had a game is repaired at once, once a minute at most.
    if (how.crashed && this.state && performance.now() - this.autoRetried > 60000) {
      this.autoRetried = performance.now();
      this.resync(message);
      return;
    }
    this.engineFailed(message, how);
  }

  engineFailed(message, how = {}) {
    if (how.reload) this.needsReload = message;
    if (this.needsReload) {  // a page of another build than the site now serves: only a reload helps
      message = this.needsReload;
      if (this.state) this.container.dataset.ready = "false";
      else this.fail(new Error(message));
      this.say(`${capitalise(message)}.`, true);
      if (!this.container.querySelector(".tafl-reload")) {
        this.status.after(button(t("Reload the page"), () => location.reload(), { class: "tafl-reload" }));
      }
      return;
    }
    if (!this.state) {
      this.fail(new Error(message));
    } else {
      this.container.dataset.ready = "false";
      this.say(t("{error}. The game is kept; press Retry to start the rules engine again.", { error: capitalise(message) }), true);
    }
    if (this.view.retryButton) this.view.retryButton.hidden = false;
    else this.showRetryOnly();
  }

  // A board that never started has no controls yet: give it a Retry button of its own.
  showRetryOnly() {
    if (this.container.querySelector(".tafl-retry")) return;
    this.container.append(button(t("Retry"), () => this.retry(), { class: "tafl-retry" }));
  }

  async retry() {
    this.container.querySelector(".tafl-retry:not([hidden])")?.setAttribute("hidden", "");
    this.container.classList.remove("tafl-failed");
    this.container.dataset.ready = "false";
    this.say(t("Starting the rules engine again…"));
    if (this.state) await this.resync(null);
    else await this.start();
  }

  // The worker was replaced: replay this board's game into the new one.
  async resync(reason) {
    this.container.dataset.ready = "false";
    try {
      await this.open(choiceOfState(this.state));
      this.say(reason ? t("The rules engine was restarted ({reason}); the game was replayed.", { reason })
        : t("The rules engine is running again; the game was replayed."));
      this.maybeComputerMove({ announced: true });
    } catch (error) {
      if (!error.lost) this.engineFailed(error.message);
    }
  }

  // ------------------------------------------------------------ talking to the worker

  // A page in another language asks for the engine's words in it (an English page sends no `lang`).
  async request(type, payload, { timeout = 0 } = {}) {
    const lang = pageLanguage();
    return this.worker.request(type, { board: this.id, ...payload, ...(lang === "en" ? {} : { lang }) }, timeout);
  }

  // While the engine is down (before Retry), nothing is sent: a fresh worker would not hold the game.
  engineDown() {
    if (this.isReady()) return false;
    const retry = this.view.retryButton;
    this.say(retry && !retry.hidden
      ? t("The rules engine is not running, so nothing was done. The game is kept; press Retry to start the engine again.")
      : t("Wait: the rules engine is starting; nothing was done."), true);
    return true;
  }

  // One request that changes the game; a refusal or a lost engine is said in words.
  async send(type, payload, { refused = null } = {}) {
    if (this.engineDown()) return null;
    const waiting = setTimeout(() => {
      if (!this.thinking) this.say(t("Waiting for the rules engine…"));
    }, WAIT_NOTICE_MS);
    try {
      const state = await this.request(type, payload);
      this.show(state, { kind: type });
      return state;
    } catch (error) {
      const what = { play: () => t("Your move {move} was not played", { move: payload.move }), undo: () => t("Undo was not done"),
        redo: () => t("Redo was not done"), goto: () => t("The game did not go to that move"),
        import: () => t("The record was not imported") }[type];
      if (error.lost) {
        this.say(t("{what}: {error}. The game is kept; press Retry to start the rules engine again.",
          { what: what ? what() : t("That was not done"), error: error.message }), true);
      } else if (refused) {
        refused(error);
      } else {
        this.say(error.payload && error.payload.illegal ? t("Illegal move: {reason}.", { reason: error.message }) : `${error.message}.`, true);
      }
      this.view.selected = null;
      this.view.draw();
      return null;
    } finally {
      clearTimeout(waiting);
    }
  }

  play(move) {
    this.send("play", { move });
  }

  explain(square) {
    this.request("explain", { square }).catch((error) => this.say(`${capitalise(error.message)}.`, true));
  }

  async exportRecord() {
    if (this.engineDown()) return;
    try {
      const reply = await this.request("export", {});
      this.view.recordText.value = reply.otn;
      this.say(t("The game record is in the box below."));
    } catch (error) {
      this.say(error.message, true);
    }
  }

  // An imported record replaces the board's game; the game it replaces stays in Your games here.
  async importRecord(text) {
    if (this.busy()) return;
    const previousId = this.gameId;
    await this.keepGameOnBoard();
    const state = await this.send("import", { otn: text }, {
      refused: (error) => this.say(t("The record was refused and the game is unchanged: {error}.", { error: error.message }), true),
    });
    if (state) this.say(t("Game record imported: {moves}.", { moves: plural(state.line.length, "1 move", "{count} moves") }));
    else if (this.gameId !== previousId) await this.useGameId(previousId);
  }

  // ------------------------------------------------------------ moving through the game

  async goto(ply) {
    if (this.busy()) return;
    this.lastHumanMove = null;
    await this.send("goto", { ply });
  }

  async redo() {
    if (!this.busy()) await this.send("redo", {});
  }

  // Against the computer, Undo goes back to the reader's own previous turn (taking back the
  // computer's reply too); if the computer is then to move, it moves.
  async undo() {
    const s = this.state;
    if (!s || this.busy()) return;
    let ply = s.cursor - 1;
    if (this.computerPlays() && ply > 0 && turnAt(s, ply) !== this.human) ply -= 1;
    this.lastHumanMove = null;
    await this.send(ply === s.cursor - 1 ? "undo" : "goto", ply === s.cursor - 1 ? {} : { ply });
  }

  // ------------------------------------------------------------ the computer opponent

  computerPlays() {
    return this.human !== "both";
  }

  knownLevel(level) {
    return this.levels.some(([n]) => n === level) ? level : 0;
  }

  humanToMove() {
    const s = this.state;
    return Boolean(s && !s.outcome && !this.thinking && this.isReady() && (!this.computerPlays() || this.human === s.turn));
  }

  computerToMove() {
    const s = this.state;
    return Boolean(s && !s.outcome && this.computerPlays() && s.turn !== this.human && this.isReady());
  }

  // Choosing a side has the computer play the other side, at the level the menu shows;
  // "both sides" turns it off.
  chooseSide(side) {
    if (side === this.human) return;
    this.human = side;
    this.view.syncMenus();
    this.save();
    // the status line follows the choice, unless it holds a problem (a refused link) not yet read
    if (this.state && !this.thinking && !this.computerToMove() && !this.status.classList.contains("tafl-problem")) {
      this.say(this.words(this.state));
    }
    this.maybeComputerMove();
  }

  // Choosing a level while playing both sides gives the reader the side to move.
  chooseLevel(level) {
    this.aiLevel = level;
    if (this.human === "both" && this.state) this.human = this.state.turn;
    this.view.syncMenus();
    this.save();
    this.maybeComputerMove();
  }

  async maybeComputerMove({ announced = false } = {}) {
    if (!this.computerToMove() || this.thinking) return;
    this.thinking = true;
    this.view.stopButton.hidden = false;
    this.container.setAttribute("aria-busy", "true");
    if (!announced) this.say(this.words(this.state, { thinking: true }));
    try {
      await this.send("ai_move", { level: this.aiLevel, seed: this.index });
    } finally {
      this.thinking = false;
      this.view.stopButton.hidden = true;
      this.container.removeAttribute("aria-busy");
    }
    if (this.computerToMove()) this.maybeComputerMove();  // the reader changed sides meanwhile
  }

  // While the computer searches, the game stays as it is: the reader may stop the search.
  busy() {
    if (!this.thinking) return false;
    this.say(t("Wait: the computer is thinking (or press Stop thinking)."), true);
    return true;
  }

  // Terminating the worker is the only way to end a Python search at once; the computer is
  // switched off first, or the replayed game would start the same search again.
  async stopThinking() {
    this.human = "both";
    this.view.syncMenus();
    const s = this.state;
    this.worker.stop();
    this.worker.failAll(t("the search was stopped"), false);
    this.thinking = false;
    this.container.dataset.ready = "false";
    try {
      await this.open(choiceOfState(s));
    } catch (error) {
      if (!error.lost) this.engineFailed(error.message);
      return;
    }
    this.save();
    this.say(t("Search stopped; the computer is off (you play both sides). Move for it yourself, or choose a side to let it play again."));
  }

  // ------------------------------------------------------------ showing a state

  words(state, { kind = "", thinking = false } = {}) {
    const { parts, lastHumanMove } = announcement(state, {
      kind, thinking, human: this.human, lastHumanMove: this.lastHumanMove, terms: this.notes.terms, level: this.aiLevel,
    });
    this.lastHumanMove = lastHumanMove;
    return parts;
  }

  /** @param {BoardState|NewReply} state */
  show(state, { kind = "" } = {}) {
    this.state = state;
    if (!this.human) {  // the first position of a board left to its default: the reader has the move
      this.human = state.turn;
      this.view.syncMenus();
    }
    if (state.howto) this.notes = { howto: state.howto, terms: state.terms || [], name: state.variant_name || "", rulesName: state.rules_name || "" };
    if (this.openedFromRecord) {  // a game as it was saved is not saved again (nor is a copy, until it changes)
      this.openedFromRecord = false;
      this.written = this.recordText(state);
      this.writtenRaw = this.store.readRaw(this.gameId);
    }
    this.view.show(state, this.notes, takenSquares(state));
    this.view.drawOtherVariant(state, this.notes, this.pageChoice.variant, this.sandbox);
    this.save();
    const computerNext = kind !== "new" && kind !== "ai_move" && this.computerToMove();
    this.say(this.words(state, { kind, thinking: computerNext }));
    if (computerNext) setTimeout(() => this.maybeComputerMove({ announced: true }), 0);
  }
}
