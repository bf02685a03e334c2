"""Simulator benchmarks: worker scaling, cost of logging + writing over bare play, memory of a long run.

    python benchmarks/sim_scaling.py scaling  --games 16000       # games/s with 1 and 2 workers
    python benchmarks/sim_scaling.py overhead --games 2500        # a worker's chunk vs a bare play loop
    python benchmarks/sim_scaling.py memory   --games 1000000     # resident memory over a long run

All use the standard island, 4 players, normal, random roles, the random policy (or --policy).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import threading
import time
from pathlib import Path

from fi_cli.island.game import GameSetup
from fi_cli.island.layouts import get_layout
from fi_cli.sim.config import Scenario, Study
from fi_cli.sim.runner import read_manifest, run_study
from fi_cli.sim.tables import Columns


def bench_study(games: int, policy: str, chunk_size: int = 250) -> Study:
    setup = GameSetup(layout=get_layout("forbidden_island"), start_level=2, players=4)
    scenario = Scenario(index=0, id="base", values={}, setup=setup, policy=policy)
    return Study(name="bench", games=games, seed=1, scenarios=(scenario,), chunk_size=chunk_size)


def _cpu_seconds() -> float:
    """CPU time of this process and its finished children (the pool's workers, once shut down)."""
    import resource

    return sum(r.ru_utime + r.ru_stime for r in (resource.getrusage(resource.RUSAGE_SELF),
                                                 resource.getrusage(resource.RUSAGE_CHILDREN)))


def timed_run(study: Study, workers: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of a whole run_study."""
    out = Path(tempfile.mkdtemp(prefix="fi-bench-"))
    try:
        cpu, start = _cpu_seconds(), time.perf_counter()
        run_study(study, out, workers=workers, progress=False)
        return time.perf_counter() - start, _cpu_seconds() - cpu
    finally:
        shutil.rmtree(out)


def _burn(n: int) -> int:
    x = 0
    for i in range(n):
        x += i * i
    return x


def hardware_ceiling(n: int = 10_000_000) -> float:
    """Speed-up of 2 processes over 1 on pure-Python arithmetic: what the machine allows right now."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    start = time.perf_counter()
    _burn(n)
    _burn(n)
    serial = time.perf_counter() - start
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        list(pool.map(_burn, [1, 1]))
        start = time.perf_counter()
        list(pool.map(_burn, [n, n]))
        return serial / (time.perf_counter() - start)


def scaling(args: argparse.Namespace) -> None:
    """Games/s with 1 and 2 workers. The machine's own 2-process ceiling is measured before and after each
    pair of runs; with --attempts N, pairs are retried until both ceilings show two free cores."""
    study = bench_study(args.games, args.policy)
    for attempt in range(1, args.attempts + 1):
        before = hardware_ceiling()
        runs = {w: timed_run(study, w) for w in (1, 2)}
        after = hardware_ceiling()
        free = min(before, after) >= 1.85
        for w, (secs, cpu) in runs.items():
            print(f"workers={w}: {args.games} games in {secs:.2f} s = {args.games / secs:.0f} games/s (wall clock, "
                  f"incl. pool start-up and writing); {cpu:.1f} CPU s = {args.games / cpu:.0f} games per CPU s")
        print(f"speed-up 2 vs 1 workers: {runs[1][0] / runs[2][0]:.2f}x on {os.cpu_count()} cores; 2 processes of "
              f"plain Python arithmetic ran {before:.2f}x (before) and {after:.2f}x (after) as fast as 1"
              + ("" if free else " - the cores were not free"), flush=True)
        if free or attempt == args.attempts:
            return
        time.sleep(args.every)


def overhead(args: argparse.Namespace) -> None:
    """What a worker spends per chunk on top of playing: collecting rows, building tables, writing Parquet.

    Chunks are played bare and then played + logged, alternating, and each step of the logged chunk is
    timed on its own (CPU time), so load from other processes hits both sides alike.
    """
    import json

    from fi_cli.sim.seeds import game_seed
    from fi_cli.sim.tables import write_chunk

    study = bench_study(args.games, args.policy)
    sc = study.scenarios[0]
    game = sc.door
    out = Path(tempfile.mkdtemp(prefix="fi-bench-"))
    Columns(game.SCHEMAS).tables()  # pyarrow's one-off start-up cost, paid once per worker
    spent = dict.fromkeys(("bare play", "play", "collect rows", "arrow tables", "parquet write"), 0.0)
    clock = time.process_time
    try:
        for _ in range(args.repeat):
            for c in range(0, args.games, study.chunk_size):
                games = range(c, min(c + study.chunk_size, args.games))
                t = clock()
                for g in games:
                    game.play(sc.setup, sc.policy, sc.policy_params, game_seed(study.seed, sc.id, g))
                spent["bare play"] += clock() - t
                cols = Columns(game.SCHEMAS)
                for g in games:
                    seed = game_seed(study.seed, sc.id, g)
                    t = clock()
                    rec = game.play(sc.setup, sc.policy, sc.policy_params, seed)
                    t2 = clock()
                    game.log(cols, sc, g, seed, rec)
                    spent["play"] += t2 - t
                    spent["collect rows"] += clock() - t2
                t = clock()
                tables = cols.tables({"fi.scenario": json.dumps(sc.to_dict())})
                t2 = clock()
                write_chunk(out, sc.id, c // study.chunk_size, tables)
                spent["arrow tables"] += t2 - t
                spent["parquet write"] += clock() - t2
    finally:
        shutil.rmtree(out)
    bare = spent["bare play"]
    n = args.games * args.repeat
    print(f"{n} games in chunks of {study.chunk_size}, CPU time relative to bare play ({n / bare:.0f} games/s):")
    for k, v in spent.items():
        print(f"  {k:<14} {v:7.2f} s  {v / bare:6.1%}")
    extra = spent["collect rows"] + spent["arrow tables"] + spent["parquet write"]
    print(f"logging and writing cost {extra / bare:.1%} of bare play; logged chunks took "
          f"{(extra + spent['play']) / bare - 1:+.1%} in total")


def _rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
    except (OSError, StopIteration):
        return 0


def _children(pid: int) -> list[int]:
    kids = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            kids += [int(k) for k in (task / "children").read_text().split()]
        except OSError:
            pass
    return kids + [g for k in kids for g in _children(k)]


def memory(args: argparse.Namespace) -> None:
    study = bench_study(args.games, args.policy)
    out = Path(args.out or tempfile.mkdtemp(prefix="fi-mem-"))
    stop = threading.Event()
    peak = {"total": 0, "main": 0, "worker": 0}
    start = time.perf_counter()

    def sample() -> None:
        while not stop.wait(args.every):
            me = os.getpid()
            main_kb = _rss_kb(me)
            workers_kb = [_rss_kb(k) for k in _children(me)]
            total = main_kb + sum(workers_kb)
            peak.update(total=max(peak["total"], total), main=max(peak["main"], main_kb),
                        worker=max([peak["worker"], *workers_kb]))
            m = read_manifest(out) or {}
            done = m.get("games_done", 0)
            secs = time.perf_counter() - start
            print(json.dumps({"t_s": round(secs), "games": done, "games_per_s": round(done / secs),
                              "rss_total_mb": round(total / 1024), "rss_main_mb": round(main_kb / 1024),
                              "rss_workers_mb": [round(w / 1024) for w in workers_kb]}), flush=True)

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    try:
        run_study(study, out, workers=args.workers, progress=False, resume=True)
    finally:
        stop.set()
        thread.join()
    secs = time.perf_counter() - start
    size = sum(f.stat().st_size for f in out.rglob("*.parquet"))
    print(f"{args.games} games in {secs:.0f} s ({args.games / secs:.0f} games/s); peak RSS: total "
          f"{peak['total'] / 1024:.0f} MB, main {peak['main'] / 1024:.0f} MB, largest worker "
          f"{peak['worker'] / 1024:.0f} MB; {size / 2**20:.0f} MB of Parquet in {out}")
    if not args.out:
        shutil.rmtree(out)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=["scaling", "overhead", "memory"])
    p.add_argument("--games", type=int, default=4000)
    p.add_argument("--policy", default="random")
    p.add_argument("--repeat", type=int, default=2, help="overhead: rounds")
    p.add_argument("--attempts", type=int, default=1, help="scaling: retry until the cores are free, N times")
    p.add_argument("--workers", type=int, default=None, help="memory: worker processes (default: all cores)")
    p.add_argument("--every", type=float, default=30.0, help="memory: seconds between RSS samples; "
                   "scaling: seconds between attempts")
    p.add_argument("--out", help="memory: keep the run here (resumable) instead of a temp dir")
    args = p.parse_args()
    {"scaling": scaling, "overhead": overhead, "memory": memory}[args.mode](args)


if __name__ == "__main__":
    main()
