"""Property tests: random games under random valid rules keep the engine's invariants.

- at most one king, no square holding two pieces;
- the moving piece never stops on a square its rules forbid it;
- the legal targets equal those of a plain square-by-square walk (a reference written
  here, independent of the bitboard tables);
- the Zobrist hash is the hash of the position recomputed from scratch;
- undo restores the whole state exactly (``fuzzing.snapshot``: the board, the hash, the turn,
  the outcome, the repetition counts, the undo stack, whether the king has left the throne);
- an outcome is final: no legal move, and play() refuses.
"""

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from fuzzing import snapshot

from tafl_rules import Game, IllegalMove, Rules, RulesError
from tafl_rules.engine import Position
from tafl_rules.position import format_position
from tafl_rules.squares import geometry

STARTS = {
    7: "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
    9: "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
    11: Rules().start,
    13: "/4ttttt4/6t6/13/t5T5t/t5T5t/t5T5t/tt1TTTKTTT1tt/t5T5t/t5T5t/t5T5t/13/6t6/4ttttt4/",
}


def _cross_start(size):
    """A plain start for any size: three attackers in the middle of each edge and one in
    front of them, a cross of defenders two deep around the king in the centre."""
    c = size // 2
    a = d = 0
    for dr, df in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        for k in (1, 2):
            d |= 1 << ((c + dr * k) * size + c + df * k)
    for r, f in [(0, c - 1), (0, c), (0, c + 1), (1, c)]:
        for rr, ff in ((r, f), (size - 1 - r, f), (f, r), (f, size - 1 - r)):
            a |= 1 << (rr * size + ff)
    return format_position(a, d, c * size + c, size)


STARTS[15] = _cross_start(15)
STARTS[19] = _cross_start(19)
PIECE_SETS = st.frozensets(st.sampled_from(["attacker", "defender", "king"]))


@st.composite
def rules_strategy(draw):
    size = draw(st.sampled_from(sorted(STARTS)))
    fields = dict(
        size=size, start=STARTS[size], first=draw(st.sampled_from(["attackers", "defenders"])),
        king_speed=draw(st.sampled_from([0, 0, 1, 2])), man_speed=draw(st.sampled_from([0, 0, 0, 1, 3])),
        throne=draw(st.booleans()), throne_stop=draw(PIECE_SETS), throne_pass=draw(PIECE_SETS),
        king_reenter_throne=draw(st.booleans()), corners=draw(st.booleans()), corner_stop=draw(PIECE_SETS),
        camps=draw(st.booleans()), camp_stop=draw(PIECE_SETS), camp_pass=draw(PIECE_SETS),
        shieldwall=draw(st.sampled_from(["none", "copenhagen"])),
        throne_hostile_to_attackers=draw(st.sampled_from(["never", "empty", "always"])),
        throne_hostile_to_defenders=draw(st.sampled_from(["never", "empty", "always"])),
        corners_hostile_to_attackers=draw(st.sampled_from(["never", "always"])),
        corners_hostile_to_defenders=draw(st.sampled_from(["never", "always"])),
        camps_hostile_to_attackers=draw(st.sampled_from(["never", "empty", "always"])),
        camps_hostile_to_defenders=draw(st.sampled_from(["never", "empty", "always"])),
        king_armed=draw(st.sampled_from(["yes", "no", "anvil", "hammer"])),
        sandwich=draw(st.sampled_from(["safe", "unless-capturing", "forbidden"])),
        king_capture=draw(st.sampled_from(["two", "four", "linnaeus", "immobile", "none"])),
        king_capture_against=draw(st.frozensets(st.sampled_from(["throne", "camp", "edge", "corner"]))),
        watch_king=draw(st.booleans()),
        escape=draw(st.sampled_from(["edge", "corner", "edge-except-camps", "none"])),
        tuichi=draw(st.sampled_from(["announce", "win"])),
        edge_fort=draw(st.booleans()), encirclement=draw(st.booleans()),
        no_moves=draw(st.sampled_from(["loss", "draw"])),
        repetition=draw(st.sampled_from(["ignore", "draw", "loss", "defenders-lose"])),
        repetition_count=draw(st.sampled_from([2, 3])),
        ply_limit=draw(st.sampled_from([0, 0, 40])),
    )
    try:
        return Rules(**fields)
    except RulesError:
        assume(False)


def reference_targets(game, square, left_throne):
    """A square-by-square walk of the movement rules (for comparison with the engine)."""
    rules = game.rules
    g = geometry(rules.size)
    size = rules.size
    kind = game.piece_at(square)
    i = g.index[square]
    r0, f0 = divmod(i, size)
    throne = g.center if rules.throne else None
    corners = set(g.corner_squares) if rules.corners else set()
    camps = set()
    own_camp = set()
    if rules.camps:
        start = Game(rules.replace(), position=rules.start)
        camps = {g.index[s] for s in start.pieces("attacker")}
        if i in camps:  # the piece's own camp: the camp squares connected to its square
            own_camp = {i}
            while True:
                more = {n for c in own_camp for n in g.neighbours[c] if n in camps} - own_camp
                if not more:
                    break
                own_camp |= more
    speed = rules.king_speed if kind == "king" else rules.man_speed
    out = set()
    for dr, df in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        r, f, steps = r0 + dr, f0 + df, 1
        while 0 <= r < size and 0 <= f < size and (not speed or steps <= speed):
            s = r * size + f
            if game.piece_at(g.names[s]):
                break
            can_stop = True
            can_pass = True
            if s == throne:
                can_stop = kind in rules.throne_stop and not (
                    kind == "king" and not rules.king_reenter_throne and left_throne)
                can_pass = kind in rules.throne_pass
            if s in corners:
                can_stop = kind in rules.corner_stop
            if s in camps:
                can_stop = kind in rules.camp_stop or s in own_camp
                can_pass = kind in rules.camp_pass
            if can_stop:
                out.add(g.names[s])
            if not can_pass:
                break
            r, f, steps = r + dr, f + df, steps + 1
    return out


def assert_allowed_square(rules, kind, frm, to, left_throne):
    """The moved piece stands on a square its rules let it stop on."""
    g = geometry(rules.size)
    i = g.index[to]
    if rules.throne and i == g.center:
        assert kind in rules.throne_stop
        assert not (kind == "king" and not rules.king_reenter_throne and left_throne)
    if rules.corners and i in g.corner_squares:
        assert kind in rules.corner_stop
    if rules.camps:
        camps = set(Game(rules, position=rules.start).pieces("attacker"))
        if to in camps:
            assert kind in rules.camp_stop or frm in camps  # (and then in the same camp: see the reference)


def check_invariants(game):
    g = geometry(game.size)
    kings = game.pieces("king")
    assert len(kings) <= 1
    a = set(game.pieces("attacker"))
    d = set(game.pieces("defender"))
    assert not a & d and not set(kings) & (a | d)
    # the engine's state built afresh from the placement (the position may be one no game starts
    # from: the king taken, or on an escape square)
    pos = game.engine
    fresh = Position(game.rules, pos.a, pos.d, pos.k, pos.side)
    assert fresh.hash == pos.hash
    assert format_position(fresh.a, fresh.d, fresh.k, game.size) == game.position()
    assert fresh.occt == pos.occt  # the transposed occupancy kept in step
    assert len(g.names) == game.size ** 2


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(rules=rules_strategy(), seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_invariants(rules, seed):
    rng = random.Random(seed)
    game = Game(rules)
    left_throne = game.piece_at(geometry(rules.size).names[geometry(rules.size).center]) != "king"
    history = []
    for _ply in range(60):
        check_invariants(game)
        if game.outcome is not None:
            assert game.legal_moves() == []
            assert game.legal_targets() == {}
            try:
                game.play("a1-a2")
            except IllegalMove as exc:
                assert "the game is over" in str(exc)
            else:
                raise AssertionError("a finished game accepted a move")
            break
        targets = game.legal_targets()
        if rules.sandwich == "safe":
            side = "attacker" if game.turn == "attackers" else None
            pieces = game.pieces("attacker") if side else game.pieces("defender") + game.pieces("king")
            expected = {}
            for sq in pieces:
                ref = reference_targets(game, sq, left_throne)
                if ref:
                    expected[sq] = ref
            assert {k: set(v) for k, v in targets.items()} == expected
        moves = game.legal_moves()
        assert len(moves) == sum(len(v) for v in targets.values()) > 0
        move = rng.choice(moves)
        state = snapshot(game)  # everything, repetition counts and the undo stack included
        kind = game.piece_at(move.from_square)
        played = game.play(move)
        assert game.piece_at(played.to_square) == kind or (kind == "king" and game.outcome.kind == "king-captured")
        assert set(played.captures) == set(move.captures)
        assert_allowed_square(rules, kind, played.from_square, played.to_square, left_throne)
        for c in played.captures:
            assert game.piece_at(c) is None
        history.append((state, kind, move.from_square))
        if kind == "king" and move.from_square == geometry(rules.size).names[geometry(rules.size).center]:
            left_throne = True
        if rng.random() < 0.2:
            game.undo()
            assert snapshot(game) == history.pop()[0]
            game.play(move)
            history.append((state, kind, move.from_square))
    while history:
        game.undo()
        state = history.pop()[0]
        assert snapshot(game) == state
    assert game.position() == rules.start.strip() or game.position() == Game(rules).position()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(rules=rules_strategy(), seed=st.integers(0, 2**32 - 1))
def test_random_playouts_end_or_stop_at_the_cap(rules, seed):
    game = Game(rules)
    plies = game.random_playout(max_plies=200, rng=random.Random(seed))
    assert plies == len(game.moves) <= 200
    if plies < 200:
        assert game.outcome is not None
    check_invariants(game)
    for _ in range(plies):
        game.undo()
    assert game.position() == Game(rules).position() and game.hash == Game(rules).hash
