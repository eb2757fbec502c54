"""Chosen (not random) games that reach an outcome, for the browser tests.

The line is made by a fixed plan, the same every time: the defenders clear a road
and walk the king out; the attackers answer with quiet moves far from the king.
The engine judges every move and the end, so whatever ends the game (escape,
repetition, a capture the plan did not foresee) is a real outcome of the rules.
"""

from __future__ import annotations

from functools import lru_cache

import tafl_rules
from tafl_rules import Game


def _king_moves(game: Game) -> list[str]:
    king = game.king_square()
    return sorted(game.legal_targets().get(king, [])) if king else []


def _wins_next(game: Game, king_target: str) -> str | None:
    """A king move from ``king_target`` that would end the game, were it the defenders' move again."""
    trial = game.copy()
    trial.play(f"{game.king_square()}-{king_target}")
    if trial.outcome is not None:
        return None
    probe = Game(game.rules, position=trial.position(), turn="defenders")
    for target in _king_moves(probe):
        after = probe.copy()
        after.play(f"{king_target}-{target}")
        if after.outcome is not None and after.outcome.winner == "defenders":
            return target
    return None


def _defender_move(game: Game) -> str:
    king = game.king_square()
    for target in _king_moves(game):
        trial = game.copy()
        trial.play(f"{king}-{target}")
        if trial.outcome is not None and trial.outcome.winner == "defenders":
            return f"{king}-{target}"
    for target in _king_moves(game):
        if _wins_next(game, target):
            return f"{king}-{target}"
    # Free the king: move the defender beside him that opens the most room, as far away as it can go.
    legal = game.legal_targets()
    best = None
    for source, targets in sorted(legal.items()):
        if source == king or game.piece_at(source) != "defender" or _distance(source, king) > 2:
            continue
        for target in sorted(targets, key=lambda t: -_distance(t, king)):
            trial = game.copy()
            trial.play(f"{source}-{target}")
            if trial.outcome is not None:
                continue
            room = len(Game(game.rules, position=trial.position(), turn="defenders").legal_targets().get(king, []))
            if best is None or room > best[0]:
                best = (room, f"{source}-{target}")
            break
    if best is not None and best[0] > 0:
        return best[1]
    moves = _king_moves(game)
    if moves:
        return f"{king}-{max(moves, key=lambda t: _edge_closeness(t, game.size))}"
    return best[1] if best else str(game.legal_moves()[0])


def _attacker_move(game: Game) -> str:
    king = game.king_square()
    for source, targets in sorted(game.legal_targets().items(), key=lambda item: -_distance(item[0], king)):
        for target in targets:
            if _in_line(target, king) or _distance(target, king) <= 2:
                continue
            trial = game.copy()
            move = trial.play(f"{source}-{target}")
            if move.captures or trial.outcome is not None:
                continue
            return f"{source}-{target}"
    return str(game.legal_moves()[0])


def _coords(square: str) -> tuple[int, int]:
    return ord(square[0]) - 97, int(square[1:]) - 1


def _distance(a: str, b: str) -> int:
    (ax, ay), (bx, by) = _coords(a), _coords(b)
    return max(abs(ax - bx), abs(ay - by))


def _in_line(a: str, b: str) -> bool:
    (ax, ay), (bx, by) = _coords(a), _coords(b)
    return ax == bx or ay == by


def _edge_closeness(square: str, size: int) -> int:
    x, y = _coords(square)
    return -min(x, y, size - 1 - x, size - 1 - y)


@lru_cache(maxsize=None)
def scripted_line(variant_id: str, max_plies: int = 300) -> tuple[tuple[str, ...], str]:
    """The move list (as played, ``d1-d4``) and the outcome's reason for a variant."""
    game = Game(tafl_rules.variant(variant_id).rules)
    while game.outcome is None and len(game.moves) < max_plies:
        move = _defender_move(game) if game.turn == "defenders" else _attacker_move(game)
        game.play(move)
    if game.outcome is None:
        raise AssertionError(f"{variant_id}: the scripted plan reached no outcome in {max_plies} plies")
    return tuple(str(m) for m in game.moves), game.outcome.reason
