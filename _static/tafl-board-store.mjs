// Where a board's games are kept, and how a share link carries one.
//
// Every game of a board is kept in localStorage under a key of its own
// (tafl:<page path>:<board>:g:<id>), so two tabs never write one slot. A tab remembers which of
// them it has on its board (sessionStorage, which is the tab's own), and holds a Web Lock named
// after it while it is open: a tab opened later that finds the newest game held opens a copy of
// it instead of taking it over. A game saved by an older build (one slot per board, version 2)
// becomes a game of its own the first time a page of this build opens.
//
// Nothing here touches the page: the storages and the lock manager are passed in, so
// `node --test` checks this module with stand-ins (tests/js/).

import { formatToggles, parseToggles } from "./tafl-board-model.mjs";
import { t } from "./tafl-board-words.mjs";

/** @typedef {import("./tafl-protocol.mjs").BoardState} BoardState */

/** The most moves a board keeps in one game: tafl_rules.webapi.MAX_MOVES (a test holds the two equal). */
export const MAX_MOVES = 10000;

/** The parameters a share link may carry; other parameters of an address are left alone. */
export const SHARE_FIELDS = ["board", "variant", "toggles", "rules", "position", "turn", "moves", "ply"];
export const STORAGE_VERSION = 4;  // 4: the menus' side is the reader's own (3 saved the old default, both sides)
/** At most this many games of a board are kept; the oldest not open in any tab is forgotten first. */
export const MAX_SAVED_GAMES = 10;
const SIDES = ["attackers", "defenders"];

/**
 * A board's game as the rules worker's `new` request takes it.
 * @typedef {Object} Choice
 * @property {string} variant
 * @property {Object<string, string>} toggles
 * @property {string} rules  an OTN rules string, for a game without a catalogue variant
 * @property {string} position  the start position ("" = the rules' own)
 * @property {string} turn  the side that moved first ("" = the rules' own)
 * @property {string[]} moves
 * @property {number|null} cursor
 */

/** The game on a board as a choice that sets it up again. @param {BoardState} state @returns {Choice} */
export function choiceOfState(state) {
  return {
    variant: state.variant, toggles: state.toggles, rules: state.variant ? "" : state.rules_otn,
    position: state.start_position, turn: state.start_turn, moves: state.line, cursor: state.cursor,
  };
}

/**
 * The game a share link of board `index` holds, or null when the link is for another board
 * (or there is none); `{error}` when it cannot be read.
 * ?board=0&variant=lewis-1&toggles=first:defenders&moves=d1-d3,e5-e2&ply=1; a game without a
 * catalogue variant (an imported record) carries rules= instead, and a game that did not start as
 * its rules do carries position= and turn= (links made before they existed still open).
 * @param {string} search  the address's query
 * @param {Choice} pageChoice  the board's own game, for a link that names no rules
 */
export function readShareLink(search, index, pageChoice) {
  const params = new URLSearchParams(search);
  if (params.get("board") !== String(index)) return null;
  const choice = {
    variant: params.get("variant") || "", toggles: {}, rules: params.get("rules") || "",
    position: params.get("position") || "", turn: params.get("turn") || "", moves: [], cursor: null,
  };
  try {
    choice.toggles = parseToggles(params.get("toggles"));
    if (!choice.variant && !choice.rules) {  // a link naming no rules plays the page's own
      choice.variant = pageChoice.variant;
      if (!params.has("toggles")) choice.toggles = pageChoice.toggles;
      if (!params.has("position")) choice.position = pageChoice.position;
    }
    if (choice.turn && !SIDES.includes(choice.turn)) {
      throw new Error(t("its turn field must be attackers or defenders, not \"{turn}\"", { turn: choice.turn.slice(0, 20) }));
    }
    choice.moves = readMoves(params.get("moves") || "");
    if (choice.moves.length > MAX_MOVES) {
      throw new Error(t("it holds {count} moves; a board keeps at most {most}", { count: choice.moves.length, most: MAX_MOVES }));
    }
    if (params.has("ply")) {
      const ply = params.get("ply");
      if (!/^\d{1,6}$/.test(ply)) throw new Error(t("its ply field must be a whole number, not \"{ply}\"", { ply: ply.slice(0, 20) }));
      choice.cursor = Number(ply);
    }
  } catch (error) {
    return { choice: null, error };
  }
  return { choice };
}

/** The moves field of a share link: moves between commas (spaces around them are dropped);
 *  an empty one (two commas in a row) is refused by its number. */
function readMoves(text) {
  if (!text.trim()) return [];
  const moves = text.split(",").map((move) => move.trim());
  const empty = moves.indexOf("");
  if (empty >= 0) throw new Error(t("its moves field has no move {number} (two commas in a row, or one at an end)", { number: empty + 1 }));
  return moves;
}

/** The board a share link is for (the text of its board field), or null when the address holds no share link. */
export function linkedBoard(search) {
  const params = new URLSearchParams(search);
  return params.has("board") ? params.get("board") : null;
}

/** The query of a share link to the game on board `index`. @param {BoardState} state */
export function shareQuery(state, index) {
  const params = new URLSearchParams({ board: String(index) });
  if (state.variant) params.set("variant", state.variant);
  else params.set("rules", state.rules_otn);
  if (Object.keys(state.toggles).length) params.set("toggles", formatToggles(state.toggles));
  if (state.start_position) params.set("position", state.start_position);
  if (state.start_turn) params.set("turn", state.start_turn);
  if (state.line.length) params.set("moves", state.line.join(","));
  if (state.cursor !== state.line.length) params.set("ply", String(state.cursor));
  return params.toString();
}

/** An address without the share link's parameters (others, such as utm_source, stay). */
export function withoutShareLink(href) {
  const url = new URL(href);
  for (const field of SHARE_FIELDS) url.searchParams.delete(field);
  return url.href;
}

/** What is saved of a game: the choice that sets it up again, its name, the reader's side and level,
 *  how it ended ("attackers", "defenders", "draw" or "") and whether it is a copy of a game open in another tab. */
export function recordOfState(state, { human, ai, name, copy = false }) {
  const { variant, toggles, rules, position, turn, moves, cursor } = choiceOfState(state);
  const result = state.outcome ? state.outcome.winner || "draw" : "";
  const record = { version: STORAGE_VERSION, name, variant, toggles, rules, position, turn, moves, cursor, human, ai, result };
  if (copy) record.copy = true;
  return record;
}

/** Whether a saved record's side ("both", "attackers", "defenders") is the reader's choice: a game
 *  saved before version 4 with no moves kept the old default (both sides), not a choice. */
export function sideWasChosen(record) {
  return Number(record?.version) >= 4 || (Array.isArray(record?.moves) && record.moves.length > 0);
}

/** A saved record as a choice (checked field by field: storage is outside the page's control), or null. */
export function choiceOfRecord(record, pageChoice) {
  if (!record || typeof record !== "object" || !Array.isArray(record.moves)) return null;
  if (!record.version && record.variant !== pageChoice.variant) return null;  // saved before version 2
  const text = (value, otherwise = "") => (typeof value === "string" ? value : otherwise);
  return {
    variant: text(record.variant),
    toggles: record.toggles && typeof record.toggles === "object" && !Array.isArray(record.toggles) ? record.toggles : {},
    rules: text(record.rules),
    // version 2 kept the page's own start position only, and always the rules' first side
    position: text(record.position, pageChoice.position),
    turn: SIDES.includes(record.turn) ? record.turn : "",
    moves: record.moves.map(String),
    cursor: Number.isInteger(record.cursor) ? record.cursor : null,
  };
}

function randomId() {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

/** The games of one board of one page, in this browser. */
export class GameStore {
  /**
   * @param {{prefix: string, local: Storage, session: Storage, locks?: LockManager|null,
   *          now?: () => number, newId?: () => string}} options
   */
  constructor({ prefix, local, session, locks = null, now = Date.now, newId = randomId, single = "" }) {
    this.prefix = prefix;
    // A kiosk keeps one game per board, under this id: a new game replaces it, and nothing piles up.
    this.single = single;
    if (single) {
      newId = () => single;
      locks = null;
    }
    this.local = local;
    this.session = session;
    this.locks = locks;
    this.now = now;
    this.newId = newId;
    this.heldId = null;
    this.releaseLock = null;
  }

  key(id) {
    return `${this.prefix}:g:${id}`;
  }

  /** The game id in a storage key of this board, or null. */
  idOfKey(key) {
    const start = `${this.prefix}:g:`;
    return typeof key === "string" && key.startsWith(start) ? key.slice(start.length) : null;
  }

  get tabGame() {
    try { return this.session.getItem(`${this.prefix}:tab`); } catch { return null; }
  }

  set tabGame(id) {
    try { this.session.setItem(`${this.prefix}:tab`, id); } catch { /* storage disabled */ }
  }

  readRaw(id) {
    try { return this.local.getItem(this.key(id)); } catch { return null; }
  }

  read(id) {
    try { return JSON.parse(this.readRaw(id) || "null"); } catch { return null; }
  }

  /** Save a record (stamped with the time); false when storage refused it (full or disabled). */
  write(id, record) {
    const text = JSON.stringify({ ...record, saved: this.now() });
    try {
      this.local.setItem(this.key(id), text);
      return text;
    } catch {
      return false;
    }
  }

  remove(id) {
    try { this.local.removeItem(this.key(id)); } catch { /* storage disabled */ }
  }

  /** The one slot of a build before this one becomes a game of its own. */
  migrate() {
    let old;
    try { old = this.local.getItem(this.prefix); } catch { return; }
    if (old === null) return;
    try {
      this.local.setItem(this.key(this.newId()), old);
      this.local.removeItem(this.prefix);
    } catch { /* storage full or disabled: the old slot stays */ }
  }

  /** Every saved game of this board, newest first: [{id, record}]. */
  list() {
    const games = [];
    let count = 0;
    try { count = this.local.length; } catch { return games; }
    for (let i = 0; i < count; i++) {
      const id = this.idOfKey(this.local.key(i));
      if (id === null || (this.single && id !== this.single)) continue;
      const record = this.read(id);
      if (record && typeof record === "object" && Array.isArray(record.moves)) games.push({ id, record });
    }
    return games.sort((a, b) => (Number(b.record.saved) || 0) - (Number(a.record.saved) || 0));
  }

  /**
   * Forget the oldest games beyond `limit`, never those in `keep` (the game on this board, games
   * open in other tabs); returns the ids forgotten.
   */
  prune(limit = MAX_SAVED_GAMES, keep = new Set()) {
    const games = this.list();
    let over = games.length - limit;
    const forgotten = [];
    for (let i = games.length - 1; i >= 0 && over > 0; i--) {
      if (keep.has(games[i].id)) continue;
      this.remove(games[i].id);
      forgotten.push(games[i].id);
      over--;
    }
    return forgotten;
  }

  /** Forget every game of this board but those in `keep`; returns how many. */
  forgetAll(keep = new Set()) {
    const gone = this.list().filter(({ id }) => !keep.has(id));
    for (const { id } of gone) this.remove(id);
    return gone.length;
  }

  lockName(id) {
    return this.key(id);
  }

  /**
   * Hold the lock of game `id` while this tab has it on its board; true when held (or when the
   * browser has no locks). `waitMs` waits that long for a tab that is going away (a reload) to
   * let it go; 0 takes it only if it is free now.
   */
  async hold(id, waitMs = 0) {
    this.release();
    if (!this.locks) { this.heldId = id; return true; }
    const options = waitMs ? { signal: AbortSignal.timeout(waitMs) } : { ifAvailable: true };
    try {
      return await new Promise((resolve, reject) => {
        this.locks.request(this.lockName(id), options, (lock) => {
          if (!lock) { resolve(false); return undefined; }
          this.heldId = id;
          resolve(true);
          return new Promise((release) => { this.releaseLock = release; });
        }).catch(reject);
      });
    } catch (error) {
      if (error?.name === "AbortError" || error?.name === "TimeoutError") return false;
      this.heldId = id;  // a lock manager that fails: behave as a browser without one
      return true;
    }
  }

  release() {
    if (this.releaseLock) this.releaseLock();
    this.releaseLock = null;
    this.heldId = null;
  }

  /** Ids of this board's games that another tab has on its board. */
  async heldElsewhere() {
    if (!this.locks?.query) return new Set();
    try {
      const { held = [] } = await this.locks.query();
      const mine = this.heldId === null ? null : this.lockName(this.heldId);
      return new Set(held.map((lock) => lock.name).filter((name) => name !== mine)
        .map((name) => this.idOfKey(name)).filter((id) => id !== null));
    } catch {
      return new Set();
    }
  }

  /**
   * The game this tab opens with: its own (kept over a reload), else the newest game of the board,
   * or a copy of it when another tab has it on its board; `copiedFrom` names the original.
   * @returns {Promise<{id: string, record: object|null, copiedFrom: string|null}>}
   */
  async choose() {
    if (this.single) return { id: this.single, record: this.read(this.single), copiedFrom: null };
    this.migrate();
    const games = this.list();
    const own = games.find((game) => game.id === this.tabGame);
    const pick = own || games[0];
    if (!pick) {
      const id = this.newId();
      await this.hold(id);
      this.tabGame = id;
      return { id, record: null, copiedFrom: null };
    }
    if (await this.hold(pick.id, own ? 1500 : 0)) {
      this.tabGame = pick.id;
      return { id: pick.id, record: pick.record, copiedFrom: null };
    }
    const id = this.newId();
    await this.hold(id);
    this.tabGame = id;
    return { id, record: pick.record, copiedFrom: pick.id };
  }
}
