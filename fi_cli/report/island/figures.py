"""The island's own figures: which treasure is lost, and the water level at the loss. (The island's other
figures are the shared ones of `report.figures`, drawn with the island's tables; its maps are in `maps`.)"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from ...island.tiles import SKULL, TREASURES
from ..figures import PERCENT, Look, bar_figure, label_outer, panel_figure, stacked_bars
from ..style import ending_colour, ending_label
from .style import TREASURE_COLOURS, TREASURE_LABELS


def lost_treasures(lost: pd.DataFrame, look: Look) -> Figure:
    """Per scenario: the share of all games lost because both tiles of each treasure sank."""
    fig, ax = bar_figure(len(look.scenarios))
    parts = []
    for tr in TREASURES:
        share = lost[lost["treasure"] == tr].set_index("scenario")["share_of_games"].reindex(look.scenarios)
        parts.append((TREASURE_LABELS[tr], share.fillna(0).to_numpy(), TREASURE_COLOURS[tr]))
    total = max(float(sum(p[1] for p in parts).max()), 0.01)
    stacked_bars(ax, look, parts, limit=min(1.0, math.ceil(total * 11) / 10))
    ax.set_xlabel("share of all games lost because both tiles of the treasure sank")
    fig.legend(loc="outside lower center", ncols=4, frameon=False, fontsize=9)
    return fig


def water_at_loss(table: pd.DataFrame, look: Look, endings: Sequence[str], skull: int = SKULL) -> Figure:
    """Per scenario: the water level at which games were lost, split by loss cause (share of losses); the top
    level is ``skull``."""
    causes = [e for e in endings if e != "win"]
    fig, axes = panel_figure(len(look.scenarios), height=2.7, sharex=True, sharey=True)
    levels = np.arange(1, skull + 1)
    for ax, sc in zip(axes, look.scenarios, strict=True):
        t = table[table["scenario"] == sc]
        bottom = np.zeros(len(levels))
        for cause in causes:
            share = t[t["ending"] == cause].set_index("final_water_level")["share_of_losses"].reindex(levels)
            share = share.fillna(0).to_numpy()
            ax.bar(levels, share, bottom=bottom, color=ending_colour(cause), width=0.8)
            bottom += share
        ax.set_title(f"{look.label(sc, 40)}\n{int(t['lost_games'].sum()):,} lost", fontsize=9.5)
        ax.yaxis.set_major_formatter(PERCENT)
        ax.set_xticks(levels, [*map(str, levels[:-1]), "skull"], fontsize=8)
    # the shared scale by hand: autoscaling a shared axis can cut the tallest stack
    top = table.groupby(["scenario", "final_water_level"])["share_of_losses"].sum().max() if len(table) else 0.1
    axes[0].set_ylim(0, float(top) * 1.05)
    label_outer(axes, "water level when the game was lost", "share of lost games")
    handles = [Patch(color=ending_colour(c), label=ending_label(c)) for c in causes]
    fig.legend(handles=handles, loc="outside lower center", ncols=min(4, max(1, len(handles))), frameon=False,
               fontsize=9)
    return fig
