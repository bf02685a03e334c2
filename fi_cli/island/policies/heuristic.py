"""The ``heuristic`` player: fast, hand-crafted cooperative play for the whole game.

At each action of a turn it plans the rest of the current player's turn: every tile the pawn can reach
with the actions left (walking, the Explorer's diagonals, the Diver's crossings, the Pilot's flight),
then the best use of the remaining actions there (capture, shore-ups, card gifts), scored with a small
evaluation: shore-up value = importance of the tile (more when its sinking would cut a pawn off from
Fools' Landing) x risk it sinks soon (read from the public flood piles), plus how near each pawn is to
what it wants (a capture tile when it holds four cards, the team-mate who collects a treasure when it
holds one of its cards that is still needed, the other holders for a collector once the team holds three,
Fools' Landing in the endgame). Special cards are played by rules: Helicopter Lift to lift off, to
gather on Fools' Landing, to bring a card holder to its treasure, to rescue a swimmer when swimming would be
bad, to bring a pawn nearer its goal when that gains enough (less, and weighed at every action, when this
turn's draws reshuffle the treasure discard pile: the lift comes back at once); Sandbags when an important
flooded tile is likely to be drawn in the current flood step (at a lower bar when its sinking would lose the
game), or instead of a useful discard. When a take-off is in reach (all four treasures captured, or the last
four cards in the current player's hand), an exact search over the turn's moves and the team's lifts finds it
(heuristic_escape).

Every weight is a constructor keyword (and so settable from a study YAML); ``PARAMETERS`` lists them.
The policy reads public information only and has no randomness: the same position gives the same choice.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...common.policies import checked_weights
from ..actions import Action
from ..engine import GameState
from .heuristic_core import HeuristicCore

# name -> (default, one-line description)
_SPEC: dict[str, tuple[float, str]] = {
    "w_fools_landing": (9.0, "importance of keeping Fools' Landing dry"),
    "w_treasure_last": (7.2, "importance of the last standing tile of an uncaptured treasure"),
    "w_treasure_twin": (3.0, "importance of a tile of an uncaptured treasure whose twin still stands"),
    "w_treasure_pair": (4.5, "importance of each tile of an uncaptured treasure when both are flooded"),
    "w_plain": (1.7, "importance of any other tile"),
    "w_cut_pawn": (1.0, "importance added to a tile per pawn its sinking would cut off from Fools' Landing"),
    "risk_top": (0.64, "risk factor of a flooded tile whose flood card is in the top segment of the draw pile"),
    "risk_soon": (0.8, "extra risk in proportion to the share of that segment drawn next flood step"),
    "risk_deep": (0.7, "risk factor of a flooded tile whose card is deeper in the draw pile"),
    "risk_discard": (0.6, "risk factor of a flooded tile whose card is in the flood discard pile"),
    "risk_wr": (0.6, "extra discard-pile risk times the chance of a Waters Rise! in the next two draws"),
    "w_capture": (100.0, "value of capturing a treasure"),
    "w_cap_dist": (4.0, "cost per step between a holder of four cards and its treasure's tiles"),
    "w_cap_pull": (0.3, "cost per step between the collector of a complete set and its treasure's tiles"),
    "w_cap_pre": (0.3, "cost per step between a collector holding three cards (of three) and its treasure's tiles"),
    "w_meet": (0.8, "cost per step per card between a card holder and the team-mate collecting that treasure"),
    "meet_full": (1.8, "multiplier of w_meet when the team holds four or more cards of the treasure"),
    "meet_three": (1.0, "multiplier of w_meet pulling a collector to the other holders when the team holds three"),
    "w_end_dist": (4.0, "cost per step to Fools' Landing once all four treasures are captured"),
    "w_late_fl": (1.0, "cost per step to Fools' Landing once three treasures are captured"),
    "collector_room": (0.8, "preference for a collector with room in its hand (per free place)"),
    "w_order": (0.4, "preference (per card) for a collector whose turn comes after the other card holders' turns"),
    "w_give": (2.0, "value of giving a card to the collector of its treasure (grows with their count)"),
    "w_give_late": (2.0, "multiplier of w_give with four players once two treasures are captured"),
    "w_give_danger": (1.5, "multiplier of w_give with four players for a treasure with a tile sunk or both flooded"),
    "w_give_complete": (12.0, "value of the gift that completes a set of four"),
    "w_give_spare": (0.3, "with four players, worth of a gift sparing the giver a discard at its draw (x keep-value)"),
    "w_give_later": (0.2, "weight of the keep-value of the card a receiver must discard at its next draw after a gift"),
    "w_overflow": (0.4375, "weight of the keep-value of the card a full receiver must discard after a gift"),
    "w_near": (0.25, "value of ending the turn next to a flooded tile (times its shore-up value)"),
    "w_guard": (0.0, "cost per step between an important flooded tile and the nearest pawn (times its value)"),
    "guard_min": (1.5, "least shore-up value of a flooded tile for the w_guard term"),
    "w_position": (0.02, "cost per step between the pawn and each important tile (times its importance), 2 players"),
    "w_position_pawn": (0.06, "added to w_position for each player beyond two"),
    "heli_shore_min": (4.8, "shore-up value of a flooded tile that justifies flying a pawn to it"),
    "heli_shore_cost": (5.0, "cost of spending a Helicopter Lift to fly the current player somewhere"),
    "heli_last_cost": (10.0, "extra cost of spending the team's last Helicopter Lift when one treasure is left"),
    "sandbag_threshold": (2.8, "play Sandbags in a flood step when importance x draw chance reaches this"),
    "sandbag_fatal": (0.05, "play Sandbags on a tile whose sinking loses the game when its draw chance reaches this"),
    "heli_capture": (1.0, "1: fly a holder of four cards to its treasure when it cannot walk there this turn"),
    "heli_meet": (1.0, "1: fly a card holder to the collector when its gifts complete a set this turn"),
    "heli_stranded": (1.0, "1: with four treasures, lift home a pawn that cannot walk there (even the last lift)"),
    "escape": (1.0, "1: search this turn's moves and lifts for a take-off before the draws (heuristic_escape)"),
    "heli_late_cost": (4.0, "extra cost of a lift spent to shore, move or discard with two treasures left or fewer"),
    "heli_rescue_cost": (6.0, "cost of spending a Helicopter Lift to rescue a swimmer instead of swimming"),
    "w_swim_flooded": (1.0, "cost of swimming to a flooded tile (times its risk)"),
    "heli_reshuffle": (5.0, "gain a spare lift move needs less when this turn's draws reshuffle the discard (0: off)"),
    "keep_heli": (8.0, "keep-value of the team's only Helicopter Lift card when over the hand limit"),
    "keep_heli_extra": (3.0, "keep-value of a Helicopter Lift card when the team holds another one"),
    "keep_team": (1.0, "keep-value per card of the same treasure held by the team (up to four)"),
    "keep_set": (4.0, "extra keep-value of a card of a treasure the team holds exactly four cards of"),
    "w_play_sandbags": (1.0, "weight of the best shore-up value when playing Sandbags instead of discarding"),
    "heli_move_min": (5.0, "goal gain that justifies a spare Helicopter Lift move during a turn"),
    "keep_sandbags": (4.5, "keep-value of a Sandbags card when over the hand limit"),
    "keep_base": (2.0, "keep-value of any card of an uncaptured treasure"),
    "keep_own": (1.0, "keep-value per card of the same treasure in the hand"),
    "keep_collector": (1.5, "extra keep-value when the player collects that treasure"),
    "keep_scarce": (3.0, "extra keep-value when fewer than five cards of the treasure are left outside the discard"),
}

DEFAULTS: dict[str, float] = {k: v[0] for k, v in _SPEC.items()}


class HeuristicPolicy:
    """Hand-crafted turn planner with weights as parameters; see the module docstring."""

    name = "heuristic"
    PARAMETERS: dict[str, str] = {k: f"{v[1]} (default {v[0]:g})" for k, v in _SPEC.items()}

    def __init__(self, **weights: float) -> None:
        self.w = checked_weights(DEFAULTS, weights)
        self._core = HeuristicCore(self.w)  # the decisions, compiled with the other helpers
        self.geo = self._core.geo

    def reset(self, seed: int) -> None:
        self._core.reset()

    def planned(self) -> tuple[Action, ...]:
        """The rest of the turn planned at the last decision, followed while the position is the one expected."""
        return tuple(self._core.seq)

    def choose(self, state: GameState, legal: Sequence[Action]) -> Action:
        return self._core.choose(state, legal)
