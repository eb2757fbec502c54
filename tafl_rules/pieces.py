"""Piece kinds and sides: their names, and the numbers the engine gives them.

>>> KIND_NAMES[KING], SIDE_NAMES[DEFENDERS]
('king', 'defenders')
"""

from __future__ import annotations

ATTACKER, DEFENDER, KING = 0, 1, 2
ATTACKERS, DEFENDERS = 0, 1
#: The piece kinds by number (``KIND_NAMES[KING] == "king"``), as rules records name them.
KIND_NAMES = ("attacker", "defender", "king")
#: The sides by number (``SIDE_NAMES[ATTACKERS] == "attackers"``).
SIDE_NAMES = ("attackers", "defenders")

__all__ = ["ATTACKER", "ATTACKERS", "DEFENDER", "DEFENDERS", "KIND_NAMES", "KING", "SIDE_NAMES"]
