"""The engine: a position under a set of rules, as ints only.

Layout (each module imports only those above it):

- :mod:`~tafl_rules.engine.tables`: per-rules masks (special squares, hostility,
  where each kind may stop and pass), the rule modes in force and Zobrist keys;
- :mod:`~tafl_rules.engine.capture`: the men a move captures;
- :mod:`~tafl_rules.engine.movement`: targets of each piece, the sandwich rule;
- :mod:`~tafl_rules.engine.endings`: the outcome after a move, the defenders'
  announcements;
- :mod:`~tafl_rules.engine.state`: :class:`Position`, the state with make/unmake.

How each mode of a rule point is decided (the king's capture, the shield wall, edge
forts, encirclement, "watch your king", repetition...) is that mode's own, in
:mod:`tafl_rules.modes`; the engine asks the modes its :class:`Tables` hold.

:class:`~tafl_rules.game.Game` is the public façade over a :class:`Position`;
:mod:`tafl_rules.ai` searches on a :class:`Position` directly.

>>> from tafl_rules import Rules
>>> from tafl_rules.position import parse_position
>>> rules = Rules()
>>> pos = Position(rules, *parse_position(rules.start, 11), ATTACKERS)
>>> len(pos.moves())
128
>>> frm, to, kind = unpack(pos.moves()[0])
>>> pos.make(frm, to, kind), pos.side == DEFENDERS
(0, True)
>>> pos.unmake().frm == frm, pos.side == ATTACKERS
(True, True)
"""

from __future__ import annotations

from .state import PackedMove, Position, Snapshot, pack, unpack
from .tables import ATTACKER, ATTACKERS, DEFENDER, DEFENDERS, KING, KIND_NAMES, SIDE_NAMES, Tables, tables

__all__ = ["ATTACKER", "ATTACKERS", "DEFENDER", "DEFENDERS", "KING", "KIND_NAMES", "PackedMove", "Position",
           "SIDE_NAMES", "Snapshot", "Tables", "pack", "tables", "unpack"]
