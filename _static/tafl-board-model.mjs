// What a board shows, worked out from the state its rules worker sends: each square's classes
// and accessible name, the status words, the sides of the move list. Nothing here decides a rule
// (legal targets, captures, results all come in the state), and nothing touches the page, so
// `node --test` checks these functions directly (tests/js/).

import { computerSideWords, playerWords, plural, sideWords, t } from "./tafl-board-words.mjs";

export { playerWords, plural, sideWords, t };

/** @typedef {import("./tafl-protocol.mjs").BoardState} BoardState */
/** @typedef {import("./tafl-protocol.mjs").LastMove} LastMove */

export const FILES = "abcdefghijklmnopqrs";
export const PIECE_NAMES = { t: "attacker", T: "defender", K: "king" };
/** "Attackers", "Defenders" (a heading of the move list). */
export const sideHeading = (side) => (side === "attackers" ? t("Attackers") : t("Defenders"));
/** A piece or a square's kind as a square's accessible name says it. */
export const pieceWords = (piece) => ({ attacker: t("attacker"), defender: t("defender"), king: t("king") })[piece] || piece;

export function capitalise(text) {
  return text ? `${text[0].toUpperCase()}${text.slice(1)}` : text;
}

export function otherSide(side) {
  return side === "attackers" ? "defenders" : "attackers";
}

/** "d1-d4", or "d1-d4, taking d5 and e4". @param {LastMove|null} move */
export function moveWords(move) {
  if (!move) return "";
  const played = `${move.from}-${move.to}`;
  if (!move.captures.length) return played;
  return t("{move}, taking {squares}", { move: played, squares: move.captures.join(t(" and ")) });
}

/** Toggles as a share link writes them: "first:defenders,king_armed:no". */
export function parseToggles(text) {
  const toggles = {};
  for (const pair of (text || "").split(",").filter(Boolean)) {
    const [name, value, extra] = pair.split(":");
    if (!name || !value || extra !== undefined) throw new Error(t("its toggles field holds \"{pair}\", which is not name:value", { pair }));
    toggles[name] = value;
  }
  return toggles;
}

export function formatToggles(toggles) {
  return Object.entries(toggles).map(([name, value]) => `${name}:${value}`).join(",");
}

/** The piece on a square ("attacker", "defender", "king") or null. @param {BoardState} state */
export function pieceAt(state, name) {
  const row = state.ranks[state.size - Number(name.slice(1))];
  return (row && PIECE_NAMES[row[FILES.indexOf(name[0])]]) || null;
}

/** Whose turn it is after `ply` plies of the current line (the sides take turns). @param {BoardState} state */
export function turnAt(state, ply) {
  return (state.cursor - ply) % 2 === 0 ? state.turn : otherSide(state.turn);
}

/** Squares emptied by the last move, the king's too when it took him. @param {BoardState} state */
export function takenSquares(state) {
  const move = state.last_move;
  if (!move) return new Set();
  return new Set(move.king_taken ? [...move.captures, move.king_taken] : move.captures);
}

/**
 * Every square in drawing order (the top left first, or the bottom right when flipped), with its
 * classes and the words of its accessible name. The picture drawn at build time
 * (board.py, static_board_html) gives the same squares the same piece and special-square classes.
 * @param {BoardState} state
 * @returns {{name: string, classes: string[], words: string[]}[]}
 */
export function squareSpecs(state, { flipped = false, selected = null, taken = new Set() } = {}) {
  const { size, special, legal, last_move: last } = state;
  const targets = new Set(selected ? legal[selected] || [] : []);
  const corners = new Set(special.corners);
  const camps = new Set(special.camps);
  const lastSquares = new Set(last ? [last.from, last.to] : []);
  const squares = [];
  for (let row = 0; row < size; row++) {
    for (let column = 0; column < size; column++) {
      const col = flipped ? size - 1 - column : column;
      const rank = flipped ? row + 1 : size - row;
      const name = `${FILES[col]}${rank}`;
      const piece = PIECE_NAMES[state.ranks[size - rank][col]] || null;
      const classes = ["tafl-square"];
      const words = [name, piece ? pieceWords(piece) : t("empty")];
      if (name === special.throne) { classes.push("tafl-throne"); words.push(t("throne")); }
      if (corners.has(name)) { classes.push("tafl-corner"); words.push(t("corner")); }
      if (camps.has(name)) { classes.push("tafl-camp"); words.push(t("camp")); }
      if (piece) classes.push(`tafl-${piece}`);
      if (lastSquares.has(name)) { classes.push("tafl-last"); words.push(t("last move")); }
      if (targets.has(name)) { classes.push("tafl-target"); words.push(t("legal target")); }
      if (name === selected) { classes.push("tafl-selected"); words.push(t("selected")); }
      if (taken.has(name)) { classes.push("tafl-taken"); words.push(t("taken by the last move")); }
      squares.push({ name, classes, words });
    }
  }
  return squares;
}

/** The line under the board: "Taken by the attackers: 3 and the king. Taken by the defenders: 1." */
export function capturedWords(state) {
  const values = { attackers: state.captured.attackers, defenders: state.captured.defenders };
  return state.outcome && state.last_move?.king_taken
    ? t("Taken by the attackers: {attackers} and the king. Taken by the defenders: {defenders}.", values)
    : t("Taken by the attackers: {attackers}. Taken by the defenders: {defenders}.", values);
}

/**
 * A level as the menu and the saved game give it: a level's number, or the name of the
 * people-like player ("people").
 * @param {string|number} value
 * @returns {number|string}
 */
export function parseLevel(value) {
  const text = String(value ?? "").trim();
  return /^\d+$/.test(text) ? Number(text) : text;
}

/**
 * A level's entry in the menu: "level 6 (strongest, about 2.0 s)", or the people-like player's
 * name with its note. ``notesBySize`` gives each board size's notes (``{"11": {"6": "about 2.0 s"}}``);
 * where the board's size was not measured, the page's own note stays.
 * @param {[number|string, string, string]} entry
 * @param {number} size
 * @param {Object<string, Object<string, string>>} notesBySize
 */
export function levelWords([level, name, note], size = 0, notesBySize = {}) {
  const own = notesBySize[String(size)]?.[String(level)];
  const said = own || note;
  if (typeof level !== "number") return said ? t("{name} ({note})", { name, note: said }) : name;
  return said ? t("level {level} ({name}, {note})", { level, name, note: said }) : t("level {level} ({name})", { level, name });
}

/**
 * The status after a state: the move just made (the reader's own move stays in view when the
 * computer answers), the announcements the rules use, and whose turn it is or who won.
 * Returns the parts (text, or {term} for a word the glossary explains) and the reader's move
 * to keep for the computer's answer.
 * @param {BoardState} state
 */
export function announcement(state, { kind = "", thinking = false, human = "both", lastHumanMove = null, terms = [], level = 0 } = {}) {
  const parts = [];
  const move = state.last_move;
  const vsComputer = human !== "both";
  let kept = lastHumanMove;
  if (kind === "ai_move" && move) {
    if (kept) parts.push(t("You played {move}.", { move: kept }));
    parts.push(t("The computer played {move}.", { move: moveWords(move) }));
    kept = null;
  } else if (kind === "play" && move) {
    const words = moveWords(move);
    if (vsComputer) kept = words;
    parts.push(vsComputer ? t("You played {move}.", { move: words }) : `${words}.`);
  }
  if (state.outcome) {
    const winner = state.outcome.winner;
    const who = winner === "attackers" ? t("The attackers win") : winner === "defenders" ? t("The defenders win") : t("The game is drawn");
    const you = vsComputer && winner ? ` ${winner === human ? t("You won.") : t("You lost.")}` : "";
    parts.push(`${who}: ${state.outcome.reason}.${you}`);
  } else {
    for (const word of state.announcements) {
      if (terms.includes(word)) parts.push({ term: word, text: `${capitalise(word)}!` });  // the words of a source, said as it says them
      else if (word === "king threatened") parts.push(t("The king can be taken next move."));
    }
    if (thinking) parts.push(t("The computer ({player}) is thinking…", { player: playerWords(level) }));
    else if (vsComputer && state.turn === human && kind === "new") {
      parts.push(computerSideWords(human, otherSide(human), level));
    } else if (vsComputer && state.turn === human) parts.push(t("Your move ({side}).", { side: sideWords(state.turn) }));
    else parts.push(state.turn === "attackers" ? t("The attackers to move.") : t("The defenders to move."));
  }
  return { parts, lastHumanMove: kept };
}

export { gameWords, whenWords } from "./tafl-board-words.mjs";

/**
 * Where a box that scrolls sideways (a 19x19 board on a phone) should stand to show the last
 * move: both its squares where they fit with a margin, else the square it went to, moving as
 * little as it can. Squares are {left, right} in the box's content, in px.
 */
export function scrollToShow(to, from, { scrollLeft, width }, margin = 8) {
  const left = Math.min(to.left, from.left);
  const right = Math.max(to.right, from.right);
  const [a, b] = right - left + 2 * margin <= width ? [left, right] : [to.left, to.right];
  if (a - margin < scrollLeft) return Math.max(0, a - margin);
  if (b + margin > scrollLeft + width) return b + margin - width;
  return scrollLeft;
}
