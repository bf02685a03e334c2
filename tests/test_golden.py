"""Golden seeded games: the full record of a few games, digested. Any change of behaviour changes a digest.

If a digest changes on purpose (a rule fixed, the legal-action order changed), check the new games by hand
(``fi play --seed ...`` narrates one) and record the new digests here, saying why in the commit message.
"""

from __future__ import annotations

import hashlib
import random

import pytest
from invariants import eager, uniform

from fi_cli.island.actions import action_text
from fi_cli.island.game import GameSetup, new_game
from fi_cli.island.layouts import get_layout
from fi_cli.island.play import play_game
from fi_cli.island.policies import make_policy
from fi_cli.island.position import dumps
from fi_cli.island.rules import Rules


def _engine_digest(setup: GameSetup, seed: int, chooser=uniform) -> tuple[str, str]:
    """Choices by the tests' own players and generator: depends on the engine only."""
    s = new_game(setup, seed)
    rng = random.Random(seed * 7 + 1)
    h = hashlib.sha256(dumps(s).encode())
    while s.outcome is None:
        legal = s.legal_actions()
        h.update(("|".join(action_text(a) for a in legal) + "\n").encode())  # the legal list, in order
        a = chooser(s, legal, rng)
        h.update((action_text(a) + "\n").encode())
        s.apply(a)
    h.update(dumps(s).encode())
    summary = f"{s.outcome} {','.join(s.loss_causes)} turn={s.turn} water={s.water} captured={s.captured}"
    return h.hexdigest()[:16], summary


def _record_digest(setup: GameSetup, seed: int) -> tuple[str, str]:
    """play_game with the random policy: the game record as the simulator logs it."""
    rec = play_game(setup, make_policy("random"), seed)
    h = hashlib.sha256()
    for row in rec.turn_rows:
        h.update(repr((row.turn, row.player, row.role, row.actions, row.water_level, row.flood_draws,
                       row.waters_rise, row.tiles_flooded, row.tiles_sunk, row.treasures, row.hand_sizes)).encode())
    for t in rec.tile_rows:
        h.update(repr((t.tile, t.row, t.col, t.times_flooded, t.sunk_turn)).encode())
    summary = f"{rec.outcome} {','.join(rec.loss_causes)} turns={rec.turns} water={rec.final_water_level}"
    return h.hexdigest()[:16], summary


STANDARD = get_layout("forbidden_island")
ALL_VARIANTS = Rules(navigator_moves="orthogonal", diver_swim="any_reachable", helicopter_rescue=False,
                     helicopter_lift_group="all", diver_through_sea=True, pilot_swim_uses_flight=True)  # fmt: skip

ENGINE_GAMES = [
    (GameSetup(STANDARD, start_level=2, players=4), 1,
     ("ba79ac62cf818573", "loss fools_landing_sunk turn=2 water=3 captured=0")),
    (GameSetup(STANDARD, start_level=1, players=2), 2,
     ("bdf76a05f4a86040", "loss treasure_lost turn=3 water=2 captured=0")),
    (GameSetup(get_layout("volcano_island"), start_level=3, players=3, rules=ALL_VARIANTS), 3,
     ("65f05f77e9c3f449", "loss treasure_lost turn=7 water=6 captured=0")),
    (GameSetup(get_layout("atoll_of_decisions"), start_level=4, players=4,
               roles=("diver", "navigator", "explorer", "pilot"), first_player=2), 4,
     ("0dbcd95b277c51ca", "loss treasure_lost turn=10 water=7 captured=0")),
]  # fmt: skip

EAGER_GAMES = [  # longer games with captures (captured is the bit mask of the treasures)
    (GameSetup(STANDARD, start_level=1, players=3), 4,
     ("740af048f4783ed1", "loss treasure_lost turn=17 water=7 captured=1")),
    (GameSetup(STANDARD, start_level=1, players=3), 30,
     ("93efa6e2c8a34fb3", "loss fools_landing_sunk turn=16 water=6 captured=8")),
]  # fmt: skip

RECORD_GAMES = [
    (GameSetup(STANDARD, start_level=2, players=4), 7, ("f12da1aa1738150c", "loss treasure_lost turns=9 water=5")),
    (GameSetup(get_layout("bridge_of_horrors"), start_level=1, players=3), 8,
     ("c6b23aa018f62c4a", "loss treasure_lost turns=5 water=3")),
]  # fmt: skip


@pytest.mark.parametrize("setup,seed,expected", ENGINE_GAMES)
def test_golden_engine_games(setup, seed, expected):
    assert _engine_digest(setup, seed) == expected


@pytest.mark.parametrize("setup,seed,expected", EAGER_GAMES)
def test_golden_eager_games(setup, seed, expected):
    assert _engine_digest(setup, seed, eager) == expected


@pytest.mark.parametrize("setup,seed,expected", RECORD_GAMES)
def test_golden_game_records(setup, seed, expected):
    assert _record_digest(setup, seed) == expected
