"""`fi report` as a library call: runs -> statistics -> figures, CSV tables, summary.md, index.html."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from ..sim.errors import os_error_text
from . import figures, ladder, sensitivity, stats
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
    named = [pairing.label(s, labels) for s in rates["scenario"]] if isinstance(pairing, Pairing) else \
        rates["baseline"].map(labels).fillna("")
    rates.insert(rates.columns.get_loc("baseline") + 1, "baseline_label", named)
    column, most, _ = game.STAGE
    return {
        "outcomes": outcomes,
        "win_rates": rates,
        "loss_stage": stats.loss_stage(g, sc, column, most),
        "survival": stats.cumulative_incidence(g, sc, game.ENDINGS),
        **game.compute(data),
    }


def look_of(data: ReportData, shown: list[str] | None = None) -> Look:
    """How the scenarios are drawn, in figures that show the `shown` ones (default: all): colour groups are
    counted among those, so that the hardest and easiest 8 of 40 islands get 8 colours, not a palette's repeats."""
    info = data.info if shown is None else data.info[data.info["scenario"].isin(shown)]
    styles = scenario_styles(info["scenario"], pd.factorize(info["group"])[0], info["within"])
    return Look(data.scenarios if shown is None else shown, data.labels, styles)


DETAIL_MAX = 24  # with more scenarios, the per-scenario figures show only the hardest and the easiest
DETAIL_SHOWN = 4  # ... this many at each end (as many as the explorer draws)


def detail_scenarios(rates: pd.DataFrame) -> list[str]:
    """The scenarios the per-scenario figures show: all, or the DETAIL_SHOWN with the lowest and the highest
    win rate when there are more than DETAIL_MAX (every scenario stays in the CSV tables)."""
    if len(rates) <= DETAIL_MAX:
        return list(rates["scenario"])
    order = rates.sort_values("win_rate", kind="stable")["scenario"].tolist()
    chosen = set(order[:DETAIL_SHOWN] + order[-DETAIL_SHOWN:])
    return [s for s in rates["scenario"] if s in chosen]


def titled(made: dict[str, Figure], infos: list[FigureInfo], note: str) -> dict[str, Figure]:
    """The figures of `infos`, in their order, each with its title and under it `note` (in red when it is the
    PARTIAL note)."""
    for info in infos:
        made[info.name].suptitle(f"{info.title}\n{note}" if note else info.title, fontsize=12,
                                 color="#A0001E" if note.startswith("PARTIAL") else "black")
    return {info.name: made[info.name] for info in infos}


def figure_list(data: ReportData) -> list[FigureInfo]:
    """The figures of a game's section, in the order of the page."""
    return section(data.game).figure_list(data)


def make_figures(tables: dict[str, pd.DataFrame], data: ReportData, pairing: Pairing) -> dict[str, Figure]:
    """Every figure of one game's runs, in the order of the page, titled (with the PARTIAL note when games
    are missing); with many scenarios, only the hardest and the easiest are drawn (see detail_scenarios) and
    the titles say so."""
    game = section(data.game)
    shown = detail_scenarios(tables["win_rates"])
    subset = ""
    if len(shown) < len(data.scenarios):
        tables = {k: df[df["scenario"].isin(shown)] if "scenario" in df.columns else df for k, df in tables.items()}
        subset = (f"the {DETAIL_SHOWN} hardest and {DETAIL_SHOWN} easiest of {len(data.scenarios)} scenarios "
                  "(the CSV tables hold all)")
    look = look_of(data, shown)
    endings = stats.endings_in(data.games, game.ENDINGS)
    _, most, unit = game.STAGE
    made = {
        "loss_causes": figures.loss_causes(tables["outcomes"], endings, look),
        "win_rates": figures.win_rates(tables["win_rates"], look, pairing.heading),
        "loss_stage": figures.loss_stage(tables["loss_stage"], look, most, unit),
        "survival": figures.survival(tables["survival"], look, endings),
        **game.make_figures(tables, data, look, endings),
    }
    return titled(made, figure_list(data), "\n".join(n for n in (data.partial_note, subset) if n))


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
    formats: Sequence[str] = ("png", "svg"), partial: bool = False, dpi: int = figures.DPI,
) -> Report:
    """Read the runs and write the whole report into out_dir (default reports/<run name>): one section per
    game of the runs, each game's files prefixed by its name when the runs are of both games.

    `baseline`: matrix values KEY=VALUE or a scenario (see `pairing`). `partial`: report on the sound
    chunks of an incomplete or damaged run instead of stopping. `formats`: figure files; PNG is needed
    (the page inlines it), SVG is for zooming (tests skip it for speed); `dpi`: of the PNG figures. A section may
    have parts of its own: the island's explorer when its runs play many layouts (see report.island.explorer),
    which lever matters most when its run is a sensitivity design (see report.sensitivity)."""
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
    for name, data in datas.items():
        game = section(name)
        prefix = f"{name}_" if len(datas) > 1 else ""
        tables = compute(data, pairings[name])
        means = [(column, header) for column, _, header in game.MEANS]
        summary = summary_table(tables["outcomes"], tables["win_rates"], stats.endings_in(data.games, game.ENDINGS),
                                means)
        sec = Section(name, data, pairings[name], summary, tables, figure_list(data), prefix)
        made = make_figures(tables, data, pairings[name])
        sec.parts = ladder.part(data) + game.parts(data, tables) + sensitivity.parts(data)
        for extra in sec.parts:
            tables |= extra.tables
            made |= titled(extra.made, extra.figures, data.partial_note)
        report.sections.append(sec)
        for stem, df in [*tables.items(), ("summary", summary)]:
            path = out_dir / f"{prefix}{stem}.csv"
            df.to_csv(path, index=False, float_format="%.6g")  # 6 significant digits: plenty, and half the size
            report.files.append(path)
        for stem, fig in made.items():
            report.files += figures.save(fig, out_dir, prefix + stem, formats, dpi)
    report.files.append(write_markdown(report))
    report.files.append(write_html(report))
    return report
