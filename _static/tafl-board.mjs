// The playable boards of a page: each div.tafl-board (drawn at build time as a picture) becomes a
// live board with its own rules worker; a board inside the rules sandbox gets the sandbox's menus.
// The parts: tafl-board-game.mjs (a board's game), tafl-board-view.mjs (drawing and input),
// tafl-board-store.mjs (saved games and share links), tafl-board-model.mjs (what the board shows),
// tafl-board-words.mjs (its words), tafl-worker-client.mjs (the worker's requests), tafl-sandbox.mjs
// and tafl-kiosk.mjs (a museum's screen).

import { Board } from "./tafl-board-game.mjs";
import { Sandbox } from "./tafl-sandbox.mjs";
import { RESET_EVENT, kioskSetting } from "./tafl-kiosk.mjs";

const build = document.querySelector('meta[name="tafl-build"]')?.content || "";
const kiosk = Boolean(kioskSetting(location.href, localStorage));
const containers = [...document.querySelectorAll("div.tafl-board")];
const boards = containers.map((container, index) => new Board(container, index, { build, kiosk, boardCount: containers.length }));
window.tafl = { boards, worker: boards[0]?.worker };
for (const board of boards) {
  const started = board.start();
  const sandbox = board.container.closest(".tafl-sandbox");
  if (sandbox) {
    const panel = sandbox.querySelector(".tafl-sandbox-panel");
    started.then(() => { if (board.state) new Sandbox(panel, board).start(); });
  }
}

// A kiosk left alone: every board is set out again (tafl-kiosk.mjs then scrolls to the top).
addEventListener(RESET_EVENT, (event) => {
  for (const board of boards) event.detail?.done.push(board.resetForKiosk());
});

// The theme's floating "Back to top" button is kept off the boards: it is hidden while the main
// column of a board (its squares, status line and controls) is on the screen.
function keepBackToTopOffTheBoards() {
  if (!window.IntersectionObserver) return;
  const inView = new Set();
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (entry.isIntersecting) inView.add(entry.target);
      else inView.delete(entry.target);
    }
    document.documentElement.classList.toggle("tafl-board-in-view", inView.size > 0);
  });
  for (const container of containers) observer.observe(container);
}
keepBackToTopOffTheBoards();
