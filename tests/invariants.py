"""Invariants of the rules engine, checked after every step of a game; shared by the tests and the soak script.

Also a test player, ``eager``, that plays at random but leans towards what makes games long and eventful
(shoring up, collecting and capturing treasures, flying home), so that captures, wins and late-game
positions occur often enough to be checked.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from fi_cli.island.actions import (
    CAPTURE,
    DISCARD,
    END_ACTIONS,
    FLY,
    GIVE,
    HELI_PLAY,
    LIFT_OFF,
    MOVE,
    NAVIGATE,
    SANDBAGS_PLAY,
    SHORE_UP,
    SWIM,
    action_text,
    parse_action,
)
from fi_cli.island.engine import DISCARD_PHASE, DRAW, OVER, PHASES, SWIM_PHASE, GameState
from fi_cli.island.game import GameSetup, new_game
from fi_cli.island.layouts import BUILTIN_LAYOUTS, Layout, get_layout
from fi_cli.island.position import from_dict, to_dict
from fi_cli.island.rules import Rules
from fi_cli.island.tiles import DECK_COUNTS, FOOLS_LANDING, HAND_LIMIT, LOSS_CAUSES, SKULL, SUNK, TILE_TREASURE

CHECKS = (
    "every treasure card in exactly one place (draw pile, discard, hands; a capture discards its 4 cards); 28 in all",
    "Waters Rise! never in a hand",
    "flood cards are exactly the tiles not sunk, across the draw segments and the discard; no empty segment",
    "a sunk tile never comes back; captured treasures stay captured",
    "the water never falls and stays within 1-10; level 10 only with the loss water_level",
    "hands hold at most 5 cards, except the discarder's 6 in a discard decision",
    "pawns never stand on sunk tiles outside a swim decision (or the end)",
    "outcome is None/win/loss; loss causes recorded iff lost, in the order of the rules",
    "a pending decision has legal actions without duplicates; DRAW is never a decision",
    "every legal action round-trips through action_text/parse_action",
    "a copy has the same position and no generator",
    "the game ends within the turn limit",
)

_ROUND_TRIPPED: set[tuple] = set()
_CAUSE_ORDER = {c: i for i, c in enumerate((*LOSS_CAUSES, "turn_limit"))}


@dataclass
class Snapshot:
    sunk: set[int] = field(default_factory=set)
    water: int = 0
    captured: int = 0
    turn: int = 0


def check_state(s: GameState, prev: Snapshot | None = None, *, actions: bool = True) -> Snapshot:
    """Assert every invariant of one position; returns what the next check compares against."""
    n = s.n
    # treasure cards
    for c in range(7):
        held = sum(h[c] for h in s.hands) if c < 6 else 0
        assert s.tdeck[c] >= 0 and s.tdiscard[c] >= 0, "negative card count"
        assert s.tdeck[c] + s.tdiscard[c] + held == DECK_COUNTS[c], f"card {c} not conserved"
    assert all(len(h) == 6 and min(h) >= 0 for h in s.hands), "a hand holds a Waters Rise! or a negative count"
    assert sum(s.tdeck) > 0, "the treasure draw pile is empty: it is reshuffled the moment its last card is drawn"
    # flood cards
    cards = [t for seg in s.fdeck for t in seg] + s.fdiscard
    alive = [t for t in range(24) if s.tiles[t] != SUNK]
    assert sorted(cards) == alive, "flood cards are not exactly the tiles above water"
    assert all(s.fdeck), "an empty flood segment"
    sunk = {t for t in range(24) if s.tiles[t] == SUNK}
    if prev is not None:
        assert prev.sunk <= sunk, "a sunk tile came back"
        assert s.water >= prev.water, "the water fell"
        assert s.captured & prev.captured == prev.captured, "a captured treasure was lost"
        assert s.turn in (prev.turn, prev.turn + 1), "the turn jumped"
    assert 1 <= s.water <= SKULL
    assert (s.water == SKULL) == ("water_level" in s.loss_causes), "water at the skull iff lost to it"
    # hands
    for q in range(n):
        limit = HAND_LIMIT + 1 if s.phase == DISCARD_PHASE and q == s.discarder else HAND_LIMIT
        assert sum(s.hands[q]) <= limit, f"p{q} holds {sum(s.hands[q])} cards in phase {PHASES[s.phase]}"
    if s.phase == DISCARD_PHASE:
        assert sum(s.hands[s.discarder]) == HAND_LIMIT + 1
    # pawns
    for q in range(n):
        if s.tiles[s.pos[q]] == SUNK:
            assert s.phase == OVER or (s.phase == SWIM_PHASE and q in s.swimmers), f"p{q} on a sunk tile"
    if s.phase == SWIM_PHASE:
        assert s.swimmers and all(s.pos[q] == s.sinking for q in s.swimmers) and s.tiles[s.sinking] == SUNK
    # outcome
    assert s.outcome in (None, "win", "loss")
    assert (s.outcome is None) == (s.phase != OVER)
    assert bool(s.loss_causes) == (s.outcome == "loss"), "loss causes recorded iff lost"
    assert list(s.loss_causes) == sorted(set(s.loss_causes), key=_CAUSE_ORDER.__getitem__)
    if s.outcome == "win":
        assert s.captured == 0b1111 and all(x == FOOLS_LANDING for x in s.pos)
    assert s.turn <= s.rules.turn_limit
    assert 0 <= s.actions_left <= 3
    # decisions
    legal = s.legal_actions()
    assert s.phase != DRAW, "the draw step is never a decision"
    if s.phase == OVER:
        assert legal == []
    elif actions:
        assert legal, "no legal action at a decision"
        assert len(set(legal)) == len(legal), "duplicate legal actions"
        for a in legal:
            if a not in _ROUND_TRIPPED:  # text and parse are pure: each distinct action is checked once
                t = action_text(a)
                assert parse_action(t) == a, f"{t} does not parse back"
                assert action_text(parse_action(t)) == t
                _ROUND_TRIPPED.add(a)
    return Snapshot(sunk, s.water, s.captured, s.turn)


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


_WEIGHT = {MOVE: 1.0, FLY: 0.3, NAVIGATE: 0.5, SHORE_UP: 6.0, GIVE: 1.0, END_ACTIONS: 0.2, SANDBAGS_PLAY: 2.0,
           HELI_PLAY: 0.02, SWIM: 1.0, DISCARD: 1.0}  # fmt: skip


def eager(s: GameState, legal: list, rng: random.Random) -> tuple:
    """Random play that captures and lifts off when it can and leans towards long, eventful games."""
    hands = s.hands
    weights = []
    for a in legal:
        k = a[0]
        if k in (LIFT_OFF, CAPTURE):
            return a
        w = _WEIGHT.get(k, 1.0)
        if k == GIVE:  # give towards the hand that holds more of the treasure
            w = 6.0 if hands[a[2]][a[3]] >= hands[a[1]][a[3]] else 0.2
        elif k == DISCARD:  # keep what a capture needs
            w = 1.0 / (1 + hands[a[1]][a[2]]) if a[2] < 4 else 0.5
        elif k in (MOVE, FLY, HELI_PLAY, SWIM, NAVIGATE):
            if s.captured == 0b1111:
                w = 40.0 if a[-1] == FOOLS_LANDING else w
            else:  # towards a tile where the mover's hand can capture
                mover = a[2] if k == NAVIGATE else a[1]
                tr = TILE_TREASURE[a[-1]]
                if k != HELI_PLAY and tr >= 0 and not s.captured >> tr & 1 and hands[mover][tr] >= 4:
                    w = 30.0
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
        legal = s.legal_actions()
        a = chooser(s, legal, rng)
        s.apply(a)
        steps += 1
        snap = check_state(s, snap)
        if roundtrip_every and steps % roundtrip_every == 0:
            check_copy(s)
            check_roundtrip(s)
        assert steps < 200_000, "the game does not end"
    return s, steps


# Rule-variant sets and extra islands that the invariant tests and benchmarks/soak.py play on.
VARIANTS = [
    {},
    {"navigator_moves": "orthogonal"},
    {"diver_swim": "any_reachable"},
    {"helicopter_rescue": False},
    {"helicopter_lift_group": "all"},
    {"diver_through_sea": True},
    {"pilot_swim_uses_flight": True},
    {"navigator_moves": "orthogonal", "diver_swim": "any_reachable", "helicopter_rescue": False,
     "helicopter_lift_group": "all", "diver_through_sea": True, "pilot_swim_uses_flight": True},
    {"turn_limit": 4},
]  # fmt: skip
PINNED = Layout.from_rows("pinned_centre", "..XX.. / .XXXX. / XXXXXX / XXXXXX / .XXXX. / ..XX..",
                          pins={"fools_landing": (2, 2), "temple_of_the_moon": (0, 2)})  # fmt: skip
SPLIT = Layout.from_rows("split", "XXXXXX.XXXXXX / XXXXXX.XXXXXX")  # two parts: only flight and lifts cross


def varied_setup(g: int) -> GameSetup:
    """Game g of a cycle through the built-in islands, start levels 1-4, 2-4 players and the variants."""
    layouts = sorted(BUILTIN_LAYOUTS)
    return GameSetup(get_layout(layouts[g % len(layouts)]), start_level=1 + g % 4, players=2 + g % 3,
                     rules=Rules.from_dict(VARIANTS[g % len(VARIANTS)]))  # fmt: skip
