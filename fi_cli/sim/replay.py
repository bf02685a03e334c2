"""Replaying one logged game from its seed and checking it against the log."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .api import Run
from .errors import ConfigError
from .seeds import game_seed
from .tables import DATASETS, Columns, chunk_path


@dataclass
class ReplayResult:
    scenario: str
    game: int
    seed: int
    differences: list[str] = field(default_factory=list)

    @property
    def matches(self) -> bool:
        return not self.differences


def replay_game(run_dir: str | Path, scenario: str, game: int,
                narrate: Callable[[str], None] | None = None) -> ReplayResult:
    """Play game `game` of `scenario` again from its logged seed and compare every logged row."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    run = Run(run_dir)
    sc = run.study.scenario(scenario)
    if not 0 <= game < run.study.games:
        raise ConfigError("no such game", key="game", value=game, allowed=f"0 to {run.study.games - 1}")
    chunk = game // run.study.chunk_size
    logged = {}
    for ds in DATASETS:
        path = chunk_path(run.path, ds, sc.id, chunk)
        if not path.is_file():
            raise ConfigError(f"game {game} of {sc.id!r} is not in the run (chunk {chunk} was not written)",
                              file=run.path)
        try:
            table = pq.read_table(path)
            logged[ds] = table.filter(pc.equal(table["game"], game)).to_pydict()
            problem = None if logged[ds]["game"] else f"it has no rows of game {game}"
        except (pa.ArrowException, OSError, KeyError) as e:
            problem = f"{type(e).__name__}: {e}"
        if problem:
            study = run.manifest.get("study_file") or "STUDY.yaml"
            raise ConfigError(f"this file of the run is damaged ({problem}). Delete it, then play its games again "
                              f"with: fi simulate {study} --out {run.path} --resume", file=path)
    made_under, rules = logged["games"]["rules_version"][0], sc.door.RULES_VERSION
    if made_under != rules:
        raise ConfigError(f"game {game} of {sc.id!r} was played under the rules {made_under} and this fi plays "
                          f"{rules}, so a replay would be another game: it is refused (`fi report` and `fi games` "
                          "still read the run)", file=run.path)
    seed = logged["games"]["seed"][0]
    result = ReplayResult(sc.id, game, seed)
    expected_seed = game_seed(run.study.seed, sc.stream, game)
    if seed != expected_seed:
        result.differences.append(f"logged seed {seed} is not the study's seed {expected_seed} for this game")
    rec = sc.door.play(sc.setup, sc.policy, sc.policy_params, seed, narrate=narrate)
    cols = Columns(sc.schemas)
    sc.door.log(cols, sc, game, seed, rec)
    tables = cols.tables()  # compare what would be written with what was written
    for ds in DATASETS:
        fresh = tables[ds].to_pydict()
        for name, values in logged[ds].items():
            if fresh[name] != values:
                at = next((i for i, (a, b) in enumerate(zip(fresh[name], values, strict=False)) if a != b),
                          min(len(fresh[name]), len(values)))
                result.differences.append(
                    f"{ds}.{name} differs at row {at}: replay {fresh[name][at:at + 1]} vs log {values[at:at + 1]}"
                    if at < min(len(fresh[name]), len(values))
                    else f"{ds}.{name}: replay has {len(fresh[name])} rows, the log {len(values)}"
                )
    return result
