// A board's game (tafl-board-game.mjs) and its drawing (tafl-board-view.mjs) without a browser:
// a happy-dom page and a fake worker that hands every request to tafl_rules.webapi in CPython.
import { after, afterEach, test } from "node:test";
import assert from "node:assert/strict";

import { FakeWorker, closeBoard, rules, startBoard, until } from "./harness.mjs";
import { KIOSK_GAME } from "../../_static/tafl-board-game.mjs";
import { MAX_SAVED_GAMES } from "../../_static/tafl-board-store.mjs";

const PAGE = "http://localhost/docs/variants/brandubh.html";
afterEach(closeBoard);
after(() => rules.stop());

const statusOf = (container) => container.querySelector(".tafl-board-status").textContent;
const aiRequests = () => FakeWorker.made.flatMap((w) => w.requests).filter((r) => r.type === "ai_move");
const choose = (select, value) => {
  select.value = value;
  select.dispatchEvent(new window.Event("change"));
};
const firstLegal = (state) => { const [from, targets] = Object.entries(state.legal)[0]; return `${from}-${targets[0]}`; };
const savedGames = (window) => Object.keys(window.localStorage).filter((k) => k.includes(":g:"));

test("a new board has the reader play the side to move and the computer the other, at the default level", async () => {
  const { board, container } = await startBoard();
  assert.equal(board.human, "attackers");
  assert.equal(board.view.humanSelect.value, "attackers");
  assert.equal(board.view.aiSelect.value, "3");
  assert.equal(statusOf(container), "Your move (the attackers); the computer plays the defenders (level 3).");
  assert.equal(aiRequests().length, 0, "the computer does not move for the reader");
});

test("the reader's first move gets the computer's answer", async () => {
  const { board, container } = await startBoard();
  const move = firstLegal(board.state);
  board.play(move);
  await until(() => board.state.line.length === 2 && !board.thinking, "the computer's reply");
  assert.deepEqual(aiRequests().map((r) => r.payload.level), [3]);
  assert.match(statusOf(container), new RegExp(`^You played ${move}\\. The computer played [a-g]\\d-[a-g]\\d.*Your move \\(the attackers\\)\\.$`));
});

test("both sides stays one choice away, and then nothing answers", async () => {
  const { board } = await startBoard();
  choose(board.view.humanSelect, "both");
  board.play(firstLegal(board.state));
  await until(() => board.state.line.length === 1, "the move");
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.equal(board.state.line.length, 1);
  assert.equal(aiRequests().length, 0);
  const saved = JSON.parse(localStorage.getItem(savedGames(window)[0]));
  assert.equal(saved.human, "both");
  assert.equal(saved.version, 4);
});

test("a page may ask for both sides, and a board whose defenders move first has the reader play them", async () => {
  let { board } = await startBoard({ human: "both" });
  assert.equal(board.human, "both");
  await closeBoard();
  ({ board } = await startBoard({ url: `${PAGE}?board=0&variant=brandubh&turn=defenders` }));
  assert.equal(board.state.turn, "defenders");
  assert.equal(board.human, "defenders");
  assert.equal(aiRequests().length, 0);
});

test("a saved game keeps its side; an empty game saved by an older build gets the new default", async () => {
  const key = "tafl:/docs/variants/brandubh.html:0:g:old";
  const record = (version, moves) => JSON.stringify({ version, variant: "brandubh", toggles: {}, moves, cursor: null, human: "both", ai: 3, saved: 1 });
  let { board } = await startBoard({ before: (w) => w.localStorage.setItem(key, record(3, ["d2-e2"])) });
  assert.equal(board.human, "both", "a game played on both sides stays so");
  assert.equal(board.state.line.length, 1);
  await closeBoard();
  ({ board } = await startBoard({ before: (w) => w.localStorage.setItem(key, record(3, [])) }));
  assert.equal(board.human, "attackers", "the old default of an untouched board is not the reader's choice");
  await closeBoard();
  ({ board } = await startBoard({ before: (w) => w.localStorage.setItem(key, record(4, [])) }));
  assert.equal(board.human, "both", "a choice saved by this build is kept");
});

test("a shared game opens as it was shared: the computer never moves on it before the reader", async () => {
  const { board, container } = await startBoard({
    url: `${PAGE}?board=0&variant=brandubh&moves=d2-e2`,
    before: (w) => w.localStorage.setItem("tafl:/docs/variants/brandubh.html:0:g:mine",
      JSON.stringify({ version: 4, variant: "brandubh", toggles: {}, moves: [], cursor: null, human: "attackers", ai: 2, saved: 1 })),
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.deepEqual(board.state.line, ["d2-e2"]);
  assert.equal(board.human, "defenders");
  assert.equal(board.aiLevel, 2, "the reader's level stays");
  assert.equal(aiRequests().length, 0);
  assert.match(statusOf(container), /Your move \(the defenders\)/);
});

test("the home board's games are named by the board, not as an imported record (N2)", async () => {
  const own = await rules.handle("new", { board: "probe", variant: "", toggles: {}, position: "", moves: [] });
  const { board, container } = await startBoard({
    url: "http://localhost/index.html", variant: "", name: "The home page's board", rulesOtn: own.rules_otn,
  });
  choose(board.view.humanSelect, "both");
  board.play(firstLegal(board.state));
  await until(() => board.state.line.length === 1, "the move");
  await board.restart();
  await board.drawGames();
  const entries = [...container.querySelectorAll(".tafl-games-list li")].map((li) => li.textContent);
  assert.equal(entries.length, 2, entries.join(" | "));
  assert.ok(entries.every((e) => e.startsWith("The home page's board: ")), entries.join(" | "));
  assert.ok(!entries.some((e) => e.includes("imported")), entries.join(" | "));
});

test("the games list names each game by its rules, how far it went, who played it, and keeps at most ten", async () => {
  const { board, container } = await startBoard();
  for (let i = 0; i < MAX_SAVED_GAMES + 2; i++) {
    board.play(firstLegal(board.state));
    await until(() => board.state.line.length === 2 && !board.thinking, "the reply");
    await board.restart();
  }
  await board.drawGames();
  await until(() => savedGames(window).length <= MAX_SAVED_GAMES, "the list to be pruned");
  const entries = [...container.querySelectorAll(".tafl-games-list li")].map((li) => li.textContent);
  assert.equal(savedGames(window).length, MAX_SAVED_GAMES);
  assert.match(entries[0], /^Brandubh: no moves yet; you the attackers against level 3; just now \(on the board\)$/);
  assert.match(entries[1], /^Brandubh: 2 moves, last [a-g]\d-[a-g]\d\S*; you the attackers against level 3; just nowForget$/);
  assert.equal(container.querySelector(".tafl-games summary").textContent, `Your games here (${MAX_SAVED_GAMES})`);
});

test("forget all asks, then forgets every game but the one on the board", async () => {
  const { board, container } = await startBoard();
  for (let i = 0; i < 3; i++) {
    choose(board.view.humanSelect, "both");
    board.play(firstLegal(board.state));
    await until(() => board.state.line.length === 1, "the move");
    await board.restart();
  }
  board.play(firstLegal(board.state));
  await until(() => board.state.line.length === 1, "the move");
  await board.drawGames();
  const button = container.querySelector(".tafl-games-forget-all");
  assert.equal(button.hidden, false);
  button.click();
  await until(() => container.querySelector(".tafl-forget-all"), "the question");
  assert.equal(container.querySelector(".tafl-forget-all p").textContent, "Forget 3 games for good? The game on the board stays.");
  container.querySelector(".tafl-forget-all-yes").click();
  await until(() => savedGames(window).length === 1, "the games to be forgotten");
  assert.equal(statusOf(container), "3 games forgotten.");
  assert.deepEqual(board.state.line.length, 1, "the game on the board stays");
  assert.equal(button.hidden, true);
});

test("in a kiosk a board keeps one game, lists none, and is set out again when the kiosk is left alone", async () => {
  const { board, container } = await startBoard({ kiosk: true });
  for (let i = 0; i < 3; i++) {
    board.play(firstLegal(board.state));
    await until(() => board.state.line.length === 2 && !board.thinking, "the reply");
    await board.restart();
  }
  board.play(firstLegal(board.state));
  await until(() => board.state.line.length === 2 && !board.thinking, "the reply");
  choose(board.view.humanSelect, "both");
  choose(board.view.aiSelect, "5");
  board.view.flipButton.click();
  assert.deepEqual(savedGames(window), [`tafl:/docs/variants/brandubh.html:0:g:${KIOSK_GAME}`]);
  assert.equal(container.querySelector(".tafl-games").hidden, true);
  await board.resetForKiosk();
  assert.equal(board.state.line.length, 0);
  assert.equal(board.human, "attackers");
  assert.equal(board.aiLevel, 3);
  assert.equal(board.view.flipped, false);
  assert.match(statusOf(container), /^Your move \(the attackers\); the computer plays the defenders/);
  assert.deepEqual(JSON.parse(localStorage.getItem(savedGames(window)[0])).moves, []);
});

test("a share link for a board the page does not have is said, and taken off the address (N14)", async () => {
  const { board, container, window } = await startBoard({ url: `${PAGE}?board=1&variant=brandubh&moves=d2-e2&utm_source=x` });
  assert.equal(statusOf(container), 'The share link is for board "1", and this page has only one board (number 0): the link was not opened.');
  assert.equal(window.location.search, "?utm_source=x");
  assert.equal(board.state.line.length, 0);
  choose(board.view.humanSelect, "both");
  assert.match(statusOf(container), /^The share link is for board "1"/, "a problem said stays until it is read");
  board.play(firstLegal(board.state));
  await until(() => board.state.line.length === 1, "the move");
  choose(board.view.humanSelect, "defenders");
  assert.equal(statusOf(container), "Your move (the defenders).", "otherwise the status line follows the choice");
});

test("a share link with an empty move is refused by its number; spaces around moves are dropped (N14)", async () => {
  let { board, container } = await startBoard({ url: `${PAGE}?board=0&moves=,,,` });
  assert.match(statusOf(container), /^The share link was refused: its moves field has no move 1 \(two commas in a row, or one at an end\)\. The board shows the start of the game instead\.$/);
  await closeBoard();
  ({ board, container } = await startBoard({ url: `${PAGE}?board=0&moves=d2-e2,%20d5-c5` }));
  assert.deepEqual(board.state.line, ["d2-e2", "d5-c5"]);
});

test("a game of other rules on a variant page is named without a possessive after a parenthesis (N12)", async () => {
  const otn = "[rules: \"dim:11 atkf:y tfr:w start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/\"]\n"
    + "[position: \"/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/4tttt3/\"]\n";
  const { board, container } = await startBoard({ url: "http://localhost/docs/variants/lewis-1.html", variant: "lewis-1" });
  board.view.recordText.value = otn;
  await board.importRecord(otn);
  const line = container.querySelector(".tafl-other-variant");
  if (line) assert.doesNotMatch(line.textContent, /\)'s/);
  board.show({ ...board.state, variant: "" });
  board.notes = { ...board.notes, name: "", rulesName: "Lewis's Figure 1 (as printed by Jones)" };
  board.view.drawOtherVariant({ ...board.state, variant: "" }, board.notes, "lewis-1", false);
  assert.equal(container.querySelector(".tafl-other-variant").firstChild.textContent,
    "This board now plays the rules of Lewis's Figure 1 (as printed by Jones), from the start position of an imported game record, not this page's variant. ");
});
