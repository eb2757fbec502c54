"""Per-rules masks: where each kind of piece may stop and pass, which squares are hostile.

Built once per :class:`~tafl_rules.rules.Rules` value (cached) from the rules and the
board geometry. Piece kinds are indexed ``ATTACKER = 0``, ``DEFENDER = 1``, ``KING = 2``;
sides ``ATTACKERS = 0``, ``DEFENDERS = 1``.
"""

from __future__ import annotations

import functools
import random

from ..modes import (EDGE_FORT, ENCIRCLEMENT, ESCAPE, HOSTILITY, KING_ARMED, KING_CAPTURE, NO_MOVES, REPETITION,
                     SANDWICH, SHIELDWALL, TUICHI, WATCH_KING, Ending)
from ..pieces import ATTACKER, ATTACKERS, DEFENDER, DEFENDERS, KIND_NAMES, KING, SIDE_NAMES
from ..position import parse_position
from ..rules import Rules
from ..squares import Geometry, geometry


class Tables:
    """Everything about a rules record that move generation and capture need, as masks."""

    def __init__(self, rules: Rules) -> None:
        g: Geometry = geometry(rules.size)
        self.rules = rules
        self.g = g
        start = parse_position(rules.start, rules.size)
        self.throne = (1 << g.center) if rules.throne else 0
        self.corners = g.corners if rules.corners else 0
        self.camps = start.attackers if rules.camps else 0
        throne, corners, camps = self.throne, self.corners, self.camps
        #: for each camp square, its whole camp (the orthogonally connected camp squares)
        self.camp_group: dict[int, int] = {}
        left = camps
        while left:
            group = left & -left
            while True:
                grown = g.grow(group) & camps
                if grown == group:
                    break
                group = grown
            for sq in range(g.n):
                if group >> sq & 1:
                    self.camp_group[sq] = group
            left &= ~group
        # nostop[kind]: squares a piece of that kind may not stop on (from outside a camp)
        # nopass[kind]: empty squares that block that kind like a piece would
        self.nostop = []
        self.nopass = []
        for kind in KIND_NAMES:
            ns = 0
            np = 0
            if throne and kind not in rules.throne_stop:
                ns |= throne
            if throne and kind not in rules.throne_pass:
                np |= throne
            if corners and kind not in rules.corner_stop:
                ns |= corners
            if camps and kind not in rules.camp_stop:
                ns |= camps
            if camps and kind not in rules.camp_pass:
                np |= camps
            self.nostop.append(ns)
            self.nopass.append(np)
        self.nopass_t = [g.transpose(m) for m in self.nopass]
        self.king_reenter = rules.king_reenter_throne
        speeds = (rules.man_speed, rules.man_speed, rules.king_speed)
        #: kinds whose targets are a plain table lookup minus ``nostop`` (the fast path)
        self.simple = [g.use_tables and not self.nopass[k] and not camps and not speeds[k] for k in range(3)]
        # hostility to a victim of a side: always, or only when empty
        self.hostile_always = [0, 0]
        self.hostile_empty = [0, 0]
        for side, name in ((ATTACKERS, "attackers"), (DEFENDERS, "defenders")):
            for mask, place in ((throne, "throne"), (corners, "corners"), (camps, "camps")):
                field = f"{place}_hostile_to_{name}"
                hostility = HOSTILITY[field][getattr(rules, field)]
                if hostility.when_occupied:
                    self.hostile_always[side] |= mask
                elif hostility.when_empty:
                    self.hostile_empty[side] |= mask
        armed = KING_ARMED[rules.king_armed]
        self.king_anvil = armed.anvil
        self.king_hammer = armed.hammer
        self.man_within = g.within(rules.man_speed) if rules.man_speed else None
        self.king_within = g.within(rules.king_speed) if rules.king_speed else None
        self.escape = ESCAPE[rules.escape].squares(g, camps)
        # king surround squares ("four")
        against = rules.king_capture_against
        self.against_edge = "edge" in against
        self.against = ((throne if "throne" in against else 0) | (camps if "camp" in against else 0)
                        | (corners if "corner" in against else 0))
        #: the rule modes in force (tafl_rules.modes): how the king is taken, the shield wall
        #: (a move along the edge may take a row), the sandwich rule, "watch your king"
        #: (``taken_by_warning`` is None without it), repetition and a side without moves
        self.king_mode = KING_CAPTURE[rules.king_capture]
        self.king_taken = self.king_mode.taken
        self.king_jeopardy = self.king_mode.jeopardy(g)
        self.shieldwall = SHIELDWALL[rules.shieldwall]
        self.takes_rows = self.shieldwall.takes_rows
        self.sandwich = SANDWICH[rules.sandwich]
        self.sandwich_filters = self.sandwich.filters
        watch = WATCH_KING[rules.watch_king]
        self.watch_king = watch
        self.taken_by_warning = watch.taken if watch.value else None
        #: whether the king can be taken at all (by the capture rule or by the warning)
        self.king_can_fall = self.king_mode.takeable or bool(watch.value)
        self.repetition = REPETITION[rules.repetition]
        self.no_moves = NO_MOVES[rules.no_moves]
        #: the endings judged after a move of each side (tuichi, the edge fort; encirclement)
        modes: list[Ending] = [TUICHI[rules.tuichi], EDGE_FORT[rules.edge_fort], ENCIRCLEMENT[rules.encirclement]]
        self.endings = tuple(tuple(m for m in modes if m.after == side and m.ends) for side in (ATTACKERS, DEFENDERS))
        #: whether a move can end the game otherwise than by taking the king or reaching an
        #: escape square (without, a quiet move needs no judging when the caller finds a side
        #: left without moves itself)
        self.rare_endings = bool(self.endings[0] or self.endings[1] or self.repetition.ends or rules.ply_limit)
        # Zobrist keys: one per (kind, square) and one for the defenders to move
        rng = random.Random(0x7AF1 * 1000 + rules.size)
        self.zobrist = [[rng.getrandbits(64) for _ in range(g.n)] for _ in range(3)]
        self.zobrist_side = rng.getrandbits(64)

    def special_name(self, sq: int) -> str:
        """``"throne"``, ``"corner"``, ``"camp"`` or ``"square"``: what the rules make of ``sq``."""
        if self.throne >> sq & 1:
            return "throne"
        if self.corners >> sq & 1:
            return "corner"
        if self.camps >> sq & 1:
            return "camp"
        return "square"

    def hostile(self, victim_side: int, occ: int) -> int:
        """Squares that act as enemies of ``victim_side``'s men when ``occ`` is occupied
        (the special squares hostile always, and those hostile while empty)."""
        return self.hostile_always[victim_side] | (self.hostile_empty[victim_side] & ~occ)


@functools.lru_cache(maxsize=256)
def tables(rules: Rules) -> Tables:
    """The cached :class:`Tables` of a rules record."""
    return Tables(rules)


__all__ = ["ATTACKER", "ATTACKERS", "DEFENDER", "DEFENDERS", "KING", "KIND_NAMES", "SIDE_NAMES", "Tables", "tables"]
