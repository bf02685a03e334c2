"""A spy on a search's variant turns, for both games' tests: the turns offered at each race, the variant turns
chosen, and what was played in each chosen turn's actions."""

from __future__ import annotations

from typing import Any


def spy_on_variants(policy: Any, actions_phase: int) -> tuple[list[tuple[int, int, int]], list[dict]]:
    """Wraps ``policy`` (a search with ``variants``); returns the lists it fills as games are played:
    (phase, actions left, variant turns offered) per race, and {turn, plan, played} per chosen variant turn."""
    offered: list[tuple[int, int, int]] = []
    chosen: list[dict] = []
    variant_turns, choose = policy.variants.turns, policy.choose

    def spy_offer(state, legal, proposal, planned):
        turns = variant_turns(state, legal, proposal, planned)
        offered.append((state.phase, state.actions_left, len(turns)))
        return turns

    def spy_choose(state, legal):
        before = policy.variants.chosen
        a = choose(state, legal)
        now = policy.variants.chosen
        if now is not None and now != before:  # a variant's turn was chosen here
            chosen.append({"turn": state.turn, "plan": [a, *policy.variants.proposers[now[1]].planned()], "played": []})
        if chosen and chosen[-1]["turn"] == state.turn and state.phase == actions_phase:
            chosen[-1]["played"].append(a)
        return a

    policy.variants.turns, policy.choose = spy_offer, spy_choose
    return offered, chosen
