// What a board shows, from a state as the rules worker sends it (tafl_rules.webapi.state).
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  announcement, capturedWords, formatToggles, gameWords, moveWords, levelWords, parseLevel, parseToggles, pieceAt, playerWords, plural,
  scrollToShow, squareSpecs, takenSquares, turnAt, whenWords,
} from "../../_static/tafl-board-model.mjs";

// brandubh after d2-e2: attackers moved first; the defenders to move
function brandubh(extra = {}) {
  return {
    variant: "brandubh", toggles: {}, applied: {}, size: 7,
    ranks: ["...t...", "...t...", "...T...", "ttTKTtt", "...T...", "....t..", "...t..."],
    turn: "defenders", start_position: "", start_turn: "", legal: { d5: ["c5", "b5", "a5"], e4: ["e5"] },
    line: ["d2-e2"], cursor: 1, last: "d2-e2", last_move: { from: "d2", to: "e2", captures: [], king_taken: null },
    captured: { attackers: 0, defenders: 0 }, outcome: null, announcements: [],
    special: { throne: "d4", corners: ["a1", "a7", "g1", "g7"], camps: [] }, rules_otn: "dim:7", ...extra,
  };
}

test("plural and move words", () => {
  assert.equal(plural(1, "1 move", "{count} moves"), "1 move");
  assert.equal(plural(2, "1 move", "{count} moves"), "2 moves");
  assert.equal(moveWords({ from: "d1", to: "d4", captures: ["d5", "e4"], king_taken: null }), "d1-d4, taking d5 and e4");
  assert.equal(moveWords(null), "");
});

test("toggles as a share link writes them, and a bad pair is named", () => {
  assert.deepEqual(parseToggles("first:defenders,king_armed:no"), { first: "defenders", king_armed: "no" });
  assert.equal(formatToggles({ first: "defenders", king_armed: "no" }), "first:defenders,king_armed:no");
  assert.deepEqual(parseToggles(""), {});
  assert.throws(() => parseToggles("first"), /"first", which is not name:value/);
  assert.throws(() => parseToggles("a:b:c"), /not name:value/);
});

test("the piece on a square reads the ranks top rank first", () => {
  const state = brandubh();
  assert.equal(pieceAt(state, "d4"), "king");
  assert.equal(pieceAt(state, "e2"), "attacker");
  assert.equal(pieceAt(state, "d5"), "defender");
  assert.equal(pieceAt(state, "a1"), null);
});

test("turns alternate back from the cursor, whoever moved first", () => {
  const state = brandubh();
  assert.equal(turnAt(state, 0), "attackers");
  assert.equal(turnAt(state, 1), "defenders");
  const defendersFirst = brandubh({ turn: "attackers", start_turn: "defenders", cursor: 1 });
  assert.equal(turnAt(defendersFirst, 0), "defenders");
});

test("squares in drawing order with classes and accessible names; flipped turns the board round", () => {
  const state = brandubh();
  const squares = squareSpecs(state, { selected: "d5", taken: new Set(["c4"]) });
  assert.equal(squares.length, 49);
  assert.equal(squares[0].name, "a7");
  assert.deepEqual(squares[0].classes, ["tafl-square", "tafl-corner"]);
  assert.equal(squares[48].name, "g1");
  const byName = Object.fromEntries(squares.map((s) => [s.name, s]));
  assert.deepEqual(byName.d4.words, ["d4", "king", "throne"]);
  assert.deepEqual(byName.d4.classes, ["tafl-square", "tafl-throne", "tafl-king"]);
  assert.deepEqual(byName.e2.words, ["e2", "attacker", "last move"]);
  assert.deepEqual(byName.c5.words, ["c5", "empty", "legal target"]);
  assert.deepEqual(byName.d5.words, ["d5", "defender", "selected"]);
  assert.deepEqual(byName.c4.words, ["c4", "defender", "taken by the last move"]);
  const flipped = squareSpecs(state, { flipped: true });
  assert.equal(flipped[0].name, "g1");
  assert.equal(flipped[48].name, "a7");
});

test("the squares the last move emptied include the king's when it took him", () => {
  assert.deepEqual([...takenSquares(brandubh())], []);
  const took = brandubh({ last_move: { from: "c3", to: "c4", captures: ["d4"], king_taken: "d4" } });
  assert.deepEqual([...takenSquares(took)], ["d4"]);
  const king = brandubh({ last_move: { from: "c3", to: "c4", captures: ["b4"], king_taken: "d4" } });
  assert.deepEqual([...takenSquares(king)].sort(), ["b4", "d4"]);
});

test("the captured line counts the king only when the game ended with him taken", () => {
  const over = brandubh({ captured: { attackers: 3, defenders: 1 }, outcome: { winner: "attackers", reason: "king captured", kind: "king-captured" },
    last_move: { from: "c3", to: "c4", captures: [], king_taken: "d4" } });
  assert.equal(capturedWords(over), "Taken by the attackers: 3 and the king. Taken by the defenders: 1.");
  assert.equal(capturedWords(brandubh()), "Taken by the attackers: 0. Taken by the defenders: 0.");
});

test("the status keeps the reader's own move in view while the computer answers", () => {
  const played = brandubh({ last_move: { from: "d2", to: "e2", captures: ["f2"], king_taken: null } });
  const mine = announcement(played, { kind: "play", human: "attackers", thinking: true, level: 3 });
  assert.deepEqual(mine.parts, ["You played d2-e2, taking f2.", "The computer (level 3) is thinking…"]);
  const answer = announcement(brandubh({ turn: "attackers", last_move: { from: "d5", to: "c5", captures: [], king_taken: null } }),
    { kind: "ai_move", human: "attackers", lastHumanMove: mine.lastHumanMove });
  assert.deepEqual(answer.parts, ["You played d2-e2, taking f2.", "The computer played d5-c5.", "Your move (the attackers)."]);
  assert.equal(answer.lastHumanMove, null);
});

test("announcements: a term the rules use is marked for the glossary; a result says who won", () => {
  const raichi = brandubh({ announcements: ["raichi", "king threatened"] });
  assert.deepEqual(announcement(raichi, { terms: ["raichi"] }).parts,
    [{ term: "raichi", text: "Raichi!" }, "The king can be taken next move.", "The defenders to move."]);
  assert.deepEqual(announcement(raichi, { terms: [] }).parts, ["The king can be taken next move.", "The defenders to move."]);
  const won = brandubh({ outcome: { winner: "defenders", reason: "the king escaped to a1", kind: "king-escaped" } });
  assert.deepEqual(announcement(won, { human: "defenders" }).parts, ["The defenders win: the king escaped to a1. You won."]);
});

test("the games list says how long ago a game was saved, and its size and rules", () => {
  const now = new Date(2026, 10, 26, 14, 30).getTime();
  assert.equal(whenWords(now - 20000, now), "just now");
  assert.equal(whenWords(now - 5 * 60000, now), "5 min ago");
  assert.equal(whenWords(new Date(2026, 10, 26, 9, 5).getTime(), now), "today 09:05");
  assert.equal(whenWords(new Date(2026, 10, 3, 18, 0).getTime(), now), "3 Nov 18:00");
  // every entry: its rules, how far it went, who played it, when
  assert.equal(gameWords({ moves: ["d2-e2", "d5-c5"], name: "Brandubh", human: "both", saved: now - 60000 }, now),
    "Brandubh: 2 moves, last d5-c5; you both sides; 1 min ago");
  assert.equal(gameWords({ moves: ["e2-e4"], name: "Lewis's Figure 1", variant: "lewis-1", human: "defenders", ai: 5, saved: now }, now, { variant: "lewis-1" }),
    "Lewis's Figure 1: 1 move, last e2-e4; you the defenders against level 5; just now");
  assert.equal(gameWords({ moves: ["a4-a1", "x"], result: "attackers", human: "attackers", ai: "people", name: "Brandubh" }, now),
    "Brandubh: 2 moves, the attackers won; you the attackers against the people-like player");
  assert.equal(gameWords({ moves: ["a4-a1"], result: "draw", human: "both", name: "Brandubh", copy: true }, now),
    "Brandubh (a copy): 1 move, drawn; you both sides");
  assert.equal(gameWords({ moves: [], human: "both", name: "Brandubh" }, now), "Brandubh: no moves yet; you both sides");
  // a record of rules that are no catalogue variant: an import, unless they are the board's own (N2)
  const own = { variant: "", name: "The home page's board", rules: "dim:11 start:/x/" };
  assert.equal(gameWords({ moves: ["a4-a1"], name: "", variant: "", rules: "dim:11 start:/x/", human: "both" }, now, own),
    "The home page's board: 1 move, last a4-a1; you both sides");
  assert.equal(gameWords({ moves: ["a4-a1"], name: "", variant: "", rules: "dim:11 start:/y/", human: "both" }, now, own),
    "Rules of an imported record: 1 move, last a4-a1; you both sides");
  assert.equal(gameWords({ moves: ["a4-a1"], name: "", variant: "", rules: "dim:11 start:/x/", position: "/p/", human: "both" }, now, own),
    "Rules of an imported record: 1 move, last a4-a1; you both sides");
});

test("a level is a number, or the people-like player's name", () => {
  assert.equal(parseLevel("3"), 3);
  assert.equal(parseLevel(5), 5);
  assert.equal(parseLevel("people"), "people");
  assert.equal(playerWords(2), "level 2");
  assert.equal(playerWords("people"), "the people-like player");
});

test("a level's menu entry gives the time measured on the board's own size where there is one", () => {
  const notes = { 7: { 6: "about 1.3 s" }, 11: { 6: "about 2.0 s" } };
  assert.equal(levelWords([6, "strongest", "about 2.0 s"]), "level 6 (strongest, about 2.0 s)");
  assert.equal(levelWords([6, "strongest", "about 2.0 s"], 7, notes), "level 6 (strongest, about 1.3 s)");
  assert.equal(levelWords([6, "strongest", "about 2.0 s"], 13, notes), "level 6 (strongest, about 2.0 s)");
  assert.equal(levelWords([1, "beginner", ""], 9, notes), "level 1 (beginner)");
  assert.equal(levelWords(["people", "plays as people do", ""], 7, notes), "plays as people do");
});

test("a board wider than its box scrolls as little as it can to show the last move (N7)", () => {
  const square = (file) => ({ left: file * 24, right: file * 24 + 24 });
  const box = { scrollLeft: 0, width: 300 };
  // j10-s10 on 19x19: both squares fit, so the box shows them both
  assert.equal(scrollToShow(square(18), square(9), box), 18 * 24 + 24 + 8 - 300);
  // a move already in view moves nothing
  assert.equal(scrollToShow(square(3), square(1), box), 0);
  // a long move that cannot fit shows where the piece went
  assert.equal(scrollToShow(square(0), square(18), { scrollLeft: 200, width: 300 }), 0);
  assert.equal(scrollToShow(square(18), square(0), { scrollLeft: 0, width: 300 }), 18 * 24 + 24 + 8 - 300);
  // back to the left edge
  assert.equal(scrollToShow(square(1), square(2), { scrollLeft: 150, width: 300 }), 24 - 8);
});

test("on a page in another language, the words come from the page's catalogue, with their values put in", () => {
  const words = { "{count} moves": "{count} symudiad", "{move}, taking {squares}": "{move}, gan gipio {squares}", " and ": " a ",
    "The attackers to move.": "Yr ymosodwyr sydd i symud.", "the attackers": "yr ymosodwyr", "level {level}": "lefel {level}",
    "Your move (the attackers); the computer plays the defenders ({player}).": "Eich symudiad chi (yr ymosodwyr); mae'r cyfrifiadur yn chwarae'r amddiffynwyr ({player})." };
  const page = { documentElement: { lang: "cy" }, getElementById: (id) => (id === "tafl-messages" ? { textContent: JSON.stringify(words) } : null) };
  const before = globalThis.document;
  globalThis.document = page;
  try {
    assert.equal(plural(12, "1 move", "{count} moves"), "12 symudiad");
    assert.equal(moveWords({ from: "d1", to: "d4", captures: ["d5", "e4"], king_taken: null }), "d1-d4, gan gipio d5 a e4");
    assert.equal(playerWords(3), "lefel 3");
    const said = announcement({ ...brandubh(), turn: "attackers" }, { kind: "new", human: "attackers", level: 3 });
    assert.deepEqual(said.parts, ["Eich symudiad chi (yr ymosodwyr); mae'r cyfrifiadur yn chwarae'r amddiffynwyr (lefel 3)."]);
    assert.equal(capturedWords(brandubh()), "Taken by the attackers: 0. Taken by the defenders: 0.", "a message the page lacks stays English");
  } finally {
    globalThis.document = before;
  }
  assert.equal(plural(12, "1 move", "{count} moves"), "12 moves", "an English page (no catalogue) says the English");
});
