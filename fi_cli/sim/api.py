"""The Python API for notebooks and scripts.

    from fi_cli.sim.api import load_study, run_study, load_run

    study = load_study("configs/example.yaml").replace(games=200)
    out = run_study(study, "runs/example", workers=2, overwrite=True)
    run = load_run(out)
    run.games.groupby("scenario", observed=True)["outcome"].value_counts(normalize=True)

The same calls take a Forbidden Desert study (`game: {name: desert}`) and run (`run.game` says which).
On a Dask cluster, with the same data: `run_study(study, out, cluster="tcp://host:8786")` (or "local:N", or a
dask.distributed.Client; needs the extra `pip install 'fi-cli[cluster]'`).

With more than one worker, call run_study from a notebook or under `if __name__ == "__main__":` in a script
(worker processes are started with 'spawn' and re-import the calling script).
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .cluster import ClusterError
from .config import Scenario, Study, load_study
from .errors import ConfigError, StudyError
from .games import DEFAULT
from .runner import GameError, RunDirError, RunStopped, RunWriteError, SimulationInterrupted, read_manifest, run_study
from .tables import DATASETS

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "ClusterError", "ConfigError", "GameError", "Run", "RunDirError", "RunStopped", "RunWriteError", "Scenario",
    "SimulationInterrupted", "Study", "StudyError", "load_run", "load_study", "run_study",
]


class Run:
    """A run directory written by `fi simulate`: its manifest, its study, and its datasets as DataFrames.

    The `scenario` column is categorical, with categories in the study's scenario order.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not self.path.is_dir():
            raise RunDirError("no such run directory (give the directory `fi simulate` wrote)", file=self.path)
        manifest = read_manifest(self.path)
        if manifest is None:
            raise RunDirError("is not a run directory (no manifest.json)", file=self.path)
        self.manifest: dict[str, Any] = manifest

    @cached_property
    def study(self) -> Study:
        return Study.from_resolved(self.manifest["study"])

    @property
    def game(self) -> str:
        """The game the run plays: island or desert."""
        return str(self.manifest.get("game", DEFAULT))

    @property
    def rules_version(self) -> str | None:
        """The rules the run's games were played under."""
        return self.manifest.get("rules_version")

    @property
    def complete(self) -> bool:
        return bool(self.manifest.get("complete"))

    def read(self, dataset: str, columns: list[str] | None = None, scenarios: list[str] | None = None,
             ) -> pd.DataFrame:
        """One dataset, optionally only some columns and scenarios (reads only their partitions); RunDirError
        when a file cannot be read."""
        import pandas as pd

        if dataset not in DATASETS:
            raise ValueError(f"unknown dataset {dataset!r}; datasets are: {', '.join(DATASETS)}")
        import pyarrow as pa

        filters = [("scenario", "in", list(scenarios))] if scenarios else None
        try:
            df = pd.read_parquet(self.path / dataset, columns=columns, filters=filters)
        except (pa.ArrowException, OSError) as e:  # a damaged or missing file: say which, and what finds them all
            raise RunDirError(f"cannot read its {dataset} data ({e}); `fi check {self.path}` lists every damaged "
                              "file and the command that plays its games again", file=self.path) from None
        if "scenario" in df:
            order = [s["id"] for s in self.manifest["scenarios"]]
            df["scenario"] = df["scenario"].cat.set_categories(order)
        return df

    @cached_property
    def games(self) -> pd.DataFrame:
        return self.read("games")

    @cached_property
    def turns(self) -> pd.DataFrame:
        return self.read("turns")

    @cached_property
    def tiles(self) -> pd.DataFrame:
        return self.read("tiles")

    def __repr__(self) -> str:
        m = self.manifest
        state = "complete" if self.complete else "incomplete"
        return (f"Run({str(self.path)!r}: {m['name']}, {self.game}, {len(m['scenarios'])} scenarios, "
                f"{m['games_done']} games, {state})")


def load_run(path: str | Path) -> Run:
    """Open a run directory; its datasets load when first used (run.games, run.turns, run.tiles)."""
    return Run(path)
