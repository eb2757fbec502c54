"""Per-rules masks: where each kind of piece may stop and pass, which squares are hostile.

Built once per :class:`~tafl_rules.rules.Rules` value (cached) from the rules and the
board geometry. Piece kinds are indexed ``ATTACKER = 0``, ``DEFENDER = 1``, ``KING = 2``;
sides ``ATTACKERS = 0``, ``DEFENDERS = 1``.
"""

from __future__ import annotations

import functools
import random

from ..position import parse_position
from ..rules import Rules
from ..squares import Geometry, geometry

ATTACKER, DEFENDER, KING = 0, 1, 2
ATTACKERS, DEFENDERS = 0, 1
KIND_NAMES = ("attacker", "defender", "king")
SIDE_NAMES = ("attackers", "defenders")


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
            for mask, value in ((throne, getattr(rules, f"throne_hostile_to_{name}")),
                                (corners, getattr(rules, f"corners_hostile_to_{name}")),
                                (camps, getattr(rules, f"camps_hostile_to_{name}"))):
                if value == "always":
                    self.hostile_always[side] |= mask
                elif value == "empty":
                    self.hostile_empty[side] |= mask
        self.king_anvil = rules.king_armed in ("yes", "anvil")
        self.king_hammer = rules.king_armed in ("yes", "hammer")
        self.man_within = g.within(rules.man_speed) if rules.man_speed else None
        self.king_within = g.within(rules.king_speed) if rules.king_speed else None
        if rules.escape == "edge":
            self.escape = g.edge
        elif rules.escape == "corner":
            self.escape = g.corners
        elif rules.escape == "edge-except-camps":
            self.escape = g.edge & ~camps
        else:
            self.escape = 0
        # king surround squares ("four")
        against = rules.king_capture_against
        self.against_edge = "edge" in against
        self.against = ((throne if "throne" in against else 0) | (camps if "camp" in against else 0)
                        | (corners if "corner" in against else 0))
        self.shieldwall = rules.shieldwall != "none"
        self.sandwich = rules.sandwich
        self.watch_king = rules.watch_king
        #: whether a move can end the game otherwise than by taking the king or reaching an
        #: escape square (without, a quiet move needs no judging when the caller finds a side
        #: left without moves itself)
        self.rare_endings = bool(rules.edge_fort or rules.encirclement or rules.tuichi == "win"
                                 or rules.repetition != "ignore" or rules.ply_limit)
        # Zobrist keys: one per (kind, square) and one for the defenders to move
        rng = random.Random(0x7AF1 * 1000 + rules.size)
        self.zobrist = [[rng.getrandbits(64) for _ in range(g.n)] for _ in range(3)]
        self.zobrist_side = rng.getrandbits(64)

    def hostile(self, victim_side: int, occ: int) -> int:
        """Squares that act as enemies of ``victim_side``'s men when ``occ`` is occupied
        (the special squares hostile always, and those hostile while empty)."""
        return self.hostile_always[victim_side] | (self.hostile_empty[victim_side] & ~occ)


@functools.lru_cache(maxsize=256)
def tables(rules: Rules) -> Tables:
    """The cached :class:`Tables` of a rules record."""
    return Tables(rules)


__all__ = ["ATTACKER", "ATTACKERS", "DEFENDER", "DEFENDERS", "KING", "KIND_NAMES", "SIDE_NAMES", "Tables", "tables"]
