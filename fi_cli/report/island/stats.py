"""The island's own statistics: the water by turn, how much of the island is left, where it sinks and where
games are lost, which treasure is lost and when treasures are captured."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import pandas as pd

from ...island.tiles import SKULL, TILE_STATES, TILES, TREASURE_TILES, TREASURES
from ..stats import (
    ALPHA,
    bands_by_turn,
    carry_forward,
    event_timing,
    km_median,
    meter_skulls,
    outcome_bands,
    series_bands,
    wilson,
)

_CAPTURE = re.compile(r"capture\(\s*p?\d+\s*,\s*([a-z_]+)\s*\)")


def start_levels(turns: pd.DataFrame) -> pd.DataFrame:
    """Per game: the water level before the first turn (level after turn 1 minus its rises)."""
    first = turns.sort_values("turn").groupby(["scenario", "game"], sort=False).head(1)
    return pd.DataFrame({"scenario": first["scenario"], "game": first["game"],
                         "start_level": first["water_level"] - first["waters_rise"]})


def water_curves(turns: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """Per scenario, outcome and turn (turn 0 = set-up): median and 10/90% quantiles of the water level over
    the games still being played (see stats.bands_by_turn)."""
    w = turns[["scenario", "game", "turn", "water_level"]]
    s = start_levels(turns).rename(columns={"start_level": "water_level"}).assign(turn=0)
    w = pd.concat([s[["scenario", "game", "turn", "water_level"]], w], ignore_index=True)
    return outcome_bands(w, games, "water_level")


def island_left(turns: pd.DataFrame, tiles: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """Per scenario, tile state (dry, flooded, sunk) and turn: median and 10/90% quantiles of the number of
    tiles in that state after the turn, over the games still being played (see stats.bands_by_turn)."""
    n_tiles = tiles.groupby(["scenario", "game"]).size().rename("n_tiles").reset_index()
    t = turns[["scenario", "game", "turn", "tiles_flooded", "tiles_sunk"]].merge(n_tiles, on=["scenario", "game"])
    t = t.assign(dry=t["n_tiles"] - t["tiles_flooded"] - t["tiles_sunk"], flooded=t["tiles_flooded"],
                 sunk=t["tiles_sunk"])
    long = t.melt(id_vars=["scenario", "game", "turn"], value_vars=list(TILE_STATES), var_name="state",
                  value_name="tiles")
    return series_bands(long, games, TILE_STATES, "state", "tiles")


def skulls(games: pd.DataFrame) -> dict[str, int]:
    """Per scenario, the water level of the skull (10, unless its study set a water meter of its own)."""
    return meter_skulls(games, "water_meter", lambda _: SKULL)


def level_reached(turns: pd.DataFrame, skull: int = SKULL) -> pd.DataFrame:
    """Per game and water level above the start up to ``skull``: the first turn at which the level was reached."""
    w = turns[["scenario", "game", "turn", "water_level"]]
    starts = start_levels(turns)
    rows = []
    for level in range(int(starts["start_level"].min()) + 1, skull + 1):
        hit = w[w["water_level"] >= level].groupby(["scenario", "game"])["turn"].min().reset_index()
        hit = hit.merge(starts, on=["scenario", "game"])
        rows.append(hit[hit["start_level"] < level].assign(level=level))
    cols = ["scenario", "game", "level", "turn"]
    return pd.concat(rows, ignore_index=True)[cols] if rows else pd.DataFrame(columns=cols)


def level_reached_summary(
    reached: pd.DataFrame, games: pd.DataFrame, scenarios: Sequence[str]
) -> pd.DataFrame:
    """Per scenario and level: share of games that reached it, and quantiles of the turn it was reached."""
    n = games.groupby("scenario").size()
    if reached.empty:  # the water never rose
        return pd.DataFrame(columns=["scenario", "level", "games_reached", "median", "q10", "q25", "q75", "q90",
                                     "share_reached"])
    q = reached.groupby(["scenario", "level"])["turn"]
    out = q.agg(games_reached="size", median="median").reset_index()
    for p in (0.1, 0.25, 0.75, 0.9):
        out[f"q{int(p * 100)}"] = q.quantile(p).to_numpy()
    out["share_reached"] = out["games_reached"] / out["scenario"].map(n)
    order = {s: i for i, s in enumerate(scenarios)}
    return out.sort_values(["scenario", "level"], key=lambda c: c.map(order) if c.name == "scenario" else c
                           ).reset_index(drop=True)


CELL = ["scenario", "layout", "row", "col"]
PINNED_SHARE = 0.95


def _on_cells(tiles: pd.DataFrame, games: pd.DataFrame, columns: Sequence[str] = ()) -> pd.DataFrame:
    """The tiles rows with their game's layout (and `columns` of the game)."""
    return tiles.merge(games[["scenario", "game", "layout", *columns]], on=["scenario", "game"])


def pinned_tiles(on_cells: pd.DataFrame) -> pd.DataFrame:
    """Per cell: `pinned`, the tile that stood there in >= PINNED_SHARE of the games (a layout that pins it),
    else empty: most tiles are placed at random, so a cell usually has no fixed tile."""
    counts = on_cells.groupby([*CELL, "tile"]).size().rename("n").reset_index()
    counts["share"] = counts["n"] / counts.groupby(CELL)["n"].transform("sum")
    top = counts.sort_values("n", ascending=False, kind="stable").drop_duplicates(CELL)
    top["pinned"] = top["tile"].where(top["share"] >= PINNED_SHARE, "")
    return top[[*CELL, "pinned"]].sort_values(CELL).reset_index(drop=True)


def tile_risk_cells(tiles: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """Per scenario, layout and grid cell, measures of how fast the tile on it sinks that do not grow with
    the length of the games: `hazard`, sinkings per turn the tile was on the island (a tile that sank on
    turn t was there t turns, one that never sank all the game's turns), and `km_median_turn`, the
    Kaplan-Meier median turn it sinks (games that end first are censored). Also the plain `share_sunk` and
    `median_sunk_turn` (over the games it sank in), and the `pinned` tile (see pinned_tiles)."""
    t = _on_cells(tiles, games, ["turns"])
    t["sank"] = t["sunk_turn"].notna()
    t["exposure"] = t["sunk_turn"].fillna(t["turns"]).astype(float)
    g = t.groupby(CELL)
    out = g.agg(games=("game", "size"), sank=("sank", "sum"), turns_on_island=("exposure", "sum"),
                median_sunk_turn=("sunk_turn", "median")).reset_index()
    out["share_sunk"] = out["sank"] / out["games"]
    out["hazard"] = out["sank"] / out["turns_on_island"]
    out["km_median_turn"] = [km_median(x["exposure"].to_numpy(), x["sank"].to_numpy()) for _, x in g]
    return out.merge(pinned_tiles(t), on=CELL)


def _loss_tiles(games: pd.DataFrame) -> pd.DataFrame:
    """(scenario, game, tile, how) for every tile a lost game's loss involved: both tiles of the lost
    treasure, Fools' Landing when it sank, and the tile a pawn drowned on."""
    lost = games[games["outcome"] == "loss"]
    cols = ["scenario", "game", "tile", "how"]
    if lost.empty:
        return pd.DataFrame(columns=cols)
    parts = []
    if "lost_treasure" in lost:
        tr = lost.dropna(subset=["lost_treasure"])
        pairs = tr["lost_treasure"].map(lambda t: [TILES[i] for i in TREASURE_TILES[TREASURES.index(t)]])
        parts.append(tr.assign(tile=pairs, how="treasure").explode("tile"))
    if "loss_causes" in lost:
        fl = lost[lost["loss_causes"].map(lambda c: "fools_landing_sunk" in list(c))]
        parts.append(fl.assign(tile=TILES[0], how="fools_landing"))
    if "drowned_tile" in lost:
        parts.append(lost.dropna(subset=["drowned_tile"]).assign(tile=lambda d: d["drowned_tile"], how="drowned"))
    return pd.concat([p[cols] for p in parts], ignore_index=True) if parts else pd.DataFrame(columns=cols)


def has_loss_details(games: pd.DataFrame) -> bool:
    """Whether the run logged what losses took (games.lost_treasure, drowned_tile, loss_causes)."""
    return {"lost_treasure", "drowned_tile", "loss_causes"} <= set(games.columns)


def loss_cells(tiles: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """Per scenario, layout and cell: the share of lost games whose loss involved the tile on it (a tile of
    the lost treasure, Fools' Landing, the tile a pawn drowned on), and the games a pawn drowned there."""
    on_cells = _on_cells(tiles, games)
    involved = _loss_tiles(games).merge(on_cells, on=["scenario", "game", "tile"])
    lost = games[games["outcome"] == "loss"].groupby("scenario").size()
    out = pinned_tiles(on_cells).merge(involved.drop_duplicates([*CELL, "game"]).groupby(CELL).size().rename("involved")
                      .reset_index(), on=CELL, how="left")
    drowned = involved[involved["how"] == "drowned"].groupby(CELL).size().rename("drowned").reset_index()
    out = out.merge(drowned, on=CELL, how="left").fillna({"involved": 0, "drowned": 0})
    out["lost_games"] = out["scenario"].map(lost).fillna(0).astype(int)
    out["share_of_losses"] = np.where(out["lost_games"] > 0, out["involved"] / out["lost_games"].clip(lower=1),
                                      np.nan)
    return out.astype({"involved": int, "drowned": int}).sort_values(CELL).reset_index(drop=True)


def lost_treasures(games: pd.DataFrame, scenarios: Sequence[str]) -> pd.DataFrame:
    """Per scenario and treasure: the games lost because both its tiles sank, as a share of all games and
    of the games lost to a treasure."""
    rows = []
    for sc in scenarios:
        g = games[games["scenario"] == sc]
        counts = g["lost_treasure"].value_counts() if "lost_treasure" in g else pd.Series(dtype=int)
        total = int(counts.sum())
        for tr in TREASURES:
            k = int(counts.get(tr, 0))
            rows.append({"scenario": sc, "treasure": tr, "games": len(g), "lost": k, "share_of_games": k / len(g),
                         "share_of_treasure_losses": k / total if total else np.nan})
    return pd.DataFrame(rows)


def water_at_loss(games: pd.DataFrame, scenarios: Sequence[str]) -> pd.DataFrame:
    """Per scenario, loss cause and final water level: the lost games, and their share of the lost games."""
    lost = games[games["outcome"] == "loss"]
    out = lost.groupby(["scenario", "ending", "final_water_level"]).size().rename("lost_games").reset_index()
    if out.empty:
        return out.assign(share_of_losses=pd.Series(dtype=float))
    out["share_of_losses"] = out["lost_games"] / out["scenario"].map(lost.groupby("scenario").size())
    order = {s: i for i, s in enumerate(scenarios)}
    return out.sort_values(["scenario", "ending", "final_water_level"],
                           key=lambda c: c.map(order) if c.name == "scenario" else c).reset_index(drop=True)


def tile_risk_tiles(tiles: pd.DataFrame, scenarios: Sequence[str], alpha: float = ALPHA) -> pd.DataFrame:
    """Per scenario and tile id: share of games the tile sank (Wilson interval) and median sinking turn."""
    t = tiles.assign(sank=tiles["sunk_turn"].notna())
    g = t.groupby(["scenario", "tile"])
    out = g.agg(games=("game", "size"), sank=("sank", "sum"), median_sunk_turn=("sunk_turn", "median"))
    out = out.reset_index()
    out["share_sunk"] = out["sank"] / out["games"]
    out["ci_low"], out["ci_high"] = wilson(out["sank"].to_numpy(), out["games"].to_numpy(), alpha)
    order = {s: i for i, s in enumerate(scenarios)}
    tile_order = {tl: i for i, tl in enumerate(TILES)}
    out["_o"] = out["scenario"].map(order) * 1000 + out["tile"].map(tile_order).fillna(999)
    return out.sort_values("_o").drop(columns="_o").reset_index(drop=True)


def capture_turns(turns: pd.DataFrame) -> pd.DataFrame:
    """Per game and captured treasure: the turn of capture (from `treasures`, else from the actions text)."""
    cols = ["scenario", "game", "treasure", "capture_turn"]
    if "treasures" in turns.columns:
        t = turns[["scenario", "game", "turn", "treasures"]].explode("treasures").dropna(subset=["treasures"])
        t = t.rename(columns={"treasures": "treasure"})
    elif "actions" in turns.columns:
        t = turns[["scenario", "game", "turn", "actions"]].explode("actions").dropna(subset=["actions"])
        t["treasure"] = t["actions"].astype(str).str.extract(_CAPTURE, expand=False)
        t = t.dropna(subset=["treasure"])
    else:
        return pd.DataFrame(columns=cols)
    if t.empty:
        return pd.DataFrame(columns=cols)
    out = t.groupby(["scenario", "game", "treasure"])["turn"].min().rename("capture_turn").reset_index()
    return out[cols]


def treasures_by_turn(turns: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """Per scenario and turn (0 = set-up, none captured): mean, median and 10/90% quantiles of the treasures
    captured by then, over all the games (an ended game with its final count; see stats.carry_forward)."""
    t = turns[["scenario", "game", "turn", "treasures_captured"]]
    start = games[["scenario", "game"]].assign(turn=0, treasures_captured=0)
    t = carry_forward(pd.concat([start, t], ignore_index=True), games)
    return bands_by_turn(t, ["scenario"], "treasures_captured", games.groupby("scenario").size())


def treasure_summary(turns: pd.DataFrame, games: pd.DataFrame, scenarios: Sequence[str]) -> pd.DataFrame:
    """Per scenario and treasure: share of games (all, won, lost) it was captured in, and its capture turn."""
    caps = capture_turns(turns).rename(columns={"capture_turn": "turn"})
    return event_timing(caps, games, scenarios, TREASURES, "treasure", "captured")



