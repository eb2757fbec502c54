"""The reconstruction catalogue: every variant as a start layout, a complete rules
record and, for every rule point, where it comes from.

Data format
===========

One TOML file per variant in ``tafl_rules/variants/`` (read with the standard
library's :mod:`tomllib`, shipped inside the package so that Pyodide has it), plus
``_toggles.toml`` with the named toggles that several variants share. A variant
file holds:

``id``, ``name``, ``summary``, ``family``, ``sources``
    The id is a contract (pages, links and tests use it); ``sources`` are keys of
    the bibliography.
``reconstruction``
    ``true`` for a candidate reconstruction of a game of the past (the site's answer to Jones's
    question, which rules make the fairest game, covers each of them: :func:`reconstructions`);
    ``false`` for the rule sets people play today, kept to compare with (Copenhagen, Fetlar,
    brandubh as aagenielsen.dk plays it).
``correction_of`` (optional)
    The id of the variant whose printed figure this one corrects. A correction
    never replaces what was printed: both are in the catalogue.
``layout_from`` (optional) or a ``[diagram]`` table
    The start layout, drawn as an ASCII diagram in the notation of its source
    (the WELSH-L posting of E. P. Jones's article draws ``|_|0|X|#|`` with ``0``
    attacker, ``X`` defender, ``#`` king, ``_`` empty). ``[diagram]`` has ``text`` and ``legend`` (character -> piece or
    ``"empty"``). The OTN start position (``rules.start``) and the board size are
    computed from the diagram, never typed a second time; ``layout_from`` reuses
    the diagram of another variant whose source gives the same layout.
``layout_note``
    Where the layout comes from when the source prints none.
``general_notes``
    General notes on the variant (``Variant.notes["general"]``).
``[rules]``
    Every field of :class:`~tafl_rules.rules.Rules` except ``size`` and
    ``start`` (those come from the diagram), with piece sets as lists.
``[provenance.<field>]``, one table for every field including ``size`` and ``start``
    ``source`` (bibliography key), ``locator`` (figure, rule, law or paragraph as
    the source labels it; never an invented page number), and exactly one of
    ``passage`` (a short verbatim quotation) or ``filler`` (the words ``modern
    filler`` and who proposed it). How sure a quotation is (one of
    :data:`STATUSES`) is never typed here: the site's quotation check finds each
    passage in a stored copy of its source (``sources/texts/``) at its locator
    and computes it from that copy. With a passage, optionally ``says`` (what
    the passage states on this point, in the site's words, where the words alone
    could be taken for more or less) and ``reports`` (the bibliography key of the
    work whose rules the passage gives, when its writer reports someone else's:
    Walker's account of Bell). ``[[provenance.<field>.also]]`` tables add other
    works' statements on the same point (``source``, ``locator``, ``passage``,
    optional ``says`` and ``reports``), which the site's tables of witnesses
    show beside the catalogue's own source.
``[notes]``
    Field -> text, for every point the source leaves open. Notes, the layout note
    and the general notes are MyST text: a quotation in them is written
    ``{q}`words <key: locator>``` so that the quotation check finds it too.
``[toggles]``
    Toggle name -> list of the readings this variant offers. Readings are
    defined in ``_toggles.toml`` or, for toggles of one variant only, in the
    variant's own ``[toggle_defs.<name>]`` tables (same format). Each reading has
    ``label``, ``changes`` (rules fields -> values), ``source``, ``locator`` and
    one of ``passage`` / ``filler``, and an optional ``note``.
    A toggle's default is the reading the variant's own rules already match.
``[costing]`` (``hywel-dda-jones`` only)
    The Hywel Dda valuation as the source states it; see :func:`hywel_dda_costing`.

Use :func:`variants` for the whole catalogue and :func:`variant` for one variant,
optionally with toggles applied: ``variant("tablut-linnaeus", king_capture="four")``.
A toggled variant keeps its id; ``Variant.applied`` says which reading of each
toggle is in force, ``Variant.toggled`` which differ from the defaults, and
``Variant.key`` names the combination (``"tablut-linnaeus?king_capture=four"``).
Naming two toggles that set the same rule point differently is an error.

>>> v = variant("tablut-smith")
>>> v.rules.king_capture, sorted(v.rules.king_capture_against)
('four', ['throne'])
>>> v.provenance["king_capture"].locator
'law 10'
>>> hywel_dda_costing().defenders, hywel_dda_costing().attackers
(8, 16)
"""

from __future__ import annotations

import dataclasses
import functools
import re
import tomllib
from fractions import Fraction
from importlib import resources
from types import MappingProxyType
from typing import Any, Mapping

from .errors import RulesError
from .messages import message, verbatim
from .position import format_position
from .rules import FIELDS, Rules

__all__ = [
    "FAMILIES",
    "STATUSES",
    "Costing",
    "Provenance",
    "Reading",
    "Statement",
    "Toggle",
    "Variant",
    "diagram_to_position",
    "hywel_dda_costing",
    "reconstructions",
    "variant",
    "variant_ids",
    "variants",
]

#: How sure a quotation is, as the site's quotation check computes it from the stored copy
#: it is found in: a copy of the source itself, the source as another work quotes it, or a
#: copy that cannot be tied to its original. Never typed in the data.
STATUSES = ("verified", "second-hand", "unverified")
#: The families a variant may belong to.
FAMILIES = ("tawlbwrdd", "tablut", "hnefatafl", "brandubh", "alea-evangelii", "tafl")
_PIECE_LETTERS = {"attacker": "t", "defender": "T", "king": "K"}
_VARIANT_KEYS = {"id", "name", "summary", "family", "sources", "reconstruction", "correction_of", "layout_from", "layout_note",
                 "general_notes", "notes", "diagram", "rules", "provenance", "toggles", "toggle_defs", "costing"}
_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def _freeze(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping))


@dataclasses.dataclass(frozen=True)
class Statement:
    """What one work states on one rule point: a verbatim passage at a locator, with, optionally, the
    site's summary of it (``says``) and the work whose rules it reports (``reports``), when its writer
    gives someone else's rules."""

    source: str
    locator: str
    passage: str
    says: str = ""
    reports: str = ""

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str) -> "Statement":
        unknown = sorted(set(data) - {"source", "locator", "passage", "says", "reports"})
        if unknown:
            raise RulesError("provenance", f"{where}: unknown key {unknown[0]!r}")
        missing = [k for k in ("source", "locator", "passage") if not isinstance(data.get(k), str) or not data[k]]
        if missing:
            raise RulesError("provenance", f"{where}: a statement needs {missing[0]!r} (a verbatim passage, not a filler)")
        return cls(**{k: str(v) for k, v in data.items()})


@dataclasses.dataclass(frozen=True)
class Provenance:
    """Where one rule point of one variant comes from.

    Exactly one of ``passage`` (a short verbatim quotation from the source, found
    at ``locator`` in a stored copy of it) and ``filler`` (``"modern filler:
    proposed by ..."``) is set.
    """

    source: str
    locator: str
    passage: str | None = None
    filler: str | None = None
    says: str = ""
    reports: str = ""
    also: tuple[Statement, ...] = ()

    def __post_init__(self) -> None:
        if not self.source or not isinstance(self.source, str):
            raise RulesError("provenance", "source must name a bibliography key")
        if not self.locator or not isinstance(self.locator, str):
            raise RulesError("provenance", f"source {self.source!r} needs a locator (figure, rule, law, paragraph)")
        if (self.passage is None) == (self.filler is None):
            raise RulesError("provenance", f"give exactly one of passage and filler (source {self.source!r}, {self.locator})")
        if self.filler is not None and not self.filler.startswith("modern filler"):
            raise RulesError("provenance", f"a filler must start with 'modern filler' and say who proposed it, got {self.filler!r}")
        if self.passage is None and (self.says or self.reports):
            raise RulesError("provenance", f"'says' and 'reports' describe a passage; {self.source!r}, {self.locator} has none")

    @property
    def statements(self) -> tuple[Statement, ...]:
        """What the works quoted here state on this point: the passage (if any), then the ``also`` ones."""
        own = (Statement(self.source, self.locator, self.passage, self.says, self.reports),) if self.passage else ()
        return own + self.also

    @property
    def is_filler(self) -> bool:
        return self.filler is not None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str) -> "Provenance":
        if "status" in data:
            raise RulesError("provenance", f"{where}: 'status' is computed from the stored copy of the source "
                                           "(sources/texts), never typed; remove it")
        unknown = sorted(set(data) - {"source", "locator", "passage", "filler", "says", "reports", "also"})
        if unknown:
            raise RulesError("provenance", f"{where}: unknown key {unknown[0]!r}")
        also = data.get("also", [])
        if not isinstance(also, list):
            raise RulesError("provenance", f"{where}: 'also' is a list of tables ([[provenance.<field>.also]])")
        fields = {k: v for k, v in data.items() if k != "also"}
        fields["also"] = tuple(Statement.from_dict(item, f"{where} also #{n}") for n, item in enumerate(also, 1))
        try:
            return cls(**fields)
        except TypeError as exc:  # missing source/locator
            raise RulesError("provenance", f"{where}: {exc}") from None
        except RulesError as exc:
            raise RulesError("provenance", f"{where}: {str(exc).partition(': ')[2]}") from None


@dataclasses.dataclass(frozen=True)
class Reading:
    """One reading of an ambiguous point: the rule changes it makes and who proposes it."""

    label: str
    changes: Mapping[str, Any]
    source: str
    locator: str
    passage: str | None = None
    filler: str | None = None
    note: str = ""
    says: str = ""
    reports: str = ""

    @property
    def provenance(self) -> Provenance:
        return Provenance(self.source, self.locator, self.passage, self.filler, self.says, self.reports)


@dataclasses.dataclass(frozen=True)
class Toggle:
    """A named ambiguity of a variant with its readings; ``default`` is the variant's own."""

    name: str
    label: str
    default: str
    readings: Mapping[str, Reading]
    question: str = ""


@dataclasses.dataclass(frozen=True)
class Variant:
    """One reconstruction: a layout, a complete rules record, and the provenance of every rule point."""

    id: str
    name: str
    summary: str
    family: str
    sources: tuple[str, ...]
    rules: Rules
    provenance: Mapping[str, Provenance]
    notes: Mapping[str, str]
    """Field -> note for the points the source leaves open; key ``"general"`` holds the general notes."""
    diagram: str
    diagram_legend: Mapping[str, str]
    correction_of: str | None
    toggles: Mapping[str, Toggle]
    applied: Mapping[str, str]
    """Toggle name -> reading in force: the one chosen with :func:`variant`, else the one the
    rules match (the default, unless another toggle changed the same point; a toggle whose
    point no reading describes any more is left out)."""
    layout_note: str
    layout_from: str | None = None
    costing: Mapping[str, Any] | None = None
    reconstruction: bool = False
    """A candidate reconstruction of a game of the past (not a rule set people play today)."""

    @property
    def general_notes(self) -> str:
        return self.notes.get("general", "")

    @property
    def toggled(self) -> dict[str, str]:
        """The toggles set to something other than their default."""
        return {name: value for name, value in self.applied.items() if value != self.toggles[name].default}

    @property
    def key(self) -> str:
        """The id with the toggles that differ from the defaults, e.g. ``"tablut-linnaeus?king_capture=two"``."""
        chosen = self.toggled
        return self.id + ("?" + "&".join(f"{k}={v}" for k, v in sorted(chosen.items())) if chosen else "")

    def counts(self) -> dict[str, int]:
        """Pieces of each kind in the start position."""
        body = self.rules.start
        return {"attacker": body.count("t"), "defender": body.count("T"), "king": body.count("K")}

    def __str__(self) -> str:
        return f"{self.id}: {self.name}"


# --- diagrams -------------------------------------------------------------

def diagram_rows(text: str, legend: Mapping[str, str]) -> list[list[str | None]]:
    """The diagram as rows (top first) of piece names or ``None`` for empty squares.

    Accepted form (that of the WELSH-L posting's figures): one rank per line written ``|a|b|c|``; lines made only
    of underscores (the top border) and blank lines are skipped.
    """
    rows: list[list[str | None]] = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or set(line) <= {"_"}:
            continue
        if not (line.startswith("|") and line.endswith("|")):
            raise RulesError("diagram", f"line {number} {line!r} is not written |a|b|c|")
        cells = line[1:-1].split("|")
        row = []
        for cell in cells:
            if len(cell) != 1 or cell not in legend:
                raise RulesError("diagram", f"line {number}: {cell!r} is not in the legend ({', '.join(sorted(legend))})")
            piece = legend[cell]
            row.append(None if piece == "empty" else piece)
        rows.append(row)
    if not rows:
        raise RulesError("diagram", "the diagram has no ranks")
    if any(len(row) != len(rows) for row in rows):
        raise RulesError("diagram", f"the diagram is not square: {len(rows)} ranks of {sorted({len(r) for r in rows})} squares")
    return rows


def diagram_to_position(text: str, legend: Mapping[str, str]) -> tuple[int, str]:
    """Board size and OTN position record of an ASCII diagram (drawn with rank 1 at the bottom)."""
    for char, named in legend.items():
        if named not in (*_PIECE_LETTERS, "empty"):
            raise RulesError("diagram", f"legend maps {char!r} to {named!r}; use attacker, defender, king or empty")
    rows = diagram_rows(text, legend)
    size = len(rows)
    attackers = defenders = 0
    king = -1
    for number, row in enumerate(rows):
        rank = size - 1 - number
        for file, piece in enumerate(row):
            square = rank * size + file
            if piece == "attacker":
                attackers |= 1 << square
            elif piece == "defender":
                defenders |= 1 << square
            elif piece == "king":
                if king >= 0:
                    raise RulesError("diagram", "the diagram has more than one king")
                king = square
    return size, format_position(attackers, defenders, king, size)


# --- loading ----------------------------------------------------------------

def _data_files() -> dict[str, dict[str, Any]]:
    folder = resources.files(__package__).joinpath("variants")
    out = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            try:
                out[entry.name[:-5]] = tomllib.loads(entry.read_text(encoding="utf-8"))
            except tomllib.TOMLDecodeError as exc:
                raise RulesError("catalogue", f"variants/{entry.name}: {exc}") from None
    return out


def _reading(name: str, value: str, data: Mapping[str, Any], where: str) -> Reading:
    allowed = {"label", "changes", "source", "locator", "passage", "filler", "status", "note", "says", "reports"}
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise RulesError("toggles", f"{where}: reading {name}={value} has unknown key {unknown[0]!r}")
    changes = dict(data.get("changes", {}))
    bad = sorted(set(changes) - set(FIELDS))
    if bad or not changes:
        raise RulesError("toggles", f"{where}: reading {name}={value} must change rules fields, not {bad or 'nothing'}")
    Provenance.from_dict({k: data[k] for k in ("source", "locator", "passage", "filler", "status", "says", "reports")
                          if k in data}, f"{where}: reading {name}={value}")
    return Reading(label=data.get("label", value), changes=_freeze(changes), source=data["source"],
                   locator=data["locator"], passage=data.get("passage"), filler=data.get("filler"),
                   note=data.get("note", ""), says=data.get("says", ""), reports=data.get("reports", ""))


def _toggle_defs(data: Mapping[str, Any], where: str) -> dict[str, dict[str, Any]]:
    defs = {}
    for name, spec in data.items():
        readings = {value: _reading(name, value, rdata, where) for value, rdata in spec.get("readings", {}).items()}
        defs[name] = {"label": spec.get("label", name), "question": spec.get("question", ""), "readings": readings}
    return defs


def _matches(rules: Rules, changes: Mapping[str, Any]) -> bool:
    for field, value in changes.items():
        have = getattr(rules, field)
        if isinstance(have, frozenset):
            value = frozenset(value)
        if have != value:
            return False
    return True


def _build(vid: str, data: Mapping[str, Any], files: Mapping[str, Mapping[str, Any]],
           shared: Mapping[str, dict[str, Any]]) -> Variant:
    where = f"variants/{vid}.toml"
    unknown = sorted(set(data) - _VARIANT_KEYS)
    if unknown:
        raise RulesError("catalogue", f"{where}: unknown key {unknown[0]!r}")
    if data.get("id") != vid or not _ID.match(vid):
        raise RulesError("catalogue", f"{where}: id {data.get('id')!r} must equal the file name")
    if data.get("family") not in FAMILIES:
        raise RulesError("catalogue", f"{where}: family {data.get('family')!r} is not one of {', '.join(FAMILIES)}")
    if not isinstance(data.get("reconstruction"), bool):
        raise RulesError("catalogue", f"{where}: reconstruction must be true or false, got {data.get('reconstruction')!r}")

    layout_from = data.get("layout_from")
    if layout_from is not None:
        if "diagram" in data:
            raise RulesError("catalogue", f"{where}: give either a [diagram] or layout_from, not both")
        if layout_from not in files or "diagram" not in files[layout_from]:
            raise RulesError("catalogue", f"{where}: layout_from {layout_from!r} names no variant with a diagram")
        diagram = files[layout_from]["diagram"]
    else:
        diagram = data.get("diagram")
        if diagram is None:
            raise RulesError("catalogue", f"{where}: no [diagram] and no layout_from")
    legend = dict(diagram["legend"])
    text = diagram["text"].strip("\n")
    size, start = diagram_to_position(text, legend)

    values = dict(data.get("rules", {}))
    for field in ("size", "start"):
        if field in values:
            raise RulesError(field, f"{where}: {field} comes from the diagram; do not type it in [rules]")
    missing = [f for f in FIELDS if f not in ("size", "start") and f not in values]
    if missing:
        raise RulesError(missing[0], f"{where}: every rule point needs a value; missing {', '.join(missing)}")
    rules = Rules.from_dict({**values, "size": size, "start": start})

    prov_data = data.get("provenance", {})
    missing = [f for f in FIELDS if f not in prov_data]
    if missing:
        raise RulesError(missing[0], f"{where}: every rule point needs provenance; missing {', '.join(missing)}")
    extra = sorted(set(prov_data) - set(FIELDS))
    if extra:
        raise RulesError(extra[0], f"{where}: provenance for a field that does not exist")
    provenance = {f: Provenance.from_dict(prov_data[f], f"{where} [provenance.{f}]") for f in FIELDS}

    notes = {k: " ".join(v.split()) for k, v in data.get("notes", {}).items()}
    if data.get("general_notes"):
        notes["general"] = " ".join(data["general_notes"].split())
    bad = sorted(set(notes) - set(FIELDS) - {"general"})
    if bad:
        raise RulesError("notes", f"{where}: note on {bad[0]!r}, which is not a rule point")

    local = _toggle_defs(data.get("toggle_defs", {}), where)
    toggles = {}
    for name, offered in data.get("toggles", {}).items():
        spec = local.get(name) or shared.get(name)
        if spec is None:
            raise RulesError("toggles", f"{where}: toggle {name!r} is defined neither here nor in _toggles.toml")
        if offered == "all":
            offered = list(spec["readings"])
        readings = {}
        for value in offered:
            if value not in spec["readings"]:
                raise RulesError("toggles", f"{where}: {name} has no reading {value!r}; defined: {', '.join(spec['readings'])}")
            readings[value] = spec["readings"][value]
        # the most specific reading the rules match (corner-hostile rather than corner, say)
        defaults = sorted((value for value, reading in readings.items() if _matches(rules, reading.changes)),
                          key=lambda value: -len(readings[value].changes))
        if not defaults:
            raise RulesError("toggles", f"{where}: none of the readings of {name} ({', '.join(readings)}) matches the variant's own rules")
        toggles[name] = Toggle(name=name, label=spec["label"], default=defaults[0],
                               readings=_freeze(readings), question=spec["question"])

    return Variant(
        id=vid, name=data["name"], summary=" ".join(data["summary"].split()), family=data["family"],
        sources=tuple(data.get("sources", ())), rules=rules, provenance=_freeze(provenance),
        notes=_freeze(notes), diagram=text, diagram_legend=_freeze(legend),
        correction_of=data.get("correction_of"), toggles=_freeze(toggles),
        applied=_freeze({name: t.default for name, t in toggles.items()}),
        layout_note=" ".join(data.get("layout_note", "").split()), layout_from=layout_from,
        costing=_freeze(data["costing"]) if "costing" in data else None, reconstruction=data["reconstruction"],
    )


@functools.cache
def _catalogue() -> Mapping[str, Variant]:
    files = _data_files()
    shared = _toggle_defs(files.pop("_toggles", {}), "variants/_toggles.toml")
    built = {}
    for vid, data in files.items():
        if vid.startswith("_"):
            continue
        built[vid] = _build(vid, data, files, shared)
    for v in built.values():
        if v.correction_of is not None and v.correction_of not in built:
            raise RulesError("catalogue", f"variants/{v.id}.toml: correction_of {v.correction_of!r} is not a variant")
    return MappingProxyType(built)


def variant_ids() -> list[str]:
    """The ids of every variant in the catalogue, sorted."""
    return sorted(_catalogue())


def variants() -> list[Variant]:
    """Every variant of the catalogue (toggles at their defaults), sorted by id."""
    cat = _catalogue()
    return [cat[vid] for vid in sorted(cat)]


def reconstructions() -> list[str]:
    """The ids of the reconstructions (``reconstruction = true``), by family in the order of
    :data:`FAMILIES`, then by id.

    >>> reconstructions()[:3], "copenhagen" in reconstructions()
    (['hywel-dda-jones', 'jones-3', 'jones-3-corrected'], False)
    """
    cat = _catalogue()
    return sorted((vid for vid, v in cat.items() if v.reconstruction), key=lambda vid: (FAMILIES.index(cat[vid].family), vid))


def variant(id: str, /, **toggles: str) -> Variant:  # noqa: A002 - `id` is the documented name
    """The variant ``id`` with the named toggles set to the given readings.

    The changes of every chosen reading are applied on top of the variant's rules,
    and the provenance of each changed field points to the reading's source. An
    unknown variant, toggle or reading, a value that is not text, or two toggles
    that set one field to different values, raise :class:`RulesError` listing what
    is valid.
    """
    cat = _catalogue()
    if not isinstance(id, str) or id not in cat:
        shown = repr(id) if len(repr(id)) <= 60 else repr(id)[:57] + "..."
        raise RulesError("variant", message("no variant {shown}; valid: {valid}", shown=verbatim(shown),
                                            valid=verbatim(", ".join(sorted(cat)))))
    base = cat[id]
    if not toggles:
        return base
    changes: dict[str, Any] = {}
    setter: dict[str, str] = {}
    provenance = dict(base.provenance)
    notes = dict(base.notes)
    for name, value in toggles.items():
        if name not in base.toggles:
            valid = verbatim(", ".join(base.toggles)) if base.toggles else message("none")
            raise RulesError("toggles", message("{variant} has no toggle {name}; valid: {valid}", variant=verbatim(id),
                                                name=verbatim(repr(name)), valid=valid))
        toggle = base.toggles[name]
        if not isinstance(value, str) or value not in toggle.readings:
            raise RulesError("toggles", message("{variant}: {reading} is not a reading; valid: {valid}", variant=verbatim(id),
                                                reading=verbatim(f"{name}={value!r}"), valid=verbatim(", ".join(toggle.readings))))
        reading = toggle.readings[value]
        for field, new in reading.changes.items():
            new = frozenset(new) if isinstance(new, (list, tuple, set, frozenset)) else new
            if field in changes and changes[field] != new:
                raise RulesError("toggles", message("{variant}: {one} and {other} set {field} differently; choose one",
                                                    variant=verbatim(id), one=verbatim(setter[field]),
                                                    other=verbatim(f"{name}={value}"), field=verbatim(field)))
            changes[field] = new
            setter[field] = f"{name}={value}"
            if value != toggle.default and getattr(base.rules, field) != new:
                provenance[field] = reading.provenance
                note = f"Set by the reading ‘{reading.label}’ of the toggle ‘{toggle.label}’."
                notes[field] = note + (" " + reading.note if reading.note else "")
    rules = base.rules.replace(**changes)
    applied = {}
    for name, toggle in base.toggles.items():
        if name in toggles:
            applied[name] = toggles[name]
            continue
        # a toggle not chosen keeps the reading the new rules still match (if any)
        matching = [v for v, r in toggle.readings.items() if _matches(rules, r.changes)]
        if matching:
            applied[name] = toggle.default if toggle.default in matching else \
                max(matching, key=lambda v: len(toggle.readings[v].changes))
    return dataclasses.replace(base, rules=rules, provenance=_freeze(provenance), notes=_freeze(notes),
                               applied=_freeze(applied))


# --- the Hywel Dda costing ------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Costing:
    """The arithmetic of the Hywel Dda valuation, step by step, from the stated sums."""

    total_pence: Fraction
    white_pence: Fraction
    king_pence: Fraction
    man_pence: Fraction
    attackers: int
    defenders: int
    steps: tuple[str, ...]
    provenance: Provenance


_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
            "ten": 10, "thirty": 30, "sixty": 60}


def _money(words: str) -> Fraction:
    """Pence in an amount written as the source writes it: "six score pence",
    "three pence and three farthings" (a score is 20; a farthing a quarter penny)."""
    total = Fraction(0)
    for part in re.split(r"\s+and\s+", words.strip()):
        m = re.fullmatch(r"(\w+)\s+(score\s+pence|pence|farthings?)", part.strip())
        if not m or m.group(1) not in _NUMBERS:
            raise RulesError("costing", f"cannot read the amount {part!r}")
        n, unit = _NUMBERS[m.group(1)], m.group(2)
        total += n * 20 if unit.startswith("score") else Fraction(n, 4) if unit.startswith("farthing") else n
    return total


def _show(pence: Fraction) -> str:
    whole, rest = divmod(pence, 1)
    return f"{whole}d" + (f" {rest * 4}f" if rest else "")


def hywel_dda_costing(variant_or_data: Variant | Mapping[str, Any] | None = None) -> Costing:
    """Men per side implied by the Hywel Dda costing, computed from the stated sums.

    The source (E. P. Jones 1993, as posted to WELSH-L in 1994) gives the king's tawlbwrdd as worth six
    score pence: sixty pence for the white forces, thirty pence for the king, three
    pence and three farthings for every man. The white forces are men only, so they
    number 60d / 3 3/4d; the king's side is the rest of the value, less the king.
    """
    if variant_or_data is None:
        variant_or_data = variant("hywel-dda-jones")
    data = variant_or_data.costing if isinstance(variant_or_data, Variant) else variant_or_data
    if not data:
        raise RulesError("costing", "this variant has no costing data")
    total, white = _money(data["total"]), _money(data["white_forces"])
    king, man = _money(data["king"]), _money(data["each_man"])
    attackers = white / man
    kings_side = total - white
    defenders = (kings_side - king) / man
    if attackers.denominator != 1 or defenders.denominator != 1:
        raise RulesError("costing", f"the sums do not divide into whole men ({attackers}, {defenders})")
    steps = (
        f"Whole board: {data['total']} = {_show(total)} ({total * 4} farthings).",
        f"White forces: {data['white_forces']} = {_show(white)}; each man {data['each_man']} = {_show(man)} ({man * 4} farthings).",
        f"Men of the white forces: {_show(white)} / {_show(man)} = {white * 4} / {man * 4} farthings = {attackers}.",
        f"King's side: {_show(total)} - {_show(white)} = {_show(kings_side)}; less the king ({data['king']} = {_show(king)}) leaves {_show(kings_side - king)}.",
        f"King's men: {_show(kings_side - king)} / {_show(man)} = {defenders}.",
        f"So a king and {defenders} men against {attackers} men.",
    )
    prov = Provenance.from_dict({k: data[k] for k in ("source", "locator", "passage", "status") if k in data}, "costing")
    return Costing(total, white, king, man, int(attackers), int(defenders), steps, prov)
