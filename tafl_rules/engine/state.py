"""The engine's position: the state of a game as ints, with make and unmake.

:class:`Position` is the engine's documented internal interface. Game, AI and
endings code use it; :class:`~tafl_rules.game.Game` wraps it with square names,
:class:`~tafl_rules.game.Move` objects and refusals in words.
"""

import warnings
from typing import Callable, NamedTuple

from ..outcome import Outcome
from ..rules import Rules
from ..squares import Geometry
from . import endings, movement
from .capture import captures
from .tables import ATTACKER, ATTACKERS, DEFENDER, DEFENDERS, KING, Tables, tables

#: A packed move, as :meth:`Position.moves` lists them: ``from << 11 | to << 2 | kind``.
PackedMove = int


def pack(frm: int, to: int, kind: int) -> PackedMove:
    """The packed form of a move: ``from << 11 | to << 2 | kind`` (squares up to 511)."""
    return frm << 11 | to << 2 | kind


def unpack(m: PackedMove) -> tuple[int, int, int]:
    """(from, to, kind) of a packed move."""
    return m >> 11, (m >> 2) & 511, m & 3


class Snapshot(NamedTuple):
    """What :meth:`Position.make` pushes for one ply: the state before it (restored by
    :meth:`Position.unmake`), then the ply itself: from, to and the men it captured."""

    attackers: int
    defenders: int
    king: int
    occt: int
    hash: int
    left: bool
    outcome: Outcome | None
    side: int
    frm: int
    to: int
    captures: int


_new_snapshot: Callable[..., Snapshot] = tuple.__new__  # Snapshot without the keyword-argument layer


class Position:
    """A position under a set of rules, as ints.

    State (read it freely; change it only through :meth:`make` and :meth:`unmake`):

    - ``a``, ``d``: bitboards of the attackers and of the defenders (the king apart);
    - ``k``: the king's square, -1 once he is captured;
    - ``side``: ``ATTACKERS`` (0) or ``DEFENDERS`` (1), the side to move;
    - ``occt``: the occupancy in transposed numbering (see :mod:`tafl_rules.squares`);
    - ``left``: whether the king has left the throne (matters when he may not go back);
    - ``hash``: Zobrist hash of the placement and the side to move;
    - ``outcome``: the :class:`~tafl_rules.outcome.Outcome` once the game is over, else None;
    - ``seen``: hash -> how many times that position has occurred (for repetition);
    - ``stack``: one :class:`Snapshot` per ply played.

    ``t`` holds the rules' :class:`~tafl_rules.engine.tables.Tables` (masks and the
    geometry ``t.g``). Squares are ints ``rank * size + file``; piece kinds are
    ``ATTACKER``, ``DEFENDER``, ``KING``.

    The search interface: :meth:`moves` lists the legal moves packed as ints,
    :meth:`make` plays one (captures and the outcome are worked out as it is made),
    :meth:`unmake` takes it back exactly.
    """

    __slots__ = ("rules", "t", "g", "a", "d", "k", "side", "occt", "left", "hash", "outcome", "seen", "stack")

    def __init__(self, rules: Rules, attackers: int, defenders: int, king: int, side: int) -> None:
        t = tables(rules)
        g = t.g
        self.rules = rules
        self.t: Tables = t
        self.g: Geometry = g
        self.a = attackers
        self.d = defenders
        self.k = king
        self.side = side
        occ = attackers | defenders | (1 << king if king >= 0 else 0)
        self.occt = g.transpose(occ)
        self.left = king != g.center
        self.hash = self._compute_hash()
        self.stack: list[Snapshot] = []
        self.seen: dict[int, int] = {self.hash: 1}
        self.outcome: Outcome | None = None
        self.outcome = endings.initial_outcome(self)

    def _compute_hash(self) -> int:
        t = self.t
        z = t.zobrist
        h = 0
        for kind, bb in ((ATTACKER, self.a), (DEFENDER, self.d)):
            while bb:
                low = bb & -bb
                h ^= z[kind][low.bit_length() - 1]
                bb ^= low
        if self.k >= 0:
            h ^= z[KING][self.k]
        if self.side == DEFENDERS:
            h ^= t.zobrist_side
        return h

    def copy(self) -> "Position":
        """An independent copy (history included)."""
        other = Position.__new__(Position)
        for name in Position.__slots__:
            setattr(other, name, getattr(self, name))
        other.stack = list(self.stack)
        other.seen = dict(self.seen)
        return other

    # ----------------------------------------------------------------- queries

    def kind_at(self, sq: int) -> int:
        """``ATTACKER``, ``DEFENDER``, ``KING`` or -1 for an empty square."""
        if self.a >> sq & 1:
            return ATTACKER
        if self.d >> sq & 1:
            return DEFENDER
        if sq == self.k:
            return KING
        return -1

    def occupied(self) -> int:
        """Bitboard of every piece."""
        return self.a | self.d | (1 << self.k if self.k >= 0 else 0)

    targets = movement.targets
    move_targets = movement.move_targets
    has_move = movement.has_move
    sandwich_filter = movement.sandwich_filter

    def captures(self, frm: int, to: int, kind: int, side: int) -> int:
        """Men captured if ``side``'s piece of ``kind`` moved ``frm``-``to`` now."""
        return captures(self.t, self.a, self.d, self.k, frm, to, kind, side)

    def hostile(self, victim_side: int, occ: int) -> int:
        """Squares acting as enemies of ``victim_side``'s men (:meth:`Tables.hostile`, written out
        here because the search calls it for every move it orders)."""
        t = self.t
        return t.hostile_always[victim_side] | (t.hostile_empty[victim_side] & ~occ)

    def start(self) -> tuple[int, int, int, int]:
        """Attackers, defenders (square sets), the king's square and the side to move before the
        first move played here (now, if none was)."""
        first = self.stack[0] if self.stack else None
        if first is None:
            return self.a, self.d, self.k, self.side
        return first.attackers, first.defenders, first.king, first.side

    def king_targets(self) -> int:
        """Squares the king may move to now (0 without a king)."""
        return movement.targets(self, self.k, KING) if self.k >= 0 else 0

    def moves(self) -> list[PackedMove]:
        """Packed legal moves of the side to move, in generation order (empty if it has none)."""
        out = []
        for frm, kind, found in movement.move_targets(self, self.side):
            base = frm << 11 | kind
            while found:
                low = found & -found
                found ^= low
                out.append(base | (low.bit_length() - 1) << 2)
        return out

    def no_moves_outcome(self) -> Outcome:
        """The outcome if the side to move has no legal move."""
        return endings.no_moves_outcome(self)

    def announcements(self) -> list[str]:
        """What the defenders announce now (see :func:`tafl_rules.engine.endings.announcements`)."""
        return endings.announcements(self)

    # ------------------------------------------------------------- make/unmake

    def step(self, frm: int, to: int, kind: int) -> tuple[int, str | None]:
        """Play a move known to be legal, without judging the outcome; returns (captured
        men, the reason in words if the king is taken). :meth:`unmake` takes it back."""
        t = self.t
        g = self.g
        side = self.side
        caps = captures(t, self.a, self.d, self.k, frm, to, kind, side)
        self.stack.append(_new_snapshot(Snapshot, (self.a, self.d, self.k, self.occt, self.hash, self.left,
                                                   self.outcome, side, frm, to, caps)))
        z = t.zobrist
        h = self.hash ^ z[kind][frm] ^ z[kind][to] ^ t.zobrist_side
        occt = self.occt ^ g.tbit[frm] ^ g.tbit[to]
        mover = (1 << frm) | (1 << to)
        if kind == ATTACKER:
            self.a ^= mover
        elif kind == DEFENDER:
            self.d ^= mover
        else:
            self.k = to
            if frm == g.center:
                self.left = True
        if caps:
            zv = z[DEFENDER if side == ATTACKERS else ATTACKER]
            tbit = g.tbit
            bb = caps
            while bb:
                low = bb & -bb
                c = low.bit_length() - 1
                h ^= zv[c]
                occt ^= tbit[c]
                bb ^= low
            if side == ATTACKERS:
                self.d &= ~caps
            else:
                self.a &= ~caps
        king_reason = None
        self.occt = occt
        k = self.k
        if side == ATTACKERS and k >= 0:
            if g.near[k] >> to & 1:  # every capture of the king ends beside him
                king_reason = t.king_taken(self, to, self.a | self.d | (1 << k))
            if not king_reason and t.taken_by_warning is not None:
                king_reason = t.taken_by_warning(self)
            if king_reason:
                h ^= z[KING][self.k]
                self.occt ^= g.tbit[self.k]
                self.k = -1
        self.hash = h
        self.side = 1 - side
        self.seen[h] = self.seen.get(h, 0) + 1
        return caps, king_reason

    def make(self, frm: int, to: int, kind: int, fast: bool = False) -> int:
        """Play a move known to be legal and judge the result (``outcome``); returns the
        captured men. With ``fast`` a side left without moves is not detected here: the
        caller finds it when it generates the moves (as a search does anyway)."""
        caps, king_reason = self.step(frm, to, kind)
        if king_reason or kind == KING or not fast or self.t.rare_endings:
            self.outcome = endings.judge(self, frm, to, kind, 1 - self.side, king_reason, fast)
        else:
            self.outcome = None  # a quiet move under rules without rarer endings ends nothing
        return caps

    def push(self, frm: int, to: int, kind: int) -> tuple[int, str | None]:
        """Deprecated name of :meth:`step` (``push`` means a checked move on
        :class:`~tafl_rules.game.Game`, as python-chess's does not: one name, one meaning)."""
        warnings.warn("Position.push is deprecated; use Position.step", DeprecationWarning, stacklevel=2)
        return self.step(frm, to, kind)

    def settle(self) -> Outcome | None:
        """Judge what moves made with ``fast`` leave unjudged: a game whose side to move has no
        legal move is over (as :meth:`make` without ``fast`` would have found). Returns the
        outcome."""
        if self.outcome is None and not movement.has_move(self, self.side):
            self.outcome = endings.no_moves_outcome(self)
        return self.outcome

    def pass_turn(self) -> None:
        """Hand the move to the other side without moving (the search's null move); a second
        call takes it back. Not a legal move in any rules: the repetition count is untouched."""
        self.side = 1 - self.side
        self.hash ^= self.t.zobrist_side

    def unmake(self) -> Snapshot:
        """Take back the last move exactly; returns its snapshot."""
        h = self.hash
        n = self.seen.get(h, 0) - 1
        if n > 0:
            self.seen[h] = n
        else:
            self.seen.pop(h, None)
        entry = self.stack.pop()
        (self.a, self.d, self.k, self.occt, self.hash, self.left, self.outcome,
         self.side, _frm, _to, _caps) = entry
        return entry


__all__ = ["PackedMove", "Position", "Snapshot", "pack", "unpack"]
