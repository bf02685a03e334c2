"""`fi report` as a library call: runs -> statistics -> figures, CSV tables, summary.md, index.html."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from ..sim.errors import os_error_text
from . import figures, stats
from .errors import ReportError
from .figures import FigureInfo, Look
from .games import section
from .load import ReportData, load_runs, run_game
from .pages import write_html, write_markdown
from .pairing import Pairing, pair_scenarios
from .sections import Report, Section
from .style import scenario_styles
from .tables import summary_table


def default_out_dir(run_dirs: Sequence[Path]) -> Path:
    """reports/<run name> (names joined with '+' for several runs)."""
    return Path("reports") / "+".join(Path(d).resolve().name for d in run_dirs)


def compute(data: ReportData, pairing: Pairing | str) -> dict[str, pd.DataFrame]:
    """Every table of the report of one game's runs, by CSV file stem (`pairing`: a Pairing, or one baseline
    scenario): those every game has, then the game's own."""
    game = section(data.game)
    g, sc = data.games, data.scenarios
    baselines = pairing.baselines if isinstance(pairing, Pairing) else pairing
    labels = data.labels
    outcomes = stats.outcome_table(g, sc, game.ENDINGS, [(name, column) for name, column, _ in game.MEANS])
    outcomes.insert(1, "label", outcomes["scenario"].map(labels))
    rates = stats.win_rates(g, sc, baselines)
    rates.insert(1, "label", rates["scenario"].map(labels))
    rates.insert(rates.columns.get_loc("baseline") + 1, "baseline_label", rates["baseline"].map(labels).fillna(""))
    column, most, _ = game.STAGE
    return {
        "outcomes": outcomes,
        "win_rates": rates,
        "loss_stage": stats.loss_stage(g, sc, column, most),
        "survival": stats.cumulative_incidence(g, sc, game.ENDINGS),
        **game.compute(data),
    }


def look_of(data: ReportData) -> Look:
    info = data.info
    return Look(data.scenarios, data.labels, scenario_styles(info["scenario"], info["group"], info["within"]))


def figure_list(data: ReportData) -> list[FigureInfo]:
    """The figures of a game's section, in the order of the page."""
    return section(data.game).figure_list(data)


def make_figures(tables: dict[str, pd.DataFrame], data: ReportData, pairing: Pairing) -> dict[str, Figure]:
    """Every figure of one game's runs, in the order of the page, titled (with the PARTIAL note when games
    are missing)."""
    game = section(data.game)
    look = look_of(data)
    endings = stats.endings_in(data.games, game.ENDINGS)
    _, most, unit = game.STAGE
    made = {
        "loss_causes": figures.loss_causes(tables["outcomes"], endings, look),
        "win_rates": figures.win_rates(tables["win_rates"], look, pairing.single),
        "loss_stage": figures.loss_stage(tables["loss_stage"], look, most, unit),
        "survival": figures.survival(tables["survival"], look, endings),
        **game.make_figures(tables, data, look, endings),
    }
    note = data.partial_note
    out = {}
    for info in figure_list(data):
        fig = out[info.name] = made[info.name]
        fig.suptitle(f"{info.title}\n{note}" if note else info.title, fontsize=12,
                     color="#A0001E" if note else "black")
    return out


def _pairings(datas: dict[str, ReportData], baseline: str | None) -> tuple[dict[str, Pairing], list[str]]:
    """Each game's comparisons. With both games, a baseline found in one game's runs only compares those; the
    other game keeps its default (a warning says so). A baseline found nowhere is an error."""
    pairings, failed = {}, {}
    for game, data in datas.items():
        try:
            pairings[game] = pair_scenarios(data, baseline)
        except ReportError as e:
            failed[game] = e
            pairings[game] = pair_scenarios(data)
    if len(failed) == len(datas):
        raise next(iter(failed.values()))
    return pairings, [f"--baseline {baseline}: not in the {game} runs, which are compared with their default "
                      f"({pairings[game].description})" for game in failed]


def build_report(
    run_dirs: Sequence[Path], out_dir: Path | None = None, baseline: str | None = None,
    formats: Sequence[str] = ("png", "svg"), partial: bool = False,
) -> Report:
    """Read the runs and write the whole report into out_dir (default reports/<run name>): one section per
    game of the runs, each game's files prefixed by its name when the runs are of both games.

    `baseline`: matrix values KEY=VALUE or a scenario (see `pairing`). `partial`: report on the sound
    chunks of an incomplete or damaged run instead of stopping. `formats`: figure files; PNG is needed
    (the page inlines it), SVG is for zooming (tests skip it for speed)."""
    if "png" not in formats:
        raise ReportError("the report page needs PNG figures; formats must include 'png'")
    by_game: dict[str, list[Path]] = {}
    for d in map(Path, run_dirs):
        by_game.setdefault(run_game(d), []).append(d)
    datas = {game: load_runs(dirs, partial=partial) for game, dirs in by_game.items()}
    pairings, notes = _pairings(datas, baseline)
    out_dir = Path(out_dir) if out_dir is not None else default_out_dir(run_dirs)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ReportError(f"cannot create the report directory {os_error_text(e, out_dir)} (it is set with "
                          "--out)") from e
    report = Report(out_dir=out_dir, sections=[], formats=tuple(formats), notes=notes)
    for game, data in datas.items():
        prefix = f"{game}_" if len(datas) > 1 else ""
        tables = compute(data, pairings[game])
        means = [(column, header) for column, _, header in section(game).MEANS]
        summary = summary_table(tables["outcomes"], tables["win_rates"],
                                stats.endings_in(data.games, section(game).ENDINGS), means)
        report.sections.append(Section(game, data, pairings[game], summary, tables, figure_list(data), prefix))
        for name, df in [*tables.items(), ("summary", summary)]:
            path = out_dir / f"{prefix}{name}.csv"
            df.to_csv(path, index=False)
            report.files.append(path)
        for name, fig in make_figures(tables, data, pairings[game]).items():
            report.files += figures.save(fig, out_dir, prefix + name, formats)
    report.files.append(write_markdown(report))
    report.files.append(write_html(report))
    return report
