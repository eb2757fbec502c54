// A board's drawing and input (tafl-board-view.mjs), and the parts of its game that answer them
// (tafl-board-game.mjs), on a happy-dom page with a fake worker (tafl_rules.webapi in CPython).
import { after, afterEach, test } from "node:test";
import assert from "node:assert/strict";

import { FakeWorker, closeBoard, rules, startBoard, until } from "./harness.mjs";

afterEach(closeBoard);
/** The view's tests move for both sides unless they say otherwise. */
const startBoth = (options = {}) => startBoard({ human: "both", ...options });
after(() => rules.stop());

const statusOf = (container) => container.querySelector(".tafl-board-status").textContent;
const square = (container, name) => container.querySelector(`[data-square="${name}"]`);
const settle = (board, plies) => until(() => board.state.line.length === plies && board.isReady() && !board.thinking, `${plies} plies`);

test("the picture becomes live squares, each a button named by its square and piece", async () => {
  const { container } = await startBoth();
  const squares = container.querySelectorAll(".tafl-grid [data-square]");
  assert.equal(squares.length, 49);
  assert.equal(square(container, "d4").getAttribute("aria-label"), "d4, king, throne");
  assert.equal(square(container, "a1").getAttribute("aria-label"), "a1, empty, corner");
  assert.equal(square(container, "d1").getAttribute("aria-label"), "d1, attacker");
  assert.equal(container.querySelector(".tafl-grid").getAttribute("aria-label"), "Board, 7 by 7");
  assert.deepEqual([...container.querySelectorAll(".tafl-files span")].map((s) => s.textContent), [..."abcdefg"]);
  assert.equal([...container.querySelectorAll(".tafl-grid [tabindex='0']")].length, 1, "one square in the Tab order");
});

test("a click picks a piece up and marks the squares the rules give; a second click moves it", async () => {
  const { board, container } = await startBoth();
  square(container, "d2").click();
  const marked = [...container.querySelectorAll(".tafl-target")].map((s) => s.dataset.square).sort();
  assert.deepEqual(marked, [...board.state.legal.d2].sort());
  assert.match(statusOf(container), /^d2 picked up \(attacker\): \d+ squares marked where it can go\.$/);
  square(container, "e2").click();
  await settle(board, 1);
  assert.deepEqual(board.state.line, ["d2-e2"]);
  assert.equal(statusOf(container), "d2-e2. The defenders to move.");
  assert.ok(square(container, "e2").classList.contains("tafl-last"));
});

test("a move the rules refuse is said, and leaves the game as it was", async () => {
  const { board, container } = await startBoth();
  square(container, "d2").click();
  square(container, "a7").click();  // not a target: the worker is asked, and refuses
  await until(() => container.querySelector(".tafl-problem"), "the refusal");
  assert.match(statusOf(container), /^Illegal move: /);
  assert.equal(board.state.line.length, 0);
});

test("the arrow keys move the focus from square to square, Escape puts a piece down", async () => {
  const { window, container } = await startBoth();
  const grid = container.querySelector(".tafl-grid");
  square(container, "a1").focus();
  for (const key of ["ArrowRight", "ArrowRight", "ArrowRight", "ArrowUp"]) grid.dispatchEvent(new window.KeyboardEvent("keydown", { key, bubbles: true }));
  assert.equal(window.document.activeElement.dataset.square, "d2");
  window.document.activeElement.click();
  assert.ok(container.querySelector(".tafl-selected"));
  grid.dispatchEvent(new window.KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
  assert.equal(container.querySelector(".tafl-selected"), null);
  assert.equal(statusOf(container), "Selection cancelled. The attackers to move.");
});

test("the move list is in numbered pairs; a move in it takes the game there, and Undo and Redo step", async () => {
  const { board, container } = await startBoth();
  for (const move of ["d2-e2", "d5-c5", "e2-e3"]) {
    board.play(move);
    await settle(board, board.state.line.length + 1);
  }
  const rows = [...container.querySelectorAll(".tafl-moves li")].map((li) => li.textContent);
  assert.deepEqual(rows, ["1.d2-e2d5-c5", "2.e2-e3"]);
  assert.deepEqual([...container.querySelectorAll(".tafl-moves-head span")].map((s) => s.textContent), ["#", "Attackers", "Defenders"]);
  container.querySelector('.tafl-move[data-ply="1"]').click();
  await until(() => board.state.cursor === 1, "the jump");
  assert.equal(container.querySelector(".tafl-moves-heading").textContent, "Moves (3 moves, showing move 1)");
  container.querySelector(".tafl-redo").click();
  await until(() => board.state.cursor === 2, "redo");
  container.querySelector(".tafl-undo").click();
  await until(() => board.state.cursor === 1, "undo");
  assert.equal(container.querySelector(".tafl-undo").disabled, false);
});

test("against the computer, Undo takes back the reader's move and the reply", async () => {
  const { board, container } = await startBoth({ human: "attackers" });
  board.play("d2-e2");
  await settle(board, 2);
  container.querySelector(".tafl-undo").click();
  await until(() => board.state.cursor === 0 && !board.thinking, "the undo");
  assert.equal(board.state.turn, "attackers");
  assert.equal(FakeWorker.made[0].requests.filter((r) => r.type === "ai_move").length, 1, "no new search");
});

test("choosing the other side has the computer move at once; Stop thinking hands the move back", async () => {
  const { board, container } = await startBoth({ human: "attackers" });
  const worker = FakeWorker.made[0];
  worker.hold = true;  // the search "runs" until released
  const side = container.querySelector(".tafl-human");
  side.value = "defenders";
  side.dispatchEvent(new window.Event("change"));
  await until(() => board.thinking, "the search");
  assert.equal(statusOf(container), "The computer (level 3) is thinking…");
  assert.equal(container.querySelector(".tafl-stop").hidden, false);
  square(container, "d2").click();
  assert.equal(statusOf(container), "Wait: the computer is thinking.");
  container.querySelector(".tafl-stop").click();
  await until(() => board.isReady() && !board.thinking, "the stop");
  assert.equal(board.human, "both");
  assert.equal(side.value, "both");
  assert.ok(worker.terminated, "the searching worker is ended");
  assert.match(statusOf(container), /^Search stopped; the computer is off/);
  assert.equal(board.state.line.length, 0);
});

test("flipping turns the drawing round and keeps every square's name", async () => {
  const { container } = await startBoth();
  container.querySelector(".tafl-flip").click();
  const first = container.querySelector(".tafl-grid [data-square]").dataset.square;
  assert.equal(first, "g1");
  assert.equal(container.querySelector(".tafl-flip").getAttribute("aria-pressed"), "true");
  assert.equal(container.querySelector(".tafl-grid").getAttribute("aria-label"), "Board, 7 by 7, flipped");
});

test("a worker that crashes is replaced and the game replayed into it", async () => {
  const { board, container } = await startBoth();
  board.play("d2-e2");
  await settle(board, 1);
  board.worker.crashed("a test crash");
  await until(() => FakeWorker.made.length === 2 && board.isReady(), "the new worker");
  assert.deepEqual(board.state.line, ["d2-e2"]);
  assert.equal(statusOf(container), "The rules engine was restarted (a test crash); the game was replayed.");
});

test("the game record is exported as OTN and a record of another variant replaces the game, named", async () => {
  const { board, container } = await startBoth({ url: "http://localhost/docs/variants/lewis-1.html", variant: "lewis-1" });
  await board.exportRecord();
  assert.match(container.querySelector(".tafl-otn").value, /^\[/);
  await rules.handle("new", { board: "probe-export", variant: "brandubh", toggles: {}, position: "", moves: ["d2-e2"] });
  const { otn } = await rules.handle("export", { board: "probe-export" });
  await board.importRecord(otn);
  assert.equal(board.state.variant, "brandubh");
  assert.equal(container.querySelector(".tafl-other-variant").firstChild.textContent,
    "This board now plays Brandubh, not this page's variant. ");
  container.querySelector(".tafl-own-variant").click();
  await until(() => board.state.variant === "lewis-1", "the page's own variant");
  assert.equal(container.querySelector(".tafl-other-variant"), null);
});
