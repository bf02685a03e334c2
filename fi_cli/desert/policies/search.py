"""The Desert ``search`` player: the heuristic's turn raced against other turns: weight variants' and first actions'.

At the start of each pawn's turn the heuristic and up to 12 ``variants`` of it (other weights, listed in
VARIANTS: more careful of thirst, more eager to dig, to excavate, to stay in the shade...) each propose the
whole turn they would play, and (``actions``) every other action of the pawn's own is a candidate first action
that the heuristic plays on from: a turn no weight setting proposes. Every distinct turn is played on the same
sampled futures (common random numbers): a copy of the state given its own generator, so the storm and gear
decks and the unexcavated tiles are drawn afresh -- the Desert state holds nothing hidden, so any generator
gives a future that agrees with what the players know. The heuristic plays on until ``depth`` turns have begun
(this one included), and the position is scored by a learned value model (a win 1, a loss 0). Another turn is
played in the real game only when it beats the heuristic's by ``margin`` on average; candidates far behind
after ``first`` futures drop out, and (``recheck``) again every ``first`` futures with a smaller allowance: most
candidates stay level with the heuristic's turn, and dropping them early pays for more futures and deeper ones.
A candidate of the heuristic's is played once up to its first draw (the same in every future), and candidates
that meet there share their futures: most first actions lead back to one of a few turns.

The end game (every part found, lying or collected, and the Launch Pad known: only pickups and the way home are
left) is where most of the heuristic's games are lost and where the race gains most for its time: ``end_depth``
plays its futures to another depth there (0, the default: to the game's end, short by then), ``end_first`` drops
candidates after another number of futures there (``first=1 depth=3 end_first=2``: about half the time), and
``start=1`` races only there, the heuristic playing alone before (a study's search at a fraction of the time).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ...common.play import LegalActions
from ...common.rollout import play_on
from ...common.search import RECHECK, VariantTurns, check_settings, race, shared, until_draw
from ..actions import Action
from ..engine import ACTIONS, NOT_FOUND, GameState
from .heuristic import HeuristicPolicy
from .value import win_chance

# Weight changes of the heuristic that lead to other sensible turns: each proposes a whole turn at a turn's start.
# Chosen by hand among the weights whose change, played throughout, traded thirst for burial or the other way
# (docs/results/log.md): wrong as a whole game's policy, right in some positions, which the race finds.
VARIANTS: tuple[dict[str, float], ...] = (
    {"w_death": 40.0},
    {"w_death": 10.0},
    {"w_shade": 1.0},
    {"w_well_waste": 1.0, "meet_rounds": 2.0},
    {"v_excavate": 6.0},
    {"v_sand": 2.0},
    {"w_bury_risk": 6.0},
    {"g_next": 1.0},
    {"v_water": 10.0},
    {"step_cost": 2.5},
    {"w_meet": 5.0},
    {"v_pick": 50.0, "v_clue_pair": 28.0},
)


FIRST = -2  # a candidate that is one first action, the heuristic playing the rest of the turn


class SearchPolicy:
    """The heuristic's turn or another candidate's, whichever does better on sampled futures; see the module
    docstring."""

    name = "search"
    PARAMETERS: dict[str, str] = {
        "samples": "sampled futures per candidate turn (default 16)",
        "depth": "turns begun before a future is scored (default 4; 1 = end of this turn; 0 = end of game)",
        "margin": "average win-chance gain another turn needs to replace the heuristic's (default 0.015; "
        "with 6 futures or fewer 0.03 does better, else the noise of a few futures chooses)",
        "first": "futures before candidates short of the margin by `drop` drop out (default 2; 0: never)",
        "drop": "how far short of the margin a candidate may be after the first futures (default 0.05)",
        "recheck": RECHECK.format(1),
        "variants": f"weight variants of the heuristic that propose turns, 0-{len(VARIANTS)} (default {len(VARIANTS)})",
        "time_per_decision": "seconds one decision may take at most (default 10.0: a safety net)",
        "actions": "1: also race each other first action of the pawn's own, the heuristic playing the rest (default 1)",
        "start": "1: race only in the end game (every part found, the Launch Pad known), the heuristic alone before; "
        "0: from the first turn (default 0)",
        "end_depth": "depth in the end game (default 0 = end of game; -1: as depth)",
        "end_first": "`first` in the end game (default -1: as first; with `first: 1, end_first: 2` candidates drop "
        "out after one future before the end game and after two in it, where most lost games are decided)",
    }

    def __init__(
        self, samples: int = 16, depth: int = 4, margin: float = 0.015, first: int = 2, drop: float = 0.05,
        variants: int = len(VARIANTS), time_per_decision: float = 10.0, recheck: int = 1, actions: int = 1,
        start: int = 0, end_depth: int = 0, end_first: int = -1,
    ) -> None:  # fmt: skip
        check_settings(
            {"samples": (samples, 1), "depth": (depth, 0), "first": (first, 0), "variants": (variants, 0),
             "end_depth": (end_depth, -1), "end_first": (end_first, -1)},
            {"margin": margin, "drop": drop, "time_per_decision": time_per_decision},
            {"recheck": recheck, "actions": actions, "start": start},
        )  # fmt: skip
        if variants > len(VARIANTS):
            raise ValueError(f"variants must be at most {len(VARIANTS)}, got {variants}")
        self.samples, self.depth, self.first = samples, depth, first
        self.margin, self.drop, self.time_per_decision = float(margin), float(drop), float(time_per_decision)
        self.recheck, self.actions = bool(recheck), bool(actions)
        self.start, self.end_depth = bool(start), depth if end_depth < 0 else end_depth
        self.end_first = first if end_first < 0 else end_first
        self._depth = depth  # the depth of the decision being raced
        self.base = HeuristicPolicy()
        self.roller = HeuristicPolicy()
        self.variants = VariantTurns(lambda weights: HeuristicPolicy(**weights), VARIANTS[:variants])
        self.reset(0)

    def reset(self, seed: int) -> None:
        self._rng = random.Random(f"search-{seed}")
        for policy in (self.base, self.roller, self.variants):
            policy.reset(seed)

    def choose(self, state: GameState, legal: Sequence[Action]) -> Action:
        end = end_game(state)
        if self.start and not end:
            return self.base.choose(state, legal)
        self._depth = self.end_depth if end else self.depth
        followed = self.variants.follow(state, legal, ACTIONS)
        if followed is not None:
            return followed
        proposal = self.base.choose(state, legal)
        if state.phase != ACTIONS or state.actions_left != state.comp.actions_per_turn:
            return proposal  # a turn's course is set at its start; the heuristic plays the storm and gear
        cands = [(proposal, -1), *self.variants.turns(state, legal, proposal, self.base.planned())]
        if self.actions:
            cands += [(a, FIRST) for a in state.own_actions() if a != proposal]
        best = race(len(cands), self._shared_playout(state, cands), self._rng, self.samples, self.margin,
                    self.end_first if end else self.first, self.drop, self.time_per_decision, self.recheck)  # fmt: skip
        action, variant = cands[best]
        if variant >= 0:
            self.variants.chosen = (state.turn, variant)
        return action

    def _shared_playout(self, state: GameState, cands: list[tuple[Action, int]]) -> Callable[[int, int], float]:
        """playout(i, seed) for the race. A candidate of the heuristic's (its turn, or a first action the heuristic
        plays on from) is played once up to its first draw: up to there its moves are the same in every future.
        Candidates that meet there, with the same action to come, share their futures' scores (most first actions
        lead back to one of a few turns), so the race costs what the distinct turns cost."""
        runs: list[tuple[GameState, Action | None, int]] = []
        keys: list[tuple[str, Action | None] | None] = []
        for action, variant in cands:
            if variant >= 0:  # a variant plays its whole turn in each future (an excavation draws mid-turn)
                keys.append(None)
                runs.append((state, None, variant))
                continue
            self.roller.reset(0)
            start, pending = until_draw(state, action, self._roll)
            keys.append((_position(start), pending))
            runs.append((start, pending, -1))
        return shared(keys, lambda i, seed: self._playout(state.turn, *runs[i], seed))

    def _roll(self, s: GameState) -> Action:
        return self.roller.choose(s, LegalActions(s))

    def _playout(self, turn: int, start: GameState, pending: Action | None, variant: int, seed: int) -> float:
        """The score of a future (``seed``) from ``start``: ``pending`` played (or the variant's turn), then the
        heuristic until the decision's depth of turns have begun since ``turn``."""
        s = start.copy(random.Random(seed))  # nothing hidden is in the state: any generator is a fair future
        if variant >= 0:
            self.variants.play_turn(s, variant, seed)
        elif pending is not None:
            s.apply(pending)
        self.roller.reset(seed)
        play_on(s, self.roller, turn + self._depth if self._depth else 1 << 30, False)
        return win_chance(s)


def end_game(s: GameState) -> bool:
    """Every part found (lying or collected) and the Launch Pad known: only pickups and the way home are left."""
    return NOT_FOUND not in s.parts and s.launch_pad() >= 0


def _position(s: GameState) -> str:
    """Everything of the state that a future depends on (its generator aside), as one hashable text."""
    return repr((
        s.storm, s.kind, s.dug, s.sand, s.supply, s.pos, s.water, s.hands, s.gdeck, s.gused, s.parts, s.level, s.stop,
        s.sdeck, s.sbottom, s.sdiscard, s.sdrawn, s.current, s.turn, s.phase, s.actions_left, s.skips, s.storm_left,
        s.shields, s.window, s.placed, s.outcome, s.loss_causes,
    ))  # fmt: skip
