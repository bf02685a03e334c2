"""Invariants of the Desert engine, checked after every step of a game; shared by the tests and
``benchmarks/soak.py --game desert``.

Also a test player, ``eager``, that plays at random but leans towards what makes games long and eventful
(excavating, picking parts up, digging out, drinking, sharing water, heading for parts and the Launch Pad),
so that late-game positions occur often enough to be checked.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from fi_cli.desert.actions import (
    DRAW_STORM,
    END_ACTIONS,
    EXCAVATE,
    GIVE_WATER,
    JET,
    MOVE,
    NAVIGATE,
    PICK_UP,
    REMOVE_SAND,
    RESERVE,
    TAKE_WATER,
    action_text,
    parse_action,
)
from fi_cli.desert.engine import COLLECTED, NOT_FOUND, ORDER, OVER, PEEK, PHASES, STORM, GameState
from fi_cli.desert.game import GameSetup, new_game
from fi_cli.desert.position import from_dict, to_dict
from fi_cli.desert.rules import Rules
from fi_cli.desert.tiles import (
    CANTEEN,
    CRASH_SITE,
    GEAR_COUNTS,
    HIDDEN,
    HIDDEN_WATER,
    LAUNCH_PAD,
    LOSS_CAUSES,
    N_CELLS,
    NO_TILE,
    PLAIN_KINDS,
    SAND_MARKERS,
    SIZE,
    STORM_COUNTS,
    STORM_TRACKS,
    TILE_COUNTS,
    WATER_KINDS,
    WELL,
    column_clue,
    row_clue,
)

CHECKS = (
    "48 sand markers: on the tiles plus the supply; none on the storm cell, none negative",
    "31 storm cards: known top, unknown middle, known bottom, discard, drawn this turn, looked at; none negative",
    "12 gear cards: deck, hands and used gear; used gear never comes back",
    "24 tiles and one storm cell; pools consistent (2 wells + 1 mirage, the other 20); hidden only while the pool "
    "is undecided; excavated stays excavated, a known tile stays known",
    "water within each canteen (0 to its size)",
    "the storm meter never falls; it is at the skull iff the game is lost to the storm",
    "pawns always on a tile; parts appear only where both clues are excavated and collected parts stay collected",
    "cards are looked at only in the peek and order phases; drawn cards wait only during the storm",
    "outcome is None/win/loss; a loss cause iff lost; a win iff every part collected and every pawn on the pad",
    "a pending decision has legal actions without duplicates, each round-tripping through its text form",
    "the turn goes up by one at a time; a copy has the same position and no generator",
)

_ROUND_TRIPPED: set[tuple] = set()


@dataclass
class Snapshot:
    level: int = 0
    dug: int = 0
    known: int = 0
    used: tuple[int, ...] = ()
    collected: int = 0
    turn: int = 0


def check_state(s: GameState, prev: Snapshot | None = None, *, actions: bool = True) -> Snapshot:
    """Assert every invariant of one position; returns what the next check compares against."""
    n = s.n
    # sand
    assert min(s.sand) >= 0 and s.supply >= 0, "negative sand"
    assert s.sand[s.storm] == 0, "sand on the storm cell"
    assert sum(s.sand) + s.supply == SAND_MARKERS, "sand markers not accounted for"
    # storm cards
    for c in range(14):
        held = [s.sdeck[c], s.sdiscard[c], s.sdrawn[c]]
        assert min(held) >= 0, "negative storm card count"
        total = sum(held) + s.stop.count(c) + s.sbottom.count(c) + s.window.count(c) + s.placed.count(c)
        assert total == STORM_COUNTS[c], f"storm card {c} not conserved"
    # gear
    for g in range(6):
        assert s.gdeck[g] >= 0 and s.gused[g] >= 0 and min(h[g] for h in s.hands) >= 0, "negative gear count"
        assert s.gdeck[g] + s.gused[g] + sum(h[g] for h in s.hands) == GEAR_COUNTS[g], f"gear {g} not conserved"
    # tiles
    kind = s.kind
    assert kind[s.storm] == NO_TILE and kind.count(NO_TILE) == 1, "not exactly one storm cell"
    assert kind.count(CRASH_SITE) == 1
    for pool, hidden in ((WATER_KINDS, HIDDEN_WATER), (PLAIN_KINDS, HIDDEN)):
        left = [TILE_COUNTS[k] - kind.count(k) for k in pool]
        assert min(left) >= 0 and sum(left) == kind.count(hidden), "tile pools inconsistent"
        assert sum(1 for m in left if m) != 1, "hidden tiles that are known by elimination"
    assert all(kind[c] < HIDDEN_WATER for c in range(N_CELLS) if s.dug[c]), "an excavated tile is hidden"
    dug = sum(s.dug)
    known = sum(1 for k in kind if 0 <= k < HIDDEN_WATER)
    # pawns and water
    for q in range(n):
        assert s.pos[q] != s.storm, f"p{q} on the storm cell"
        assert 0 <= s.water[q] <= CANTEEN[s.roles[q]], f"p{q} water {s.water[q]} out of its canteen"
    # parts
    for i, at in enumerate(s.parts):
        clues = [next((c for c in range(N_CELLS) if kind[c] == k and s.dug[c]), -1)
                 for k in (row_clue(i), column_clue(i))]  # fmt: skip
        if at == NOT_FOUND:
            assert min(clues) < 0, f"part {i} not placed though both clues are excavated"
        else:
            assert min(clues) >= 0, f"part {i} out before both clues are excavated"
    collected = s.parts.count(COLLECTED)
    # the storm meter
    skull = len(STORM_TRACKS[n]) + 1
    assert 1 <= s.level <= skull
    assert (s.level == skull) == ("storm" in s.loss_causes), "the meter at the skull iff lost to the storm"
    if prev is not None:
        assert s.level >= prev.level, "the storm meter fell"
        assert dug >= prev.dug and known >= prev.known, "a tile was covered again"
        assert all(a >= b for a, b in zip(s.gused, prev.used, strict=True)), "used gear came back"
        assert collected >= prev.collected, "a collected part was lost"
        assert s.turn in (prev.turn, prev.turn + 1), "the turn jumped"
    # phases
    assert (s.phase in (PEEK, ORDER)) == bool(s.window), "looked-at cards outside a look"
    assert not s.placed or s.phase == ORDER
    if s.phase != STORM and s.phase != OVER:
        assert not any(s.sdrawn), "drawn cards waiting outside the storm"
    assert 0 <= s.actions_left <= 6 and 0 <= s.storm_left <= 6
    # outcome
    assert s.outcome in (None, "win", "loss")
    assert (s.outcome is None) == (s.phase != OVER)
    assert bool(s.loss_causes) == (s.outcome == "loss"), "loss causes recorded iff lost"
    assert all(c in LOSS_CAUSES for c in s.loss_causes) and len(s.loss_causes) <= 1
    on_pad = kind[s.pos[0]] == LAUNCH_PAD and all(x == s.pos[0] for x in s.pos) and s.sand[s.pos[0]] < 2
    assert (s.outcome == "win") == (
        collected == 4 and on_pad and (s.dug[s.pos[0]] or not s.rules.launch_pad_needs_excavation)
    ), "win"
    # decisions
    legal = s.legal_actions()
    if s.phase == OVER:
        assert legal == []
    elif actions:
        assert legal, f"no legal action in phase {PHASES[s.phase]}"
        assert len(set(legal)) == len(legal), "duplicate legal actions"
        for a in legal:
            if a not in _ROUND_TRIPPED:
                t = action_text(a)
                assert parse_action(t) == a, f"{t} does not parse back"
                _ROUND_TRIPPED.add(a)
    return Snapshot(s.level, dug, known, tuple(s.gused), collected, s.turn)


def check_copy(s: GameState) -> None:
    c = s.copy()
    assert c.rng is None and to_dict(c) == to_dict(s) and c.legal_actions() == s.legal_actions()


def check_roundtrip(s: GameState) -> None:
    d = to_dict(s)
    t = from_dict(d)
    assert to_dict(t) == d and t.legal_actions() == s.legal_actions()


Chooser = Callable[[GameState, list, random.Random], tuple]


def uniform(s: GameState, legal: list, rng: random.Random) -> tuple:
    return legal[int(rng.random() * len(legal))]


_WEIGHT = {EXCAVATE: 25.0, REMOVE_SAND: 4.0, TAKE_WATER: 30.0, RESERVE: 10.0, MOVE: 1.0, NAVIGATE: 0.3,
           END_ACTIONS: 0.1, DRAW_STORM: 20.0, JET: 0.05}  # fmt: skip


def _dist(a: int, b: int) -> int:
    return abs(a // SIZE - b // SIZE) + abs(a % SIZE - b % SIZE)


def _water_source(s: GameState) -> int:
    """An excavated well, or a water-drop tile still to excavate, -1 if none."""
    for c in range(N_CELLS):
        if (s.kind[c] == WELL and s.dug[c] and s.water[s.current] < 2) or s.kind[c] == HIDDEN_WATER:
            return c
    return -1


def eager(s: GameState, legal: list, rng: random.Random) -> tuple:
    """Random play that picks parts up at once and leans towards long, eventful games."""
    parts = [at for at in s.parts if at >= 0]
    if s.water[s.current] <= 1 and _water_source(s) >= 0:
        goal = _water_source(s)
    else:
        goal = parts[0] if parts else s.launch_pad() if s.parts.count(COLLECTED) == 4 else -1
    weights = []
    for a in legal:
        k = a[0]
        if k == PICK_UP:
            return a
        w = _WEIGHT.get(k, 0.5)
        if k == GIVE_WATER:  # towards the thirstier pawn
            w = 8.0 if s.water[a[2]] + 1 < s.water[a[1]] else 0.05
        elif k in (MOVE, NAVIGATE, JET) and goal >= 0:
            mover = a[2] if k == NAVIGATE else a[1]
            to = a[3] if k == NAVIGATE else a[2]
            if _dist(to, goal) < _dist(s.pos[mover], goal):
                w *= 20.0
        elif k == MOVE and not s.dug[a[2]] and not s.sand[a[2]]:
            w = 3.0  # towards something to excavate
        weights.append(w)
    return rng.choices(legal, weights)[0]


def play_checked(
    setup: GameSetup, seed: int, chooser: Chooser = uniform, *, roundtrip_every: int = 0
) -> tuple[GameState, int]:
    """Play one game checking every invariant after every step; returns the final state and the step count."""
    s = new_game(setup, seed)
    rng = random.Random(seed ^ 0x5EED)
    snap = check_state(s)
    steps = 0
    while s.outcome is None:
        s.apply(chooser(s, s.legal_actions(), rng))
        steps += 1
        snap = check_state(s, snap)
        if roundtrip_every and steps % roundtrip_every == 0:
            check_copy(s)
            check_roundtrip(s)
        assert steps < 100_000, "the game does not end"
    return s, steps


# Rule-variant sets the invariant tests and the soak play under.
VARIANTS = [
    {},
    {"thirst_at_zero": True},
    {"launch_pad_needs_excavation": True},
    {"meteorologist_peek_return": "top_any_order"},
    {"reshuffle_includes_this_draw": True},
    {"jet_pack_when_buried": False},
    {"thirst_at_zero": True, "launch_pad_needs_excavation": True, "meteorologist_peek_return": "top_any_order",
     "reshuffle_includes_this_draw": True, "jet_pack_when_buried": False},
]  # fmt: skip


def varied_setup(g: int) -> GameSetup:
    """Game g of a cycle through 2-5 players, the four difficulties (every fifth game on the meter's last
    mark, so that the storm ends some), the variants; every third game has a Meteorologist (for the looks at
    the storm deck) and every fourth a Climber."""
    players = 2 + g % 4
    roles = None
    if g % 3 == 0 or g % 4 == 0:
        pick = random.Random(g).sample(["archeologist", "explorer", "navigator", "water_carrier"], players - 1)
        roles = tuple(["meteorologist" if g % 3 == 0 else "climber", *pick])
    level = len(STORM_TRACKS[players]) if g % 5 == 4 else 1 + g % 4
    return GameSetup(players=players, start_level=level, roles=roles,
                     rules=Rules.from_dict(VARIANTS[g % len(VARIANTS)]))  # fmt: skip
