"""Players of your own for `fi` (Forbidden Island): a worked example of the player API.

A player is a class. `fi` builds it with the study's parameters, calls `reset(seed)` at the start of each game and
`choose(state, legal)` at each decision, which returns one of `legal`. Run it:

    fi play --policy my_players:Cautious --seed 7                       # from this folder
    fi compare my_players:Cautious heuristic --games 200 --players 4 --difficulty novice
    # in a study (the module is looked for in the study's folder too):
    #   policy: {import: "my_players:Cautious", shore_first: false}
"""

from __future__ import annotations

import random


class Cautious:
    """Captures a treasure when it can, then shores up a flooded tile, then passes a card; else a random action.

    It keeps what it needs across the game on itself: `reset` starts a game, so every game starts alike."""

    def __init__(self, shore_first: bool = True) -> None:  # the parameters a study or --param may give
        self.order = ("capture(", "shore_up(", "give(") if shore_first else ("capture(", "give(", "shore_up(")

    def reset(self, seed: int) -> None:
        self.rng = random.Random(seed)  # the player's own seed: its luck, never the game's
        self.decisions = 0

    def choose(self, state, legal):
        """`state`: the position (all that real players see; `state.copy(random.Random(k))` plays one possible
        future); `legal`: the legal actions, tuples whose text form is `state.action_text(a)`."""
        self.decisions += 1
        texts = [state.action_text(a) for a in legal]
        for start in self.order:
            picks = [a for a, text in zip(legal, texts, strict=True) if text.startswith(start)]
            if picks:
                return self.rng.choice(picks)
        return self.rng.choice(legal)
