"""Scale benchmark (issue 51): play and report 1, 10 and 100 times a base study; games/s, peak RSS of `fi simulate`
and of `fi report`, bytes per game; and the memory of a study far too long to finish, sampled as it runs.

    python benchmarks/scale.py study --base 2500 --factors 1 10 100 --play-up-to 10 --workers 2
    python benchmarks/scale.py flat --games 2500000 --seconds 120 --workers 2
    python benchmarks/scale.py recording --games 1000 --repeat 6
    python benchmarks/scale.py recording --game desert --games 300 --repeat 4

`study`: the base is the standard island at the four difficulties, 4 players, `heuristic` (4 scenarios x --base
games). Each factor is played with `fi simulate` (a process of its own, whose RSS and that of its workers are
sampled every 0.2 s) and reported with `fi report --no-svg` (RSS sampled too). Factors above --play-up-to are
not played: their run is the largest run played, copied as many times as needed with the game numbers shifted
(the same games again: what `fi report` does with them costs the same as with new games), so that the report is
measured at a scale this machine cannot play in a session; the output says which runs were copied.
`flat`: a study of --games games per scenario (4 scenarios), played for --seconds and stopped with Ctrl-C, its
RSS sampled: whether memory stays flat in a study of millions of games.
`recording`: the CPU a game of a run's worker (play, rows, Arrow tables, Parquet) against the bare loop of
benchmarks/speed.py on the same games: the standard island, 4 players, normal, or with --game desert the rules'
Desert board, 4 players, Novice; the median of the rounds' ratios, and the ratio of each side's fastest round (a
shared host's load only ever adds time, and from round to round it moves either side by 10% or more).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from sim_scaling import descendants, rss_kb

from fi_cli.sim.runner import read_manifest, write_manifest
from fi_cli.sim.tables import DATASETS

STUDY = """\
name: scale
games: {games}
seed: 51
chunk_size: 250
game: {{layout: forbidden_island, players: 4}}
policy: {policy}
matrix:
  difficulty: [novice, normal, elite, legendary]
"""
SCENARIOS = 4
DESERT_STUDY = """\
name: scale
games: {games}
seed: 51
chunk_size: 250
game: {{name: desert, layout: forbidden_desert, players: 4, difficulty: novice}}
policy: {policy}
"""
# recording: the scenario measured, by game (the island's is the base study's normal scenario)
RECORDED = {
    "island": (STUDY, 1, "standard island, 4 players, normal"),
    "desert": (DESERT_STUDY, 0, "the rules' Desert board, 4 players, Novice"),
}


class Sampled:
    """A command run as a process of its own, the RSS of it and of its descendants sampled as it runs."""

    def __init__(self, command: list[str], every: float = 0.2) -> None:
        self.command, self.every = command, every
        self.samples: list[tuple[float, int, list[int]]] = []  # (seconds, main kB, [descendants kB])

    def run(self, stop_after: float | None = None) -> tuple[float, float, int]:
        """(wall seconds, CPU seconds of the process and its reaped descendants, exit code)."""
        cpu = _children_cpu()
        start = time.perf_counter()
        # Ctrl-C as on a terminal, even when this script runs in the background (where SIGINT is ignored)
        proc = subprocess.Popen(self.command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        done = threading.Event()

        def sample() -> None:
            stopping = False
            while not done.wait(self.every):
                self.samples.append((time.perf_counter() - start, rss_kb(proc.pid),
                                     [rss_kb(k) for k in descendants(proc.pid)]))
                if stop_after is not None and time.perf_counter() - start > stop_after and not stopping:
                    proc.send_signal(signal.SIGINT)  # once: a second Ctrl-C stops the workers at once
                    stopping = True

        thread = threading.Thread(target=sample, daemon=True)
        thread.start()
        _, err = proc.communicate()
        done.set()
        thread.join()
        if proc.returncode not in (0, 130):
            raise RuntimeError(f"{' '.join(self.command)} failed ({proc.returncode}): {err}")
        return time.perf_counter() - start, _children_cpu() - cpu, proc.returncode

    @property
    def peak_main_mb(self) -> float:
        return max((m for _, m, _ in self.samples), default=0) / 1024

    @property
    def peak_worker_mb(self) -> float:
        return max((w for _, _, ws in self.samples for w in ws), default=0) / 1024


def _children_cpu() -> float:
    import resource

    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def fi(*args: str) -> list[str]:
    return [sys.executable, "-m", "fi_cli", *args]


def run_bytes(run: Path) -> int:
    return sum(f.stat().st_size for ds in DATASETS for f in (run / ds).rglob("*.parquet"))


def copied(run: Path, times: int, out: Path) -> Path:
    """`run` copied `times` times into `out` as one run of `times` x its games per scenario: chunk c of copy k is
    chunk k * chunks + c, its game numbers shifted by k * games (the run's games per scenario must be a whole
    number of chunks)."""
    from fi_cli.sim.chunks import ChunkSet

    m = read_manifest(run)
    games, size = m["games_per_scenario"], m["chunk_size"]
    assert games % size == 0, "a run to copy has whole chunks"
    n = games // size
    for ds in DATASETS:
        for src in sorted((run / ds).rglob("part-*.parquet")):
            table = pq.read_table(src)
            meta = table.schema.metadata
            c = int(src.stem.removeprefix("part-"))
            for k in range(times):
                dst = out / ds / src.parent.name / f"part-{k * n + c:05d}.parquet"
                dst.parent.mkdir(parents=True, exist_ok=True)
                shifted = table.set_column(table.schema.get_field_index("game"), "game",
                                           pc.add(table["game"], pa.scalar(k * games, pa.int32())))
                pq.write_table(shifted.replace_schema_metadata(meta), dst, compression="zstd")
    m["games_per_scenario"] = m["study"]["games"] = games * times
    m["chunks_total"] *= times
    m["chunks_done"] = {sid: ChunkSet(range(n * times)).to_json() for sid in m["chunks_done"]}
    m["games_done"] *= times
    write_manifest(out, m)
    return out


def study(args: argparse.Namespace) -> None:
    work = Path(args.out or tempfile.mkdtemp(prefix="fi-scale-"))
    work.mkdir(parents=True, exist_ok=True)
    yaml = work / "scale.yaml"
    yaml.write_text(STUDY.format(games=args.base, policy=args.policy))
    print(f"base study: {SCENARIOS} scenarios x {args.base:,} games, {args.policy}, chunks of 250; "
          f"{args.workers} workers; {os.cpu_count()} cores (shared)", flush=True)
    played: Path | None = None
    for factor in args.factors:
        games = args.base * factor
        total = games * SCENARIOS
        run = work / f"x{factor}"
        if factor <= args.play_up_to:
            sim = Sampled(fi("simulate", str(yaml), "--games", str(games), "--out", str(run), "-w",
                             str(args.workers), "-q", "--overwrite"))
            wall, cpu, _ = sim.run()
            played = run
            print(f"x{factor}: simulate {total:,} games in {wall:.1f} s = {total / wall:,.0f} games/s, "
                  f"{cpu / total * 1000:.2f} CPU ms a game; peak RSS main {sim.peak_main_mb:.0f} MB, largest "
                  f"worker {sim.peak_worker_mb:.0f} MB", flush=True)
        else:
            assert played is not None, "--play-up-to must let the smallest factor be played"
            times = games // read_manifest(played)["games_per_scenario"]
            shutil.rmtree(run, ignore_errors=True)
            start = time.perf_counter()
            copied(played, times, run)
            print(f"x{factor}: not played: {played.name} copied {times} times ({total:,} games, the same games "
                  f"again) in {time.perf_counter() - start:.0f} s, to measure the report", flush=True)
        size = run_bytes(run)
        rep = Sampled(fi("report", str(run), "--out", str(work / f"report-x{factor}"), "--no-svg"))
        wall, cpu, _ = rep.run()
        print(f"x{factor}: report {total:,} games in {wall:.1f} s ({cpu:.1f} CPU s), peak RSS "
              f"{rep.peak_main_mb:.0f} MB; {size / 2**20:.1f} MB of Parquet = {size / total:.0f} bytes a game",
              flush=True)
    if not args.out:
        shutil.rmtree(work)


def flat(args: argparse.Namespace) -> None:
    """RSS while a study too long to finish plays, sampled; stopped after --seconds with Ctrl-C."""
    work = Path(tempfile.mkdtemp(prefix="fi-flat-"))
    try:
        yaml = work / "flat.yaml"
        yaml.write_text(STUDY.format(games=args.games, policy=args.policy))
        sim = Sampled(fi("simulate", str(yaml), "--out", str(work / "run"), "-w", str(args.workers), "-q"), 1.0)
        wall, _, code = sim.run(stop_after=args.seconds)
        done = read_manifest(work / "run")["games_done"]
        print(f"a study of {args.games * SCENARIOS:,} games, stopped by Ctrl-C after {wall:.0f} s (exit code "
              f"{code}) with {done:,} games played ({done / wall:,.0f} games/s):")
        step = max(1, len(sim.samples) // 6)
        for t, main, workers in sim.samples[::step] + sim.samples[-1:]:
            print(json.dumps({"t_s": round(t), "rss_main_mb": round(main / 1024),
                              "rss_workers_mb": [round(w / 1024) for w in workers]}))
    finally:
        shutil.rmtree(work)


def _one_side(args: argparse.Namespace) -> None:
    """In a process of its own: play the scenario of --game (RECORDED) bare (`bare`: the loop of speed.py, on the
    same games: each game's seed and player seed as fi simulate makes them) or as a run's worker does
    (`recorded`: games, rows, Arrow tables and Parquet files, chunk by chunk); print the CPU seconds."""
    from fi_cli.common.play import LegalActions, choose
    from fi_cli.games import module
    from fi_cli.seeding import policy_seed
    from fi_cli.sim.config import load_study
    from fi_cli.sim.runner import play_games
    from fi_cli.sim.seeds import game_seed
    from fi_cli.sim.tables import Columns, write_chunk

    try:
        from fi_cli.sim.tables import encode_chunk
    except ImportError:  # an fi of before issue 51 (to measure it too): write_chunk encoded the tables itself
        def encode_chunk(tables: dict) -> dict:
            return tables

    work = Path(tempfile.mkdtemp(prefix="fi-rec-"))
    text, scenario, _ = RECORDED[args.game]
    (work / "s.yaml").write_text(text.format(games=args.games, policy=args.policy))
    study = load_study(work / "s.yaml")
    sc = study.scenarios[scenario]
    Columns(sc.schemas).tables()  # pyarrow's start-up, paid once a worker
    start = time.process_time()
    if args.side == "bare":
        new_game, make_policy = module(args.game, "game").new_game, module(args.game, "policies").make_policy
        for g in range(args.games):
            seed = game_seed(study.seed, sc.stream, g)
            s, policy = new_game(sc.setup, seed), make_policy(sc.policy)
            policy.reset(policy_seed(seed))
            while s.outcome is None:
                s.apply(choose(policy, s, LegalActions(s)))
    else:
        for c in range(0, args.games, study.chunk_size):
            cols = Columns(sc.schemas)
            play_games(sc, study.seed, range(c, min(c + study.chunk_size, args.games)), cols)
            tables = cols.tables({"fi.scenario": json.dumps(sc.to_dict())})
            write_chunk(work, sc.id, c // study.chunk_size, encode_chunk(tables))
    print(time.process_time() - start)
    shutil.rmtree(work)


def recording(args: argparse.Namespace) -> None:
    """CPU a game of a run's worker against the bare play loop of speed.py on the same games, each side in a
    process of its own, alternated --repeat times (the machine's load hits both alike)."""
    import statistics

    ratios, fastest = [], {"bare": float("inf"), "recorded": float("inf")}
    for r in range(args.repeat):
        cpu = {}
        for side in (("bare", "recorded") if r % 2 == 0 else ("recorded", "bare")):
            out = subprocess.run([sys.executable, __file__, "_side", "--side", side, "--games", str(args.games),
                                  "--policy", args.policy, "--game", args.game], capture_output=True, text=True,
                                 check=True)
            cpu[side] = float(out.stdout.split()[-1])
            fastest[side] = min(fastest[side], cpu[side])
        ratios.append(cpu["recorded"] / cpu["bare"])
        print(f"round {r + 1}: bare {cpu['bare'] / args.games * 1000:.3f} CPU ms a game, recorded "
              f"{cpu['recorded'] / args.games * 1000:.3f}: {ratios[-1]:.3f}x", flush=True)
    print(f"recorded / bare, median of {args.repeat}: {statistics.median(ratios):.3f}x ({args.games} games of "
          f"{args.policy}, {RECORDED[args.game][2]})")
    # the host's other work only adds time: each side's fastest round is the least disturbed measure of its cost
    print(f"fastest round of each side: bare {fastest['bare'] / args.games * 1000:.3f} CPU ms a game, recorded "
          f"{fastest['recorded'] / args.games * 1000:.3f}: {fastest['recorded'] / fastest['bare']:.3f}x")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=["study", "flat", "recording", "_side"])
    p.add_argument("--side", choices=["bare", "recorded"], help=argparse.SUPPRESS)
    p.add_argument("--repeat", type=int, default=4, help="recording: rounds")
    p.add_argument("--base", type=int, default=2500, help="study: games per scenario of the base study")
    p.add_argument("--factors", type=int, nargs="+", default=[1, 10, 100])
    p.add_argument("--play-up-to", type=int, default=10, help="study: larger factors are copies of the largest "
                   "run played, for the report")
    p.add_argument("--games", type=int, default=2_500_000, help="flat: games per scenario; recording: games")
    p.add_argument("--seconds", type=float, default=120, help="flat: seconds before Ctrl-C")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--policy", default="heuristic")
    p.add_argument("--game", choices=sorted(RECORDED), default="island", help="recording: the game measured")
    p.add_argument("--out", help="study: keep the runs and reports here")
    args = p.parse_args()
    {"study": study, "flat": flat, "recording": recording, "_side": _one_side}[args.mode](args)


if __name__ == "__main__":
    main()
