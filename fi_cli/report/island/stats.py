"""The island's own statistics: the water by turn, how much of the island is left, where it sinks and where
games are lost, which treasure is lost and when treasures are captured.

The statistics of turns and tiles are made in two steps, as the report reads a run chunk by chunk: `counts`
keeps, of a batch of chunks, how many rows have each value measured (see report.tally); the tables are then
made from those counts added up over the runs (data.counts), with the numbers the rows themselves give."""

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
    event_counts,
    event_timing,
    km_median,
    meter_skulls,
    outcome_bands,
    outcome_counts,
    series_bands,
    turn_counts,
    wilson,
)
from ..tally import count_rows, counted_stats

_CAPTURE = re.compile(r"capture\(\s*p?\d+\s*,\s*([a-z_]+)\s*\)")
CELL = ["scenario", "layout", "row", "col"]
PINNED_SHARE = 0.95


def counts(frames: dict[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """What the island's tables need of the turns and tiles of some games (whole games: a batch of chunks),
    as count frames (keys and n) by name; `frames`: their games, turns and tiles."""
    games, turns, tiles = frames["games"], frames["turns"], frames["tiles"]
    on_cells = _on_cells(tiles, games, ["turns"])
    out = {
        "water": outcome_counts(_water_by_turn(turns), games, "water_level"),
        "left": turn_counts(_tiles_by_state(turns, tiles), "tiles", ["state"]),
        "reached": count_rows(level_reached(turns), ["scenario", "level", "turn"]),
        "treasures": turn_counts(_treasures_by_turn(turns, games), "treasures_captured"),
        "cell_tiles": count_rows(on_cells, [*CELL, "tile"]),
        "exposure": count_rows(on_cells.assign(sank=on_cells["sunk_turn"].notna(),
                                               exposure=on_cells["sunk_turn"].fillna(on_cells["turns"]).astype(float)),
                               [*CELL, "exposure", "sank"]),
        "tile_sinks": count_rows(tiles, ["scenario", "tile", "sunk_turn"]),
        "captures": event_counts(capture_turns(turns), games, "treasure"),
    }
    if has_loss_details(games):
        involved = _loss_tiles(games).merge(on_cells, on=["scenario", "game", "tile"])
        out["involved"] = count_rows(involved.drop_duplicates([*CELL, "game"]), CELL)
        out["drowned"] = count_rows(involved[involved["how"] == "drowned"], CELL)
    return out


def start_levels(turns: pd.DataFrame) -> pd.DataFrame:
    """Per game: the water level before the first turn (level after turn 1 minus its rises)."""
    first = turns.sort_values("turn").groupby(["scenario", "game"], sort=False).head(1)
    return pd.DataFrame({"scenario": first["scenario"], "game": first["game"],
                         "start_level": first["water_level"] - first["waters_rise"]})


def _water_by_turn(turns: pd.DataFrame) -> pd.DataFrame:
    """scenario, game, turn, water_level, with turn 0 (the set-up) for each game."""
    s = start_levels(turns).rename(columns={"start_level": "water_level"}).assign(turn=0)
    cols = ["scenario", "game", "turn", "water_level"]
    return pd.concat([s[cols], turns[cols]], ignore_index=True)


def water_curves(counts: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """Per scenario, outcome and turn (turn 0 = set-up): median and 10/90% quantiles of the water level over
    all the games (see stats.outcome_bands; `counts`: counts()["water"])."""
    return outcome_bands(counts, games, "water_level")


def _tiles_by_state(turns: pd.DataFrame, tiles: pd.DataFrame) -> pd.DataFrame:
    """scenario, game, turn, state (dry, flooded, sunk) and the tiles in that state after the turn."""
    n_tiles = tiles.groupby(["scenario", "game"]).size().rename("n_tiles").reset_index()
    t = turns[["scenario", "game", "turn", "tiles_flooded", "tiles_sunk"]].merge(n_tiles, on=["scenario", "game"])
    t = t.assign(dry=t["n_tiles"] - t["tiles_flooded"] - t["tiles_sunk"], flooded=t["tiles_flooded"],
                 sunk=t["tiles_sunk"])
    return t.melt(id_vars=["scenario", "game", "turn"], value_vars=list(TILE_STATES), var_name="state",
                  value_name="tiles")


def island_left(counts: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """Per scenario, tile state (dry, flooded, sunk) and turn: median and 10/90% quantiles of the number of
    tiles in that state after the turn, over all the games (see stats.series_bands; `counts`:
    counts()["left"])."""
    return series_bands(counts, games, TILE_STATES, "state", "tiles")


def skulls(games: pd.DataFrame) -> dict[str, int]:
    """Per scenario, the water level of the skull (10, unless its study set a water meter of its own)."""
    return meter_skulls(games, "water_meter", lambda _: SKULL)


def level_reached(turns: pd.DataFrame) -> pd.DataFrame:
    """Per game and water level above the start: the first turn at which the level was reached (the turn that
    took the highest level so far of the game past it)."""
    t = turns.sort_values(["scenario", "game", "turn"], kind="stable", ignore_index=True)
    game = t.groupby(["scenario", "game"], sort=False)
    start = (t["water_level"] - t["waters_rise"]).groupby([t["scenario"], t["game"]], sort=False).transform("first")
    top = game["water_level"].cummax()
    before = np.maximum(top.groupby([t["scenario"], t["game"]], sort=False).shift(1).fillna(start), start)
    new = (top - before).clip(lower=0).astype("int64").to_numpy()  # levels first reached on each turn
    rows = np.repeat(np.arange(len(t)), new)
    first_new = np.repeat(np.cumsum(new) - new, new)
    level = np.repeat(before.to_numpy(dtype="int64"), new) + 1 + (np.arange(len(rows)) - first_new)
    out = t[["scenario", "game", "turn"]].iloc[rows].reset_index(drop=True)
    return out.assign(level=level)[["scenario", "game", "level", "turn"]]


def level_reached_summary(counts: pd.DataFrame, games: pd.DataFrame, scenarios: Sequence[str], skull: int = SKULL
                          ) -> pd.DataFrame:
    """Per scenario and level up to ``skull``: share of games that reached it, and quantiles of the turn it was
    reached (`counts`: counts()["reached"], the games that reached each level on each turn)."""
    n = games.groupby("scenario").size()
    counts = counts[counts["level"] <= skull] if len(counts) else counts
    if counts.empty:  # the water never rose
        return pd.DataFrame(columns=["scenario", "level", "games_reached", "median", "q10", "q25", "q75", "q90",
                                     "share_reached"])
    out = counted_stats(counts, ["scenario", "level"], "turn", {"q10": 0.1, "q25": 0.25, "q75": 0.75, "q90": 0.9})
    out = out.rename(columns={"games": "games_reached"})
    out["share_reached"] = out["games_reached"] / out["scenario"].map(n)
    order = {s: i for i, s in enumerate(scenarios)}
    return out.sort_values(["scenario", "level"], key=lambda c: c.map(order) if c.name == "scenario" else c
                           ).reset_index(drop=True)


def _on_cells(tiles: pd.DataFrame, games: pd.DataFrame, columns: Sequence[str] = ()) -> pd.DataFrame:
    """The tiles rows with their game's layout (and `columns` of the game)."""
    return tiles.merge(games[["scenario", "game", "layout", *columns]], on=["scenario", "game"])


def pinned_tiles(cell_tiles: pd.DataFrame) -> pd.DataFrame:
    """Per cell: `pinned`, the tile that stood there in >= PINNED_SHARE of the games (a layout that pins it),
    else empty: most tiles are placed at random, so a cell usually has no fixed tile (`cell_tiles`:
    counts()["cell_tiles"])."""
    counts = cell_tiles.sort_values([*CELL, "tile"], ignore_index=True)
    counts["share"] = counts["n"] / counts.groupby(CELL)["n"].transform("sum")
    top = counts.sort_values("n", ascending=False, kind="stable").drop_duplicates(CELL)
    top["pinned"] = top["tile"].where(top["share"] >= PINNED_SHARE, "")
    return top[[*CELL, "pinned"]].sort_values(CELL).reset_index(drop=True)


def tile_risk_cells(exposure: pd.DataFrame, cell_tiles: pd.DataFrame) -> pd.DataFrame:
    """Per scenario, layout and grid cell, measures of how fast the tile on it sinks that do not grow with
    the length of the games: `hazard`, sinkings per turn the tile was on the island (a tile that sank on
    turn t was there t turns, one that never sank all the game's turns), and `km_median_turn`, the
    Kaplan-Meier median turn it sinks (games that end first are censored). Also the plain `share_sunk` and
    `median_sunk_turn` (over the games it sank in), and the `pinned` tile (see pinned_tiles). `exposure` and
    `cell_tiles`: counts()["exposure"] and ["cell_tiles"]."""
    t = exposure.assign(sunk_turn=exposure["exposure"].where(exposure["sank"]),
                        sank=exposure["sank"] * exposure["n"], on_island=exposure["exposure"] * exposure["n"])
    out = counted_stats(t, CELL, "sunk_turn").rename(columns={"median": "median_sunk_turn"})
    sums = t.groupby(CELL)[["sank", "on_island"]].sum().reset_index()
    out = out.merge(sums, on=CELL).rename(columns={"on_island": "turns_on_island"})
    out = out[[*CELL, "games", "sank", "turns_on_island", "median_sunk_turn"]]
    out["share_sunk"] = out["sank"] / out["games"]
    out["hazard"] = out["sank"] / out["turns_on_island"]
    km = {key: km_median(x["exposure"].to_numpy(), x["sank"].to_numpy(), x["n"].to_numpy())
          for key, x in exposure.groupby(CELL)}
    out["km_median_turn"] = [km[key] for key in out[CELL].itertuples(index=False, name=None)]
    return out.merge(pinned_tiles(cell_tiles), on=CELL)


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
        pairs = {t: [TILES[i] for i in TREASURE_TILES[k]] for k, t in enumerate(TREASURES)}
        parts.append(tr.assign(tile=tr["lost_treasure"].astype(str).map(pairs), how="treasure").explode("tile"))
    if "loss_causes" in lost:
        fl = lost[lost["loss_causes"].map(lambda c: "fools_landing_sunk" in list(c))]
        parts.append(fl.assign(tile=TILES[0], how="fools_landing"))
    if "drowned_tile" in lost:
        parts.append(lost.dropna(subset=["drowned_tile"]).assign(tile=lambda d: d["drowned_tile"].astype(str),
                                                                 how="drowned"))
    return pd.concat([p[cols] for p in parts], ignore_index=True) if parts else pd.DataFrame(columns=cols)


def has_loss_details(games: pd.DataFrame) -> bool:
    """Whether the run logged what losses took (games.lost_treasure, drowned_tile, loss_causes)."""
    return {"lost_treasure", "drowned_tile", "loss_causes"} <= set(games.columns)


def loss_cells(involved: pd.DataFrame, drowned: pd.DataFrame, cell_tiles: pd.DataFrame, games: pd.DataFrame
               ) -> pd.DataFrame:
    """Per scenario, layout and cell: the share of lost games whose loss involved the tile on it (a tile of
    the lost treasure, Fools' Landing, the tile a pawn drowned on), and the games a pawn drowned there
    (`involved`, `drowned`, `cell_tiles`: counts()[...], the games by cell)."""
    lost = games[games["outcome"] == "loss"].groupby("scenario").size()
    out = pinned_tiles(cell_tiles)
    cells = pd.MultiIndex.from_frame(out[CELL])
    for name, c in (("involved", involved), ("drowned", drowned)):
        by_cell = c.groupby(CELL)["n"].sum() if len(c) else pd.Series(dtype="int64")
        out[name] = by_cell.reindex(cells, fill_value=0).to_numpy() if len(c) else 0
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


def tile_risk_tiles(tile_sinks: pd.DataFrame, scenarios: Sequence[str], alpha: float = ALPHA) -> pd.DataFrame:
    """Per scenario and tile id: share of games the tile sank (Wilson interval) and median sinking turn
    (`tile_sinks`: counts()["tile_sinks"])."""
    t = tile_sinks.assign(sank=tile_sinks["sunk_turn"].notna() * tile_sinks["n"])
    out = counted_stats(t, ["scenario", "tile"], "sunk_turn").rename(columns={"median": "median_sunk_turn"})
    out.insert(3, "sank", t.groupby(["scenario", "tile"])["sank"].sum().to_numpy())
    out["share_sunk"] = out["sank"] / out["games"]
    out["ci_low"], out["ci_high"] = wilson(out["sank"].to_numpy(), out["games"].to_numpy(), alpha)
    order = {s: i for i, s in enumerate(scenarios)}
    tile_order = {tl: i for i, tl in enumerate(TILES)}
    out["_o"] = out["scenario"].map(order) * 1000 + out["tile"].map(tile_order).fillna(999)
    return out.sort_values("_o").drop(columns="_o").reset_index(drop=True)


def capture_turns(turns: pd.DataFrame) -> pd.DataFrame:
    """Per game and captured treasure: the turn of capture (from `treasures`, else from the actions text)."""
    cols = ["scenario", "game", "treasure", "turn"]
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
    return t.groupby(["scenario", "game", "treasure"])["turn"].min().reset_index()[cols]


def treasure_summary(captures: pd.DataFrame, games: pd.DataFrame, scenarios: Sequence[str]) -> pd.DataFrame:
    """Per scenario and treasure: share of games (all, won, lost) it was captured in, and its capture turn
    (`captures`: counts()["captures"])."""
    return event_timing(captures, games, scenarios, TREASURES, "treasure", "captured")


def _treasures_by_turn(turns: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """scenario, game, turn, treasures_captured, with turn 0 (the set-up, none captured) for each game."""
    start = games[["scenario", "game"]].assign(turn=0, treasures_captured=0)
    return pd.concat([start, turns[["scenario", "game", "turn", "treasures_captured"]]], ignore_index=True)


def treasures_by_turn(counts: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """Per scenario and turn (0 = set-up, none captured): mean, median and 10/90% quantiles of the treasures
    captured by then, over all the games (an ended game with its final count; see stats.carry_forward;
    `counts`: counts()["treasures"])."""
    return bands_by_turn(carry_forward(counts, games, "treasures_captured"), ["scenario"], "treasures_captured",
                         games.groupby("scenario").size())
