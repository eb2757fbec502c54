// A move made on a board's picture while its rules engine is still loading (a first visit on a
// slow connection takes a while): the reader taps a piece and then a square, the two are marked,
// and the move is kept and played once the rules are ready. Nothing about the rules is decided
// here: the rules engine plays the move or refuses it, and the board says which. The picture is
// the one board.py draws (spans, the top rank first); the live board replaces it once ready.

import { FILES } from "./tafl-board-model.mjs";
import { plural, t } from "./tafl-board-words.mjs";

const PIECES = ["attacker", "defender", "king"];

export class EarlyMove {
  /** @param {import("./tafl-board-game.mjs").Board} board */
  constructor(board) {
    this.board = board;
    this.picked = null;
    this.move = null;
    this.taps = 0;
    board.container.addEventListener("click", (event) => this.tap(event));
  }

  /** The picture's squares by name, and the board's size (null once the live board is drawn). */
  picture() {
    const grid = this.board.container.querySelector(".tafl-grid.tafl-static");
    if (!grid) return null;
    const spans = [...grid.children];
    const size = Math.round(Math.sqrt(spans.length));
    const squares = new Map(spans.map((span, i) => [`${FILES[i % size]}${size - Math.floor(i / size)}`, span]));
    return { squares, size };
  }

  tap(event) {
    const picture = this.picture();
    const span = event.target.closest?.(".tafl-static .tafl-square");
    if (!picture || !span) return;
    const name = [...picture.squares].find(([, s]) => s === span)?.[0];
    const holdsPiece = PIECES.some((piece) => span.classList.contains(`tafl-${piece}`));
    this.taps += 1;
    if (holdsPiece && name !== this.picked) {
      this.picked = name;
      this.move = null;
    } else if (this.picked && name !== this.picked) {
      this.move = `${this.picked}-${name}`;
      this.picked = null;
    } else {
      this.picked = null;
    }
    this.mark(picture);
    this.board.engineProgress(this.board.worker.loading);
  }

  mark({ squares }) {
    const [from, to] = this.move ? this.move.split("-") : [];
    for (const [name, span] of squares) {
      span.classList.toggle("tafl-selected", name === this.picked);
      span.classList.toggle("tafl-last", name === from || name === to);
    }
  }

  /** Words for the board's status while it loads ("" when the reader has not touched the picture). */
  words() {
    if (this.move) return t("Your move {move} is kept: it is played as soon as the rules are ready.", { move: this.move });
    if (this.picked) return t("{square} is picked up: tap the square it goes to (the move is played as soon as the rules are ready).", { square: this.picked });
    return this.taps ? "" : t("You can make your move already: it is played as soon as the rules are ready.");
  }

  /** Once the board has opened its game: play the kept move, if it was made on this position. */
  async playKept(opened) {
    const move = this.move;
    this.move = null;
    this.picked = null;
    if (!move) return false;
    const board = this.board;
    const page = board.pageChoice;
    if (opened.variant !== page.variant || opened.start_position !== (page.position || "") || opened.cursor !== opened.line.length
        || opened.line.length !== page.moves.length || opened.line.some((m, i) => m !== page.moves[i])) {
      board.say(t("Your move {move} was not played: the board opened {moves} of a game (a saved game or a shared link), not the position of the picture you moved on.",
        { move, moves: plural(opened.line.length, "1 move", "{count} moves") }), true);
      return false;
    }
    const played = await board.send("play", { move }, {
      refused: (error) => board.say(t("Your move {move} was not played: {error}.", { move, error: error.message }), true),
    });
    return Boolean(played);
  }
}
