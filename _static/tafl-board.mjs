// The playable boards of a page: each div.tafl-board (drawn at build time as a picture) becomes a
// live board with its own rules worker; a board inside the rules sandbox gets the sandbox's menus.
// The parts: tafl-board-game.mjs (a board's game), tafl-board-view.mjs (drawing and input),
// tafl-board-store.mjs (saved games and share links), tafl-board-model.mjs (what the board shows),
// tafl-worker-client.mjs (the worker's requests) and tafl-sandbox.mjs.

import { Board } from "./tafl-board-game.mjs";
import { Sandbox } from "./tafl-sandbox.mjs";

const build = document.querySelector('meta[name="tafl-build"]')?.content || "";
const boards = [...document.querySelectorAll("div.tafl-board")].map((container, index) => new Board(container, index, { build }));
window.tafl = { boards, worker: boards[0]?.worker };
for (const board of boards) {
  const started = board.start();
  const sandbox = board.container.closest(".tafl-sandbox");
  if (sandbox) {
    const panel = sandbox.querySelector(".tafl-sandbox-panel");
    started.then(() => { if (board.state) new Sandbox(panel, board).start(); });
  }
}
