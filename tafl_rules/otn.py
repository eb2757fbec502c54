"""OpenTafl Notation (OTN): rules strings, move records and game records.

OTN is defined in ``opentafl-notation-spec.txt`` of the OpenTafl project
(jslater89/OpenTafl). This module reads and writes its three text forms:

* **Rules strings** -- ``dim:11 atkf:n sw:s efe:y start:/3ttttt3/.../``:
  :func:`rules_to_otn`, :func:`parse_rules`, :func:`otn_losses`.
* **Move records** -- ``e5-e8xe9``, ``Kf6-c6``, ``e3-e4++``:
  :func:`parse_move`, :func:`format_move`, :class:`MoveRecord`.
* **Game records** (``.otg``) -- ``[tag:value]`` headers, the rules string in a
  ``[rules:...]`` tag, numbered turns, ``[first|second]`` commentary:
  :func:`game_to_otn`, :func:`game_from_otn`, :func:`read_game`, :class:`GameRecord`.

Position records (``/3t3/3t3/...``) belong to :mod:`tafl_rules.position`.

How every :class:`~tafl_rules.rules.Rules` field maps onto OTN
--------------------------------------------------------------

================================  ==========================================================
Rules field                       OTN key
================================  ==========================================================
size                              ``dim``
start                             ``start`` (written as given)
first                             ``atkf`` (``y`` attackers first, ``n`` defenders first)
escape                            ``esc`` (``c`` corner, ``e`` edge)
encirclement                      ``surf`` (surrounding fatal)
repetition                        ``tfr`` (``i`` ignore, ``d`` draw, ``l`` the side that repeats loses)
king_armed                        ``ka`` (``y``, ``n``; ``a`` anvil only, ``h`` hammer only [1]_)
king_capture                      ``ks`` (``n`` two, ``y`` four; ``c`` strong at the centre [1]_
                                  = linnaeus)
king_speed, man_speed             ``spd`` [1]_ (one number for every piece; ``-1`` no limit)
throne                            ``cen`` (empty list: no centre square)
corners                           ``cor`` (empty list: no corner squares)
camps                             ``afor`` (attacker fortresses: must list exactly the
                                  attackers' start squares)
throne_stop / throne_pass         ``cens`` / ``cenp``
corner_stop                       ``cors``
camp_stop / camp_pass             ``afors`` / ``aforp``
king_reenter_throne               ``K`` in ``cenre`` [1]_
throne_hostile_to_*               ``cenh`` (always) and ``cenhe`` (when empty): ``t`` / ``T``
corners_hostile_to_*              ``corh``: ``t`` / ``T``
camps_hostile_to_*                ``aforh``: ``t`` / ``T`` (OTN fortresses have no
                                  "when empty" form, so ``aforh`` means ``always``)
king_capture_against              with ``ks:y``: ``K`` in ``cenhe`` (throne), ``corh`` (corner),
                                  ``aforh`` (camp); ``edge`` has no OTN form
shieldwall                        ``sw`` (``n`` none; ``s`` with ``swf:y`` = copenhagen)
edge_fort                         ``efe``
================================  ==========================================================

.. [1] Not in the written specification but read and written by OpenTafl's own
   ``RulesSerializer`` (``ks:c``/``ks:s``/``ks:w``, ``ka:a``/``ka:h``, ``spd``,
   ``cenre``). Older OpenTafl readers treat unknown values as "no".

Everything else -- watch_king, sandwich, tuichi, no_moves, repetition_count,
ply_limit, the ``edge`` anvil, ``"defenders-lose"`` repetition, speeds that differ
between king and men, ``edge-except-camps`` and ``none`` escapes, the
``immobile`` and ``none`` king captures, camps hostile only when empty -- has no
OTN key.

Extension keys
--------------

The specification says nothing about unknown keys; OpenTafl's reader stores every
``key:value`` pair in a map and ignores keys it does not know. A rule point that
OTN cannot express is therefore written as an extension key ``x-<field>:<value>``
where ``<field>`` is the :class:`Rules` field name and ``<value>`` is spelt as in
:meth:`Rules.to_dict` (``true``/``false``, a number, a choice such as
``unless-capturing``, or a comma-separated list of names, possibly empty). The
writer first sets every OTN key to the closest reading and then adds an ``x-``
key for each field that this reading gets wrong, so another OTN reader plays the
nearest OTN game and this module restores the exact rules. Extension keys come
after the OTN keys and before ``start`` (which must be last).

When reading, an ``x-`` key overrides whatever the OTN keys say about its field.
``rules_to_otn(rules, strict=True)`` leaves the extension keys out and warns with
an :class:`OTNLossWarning` naming each field lost; :func:`otn_losses` lists them
without writing anything.

Two keys that other programs read differently
---------------------------------------------

* ``tfr:l``: the specification contradicts itself: its value list says "player who
  makes the threefold repetition loses", its notes say "the player forced to
  respond loses", and OpenTafl itself plays ``tfr:l`` as a win for the side that
  makes the third repetition. This module follows the value list
  (``repetition="loss"``: the side that makes the repetition loses). Because the
  reference program reads it the other way, plain OTN cannot carry that rule: the
  writer adds ``x-repetition:loss`` and strict mode calls ``repetition`` lost.
* ``cenre`` (who may re-enter the centre): here a king left out of it may not
  *stop* on the throne again (``king_reenter_throne = False``) but may still pass
  over it if ``throne_pass`` lets him; OpenTafl also forbids him to *cross* it. When
  the two readings differ (the king passes the throne and may not re-enter it), the
  writer adds ``x-king_reenter_throne:false`` and strict mode calls
  ``king_reenter_throne`` lost.

Reading: an omitted key takes its default from the specification (so
``dim:11 atkf:n start:...`` is Fetlar: corner escape, strong king, hostile
corners...). A key this package cannot honour (weak shieldwalls, jumps, berserk,
defender fortresses, ``tfr:w``...) raises :class:`~tafl_rules.errors.NotationError`
rather than being dropped; so does an unknown key without the ``x-`` prefix,
except ``name`` which OpenTafl writes and which names the variant only.
"""

from __future__ import annotations

import dataclasses
import re
import warnings
from typing import Any, Iterable, Mapping

from . import catalogue
from .engine import SIDE_NAMES
from .errors import IllegalMove, NotationError, PositionError, RulesError
from .game import Game, Move
from .messages import message, verbatim
from .modes import ESCAPE, HOSTILITY, KING_ARMED, KING_CAPTURE, REPETITION, SHIELDWALL, RulePoint
from .outcome import Termination
from .position import format_position, parse_position
from .rules import CHOICES, FIELDS, KING_ANVILS, PIECES, Rules
from .squares import SQUARE_PATTERN, square_index, square_name

# ---------------------------------------------------------------------------
# squares


def _unsupported(key: str, value: str) -> str:
    """An OTN rule that tafl_rules cannot play, named by its key and value and in words."""
    return message("{key}:{value} ({what}) is not supported by tafl_rules", key=verbatim(key), value=verbatim(value),
                   what=_UNSUPPORTED[key])


def _reason(error: Exception) -> str:
    """An error's words as it was raised with them (a message stays translatable)."""
    said = error.args[0] if len(error.args) == 1 and isinstance(error.args[0], str) else None
    return str(error) if said is None else said


def _shown(text: str) -> str:
    """``repr(text)``, cut short if long (messages never echo a megabyte back)."""
    return repr(text) if len(text) <= 40 else repr(text[:37] + "...")


def _position_squares(text: str, size: int, offset: int, whole: str) -> tuple[frozenset[int], frozenset[int], int]:
    """Attacker squares, defender squares and king square of a position record, re-raising
    :class:`NotationError` with offsets into ``whole``."""
    try:
        placement = parse_position(text, size)
    except NotationError as error:
        raise NotationError(message("start: {problem}", problem=error.message), whole, offset + error.offset) from None
    att = frozenset(i for i in range(size * size) if placement.attackers >> i & 1)
    dfd = frozenset(i for i in range(size * size) if placement.defenders >> i & 1)
    return att, dfd, placement.king


# ---------------------------------------------------------------------------
# rules strings

#: Defaults of the specification (and of OpenTafl's current reader) for keys left out.
#: (``cens`` is ``K`` in the specification and in OpenTafl's current reader; an older
#: OpenTafl reader used every piece; the writer follows the specification.)
DEFAULTS: dict[str, str] = {
    "name": "", "esc": "c", "surf": "y", "atkf": "y", "tfr": "d", "ka": "y", "ks": "y",
    "kj": "n", "nj": "c", "cj": "j", "cor": "default", "cen": "default", "afor": "", "dfor": "",
    "spd": "-1",
    "corh": "tcnkTCNK", "cenh": "tcnk", "cenhe": "tcnkTCNK", "aforh": "TCNK", "dforh": "tcnk",
    "corp": "K", "cenp": "tcnkTCNK", "aforp": "tcnkTCNK", "dforp": "TCNK",
    "cors": "K", "cens": "K", "afors": "tcnkTCNK", "dfors": "TCNK",
    "corre": "tcnkTCNK", "cenre": "tcnkTCNK", "aforre": "tcnkTCNK", "dforre": "tcnkTCNK",
    "sw": "n", "swf": "y", "efe": "n", "ber": "n",
}

#: The order in which keys are written (``dim`` first, ``start`` last, extension keys between).
KEY_ORDER = ("esc", "surf", "atkf", "tfr", "ka", "ks", "spd", "cor", "cen", "afor",
             "corh", "cenh", "cenhe", "aforh", "cenp", "aforp", "cors", "cens", "afors", "cenre",
             "sw", "swf", "efe")

def _mode_letters(point: RulePoint[Any], letters: str) -> dict[str, str | None]:
    """Each of an OTN key's ``letters`` (the specification's values, in its order) -> the mode of
    ``point`` that reads it (its ``otn_reads``), or None: valid OTN no mode of this package plays."""
    meaning: dict[str, str] = {letter: mode.value for mode in point for letter in mode.otn_reads}
    return {letter: meaning.get(letter) for letter in letters}


_CHOICE_KEYS: dict[str, dict[str, str | None]] = {
    # value -> meaning, or None: valid OTN that this package cannot play
    "esc": _mode_letters(ESCAPE, "ce"),
    "surf": {"y": "y", "n": "n"}, "atkf": {"y": "y", "n": "n"}, "efe": {"y": "y", "n": "n"},
    "swf": {"y": "y", "n": "n"},
    "tfr": _mode_letters(REPETITION, "idlw"),
    "ka": {mode.otn: mode.value for mode in KING_ARMED},
    "ks": _mode_letters(KING_CAPTURE, "ysnwcm"),
    "kj": {"n": "n", "r": None, "j": None, "c": None},
    "nj": {"n": "n", "r": "r", "j": "j", "c": "c"},
    "cj": {"n": "n", "r": "r", "j": "j", "c": "c"},
    "sw": _mode_letters(SHIELDWALL, "nsw"),
    "ber": {"n": "n", "c": None, "m": None},
}
_UNSUPPORTED = {
    "tfr": "a repetition that wins for one side",
    "ks": "the middleweight king",
    "kj": "jumping kings",
    "sw": "weak shieldwalls (corners may not close them)",
    "ber": "berserk moves",
}
_KNOWN_KEYS = frozenset(DEFAULTS) | {"dim", "start"}
_PIECE_OF = {"t": "attacker", "T": "defender", "K": "king"}
_LETTER_OF = {"attacker": "t", "defender": "T", "king": "K"}


def _kind(default: Any) -> str:
    if isinstance(default, bool):
        return "bool"
    if isinstance(default, int):
        return "int"
    return "set" if isinstance(default, frozenset) else "str"


#: How an ``x-`` value is spelt for each field: bool, int, set (comma-separated) or str.
_FIELD_KIND: dict[str, str] = {f.name: _kind(f.default) for f in dataclasses.fields(Rules)}


class OTNLossWarning(UserWarning):
    """Plain OTN cannot express some rule points of a rules record; ``fields`` names them."""

    def __init__(self, fields: list[str]) -> None:
        super().__init__("plain OTN loses these rule points: " + ", ".join(fields))
        self.fields = list(fields)


class _Reader:
    """Turns OTN key values (defaults filled in) into Rules field values."""

    def __init__(self, keys: Mapping[str, str], offsets: Mapping[str, int], text: str,
                 size: int, start: str, attackers: frozenset[int]) -> None:
        self.keys = keys
        self.offsets = offsets
        self.text = text
        self.size = size
        self.start = start
        self.attackers = attackers

    def error(self, key: str, problem: str, at: int = 0) -> NotationError:
        return NotationError(message("{key}: {problem}", key=verbatim(key), problem=problem), self.text, self.offsets.get(key, 0) + at)

    def get(self, key: str) -> str:
        return self.keys.get(key, DEFAULTS[key])

    def choice(self, key: str) -> str:
        value = self.get(key)
        table = _CHOICE_KEYS[key]
        if value not in table:
            raise self.error(key, message("{value} is not one of {choices}", value=repr(value), choices=verbatim(", ".join(table))))
        meaning = table[value]
        if meaning is None:
            raise self.error(key, _unsupported(key, value))
        return meaning

    def yes(self, key: str) -> bool:
        return self.choice(key) == "y"

    def letters(self, key: str) -> str:
        value = self.get(key)
        for i, ch in enumerate(value):
            if ch not in "tcnkTCNK":
                raise self.error(key, message("{letter} is not a piece letter (t, c, n, k, T, C, N, K)", letter=repr(ch)), i)
        return value

    def pieces(self, key: str) -> frozenset[str]:
        return frozenset(_PIECE_OF[c] for c in self.letters(key) if c in _PIECE_OF)

    def squares(self, key: str) -> frozenset[int] | None:
        """The squares of a space list; None for ``default``."""
        value = self.get(key)
        if value == "default" and key in ("cor", "cen"):
            return None
        out = set()
        at = 0
        for part in value.split(","):
            if part:
                index = square_index(part, self.size)
                if index < 0:
                    raise self.error(key, message("{square} is not a square of the {size}x{size} board", square=repr(part), size=self.size), at)
                out.add(index)
            at += len(part) + 1
        return frozenset(out)

    def read(self) -> dict[str, Any]:
        size = self.size
        v: dict[str, Any] = {"size": size, "start": self.start}
        v["first"] = "attackers" if self.yes("atkf") else "defenders"
        v["escape"] = self.choice("esc")
        v["encirclement"] = self.yes("surf")
        v["repetition"] = self.choice("tfr")
        v["king_armed"] = self.choice("ka")
        v["king_capture"] = self.choice("ks")
        for key in ("kj", "nj", "cj", "ber", "swf"):
            self.choice(key)
        spd = self.get("spd")
        if not re.fullmatch(r"-1|[1-9][0-9]?", spd):
            if "," in spd:
                raise self.error("spd", message("speed limits per piece type ({speeds}) are not supported; "
                                                "give one number for every piece", speeds=repr(spd)))
            raise self.error("spd", message("{speed} is not -1 (no limit) or a whole number of squares", speed=repr(spd)))
        speed = 0 if spd == "-1" else int(spd)
        v["king_speed"] = v["man_speed"] = speed

        corners = self.squares("cor")
        n = size * size
        physical = frozenset({0, size - 1, n - size, n - 1})
        if corners is None or corners == physical:
            v["corners"] = True
        elif not corners:
            v["corners"] = False
        else:
            raise self.error("cor", message("only the four corner squares (or none) can be corners in tafl_rules"))
        centre = self.squares("cen")
        if centre is None or centre == frozenset({n // 2}):
            v["throne"] = True
        elif not centre:
            v["throne"] = False
        else:
            raise self.error("cen", message("only the centre square (or none) can be the throne in tafl_rules"))
        forts = self.squares("afor")
        if not forts:
            v["camps"] = False
        elif forts == self.attackers:
            v["camps"] = True
        else:
            raise self.error("afor", message("attacker fortresses must be exactly the attackers' start squares "
                                             "(tafl_rules' camps)"))
        if self.squares("dfor"):
            raise self.error("dfor", message("defender fortresses are not supported"))

        v["throne_stop"] = self.pieces("cens")
        v["throne_pass"] = self.pieces("cenp")
        v["corner_stop"] = self.pieces("cors")
        self.letters("corp")  # passing over a corner square cannot happen: nothing lies beyond it
        v["camp_stop"] = self.pieces("afors")
        v["camp_pass"] = self.pieces("aforp")
        cenre = self.letters("cenre")
        v["king_reenter_throne"] = "K" in cenre
        for letter, piece in (("t", "attacker"), ("T", "defender")):
            if letter not in cenre and piece in v["throne_stop"]:
                raise self.error("cenre", message("forbidding {pieces} to re-enter the centre is not supported", pieces=f"{piece}s"))
        for key in ("corre", "aforre", "dforre"):
            if not set("tTK") <= set(self.letters(key)):
                raise self.error(key, message("re-entry restrictions on corners and fortresses are not supported"))
        for key in ("dforp", "dfors", "dforh"):
            self.letters(key)

        corh, cenh, cenhe, aforh = (self.letters(k) for k in ("corh", "cenh", "cenhe", "aforh"))
        for side, letter in (("attackers", "t"), ("defenders", "T")):
            v[f"corners_hostile_to_{side}"] = "always" if letter in corh else "never"
            v[f"throne_hostile_to_{side}"] = ("always" if letter in cenh else "empty" if letter in cenhe
                                              else "never")
            v[f"camps_hostile_to_{side}"] = "always" if letter in aforh else "never"
        against = set()
        if v["king_capture"] == "four":
            if v["throne"] and ("K" in cenh or "K" in cenhe):
                against.add("throne")
            if v["corners"] and "K" in corh:
                against.add("corner")
            if v["camps"] and "K" in aforh:
                against.add("camp")
        v["king_capture_against"] = frozenset(against)

        sw = self.choice("sw")
        if SHIELDWALL[sw].takes_rows and not self.yes("swf"):
            raise self.error("swf", message("shieldwall captures by any move (swf:n) are not supported"))
        v["shieldwall"] = sw
        v["edge_fort"] = self.yes("efe")
        # rule points OTN has no key for, as OpenTafl plays them
        v.update(watch_king=False, sandwich="safe", tuichi="announce", no_moves="loss",
                 repetition_count=3, ply_limit=0)
        return v


def _letters_for(pieces: Iterable[str]) -> str:
    chosen = set(pieces)
    return "".join(_LETTER_OF[p] for p in PIECES if p in chosen)


def _otn_keys(rules: Rules) -> dict[str, str]:
    """The closest plain-OTN value of every key this module writes."""
    r = rules
    k: dict[str, str] = {}
    k["esc"] = ESCAPE[r.escape].otn
    k["surf"] = "y" if r.encirclement else "n"
    k["atkf"] = "y" if r.first == "attackers" else "n"
    k["tfr"] = REPETITION[r.repetition].otn
    k["ka"] = KING_ARMED[r.king_armed].otn
    k["ks"] = KING_CAPTURE[r.king_capture].otn
    k["spd"] = str(r.king_speed or -1) if r.king_speed == r.man_speed else "-1"
    k["cor"] = "default" if r.corners else ""
    k["cen"] = "default" if r.throne else ""
    if r.camps:
        att, _, _ = _position_squares(r.start, r.size, 0, r.start)
        k["afor"] = "".join(square_name(i, r.size) + "," for i in sorted(att))
    else:
        k["afor"] = ""
    four = k["ks"] == "y"
    against = r.king_capture_against

    def hostile(attackers: bool, defenders: bool, king: bool) -> str:
        return ("t" if attackers else "") + ("T" if defenders else "") + ("K" if king else "")

    def when(field: str) -> tuple[bool, bool]:  # (hostile while occupied, hostile while empty)
        mode = HOSTILITY[field][getattr(r, field)]
        return mode.when_occupied, mode.when_empty

    a_corner, _ = when("corners_hostile_to_attackers")
    d_corner, _ = when("corners_hostile_to_defenders")
    k["corh"] = hostile(a_corner, d_corner, "corner" in against if four else d_corner)
    a_throne, a_empty = when("throne_hostile_to_attackers")
    d_throne, d_empty = when("throne_hostile_to_defenders")
    k["cenh"] = hostile(a_throne, d_throne, False if four else d_throne)
    # the linnaeus king (OpenTafl's ks:c) is taken beside the throne by three: the empty
    # throne must be hostile to him there
    k["cenhe"] = hostile(a_empty, d_empty, "throne" in against if four else True if k["ks"] == "c" else d_empty)
    a_camp, _ = when("camps_hostile_to_attackers")
    d_camp, _ = when("camps_hostile_to_defenders")
    k["aforh"] = hostile(a_camp, d_camp, "camp" in against if four else d_camp)
    k["cenp"] = _letters_for(r.throne_pass)
    k["aforp"] = _letters_for(r.camp_pass)
    k["cors"] = _letters_for(r.corner_stop)
    k["cens"] = _letters_for(r.throne_stop)
    k["afors"] = _letters_for(r.camp_stop)
    k["cenre"] = "tT" + ("K" if r.king_reenter_throne else "")
    k["sw"] = SHIELDWALL[r.shieldwall].otn
    k["swf"] = "y"
    k["efe"] = "y" if r.edge_fort and k["esc"] == "c" else "n"
    return k


def _plain_reading(rules: Rules, keys: Mapping[str, str], attackers: frozenset[int]) -> dict[str, Any]:
    return _Reader(keys, {}, "", rules.size, rules.start, attackers).read()


def _format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, frozenset):
        return ",".join(sorted(value))
    return str(value)


def _rules_of(rules: Rules | catalogue.Variant) -> Rules:
    if isinstance(rules, catalogue.Variant):
        return rules.rules
    if not isinstance(rules, Rules):
        raise TypeError(f"expected Rules or a Variant, got {type(rules).__name__}")
    return rules


def _encode(rules: Rules) -> tuple[list[tuple[str, str]], list[str]]:
    """(OTN key/value pairs without dim and start, fields the plain reading gets wrong)."""
    att, _, _ = _position_squares(rules.start, rules.size, 0, rules.start)
    keys = _otn_keys(rules)
    plain = _plain_reading(rules, keys, att)
    for key in KEY_ORDER:  # leave out every key whose absence reads the same
        trial = {k: v for k, v in keys.items() if k != key}
        if _plain_reading(rules, trial, att) == plain:
            keys = trial
    lost = {f for f in FIELDS if plain[f] != getattr(rules, f)}
    # keys the reference program (OpenTafl) reads otherwise than this module: see the module notes
    if not REPETITION[rules.repetition].otn_exact:
        lost.add("repetition")
    if rules.throne and not rules.king_reenter_throne and "king" in rules.throne_pass:
        lost.add("king_reenter_throne")
    return [(k, keys[k]) for k in KEY_ORDER if k in keys], [f for f in FIELDS if f in lost]


def otn_losses(rules: Rules | catalogue.Variant) -> list[str]:
    """The Rules fields that plain OTN (no ``x-`` keys) cannot carry for these rules, in field order.

    >>> otn_losses(Rules())
    []
    >>> otn_losses(Rules(sandwich="forbidden", king_speed=1))
    ['king_speed', 'sandwich']
    """
    return _encode(_rules_of(rules))[1]


def rules_to_otn(rules: Rules | catalogue.Variant, *, strict: bool = False) -> str:
    """The OTN rules string of ``rules`` (one line; ``dim`` first, ``start`` last).

    Keys equal to the specification's defaults are left out. Rule points OTN cannot
    express follow as ``x-<field>:<value>`` extension keys, so that
    ``parse_rules(rules_to_otn(r)) == r`` for every valid ``r``. With ``strict=True``
    the extension keys are left out and an :class:`OTNLossWarning` names the lost
    fields (see :func:`otn_losses`).

    >>> brandub = parse_rules("dim:7 ks:n cenhe: cenh: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/")
    >>> rules_to_otn(brandub)
    'dim:7 ks:n cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/'
    >>> rules_to_otn(brandub.replace(sandwich="forbidden"))
    'dim:7 ks:n cenh: cenhe: x-sandwich:forbidden start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/'
    """
    rules = _rules_of(rules)
    pairs, lost = _encode(rules)
    parts = [f"dim:{rules.size}"] + [f"{k}:{v}" for k, v in pairs]
    if strict:
        if lost:
            warnings.warn(OTNLossWarning(lost), stacklevel=2)
    else:
        parts += [f"x-{f}:{_format_value(getattr(rules, f))}" for f in lost]
    parts.append(f"start:{rules.start}")
    return " ".join(parts)


def _game_rules_otn(rules: Rules, position: str | None, first: str) -> str:
    """The rules string of a game record: ``rules_to_otn(rules)``, but with the game's own start
    (``position``) in ``start`` and its first side in ``atkf``, and the rules' own in ``x-start``
    and ``x-first`` when they differ."""
    own_start = position is not None and _canonical_text(position, rules.size) != _canonical(rules)
    if not own_start and first == rules.first:
        return rules_to_otn(rules)
    pairs, lost = _encode(rules)
    keys = dict(pairs)
    if first != rules.first:
        if first == "attackers":
            keys.pop("atkf", None)  # the specification's default
        else:
            keys["atkf"] = "n"
    parts = [f"dim:{rules.size}"] + [f"{k}:{keys[k]}" for k in KEY_ORDER if k in keys]
    parts += [f"x-{f}:{_format_value(getattr(rules, f))}" for f in lost]
    if first != rules.first:
        parts.append(f"x-first:{rules.first}")
    if own_start:
        parts.append(f"x-start:{rules.start}")
    parts.append(f"start:{position if own_start else rules.start}")
    return " ".join(parts)


def _parse_extension(field: str, value: str, text: str, at: int) -> Any:
    kind = _FIELD_KIND[field]
    if kind == "bool":
        if value not in ("true", "false"):
            raise NotationError(message("x-{field}: expected true or false, got {value}", field=verbatim(field), value=repr(value)), text, at)
        return value == "true"
    if kind == "int":
        if not re.fullmatch(r"[0-9]{1,9}", value):
            raise NotationError(message("x-{field}: expected a whole number of at most nine digits, got {value}",
                                        field=verbatim(field), value=_shown(value)), text, at)
        return int(value)
    if kind == "set":
        allowed = KING_ANVILS if field == "king_capture_against" else PIECES
        out = []
        pos = 0
        for part in value.split(","):
            if part:
                if part not in allowed:
                    raise NotationError(message("x-{field}: {value} is not one of {choices}", field=verbatim(field), value=repr(part),
                                                choices=verbatim(", ".join(allowed))), text, at + pos)
                out.append(part)
            pos += len(part) + 1
        return frozenset(out)
    if field in CHOICES and value not in CHOICES[field]:
        raise NotationError(message("x-{field}: {value} is not one of {choices}", field=verbatim(field), value=repr(value),
                                            choices=verbatim(", ".join(CHOICES[field]))), text, at)
    return value


def _tokens(text: str) -> list[tuple[str, str, int, int]]:
    """(key, value, offset of key, offset of value) for each whitespace-separated entry."""
    out = []
    for m in re.finditer(r"\S+", text):
        token = m.group()
        if ":" not in token:
            raise NotationError(message("expected key:value, got {token}", token=repr(token)), text, m.start())
        key, value = token.split(":", 1)
        out.append((key, value, m.start(), m.start() + len(key) + 1))
    return out


def parse_rules(text: str) -> Rules:
    """Read an OTN rules string (with or without this module's ``x-`` extension keys).

    Omitted keys take the specification's defaults. Malformed text, and OTN rules that
    tafl_rules cannot play, raise :class:`~tafl_rules.errors.NotationError` naming the
    key, the value and the offset of the first bad character; a well-formed string
    describing an impossible combination raises :class:`~tafl_rules.rules.RulesError`
    naming the field.

    ``x-start`` and ``x-first`` give the rules' own start and first side where the string
    was written for a game that began elsewhere (see :meth:`GameRecord.to_otn`); the
    ``start`` and ``atkf`` keys then hold the game's.

    >>> r = parse_rules("dim:9 esc:e ka:n cen: cor: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/")
    >>> r.size, r.escape, r.king_armed, r.throne, r.corners
    (9, 'edge', 'no', False, False)
    """
    return _read_rules(text)[0]


def _read_rules(text: str) -> tuple[Rules, str, str]:
    """:func:`parse_rules`, with the start position and the first side the string writes in
    ``start`` and ``atkf`` (a game's own, when ``x-start`` or ``x-first`` give the rules')."""
    if not isinstance(text, str):
        raise NotationError(message("a rules string must be text, got {kind}", kind=type(text).__name__), "", 0)
    tokens = _tokens(text)
    if not tokens:
        raise NotationError(message("empty rules string (expected dim:<size> ... start:<position>)"), text, 0)
    key, value, at, vat = tokens[0]
    if key != "dim":
        raise NotationError(message("a rules string must begin with dim:<size>, not {key}", key=repr(key)), text, at)
    if not re.fullmatch(r"[0-9]+", value):
        raise NotationError(message("dim: {value} is not a whole number", value=_shown(value)), text, vat)
    if len(value) > 9:
        raise NotationError(message("dim: {value} is not a board size (7 to 19)", value=_shown(value)), text, vat)
    size = int(value)
    if not 7 <= size <= 19 or size % 2 == 0:
        raise RulesError("size", message("the board must have an odd side from 7 to 19, got {size}", size=size))
    key, start, at, start_at = tokens[-1]
    if key != "start":
        where = next((t for t in tokens if t[0] == "start"), None)
        if where is None:
            raise NotationError(message("the rules string has no start:<position> entry (it must come last)"),
                                text, len(text.rstrip()))
        raise NotationError(message("start:<position> must be the last entry"), text, where[2])
    keys: dict[str, str] = {}
    offsets: dict[str, int] = {}
    extensions: dict[str, Any] = {}
    own_start_at = start_at
    for key, value, at, vat in tokens[1:-1]:
        if key in keys or key in ("dim", "start"):
            raise NotationError(message("{key} is given twice", key=repr(key)), text, at)
        if key.startswith("x-"):
            field = key[2:]
            if field not in FIELDS:
                raise NotationError(message("unknown extension key {key}; extension keys are x-<field> for the "
                                            "fields {fields}", key=repr(key), fields=verbatim(", ".join(FIELDS))), text, at)
            if field == "start":
                _position_squares(value, size, vat, text)
                own_start_at = vat
            extensions[field] = _parse_extension(field, value, text, vat)
            keys[key] = value
            continue
        if key not in _KNOWN_KEYS:
            raise NotationError(message("unknown rules key {key}", key=repr(key)), text, at)
        if key in _CHOICE_KEYS:
            if value not in _CHOICE_KEYS[key]:
                raise NotationError(message("{key}: {problem}", key=verbatim(key), problem=message(
                    "{value} is not one of {choices}", value=repr(value), choices=verbatim(", ".join(_CHOICE_KEYS[key])))), text, vat)
            if _CHOICE_KEYS[key][value] is None:
                raise NotationError(message("{key}: {problem}", key=verbatim(key), problem=_unsupported(key, value)), text, vat)
        keys[key] = value
        offsets[key] = vat
    if "start" in extensions:  # the game's own start, in start:, must be well formed too
        _position_squares(start, size, start_at, text)
    # camps are the attackers' squares of the rules' own start (x-start, when the game began elsewhere)
    attackers, _, _ = _position_squares(extensions.get("start", start), size, own_start_at, text)
    otn_keys = {k: v for k, v in keys.items() if not k.startswith("x-")}
    values = _Reader(otn_keys, offsets, text, size, start, attackers).read()
    written_first = values["first"]
    values.update(extensions)
    return Rules(**values), start, written_first


# ---------------------------------------------------------------------------
# move records

_INFO = ("++", "--", "+", "-")


@dataclasses.dataclass(frozen=True)
class MoveRecord:
    """One OTN move record, as written.

    ``piece`` is the taflman symbol written before the move (``"K"`` for the king) or
    None; ``captures`` the captured squares in the order written; ``info`` one of
    ``""``, ``"+"`` (king may be captured next turn), ``"++"`` (king captured),
    ``"-"`` (king has a route to escape), ``"--"`` (king escaped).
    ``resign`` is true for the resignation record ``---`` (and then the squares are empty).
    """

    from_square: str = ""
    to_square: str = ""
    captures: tuple[str, ...] = ()
    piece: str | None = None
    info: str = ""
    resign: bool = False

    def __str__(self) -> str:
        return format_move(self)

    @property
    def move(self) -> str:
        """The bare move, ``"e5-e8"``."""
        return f"{self.from_square}-{self.to_square}"


_SQUARE_RE = re.compile(r"[a-s][0-9]{1,2}")
_SQUARE_NAME = re.compile(SQUARE_PATTERN)


def _parse_move_at(text: str, base: int, whole: str, size: int | None) -> MoveRecord:
    """Parse one move record ``text`` found at offset ``base`` of ``whole``."""
    def fail(problem: str, at: int) -> NotationError:
        return NotationError(message("move {move}: {problem}", move=_shown(text), problem=problem), whole, base + at)

    if text == "---":
        return MoveRecord(resign=True)
    i = 0
    piece = None
    if len(text) > 1 and text[0] in "tcnkTCNK" and text[1].isalpha():
        piece = text[0]
        if piece not in "tTK":
            raise fail(message("{piece} (a commander or knight of berserk tafl) is not supported", piece=repr(piece)), 0)
        i = 1

    def square(i: int, what: str) -> tuple[str, int]:
        m = _SQUARE_RE.match(text, i)
        if not m:
            raise fail(message("expected the {which} square (a letter a-s and a rank number, like e5)", which=what), i)
        name = m.group()
        if not _SQUARE_NAME.fullmatch(name) or (size is not None and square_index(name, size) < 0):
            raise fail(message("{square} is not a square of the {size}x{size} board", square=name, size=size) if size
                       else message("{square} is not a square name", square=name), i)
        return name, m.end()

    start, i = square(i, message("starting"))
    if text.startswith(("^", "="), i):
        raise fail(message("jumps and berserk moves ('^', '=') are not supported"), i)
    if not text.startswith("-", i):
        raise fail(message("expected '-' between the two squares"), i)
    end, i = square(i + 1, message("ending"))
    captures = []
    if text.startswith("x", i):
        i += 1
        while True:
            if i < len(text) and text[i] in "tcnkTCNK" and i + 1 < len(text) and text[i + 1].isalpha():
                i += 1  # a piece symbol before the captured square
            name, i = square(i, message("captured"))
            captures.append(name)
            if text.startswith(("/", "x"), i):
                i += 1
                continue
            break
    info = text[i:]
    if info not in ("",) + _INFO:
        raise fail(message("unexpected {text} (after the move only +, ++, - or -- may follow)", text=_shown(info)), i)
    return MoveRecord(start, end, tuple(captures), piece, info)


def parse_move(text: str, *, size: int | None = None) -> MoveRecord:
    """Read an OTN (or Walker algebraic) move record.

    Accepts ``e5-e8``, ``Ke5-e8``, captures as ``xe9/f8`` (OTN) or ``xe9xf8`` (Walker,
    aagenielsen.dk), the info symbols ``+ ++ - --`` and the resignation ``---``.
    With ``size`` the squares must lie on that board. Jumps and berserk moves raise
    :class:`~tafl_rules.errors.NotationError`, as does anything malformed (with the offset).

    >>> parse_move("e5-e8xe9/f8+")
    MoveRecord(from_square='e5', to_square='e8', captures=('e9', 'f8'), piece=None, info='+', resign=False)
    """
    if not isinstance(text, str):
        raise NotationError(message("a move record must be text, got {kind}", kind=type(text).__name__), "", 0)
    stripped = text.strip()
    if not stripped:
        raise NotationError(message("empty move record"), text, 0)
    return _parse_move_at(stripped, text.find(stripped), text, size)


def format_move(move: MoveRecord | Move | str, *, piece: str | None = None, info: str | None = None,
                captures: Iterable[str] | None = None, separator: str = "/") -> str:
    """The OTN move record of a :class:`MoveRecord`, an engine ``Move`` or a ``"e5-e8"`` string.

    ``separator`` joins several captures: ``"/"`` (the OTN specification, the default)
    or ``"x"`` (Walker / aagenielsen.dk style: ``d1-d4xd5xe4``). Nothing is written
    that :func:`parse_move` would refuse: a string that is not a move record raises
    :class:`~tafl_rules.errors.NotationError`, a piece, capture, info or separator
    that OTN has no place for ``ValueError``, anything that is not a move ``TypeError``.

    >>> format_move("e5-e8", captures=["e9", "f8"], info="+")
    'e5-e8xe9/f8+'
    """
    if isinstance(move, str):
        move = parse_move(move)
    if isinstance(move, MoveRecord):
        if move.resign:
            return "---"
        piece = move.piece if piece is None else piece
        info = move.info if info is None else info
    elif not isinstance(move, Move):
        raise TypeError(f"format_move needs a MoveRecord, a Move or a move's text, got {type(move).__name__}")
    chosen = list(move.captures if captures is None else captures)
    if piece not in (None, "", "t", "T", "K"):
        raise ValueError(f"piece must be t, T or K (or none); got {_shown(str(piece))}")
    if info not in (None, "") + _INFO:
        raise ValueError(f"info must be one of '', +, ++, -, --; got {_shown(str(info))}")
    if separator not in ("/", "x"):
        raise ValueError(f"separator must be '/' or 'x'; got {_shown(str(separator))}")
    for name in (move.from_square, move.to_square, *chosen):
        if not isinstance(name, str) or not _SQUARE_NAME.fullmatch(name):
            raise ValueError(f"{_shown(str(name))} is not a square name (a letter a-s and a rank 1-19, like e5)")
    out = f"{piece or ''}{move.from_square}-{move.to_square}"
    if chosen:
        out += "x" + separator.join(chosen)
    return out + (info or "")


# ---------------------------------------------------------------------------
# game records

@dataclasses.dataclass
class GameRecord:
    """An OTN game record: tags, rules, start, the main line of moves and commentary.

    ``position`` is the start position when it differs from ``rules.start``; ``turn``
    the side to move first when it differs from ``rules.first``; ``comments`` maps a
    ply index (0 = the first move) to its commentary (commentary before the first move
    goes in a ``start-comment`` tag, as OpenTafl does). ``text`` and ``offsets`` (of each
    move in ``text``) are kept from parsing so that replay errors can point into the text.
    """

    rules: Rules
    tags: dict[str, str] = dataclasses.field(default_factory=dict)
    position: str | None = None
    turn: str | None = None
    moves: list[MoveRecord] = dataclasses.field(default_factory=list)
    comments: dict[int, str] = dataclasses.field(default_factory=dict)
    text: str = ""
    offsets: list[int] = dataclasses.field(default_factory=list)
    #: 1 when the text's turn 1 opens with ``.....`` (the older form for a first side other
    #: than the rules'), so that its turns are counted as they were written.
    blank_first_half: int = 0

    def first_side(self) -> str:
        return self.turn or self.rules.first

    def to_game(self, *, check_captures: bool = True) -> Game:
        """Replay the moves on a new :class:`~tafl_rules.game.Game` and return it.

        An illegal move (or, with ``check_captures``, recorded captures the rules do not
        make) raises :class:`~tafl_rules.errors.NotationError` naming the turn and the
        reason; no partly played game is returned.
        """
        game = Game(self.rules, position=self.position, turn=self.turn)
        sides = ("attackers", "defenders")
        offset_turn = self.blank_first_half
        for ply, record in enumerate(self.moves):
            at = self.offsets[ply] if ply < len(self.offsets) else 0
            number = (ply + offset_turn) // 2 + 1
            side = game.turn if game.turn in sides else "?"
            where = message("turn {number} ({side})", number=number, side=side)
            if record.resign:
                if ply != len(self.moves) - 1:
                    raise NotationError(message("{where}: moves follow the resignation", where=where), self.text, at)
                break
            if game.outcome is not None:
                raise NotationError(message("{where}: {move} is played after the game ended ({reason})",
                                            where=where, move=record.move, reason=game.outcome.reason), self.text, at)
            if record.piece is not None:
                actual = game.piece_at(record.from_square)
                expected = {"K": "king", "T": "defender", "t": "attacker"}[record.piece]
                if actual is not None and actual != expected:
                    raise NotationError(message("{where}: {move} names a {expected} but {square} holds a {actual}",
                                                where=where, move=format_move(record), expected=expected,
                                                square=record.from_square, actual=actual), self.text, at)
            try:
                move = game.play(record.move)
            except IllegalMove as error:
                raise NotationError(message("{where}: {move} is illegal: {reason}", where=where, move=record.move,
                                            reason=_reason(error)), self.text, at) from None
            if check_captures:
                written, made = set(record.captures), set(move.captures)
                if written != made:
                    game.undo()
                    king = game.king_square()
                    game.play(record.move)
                    if (written ^ made) - {king}:
                        raise NotationError(message(
                            "{where}: the record says {move} captures {written}, the rules capture {made}",
                            where=where, move=record.move, written=", ".join(sorted(written)) or message("nothing"),
                            made=", ".join(sorted(made)) or message("nothing")), self.text, at)
        return game

    def to_otn(self) -> str:
        """The record as ``.otg`` text (tags, the rules tag last, then numbered turns with
        commentary), as the OTN specification orders them.

        A game with its own start position or first side is written so that other programs
        open it there: its ``[rules:...]`` string holds the game's start in ``start`` and its
        first side in ``atkf`` (OpenTafl takes the board from the rules tag alone and reads
        no ``.....``), and the rules' own in ``x-start`` and ``x-first``, which this module
        reads back. (Records of the older form, with ``[position:...]`` and ``[turn:...]``
        tags and ``.....``, are still read.)"""
        lines = []
        tags = dict(self.tags)
        tags["rules"] = _game_rules_otn(self.rules, self.position, self.first_side())
        for key, value in self.tags.items():
            if not isinstance(key, str) or not _TAG_NAME.fullmatch(key):
                raise ValueError(f"tag {_shown(str(key))}: a tag name is letters, digits, '-', '_' and '.', "
                                 "starting with a letter or a digit")
            if key in _RESERVED_TAGS:
                raise ValueError(f"tag {key!r} is written from the record itself; set the record's "
                                 f"{'rules' if key == 'rules' else key} instead")
            if not isinstance(value, str) or "]" in value or any(ch in _BREAKS for ch in value):
                raise ValueError(f"tag {key!r}: a tag value is text on one line without ']'")
        for key, value in tags.items():
            lines.append(f"[{key}:{value}]")
        lines.append("")
        plies = list(self.moves)
        shift = 0
        cells: list[str | None] = [format_move(m) for m in plies]
        for ply, comment in self.comments.items():
            if not isinstance(ply, int) or not 0 <= ply < len(plies):
                raise ValueError(f"comment on ply {ply!r}: the game has plies 0 to {len(plies) - 1}")
            if not isinstance(comment, str) or "]" in comment or ("|" in comment and (ply + shift) % 2 == 0):
                raise ValueError(f"comment on ply {ply}: commentary may not hold ']' (nor '|' on a first half)")
        for t in range(0, len(cells), 2):
            pair = cells[t:t + 2]
            lines.append(f"{t // 2 + 1}. " + " ".join("....." if c is None else c for c in pair))
            halves = [self.comments.get(t - shift), self.comments.get(t + 1 - shift)]
            if any(halves):
                lines.append("[" + (halves[0] or "") + "|" + (halves[1] or "") + "]")
        return "\n".join(lines) + "\n"


_TAG_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
#: Tags a record writes from its own fields (its rules, start position and first side).
_RESERVED_TAGS = frozenset({"rules", "position", "turn"})
_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
_TURN_RE = re.compile(r"([0-9]+)\.(?=\s|$)")
_VARIATION_RE = re.compile(r"[0-9]+[ab]\.(?:[0-9]+\.[0-9]+[ab]\.)+(?=\s|$)")
_WORD_RE = re.compile(r"\S+")


class _GameReader:
    """One pass over the text of a game record (see :func:`read_game`)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tags: dict[str, str] = {}
        self.tag_at: dict[str, int] = {}  # where each tag's '[' is
        self.rules_at: tuple[str, int] | None = None  # (rules string, its offset)
        self.position_at: tuple[str, int] | None = None
        self.moves: list[MoveRecord] = []
        self.offsets: list[int] = []
        self.comments: dict[int, str] = {}
        self.header = True
        self.next_turn = 1
        self.shift = 0  # 1 when turn 1 opens with "....."
        self.blank_at = 0  # where that "....." is
        self.open_turn: list[int | None] | None = None  # plies of the turn awaiting commentary
        self.in_variation = False

    def fail(self, problem: str, at: int) -> NotationError:
        return NotationError(problem, self.text, at)

    def line_end(self, i: int) -> int:
        end = self.text.find("\n", i)
        return len(self.text) if end < 0 else end

    def run(self) -> None:
        text, i = self.text, 0
        while i < len(text):
            if text[i].isspace():
                i += 1
            elif text[i] == "[":
                i = self.bracket(i)
            elif self.header and text.startswith("dim:", i):
                i = self.bare_rules(i)
            elif self.header and text[i] == "/":
                end = self.line_end(i)
                self.position_at = (text[i:end].strip(), i)
                i = end
            elif _VARIATION_RE.match(text, i):
                self.header, self.in_variation, self.open_turn = False, True, None
                i = self.line_end(i)
            else:
                i = self.turn(i)

    def bracket(self, i: int) -> int:
        """A ``[tag:value]`` in the header, else ``[first|second]`` commentary."""
        close = self.text.find("]", i)
        if close < 0:
            raise self.fail(message("'[' is never closed by ']'"), i)
        body = self.text[i + 1:close]
        if self.header:
            if ":" not in body:
                raise self.fail(message("a tag must read [name:value]"), i)
            raw_key, value = body.split(":", 1)
            key = raw_key.strip()
            if key in self.tags:
                raise self.fail(message("tag {key} is given twice", key=repr(key)), i)
            self.tags[key] = value
            self.tag_at[key] = i
            value_at = i + 1 + len(raw_key) + 1
            if key == "rules":
                self.rules_at = (value, value_at)
            elif key == "position":
                self.position_at = (value.strip(), value_at + len(value) - len(value.lstrip()))
        elif self.in_variation:
            self.in_variation = False  # commentary of a skipped variation
        elif self.open_turn is not None:
            first, _, second = body.partition("|")
            for ply, comment in zip(self.open_turn, (first, second)):
                if ply is not None and comment:
                    self.comments[ply] = comment
            self.open_turn = None
        else:
            raise self.fail(message("commentary must follow a turn"), i)
        return close + 1

    def bare_rules(self, i: int) -> int:
        end = self.line_end(i)
        if self.rules_at is not None:
            raise self.fail(message("a second rules string"), i)
        self.rules_at = (self.text[i:end], i)
        return end

    def turn(self, i: int) -> int:
        """``<n>. <move> [<move>]`` up to the end of the line or a ``[``."""
        text = self.text
        m = _TURN_RE.match(text, i)
        if not m:
            word = _WORD_RE.match(text, i)
            raise self.fail(message("expected a turn number like '{turn}.', got {text}", turn=self.next_turn,
                                    text=_shown(word.group() if word else text[i:])), i)
        self.header, self.in_variation = False, False
        if len(m.group(1)) > 9:
            raise self.fail(message("turn {number} where turn {turn} was expected", number=_shown(m.group(1)), turn=self.next_turn), i)
        number = int(m.group(1))
        if number != self.next_turn:
            raise self.fail(message("turn {number} where turn {turn} was expected", number=number, turn=self.next_turn), i)
        if self.moves and self.moves[-1].resign:
            raise self.fail(message("turn {number} follows a resignation", number=number), i)
        self.next_turn += 1
        end = self.line_end(i)
        bracket = text.find("[", m.end(), end)
        end = end if bracket < 0 else bracket
        plies: list[int | None] = []
        for w in re.finditer(r"\S+", text[m.end():end]):
            token, at = w.group(), m.end() + w.start()
            if len(plies) == 2:
                raise self.fail(message("turn {number} has more than two moves", number=number), at)
            if token == ".....":
                if number != 1 or plies:
                    raise self.fail(message("'.....' (no move) may only open turn 1"), at)
                self.shift, self.blank_at = 1, at
                plies.append(None)
                continue
            if self.moves and self.moves[-1].resign:
                raise self.fail(message("a move follows the resignation"), at)
            self.moves.append(_parse_move_at(token, at, text, None))
            self.offsets.append(at)
            plies.append(len(self.moves) - 1)
        if not plies:
            raise self.fail(message("turn {number} has no move", number=number), m.end())
        self.open_turn = plies + [None] * (2 - len(plies))
        return end

    def record(self) -> GameRecord:
        text, tags = self.text, dict(self.tags)
        written: tuple[str, str] | None = None  # the start and first side the rules string writes
        start_at = 0  # where the rules string's start: entry is
        if self.rules_at is None:
            rules = _rules_from_variant_tag(tags, text, self.tag_at.get("variant", 0))
        else:
            rules, *rest = _parse_rules_at(self.rules_at[0], self.rules_at[1], text)
            written = (rest[0], rest[1])
            start_at = self.rules_at[1] + self.rules_at[0].rfind("start:") + 6
        size = rules.size
        for move, at in zip(self.moves, self.offsets):
            for name in (move.from_square, move.to_square) + move.captures:
                if name and square_index(name, size) < 0:
                    raise self.fail(message("move {move}: {square} is not a square of the {size}x{size} board",
                                            move=repr(format_move(move)), square=name, size=size), at)
        position, position_at = None, 0
        if written is not None and _canonical_text(written[0], size) != _canonical(rules):
            # a game that began elsewhere: its start in the rules string, the rules' own in x-start
            position, position_at = written[0], start_at
        if self.position_at is not None:
            _position_squares(self.position_at[0], size, self.position_at[1], text)
            if position is not None and _canonical_text(self.position_at[0], size) != _canonical_text(position, size):
                raise self.fail(message("the position tag and the rules string's start: give two different starts"),
                                self.position_at[1])
            position, position_at = self.position_at
        if position is None:
            position_at = start_at
        try:  # a start no game can have (no king, a man on the throne...): refused here, by name
            rules.check_position(parse_position(rules.start if position is None else position, size))
        except PositionError as error:
            raise self.fail(message("start position: {problem}", problem=error.message), position_at) from None
        turn = tags.pop("turn", None)
        tags.pop("rules", None)
        tags.pop("position", None)
        if turn is not None:
            turn = turn.strip()
            if turn not in ("attackers", "defenders"):
                raise self.fail(message("turn tag: {turn} is not attackers or defenders", turn=repr(turn)), self.tag_at["turn"])
        other = "defenders" if rules.first == "attackers" else "attackers"
        if written is not None and written[1] != rules.first:  # atkf gives the game's first side, x-first the rules'
            if self.shift or (turn is not None and turn != written[1]):
                raise self.fail(message("the rules string says the {side} move first (atkf), but the record says otherwise",
                                        side=written[1]), self.blank_at if self.shift else self.tag_at["turn"])
            turn = written[1]
        elif self.shift:
            if turn is not None and turn != other:
                raise self.fail(message("turn 1 starts with '.....' but the turn tag says {side}", side=turn), self.blank_at)
            turn = other
        elif self.moves and turn is not None and turn != rules.first:
            raise self.fail(message("the turn tag says the {side} move first, but turn 1 has no '.....'", side=turn),
                            self.offsets[0])
        return GameRecord(rules=rules, tags=tags, position=position, turn=turn, moves=self.moves,
                          comments=self.comments, text=text, offsets=self.offsets, blank_first_half=self.shift)


def read_game(text: str) -> GameRecord:
    """Parse an OTN game record (``.otg``) without playing it.

    Header: ``[tag:value]`` tags (the rules string in ``[rules:...]``, or on a line of
    its own; a game that began elsewhere has its start position and first side in the
    rules string's ``start`` and ``atkf`` and the rules' own in ``x-start`` and ``x-first``,
    as :meth:`GameRecord.to_otn` writes it, or, in the older form, its start in a
    ``[position:...]`` tag or on a line of its own and its first side in ``[turn:...]``),
    then numbered turns ``1. e5-e8 f1-f4`` each optionally followed by
    ``[first-half comment|second-half comment]``. ``.....`` stands for a missing first
    half in turn 1 (the game starts with the other side). Variation lines (``8a.1.1a.``)
    and their commentary are skipped: only the main line is read. Without a rules
    string, a ``[variant:...]`` tag naming a catalogue variant (id or name) gives the rules.
    """
    if not isinstance(text, str):
        raise NotationError(message("a game record must be text, got {kind}", kind=type(text).__name__), "", 0)
    reader = _GameReader(text)
    reader.run()
    return reader.record()


def _parse_rules_at(rules_text: str, base: int, whole: str) -> tuple[Rules, str, str]:
    try:
        return _read_rules(rules_text)
    except NotationError as error:
        raise NotationError(message("rules: {problem}", problem=error.message), whole, base + error.offset) from None


def _rules_from_variant_tag(tags: Mapping[str, str], text: str, at: int) -> Rules:
    """The rules of the catalogue variant the ``variant`` tag (at offset ``at``) names."""
    name = (tags.get("variant") or "").strip()
    if name:
        for v in catalogue.variants():
            if name.lower() in (v.id.lower(), v.name.lower()):
                return v.rules
        raise NotationError(message("the record has no rules string and {name} is not a variant of the catalogue",
                                    name=repr(name)),
                            text, at)
    raise NotationError(message("the record has no rules string ([rules:dim:... start:...])"), text, 0)


def game_from_otn(text: str, *, check_captures: bool = True) -> Game:
    """Read an OTN game record and replay it: a :class:`~tafl_rules.game.Game` after its last move.

    An illegal move raises :class:`~tafl_rules.errors.NotationError` naming the turn and
    why (the engine's reason); nothing partly played is returned.
    """
    return read_game(text).to_game(check_captures=check_captures)


def record_from_game(game: Game, *, tags: Mapping[str, str] | None = None,
                     comments: Mapping[int, str] | None = None, annotate: bool = True) -> GameRecord:
    """A :class:`GameRecord` of a played game: its rules, start, moves (the king's moves
    marked ``K``, info symbols ``+ ++ - --`` when ``annotate``), a ``variant`` tag when the
    rules are exactly those of one catalogue variant, and ``result`` / ``termination``
    tags when the game is over."""
    rules = game.rules
    played = list(game.moves)
    start, turn = _initial_state(game)
    replay = Game(rules, position=start, turn=turn)
    records = []
    for move in played:
        piece = "K" if replay.piece_at(move.from_square) == "king" else None
        made = replay.play(f"{move.from_square}-{move.to_square}")
        info = ""
        if annotate:
            info = _info_symbol(replay)
        records.append(MoveRecord(move.from_square, move.to_square, tuple(made.captures), piece, info))
    out_tags = dict(tags or {})
    if "variant" not in out_tags:
        name = _variant_name(rules)
        if name:
            out_tags["variant"] = name
    outcome = game.outcome
    if outcome is not None:
        out_tags.setdefault("result", {"attackers": "1", "defenders": "-1", None: "0"}.get(outcome.winner, "?"))
        out_tags.setdefault("termination", outcome.reason)
    return GameRecord(rules=rules, tags=out_tags, position=None if start == _canonical(rules) else start,
                      turn=None if turn == rules.first else turn, moves=records,
                      comments=dict(comments or {}))


def _variant_name(rules: Rules) -> str | None:
    """The name of the catalogue variant with exactly these rules, if there is one."""
    found = [v.name for v in catalogue.variants() if v.rules == rules]
    return found[0] if len(found) == 1 and "]" not in found[0] else None


def _canonical(rules: Rules) -> str:
    return _canonical_text(rules.start, rules.size)


def _canonical_text(position: str, size: int) -> str:
    p = parse_position(position, size)
    return format_position(p.attackers, p.defenders, p.king, size)


def _initial_state(game: Game) -> tuple[str, str]:
    """The position and side to move before the game's first move."""
    stack = game.engine.stack
    if not stack:
        return game.position(), game.turn
    first = stack[0]
    return format_position(first.attackers, first.defenders, first.king, game.size), SIDE_NAMES[first.side]


def _info_symbol(game: Game) -> str:
    outcome = game.outcome
    if outcome is not None:
        if outcome.kind == Termination.KING_CAPTURED:
            return "++"
        if outcome.kind in (Termination.ESCAPE, Termination.TUICHI):
            return "--"
        return ""
    said = set(game.announcements())
    mover = "defenders" if game.turn == "attackers" else "attackers"
    threat = "king threatened" in said
    route = bool(said & {"raichi", "tuichi", "check"})
    if threat and (mover == "attackers" or not route):
        return "+"
    if route:
        return "-"
    return ""


def game_to_otn(game: Game, *, tags: Mapping[str, str] | None = None, comments: Mapping[int, str] | None = None,
                annotate: bool = True) -> str:
    """The ``.otg`` text of a game: tags (``rules``, and ``result``/``termination`` when
    over), numbered turns with OTN move records, optional commentary per ply.

    ``game_from_otn(game_to_otn(g))`` replays to the same position and moves. Nothing is
    written that :func:`read_game` would refuse or read otherwise: a tag name that is not
    letters, digits, ``-``, ``_`` and ``.``, a reserved tag (``rules``, ``position``,
    ``turn``: the record writes them itself), a tag value holding ``]`` or a line break, a
    comment on a ply the game does not have or holding ``]`` raise ``ValueError`` naming
    it; the game is not changed.
    """
    return record_from_game(game, tags=tags, comments=comments, annotate=annotate).to_otn()


__all__ = [
    "DEFAULTS", "GameRecord", "MoveRecord", "OTNLossWarning", "format_move", "game_from_otn", "game_to_otn",
    "otn_losses", "parse_move", "parse_rules", "read_game", "record_from_game", "rules_to_otn",
]
