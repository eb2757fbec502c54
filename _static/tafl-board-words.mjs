// The board's words that are not the rules' own: labels, the games list's entries and the
// sentences the status line says about games, share links, the computer's side and the kiosk.
// They are kept here, and built only here, so that the board can be read in another language by
// replacing this one file. (The words of a move, a capture or a result come with the state from
// tafl_rules, or from tafl-board-model.mjs's `announcement`.)

/** @typedef {{moves?: string[], cursor?: number|null, name?: string, variant?: string, rules?: string,
 *             position?: string, turn?: string, human?: string, ai?: number|string, result?: string,
 *             copy?: boolean, saved?: number}} SavedRecord */

/** The "You play" menu. */
export const SIDE_CHOICES = [["attackers", "the attackers"], ["defenders", "the defenders"], ["both", "both sides (no computer)"]];
export const YOU_PLAY = "You play ";
export const COMPUTER = "Computer ";

/** "level 3", or "the people-like player". @param {number|string} level */
export function playerWords(level) {
  return typeof level === "number" ? `level ${level}` : "the people-like player";
}

export function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** Said when a board opens with the computer playing and the reader to move (the menus under
 *  the board change either side). */
export function computerSideWords(human, computer, level) {
  return `Your move (the ${human}); the computer plays the ${computer} (${playerWords(level)}).`;
}

// ------------------------------------------------------------------ the games list

export const GAMES_HEADING = (count) => `Your games here (${count})`;
export const ON_THE_BOARD = "(on the board)";
export const IN_ANOTHER_TAB = "(open in another tab)";
export const FORGET = "Forget";
export const FORGET_ALL = "Forget all";
export const openGameLabel = (words, elsewhere) => `Open the game: ${words}${elsewhere ? ", open in another tab" : ""}`;
export const forgetGameLabel = (words) => `Forget the game: ${words}`;
export const FORGET_ALL_LABEL = "Forget every game listed here but the one on the board";
export const forgetAllQuestion = (count) => `Forget ${plural(count, "game")} for good? The game on the board stays.`;
export const FORGET_ALL_YES = "Forget them";
export const FORGET_ALL_NO = "Keep them";
export const forgotten = (count) => (count === 1 ? "That game is forgotten." : `${plural(count, "game")} forgotten.`);

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** When a game was last saved, as the games list says it: "just now", "5 min ago", "today 14:05", "3 Nov 09:30". */
export function whenWords(saved, now) {
  const minutes = Math.floor((now - saved) / 60000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const then = new Date(saved);
  const clock = `${String(then.getHours()).padStart(2, "0")}:${String(then.getMinutes()).padStart(2, "0")}`;
  if (then.toDateString() === new Date(now).toDateString()) return `today ${clock}`;
  return `${then.getDate()} ${MONTHS[then.getMonth()]} ${clock}`;
}

/**
 * The name of a saved game's rules: the name it was saved with; a game of the board's own rules
 * (a board with no catalogue variant, such as the home page's) by the board's name; else its
 * variant, or, for an imported record that is no catalogue variant, that.
 * @param {SavedRecord} record
 * @param {{variant?: string, name?: string, rules?: string}} own  the board's own game
 */
export function rulesNameOf(record, own = {}) {
  if (record.name) return record.name;
  const ownRules = !record.position && !record.turn && record.variant === (own.variant || "")
    && (record.variant || (own.rules && record.rules === own.rules));
  if (ownRules && own.name) return own.name;
  return record.variant || "Rules of an imported record";
}

/** How far a saved game went: "no moves yet", "12 moves, last d2-e2", "23 moves, the attackers won". */
export function progressWords(record) {
  const moves = Array.isArray(record.moves) ? record.moves : [];
  if (!moves.length) return "no moves yet";
  const count = plural(moves.length, "move");
  if (record.result === "draw") return `${count}, drawn`;
  if (record.result === "attackers" || record.result === "defenders") return `${count}, the ${record.result} won`;
  return `${count}, last ${moves[moves.length - 1]}`;
}

/** Who played: "you the attackers against level 3", "you both sides". */
export function playersWords(record) {
  if (record.human === "attackers" || record.human === "defenders") {
    const level = typeof record.ai === "number" || typeof record.ai === "string" ? record.ai : 3;
    return `you the ${record.human} against ${playerWords(level)}`;
  }
  return "you both sides";
}

/**
 * One entry of the games list: "Brandubh: 12 moves, last d2-e2; you the attackers against level 3; 5 min ago".
 * @param {SavedRecord} record
 */
export function gameWords(record, now, own = {}) {
  const saved = Number.isFinite(record.saved) ? `; ${whenWords(record.saved, now)}` : "";
  const copy = record.copy ? " (a copy)" : "";
  return `${rulesNameOf(record, own)}${copy}: ${progressWords(record)}; ${playersWords(record)}${saved}`;
}

// ------------------------------------------------------------------ other tabs, other rules

export const COPY_OPENED = "Your game is open in another tab too: this tab plays a copy of it (marked \"a copy\" in Your games here), and the two are kept apart.";
export const COPY_OF_LISTED = "That game is open in another tab: this tab plays a copy of it (marked \"a copy\" in Your games here), and the two are kept apart.";

/** The line above a board of a variant page that now plays other rules (a share link, an imported record). */
export function otherRulesWords({ name = "", rulesName = "" }) {
  const what = name || (rulesName ? `the rules of ${rulesName}, from the start position of an imported game record`
    : "the rules of an imported game record");
  return `This board now plays ${what}, not this page's variant. `;
}
export const PLAY_OWN_VARIANT = "Play this page's variant";

// ------------------------------------------------------------------ share links

/** A link for a board the page does not have (?board=3 on a page with one board). */
export function strayLinkWords(board, count) {
  const which = count === 1 ? "only one board (number 0)" : `${count} boards (numbers 0 to ${count - 1})`;
  return `The share link is for board ${JSON.stringify(board.slice(0, 20))}, and this page has ${which}: the link was not opened.`;
}
