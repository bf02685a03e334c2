"""Seeds shared by both games: the players' own randomness is a separate branch of a game's seed."""

from __future__ import annotations

from .common.seed_sequence import first_word

_POLICY_BRANCH = 1  # the SeedSequence child that seeds the players; the game itself uses the seed directly


def policy_seed(game_seed: int) -> int:
    """The seed of the players' own randomness in the game of ``game_seed``.

    It comes from a separate ``SeedSequence`` branch, so a policy that knows it can neither rebuild the
    game's generator nor share its stream; the game's seed itself is never handed to a policy."""
    return first_word(game_seed, (_POLICY_BRANCH,)) >> 1  # numpy's SeedSequence, without its set-up
