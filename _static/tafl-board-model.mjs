// What a board shows, worked out from the state its rules worker sends: each square's classes
// and accessible name, the status words, the sides of the move list. Nothing here decides a rule
// (legal targets, captures, results all come in the state), and nothing touches the page, so
// `node --test` checks these functions directly (tests/js/).

import { computerSideWords, playerWords, plural } from "./tafl-board-words.mjs";

export { playerWords, plural };

/** @typedef {import("./tafl-protocol.mjs").BoardState} BoardState */
/** @typedef {import("./tafl-protocol.mjs").LastMove} LastMove */

export const FILES = "abcdefghijklmnopqrs";
export const PIECE_NAMES = { t: "attacker", T: "defender", K: "king" };
export const SIDE_WORDS = { attackers: "Attackers", defenders: "Defenders" };

export function capitalise(text) {
  return text ? `${text[0].toUpperCase()}${text.slice(1)}` : text;
}

export function otherSide(side) {
  return side === "attackers" ? "defenders" : "attackers";
}

/** "d1-d4", or "d1-d4, taking d5 and e4". @param {LastMove|null} move */
export function moveWords(move) {
  if (!move) return "";
  const taken = move.captures.length ? `, taking ${move.captures.join(" and ")}` : "";
  return `${move.from}-${move.to}${taken}`;
}

/** Toggles as a share link writes them: "first:defenders,king_armed:no". */
export function parseToggles(text) {
  const toggles = {};
  for (const pair of (text || "").split(",").filter(Boolean)) {
    const [name, value, extra] = pair.split(":");
    if (!name || !value || extra !== undefined) throw new Error(`its toggles field holds "${pair}", which is not name:value`);
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
      const words = [name, piece || "empty"];
      if (name === special.throne) { classes.push("tafl-throne"); words.push("throne"); }
      if (corners.has(name)) { classes.push("tafl-corner"); words.push("corner"); }
      if (camps.has(name)) { classes.push("tafl-camp"); words.push("camp"); }
      if (piece) classes.push(`tafl-${piece}`);
      if (lastSquares.has(name)) { classes.push("tafl-last"); words.push("last move"); }
      if (targets.has(name)) { classes.push("tafl-target"); words.push("legal target"); }
      if (name === selected) { classes.push("tafl-selected"); words.push("selected"); }
      if (taken.has(name)) { classes.push("tafl-taken"); words.push("taken by the last move"); }
      squares.push({ name, classes, words });
    }
  }
  return squares;
}

/** The line under the board: "Taken by the attackers: 3 and the king. Taken by the defenders: 1." */
export function capturedWords(state) {
  const king = state.outcome && state.last_move?.king_taken ? " and the king" : "";
  return `Taken by the attackers: ${state.captured.attackers}${king}. Taken by the defenders: ${state.captured.defenders}.`;
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
  return typeof level === "number" ? `level ${level} (${name}${said ? `, ${said}` : ""})` : `${name}${said ? ` (${said})` : ""}`;
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
    if (kept) parts.push(`You played ${kept}.`);
    parts.push(`The computer played ${moveWords(move)}.`);
    kept = null;
  } else if (kind === "play" && move) {
    const words = moveWords(move);
    if (vsComputer) kept = words;
    parts.push(vsComputer ? `You played ${words}.` : `${words}.`);
  }
  if (state.outcome) {
    const who = state.outcome.winner ? `The ${state.outcome.winner} win` : "The game is drawn";
    const you = vsComputer && state.outcome.winner ? (state.outcome.winner === human ? " You won." : " You lost.") : "";
    parts.push(`${who}: ${state.outcome.reason}.${you}`);
  } else {
    for (const word of state.announcements) {
      if (terms.includes(word)) parts.push({ term: word, text: `${capitalise(word)}!` });
      else if (word === "king threatened") parts.push("The king can be taken next move.");
    }
    if (thinking) parts.push(`The computer (${playerWords(level)}) is thinking…`);
    else if (vsComputer && state.turn === human && kind === "new") {
      parts.push(computerSideWords(human, otherSide(human), level));
    } else if (vsComputer && state.turn === human) parts.push(`Your move (the ${state.turn}).`);
    else parts.push(`The ${state.turn} to move.`);
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
