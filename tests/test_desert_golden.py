"""Golden seeded Desert games: the full record of a few games, digested. Any change of behaviour changes a digest.

If a digest changes on purpose (a rule fixed, the legal-action order changed), check the new games by hand
(``fi play --game desert --seed ...`` narrates one) and record the new digests here, saying why in the commit
message.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import asdict

import pytest
from desert_invariants import eager, uniform

from fi_cli.desert.actions import action_text
from fi_cli.desert.game import GameSetup, new_game
from fi_cli.desert.play import play_game
from fi_cli.desert.policies import make_policy
from fi_cli.desert.position import dumps
from fi_cli.desert.rules import Rules


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
    summary = (f"{s.outcome} {','.join(s.loss_causes)} turn={s.turn} level={s.level} parts={s.parts_collected()} "
               f"excavated={sum(s.dug)}")  # fmt: skip
    return h.hexdigest()[:16], summary


def row_bytes(row: object) -> bytes:
    """A log row's fields (a dataclass, compiled or not), as the digests hash them."""
    return repr(sorted(asdict(row).items())).encode()


def _record_digest(setup: GameSetup, seed: int) -> tuple[str, str]:
    """play_game with the random policy: the game record as a log would hold it."""
    rec = play_game(setup, make_policy("random"), seed)
    h = hashlib.sha256()
    for row in [*rec.turn_rows, *rec.tile_rows]:
        h.update(row_bytes(row))
    h.update(repr((rec.parts_found, rec.tiles_excavated, rec.sand_on_tiles, rec.ran_dry)).encode())
    summary = f"{rec.outcome} {','.join(rec.loss_causes)} turns={rec.turns} level={rec.final_storm_level}"
    return h.hexdigest()[:16], summary


ALL_VARIANTS = Rules(thirst_at_zero=True, launch_pad_needs_excavation=True, meteorologist_peek_return="top_any_order",
                     reshuffle_includes_this_draw=True, jet_pack_when_buried=False)  # fmt: skip

ENGINE_GAMES = [
    (GameSetup(players=4, start_level=2), 1,
     ("70ab1f1cd499a781", "loss thirst turn=7 level=2 parts=0 excavated=0")),
    (GameSetup(players=2, start_level=1), 2,
     ("f4f4a6e143a42ca9", "loss thirst turn=9 level=3 parts=0 excavated=0")),
    (GameSetup(players=5, start_level=4, rules=ALL_VARIANTS), 3,
     ("d9d3e07c920c0fea", "loss thirst turn=5 level=5 parts=0 excavated=1")),
    (GameSetup(players=3, start_level=3, roles=("meteorologist", "climber", "navigator"), first_player=2), 4,
     ("c09af38d878c7408", "loss thirst turn=10 level=6 parts=0 excavated=1")),
]  # fmt: skip

EAGER_GAMES = [  # longer games, with excavations and parts
    (GameSetup(players=4, start_level=1, roles=("water_carrier", "explorer", "archeologist", "climber")), 5,
     ("81cfa9efc076a978", "loss thirst turn=18 level=6 parts=0 excavated=11")),
    (GameSetup(players=3, start_level=1, roles=("meteorologist", "water_carrier", "navigator"),
               rules=Rules(meteorologist_peek_return="top_any_order")), 6,
     ("e0ed0b3014f43a76", "loss thirst turn=16 level=5 parts=0 excavated=9")),
]  # fmt: skip

RECORD_GAMES = [
    (GameSetup(players=4, start_level=2), 7, ("5be8e0ab14c824bd", "loss thirst turns=10 level=5")),
    (GameSetup(players=5, start_level=1), 8, ("d2c91b64c22e7f6b", "loss thirst turns=14 level=4")),
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
