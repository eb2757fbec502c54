// The board's words that are not the rules' own: labels, the games list's entries and the
// sentences the status line says about games, share links, the computer's side and the kiosk.
// Every word a board shows goes through `t` (or `plural`) with its English as the key: on a page
// in another language, `t` takes the translation from the page's catalogue (a JSON copy of
// tafl_rules/locale/<lang>.po, embedded by tafl_sphinx.language as #tafl-messages); on an English
// page it gives the English as it is. A test (tests/test_welsh_words.py) walks every call of `t`
// and `plural` in the board's modules and fails where a catalogue lacks one, so a message is always written as
// one literal, its values put in by name ({count}), never built from pieces.

/** @type {{doc: unknown, words: Object<string, string>}} */
const loaded = { doc: undefined, words: {} };

/** The page's catalogue ({} on an English page, or with no document). */
function catalogue() {
  const doc = globalThis.document;
  if (doc !== loaded.doc) {
    loaded.doc = doc;
    try {
      const node = doc?.getElementById?.("tafl-messages");
      loaded.words = node ? JSON.parse(node.textContent || "{}") : {};
    } catch {
      loaded.words = {};
    }
  }
  return loaded.words;
}

/** The page's language ("en" where the page says none). */
export function pageLanguage() {
  return globalThis.document?.documentElement?.lang || "en";
}

/**
 * `text` in the page's language, with each {name} replaced by `values[name]`.
 * @param {string} text  the English, the catalogue's key
 * @param {Object<string, string|number>} [values]
 */
export function t(text, values = {}) {
  const template = catalogue()[text] || text;
  return template.replace(/\{(\w+)\}/g, (all, name) => (name in values ? String(values[name]) : all));
}

/**
 * Words the rules package sends as data (the catalogue's names of variants, toggles and readings,
 * which the rules sandbox shows), in the page's language: the catalogue holds each whole
 * (tests/test_welsh_words.py walks the variants' catalogue); what it lacks is shown as sent.
 * @param {string} text
 */
export function catalogueWords(text) {
  return catalogue()[text] || text;
}

/**
 * A failure the rules worker reported, in the page's language: its `words` are a message of the
 * worker's own (a literal `t` call in tafl-worker.mjs, which has no page to read its catalogue
 * from), its `error` the engine's answer, already in the language it was asked in.
 * @param {{error?: string, words?: {text: string, values?: Object<string, string|number>}}} payload
 */
export function workerSaid(payload) {
  return payload.words ? t(payload.words.text, payload.words.values) : payload.error;
}

/** "1 move", "12 moves": `one` for a count of one, else `many` with {count}. */
export function plural(count, one, many) {
  return count === 1 ? t(one) : t(many, { count });
}

/** "the attackers", "the defenders" (the side as a sentence names it). */
export function sideWords(side) {
  return side === "attackers" ? t("the attackers") : side === "defenders" ? t("the defenders") : side;
}

/** @typedef {{moves?: string[], cursor?: number|null, name?: string, variant?: string, rules?: string,
 *             position?: string, turn?: string, human?: string, ai?: number|string, result?: string,
 *             copy?: boolean, saved?: number}} SavedRecord */

/** The "You play" menu. */
export const sideChoices = () => [["attackers", t("the attackers")], ["defenders", t("the defenders")],
  ["both", t("both sides (no computer)")]];
export const youPlayLabel = () => t("You play ");
export const computerLabel = () => t("Computer ");

/** "level 3", or "the people-like player". @param {number|string} level */
export function playerWords(level) {
  return typeof level === "number" ? t("level {level}", { level }) : t("the people-like player");
}

/** Said when a board opens with the computer playing and the reader to move (the menus under
 *  the board change either side). */
export function computerSideWords(human, computer, level) {
  const player = playerWords(level);
  return human === "attackers" ? t("Your move (the attackers); the computer plays the defenders ({player}).", { player })
    : t("Your move (the defenders); the computer plays the attackers ({player}).", { player });
}

// ------------------------------------------------------------------ the games list

export const gamesHeading = (count) => t("Your games here ({count})", { count });
export const onTheBoard = () => t("(on the board)");
export const inAnotherTab = () => t("(open in another tab)");
export const forgetLabel = () => t("Forget");
export const forgetAllButton = () => t("Forget all");
export const openGameLabel = (words, elsewhere) => (elsewhere ? t("Open the game: {game}, open in another tab", { game: words })
  : t("Open the game: {game}", { game: words }));
export const forgetGameLabel = (words) => t("Forget the game: {game}", { game: words });
export const forgetAllLabel = () => t("Forget every game listed here but the one on the board");
export const forgetAllQuestion = (count) => t("Forget {games} for good? The game on the board stays.",
  { games: plural(count, "1 game", "{count} games") });
export const forgetAllYes = () => t("Forget them");
export const forgetAllNo = () => t("Keep them");
export const forgotten = (count) => (count === 1 ? t("That game is forgotten.")
  : t("{games} forgotten.", { games: plural(count, "1 game", "{count} games") }));

const MONTHS = () => [t("Jan"), t("Feb"), t("Mar"), t("Apr"), t("May"), t("Jun"), t("Jul"), t("Aug"), t("Sep"), t("Oct"),
  t("Nov"), t("Dec")];

/** When a game was last saved, as the games list says it: "just now", "5 min ago", "today 14:05", "3 Nov 09:30". */
export function whenWords(saved, now) {
  const minutes = Math.floor((now - saved) / 60000);
  if (minutes < 1) return t("just now");
  if (minutes < 60) return t("{minutes} min ago", { minutes });
  const then = new Date(saved);
  const clock = `${String(then.getHours()).padStart(2, "0")}:${String(then.getMinutes()).padStart(2, "0")}`;
  if (then.toDateString() === new Date(now).toDateString()) return t("today {clock}", { clock });
  return t("{day} {month} {clock}", { day: then.getDate(), month: MONTHS()[then.getMonth()], clock });
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
  return record.variant || t("Rules of an imported record");
}

/** How far a saved game went: "no moves yet", "12 moves, last d2-e2", "23 moves, the attackers won". */
export function progressWords(record) {
  const moves = Array.isArray(record.moves) ? record.moves : [];
  if (!moves.length) return t("no moves yet");
  const count = plural(moves.length, "1 move", "{count} moves");
  if (record.result === "draw") return t("{moves}, drawn", { moves: count });
  if (record.result === "attackers") return t("{moves}, the attackers won", { moves: count });
  if (record.result === "defenders") return t("{moves}, the defenders won", { moves: count });
  return t("{moves}, last {move}", { moves: count, move: moves[moves.length - 1] });
}

/** Who played: "you the attackers against level 3", "you both sides". */
export function playersWords(record) {
  if (record.human === "attackers" || record.human === "defenders") {
    const level = typeof record.ai === "number" || typeof record.ai === "string" ? record.ai : 3;
    return record.human === "attackers" ? t("you the attackers against {player}", { player: playerWords(level) })
      : t("you the defenders against {player}", { player: playerWords(level) });
  }
  return t("you both sides");
}

/**
 * One entry of the games list: "Brandubh: 12 moves, last d2-e2; you the attackers against level 3; 5 min ago".
 * @param {SavedRecord} record
 */
export function gameWords(record, now, own = {}) {
  const saved = Number.isFinite(record.saved) ? `; ${whenWords(record.saved, now)}` : "";
  const copy = record.copy ? ` ${t("(a copy)")}` : "";
  return `${rulesNameOf(record, own)}${copy}: ${progressWords(record)}; ${playersWords(record)}${saved}`;
}

// ------------------------------------------------------------------ other tabs, other rules

export const copyOpened = () => t("Your game is open in another tab too: this tab plays a copy of it (marked \"a copy\" in Your games here), and the two are kept apart.");
export const copyOfListed = () => t("That game is open in another tab: this tab plays a copy of it (marked \"a copy\" in Your games here), and the two are kept apart.");

/** The line above a board of a variant page that now plays other rules (a share link, an imported record). */
export function otherRulesWords({ name = "", rulesName = "" }) {
  if (name) return t("This board now plays {name}, not this page's variant. ", { name });
  return rulesName ? t("This board now plays the rules of {rules}, from the start position of an imported game record, not this page's variant. ", { rules: rulesName })
    : t("This board now plays the rules of an imported game record, not this page's variant. ");
}
export const playOwnVariant = () => t("Play this page's variant");

// ------------------------------------------------------------------ share links

/** A link for a board the page does not have (?board=3 on a page with one board). */
export function strayLinkWords(board, count) {
  const shown = JSON.stringify(board.slice(0, 20));
  return count === 1 ? t("The share link is for board {board}, and this page has only one board (number 0): the link was not opened.", { board: shown })
    : t("The share link is for board {board}, and this page has {count} boards (numbers 0 to {last}): the link was not opened.",
      { board: shown, count, last: count - 1 });
}
