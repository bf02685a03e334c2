"""Simulator benchmarks: worker scaling, cost of logging + writing over bare play, memory of a long run.

    python benchmarks/sim_scaling.py scaling  --games 16000       # games/s with 1 and 2 workers
    python benchmarks/sim_scaling.py overhead --games 2500        # a worker's chunk vs a bare play loop
    python benchmarks/sim_scaling.py memory   --games 1000000     # resident memory over a long run
    python benchmarks/sim_scaling.py memory   --games 200000 --cluster local:2   # the same on a local cluster
    python benchmarks/sim_scaling.py memory   --games 200000 --cluster local:2 --dask-profiler   # as Dask starts it
    python benchmarks/sim_scaling.py cluster  --games 6000 --policy heuristic   # local pool vs Dask, scale-out

All use the standard island, 4 players, normal, random roles, the random policy (or --policy). The cluster
mode needs the extra: pip install -e '.[cluster]'.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import threading
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

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


def timed_run(study: Study, **where: Any) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of a whole run_study (`where`: workers=N or cluster=...)."""
    out = Path(tempfile.mkdtemp(prefix="fi-bench-"))
    try:
        cpu, start = _cpu_seconds(), time.perf_counter()
        run_study(study, out, progress=False, **where)
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
        runs = {w: timed_run(study, workers=w) for w in (1, 2)}
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
    from fi_cli.sim.tables import encode_chunk, write_chunk

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
                    game.play(sc.setup, sc.policy, sc.policy_params, game_seed(study.seed, sc.stream, g))
                spent["bare play"] += clock() - t
                cols = Columns(game.SCHEMAS)
                for g in games:
                    seed = game_seed(study.seed, sc.stream, g)
                    t = clock()
                    rec = game.play(sc.setup, sc.policy, sc.policy_params, seed)
                    t2 = clock()
                    game.log(cols, sc, g, seed, rec)
                    spent["play"] += t2 - t
                    spent["collect rows"] += clock() - t2
                t = clock()
                tables = cols.tables({"fi.scenario": json.dumps(sc.to_dict())})
                t2 = clock()
                write_chunk(out, sc.id, c // study.chunk_size, encode_chunk(tables))
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


def rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
    except (OSError, StopIteration):
        return 0


def descendants(pid: int) -> list[int]:
    """The processes below `pid` (none once it has ended)."""
    kids = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            kids += [int(k) for k in (task / "children").read_text().split()]
    except OSError:
        pass
    return kids + [g for k in kids for g in descendants(k)]


def memory(args: argparse.Namespace) -> None:
    study = bench_study(args.games, args.policy)
    out = Path(args.out or tempfile.mkdtemp(prefix="fi-mem-"))
    stop = threading.Event()
    peak = {"total": 0, "main": 0, "worker": 0}
    start = time.perf_counter()

    def sample() -> None:
        while not stop.wait(args.every):
            me = os.getpid()
            main_kb = rss_kb(me)
            workers_kb = [rss_kb(k) for k in descendants(me)]
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
        with ExitStack() as stack:
            where = args.cluster
            if args.dask_profiler:  # the cluster of `local:N`, with Dask's profiler on as Dask starts workers
                import distributed

                from fi_cli.sim.cluster import local_cluster_of

                n = int(args.cluster.partition(":")[2] or os.cpu_count())
                where = stack.enter_context(distributed.Client(stack.enter_context(local_cluster_of(n, True))))
            run_study(study, out, workers=args.workers, cluster=where, progress=False, resume=True)
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


def cluster(args: argparse.Namespace) -> None:
    """The local pool against Dask (issue 13): the same study on `workers=2`, on `cluster="local:2"` (start-up
    included, as `fi simulate --cluster local:2` pays it) and on a local cluster of 2 workers already running
    (as a cluster's users find it), alternated and repeated; wall clock and the CPU time of every process
    involved. Then what one client can feed (scale_out)."""
    import statistics

    import distributed

    from fi_cli.sim.cluster import local_cluster_of

    study = bench_study(args.games, args.policy)
    print(f"{args.games} games a run, policy {args.policy}, chunks of {study.chunk_size}; machine: "
          f"{os.cpu_count()} cores shared with other jobs; wall clock, start-up and writing included", flush=True)

    def measure(name: str) -> tuple[float, float]:
        if name != "running":
            return timed_run(study, **({"workers": 2} if name == "pool" else {"cluster": "local:2"}))
        with local_cluster_of(2) as running, distributed.Client(running) as client:
            timed_run(bench_study(50, args.policy), cluster=client)  # the workers import fi before the clock starts
            workers, here = _worker_cpu(client), _cpu_seconds()
            secs, _ = timed_run(study, cluster=client)
            return secs, _worker_cpu(client) - workers + _cpu_seconds() - here  # with the scheduler's, run here

    runs: dict[str, list[tuple[float, float]]] = {"pool": [], "local:2": [], "running": []}
    for r in range(args.repeat):
        ceiling = hardware_ceiling()
        order = list(runs) if r % 2 == 0 else list(runs)[::-1]  # alternate: drift in the load hits each alike
        for name in order:
            secs, cpu = measure(name)
            runs[name].append((secs, cpu))
            print(f"round {r + 1}: {name:<8} {secs:7.2f} s = {args.games / secs:6.1f} games/s; {cpu:6.1f} CPU s = "
                  f"{cpu / args.games * 1000:5.2f} CPU ms a game", flush=True)
        print(f"round {r + 1}: before it, 2 processes of plain Python ran {ceiling:.2f}x as fast as 1", flush=True)
    median = statistics.median
    for name in ("local:2", "running"):
        speed = [p[0] / c[0] for c, p in zip(runs[name], runs["pool"], strict=True)]
        cpu = [c[1] / p[1] for c, p in zip(runs[name], runs["pool"], strict=True)]
        print(f"{name} / pool, round by round: games/s {', '.join(f'{x:.3f}' for x in speed)} (median "
              f"{median(speed):.3f}); CPU a game {', '.join(f'{x:.3f}' for x in cpu)} (median {median(cpu):.3f})")
    with local_cluster_of(2) as running, distributed.Client(running) as client:
        scale_out(client, args)


def _worker_cpu(client: Any) -> float:
    """CPU seconds used so far by the worker processes of a Dask cluster."""
    return sum(client.run(time.process_time).values())


def scale_out(client: Any, args: argparse.Namespace) -> None:
    """What one client can feed: on real runs on the running local cluster, the CPU seconds per chunk of the
    workers (play, collect, Arrow tables, serialise, Dask's bookkeeping) and of this process (fetch and
    deserialise, write the Parquet files and the manifest, plus the scheduler, which a LocalCluster runs here);
    then per chunk the parts alone (play, serialise, bytes, write) and the workers one client keeps busy."""
    import pickle

    from distributed.protocol import deserialize, serialize

    from fi_cli.sim.chunks import ChunkSet
    from fi_cli.sim.runner import Chunk, new_manifest, play_chunk, write_manifest
    from fi_cli.sim.tables import write_chunk

    c0 = time.process_time()
    time.sleep(3)
    idle = (time.process_time() - c0) / 3  # the client's and scheduler's heartbeats, paid by the second
    print(f"\nscale-out, {args.policy} policy, {args.scale_games} games a chunk size; CPU a chunk (the client's "
          f"{idle * 1000:.1f} ms/s when idle taken off):")
    per_chunk = {}
    for size in args.chunk_sizes:
        study = bench_study(args.scale_games, args.policy, chunk_size=size)
        n = -(-args.scale_games // size)
        w0, c0 = _worker_cpu(client), time.process_time()
        secs, _ = timed_run(study, cluster=client)
        worker, here = (_worker_cpu(client) - w0) / n, (time.process_time() - c0 - idle * secs) / n
        per_chunk[size] = (worker, here)
        print(f"  chunk {size:>5}: workers {worker * 1000:8.1f} ms, client+scheduler {here * 1000:6.2f} ms: one client "
              f"keeps {worker / here:5.0f} workers busy")
    sizes = list(per_chunk.items())
    (s1, (w1, c1)), (s2, (w2, c2)) = sizes[0], sizes[-1]
    per_game, fixed = (c2 - c1) / (s2 - s1), c1 - s1 * (c2 - c1) / (s2 - s1)
    play_game = (w2 - w1) / (s2 - s1)
    print(f"  fitted: the client spends {fixed * 1000:.2f} ms a chunk + {per_game * 1e6:.0f} us a game; a worker "
          f"{play_game * 1000:.2f} ms a game. However large the chunks, one client feeds at most "
          f"{play_game / per_game:.0f} workers; 90% of that needs chunks of {9 * fixed / per_game:.0f} games or more")

    # the parts of one chunk of the default size, alone (CPU, this process)
    size = bench_study(1, args.policy).chunk_size
    study = bench_study(size, args.policy)
    meta = {"fi.bench": "1"}
    scenario = study.scenarios[0].to_dict()
    chunk = Chunk(0, 0, 0, size)
    out = Path(tempfile.mkdtemp(prefix="fi-bench-"))
    try:
        play_chunk(Chunk(0, 0, 0, 2), scenario, study.seed, meta)  # pyarrow's one-off start-up, paid once a worker
        clock = time.process_time
        t = clock()
        files = play_chunk(chunk, scenario, study.seed, meta)
        play = clock() - t
        t = clock()
        header, frames = serialize((chunk, files))
        ser = clock() - t
        t = clock()
        deserialize(header, frames)
        deser = clock() - t
        wire = sum(memoryview(f).nbytes for f in frames)
        t = clock()
        write_chunk(out, "base", 0, files)
        write = clock() - t
        parquet = sum(f.stat().st_size for f in out.rglob("*.parquet"))
        big = new_manifest(bench_study(100_000 * 40, args.policy))  # 40 islands x 100,000 games, all chunks done
        big["chunks_done"] = {"base": ChunkSet(range(big["chunks_total"])).to_json()}
        t = clock()
        write_manifest(out, big)
        manifest = clock() - t
        pickled = len(pickle.dumps((chunk, files), protocol=5))
    finally:
        shutil.rmtree(out)
    print(f"\none chunk of {size} games, its parts alone (CPU ms): play + rows + Arrow tables + Parquet encoding "
          f"{play * 1000:.0f} (worker), serialise {ser * 1000:.1f} (worker), deserialise {deser * 1000:.1f} (client), "
          f"write its 3 files {write * 1000:.1f} (client), manifest of a 16,000-chunk run {manifest * 1000:.1f} "
          "(client)")
    mb_s = wire / play / 2**20
    print(f"on the wire {wire / 2**20:.2f} MB a chunk ({pickled / 2**20:.2f} MB pickled), {parquet / 2**20:.3f} MB of "
          f"Parquet: a worker sends {mb_s:.2f} MB/s, so 1 Gb/s (about 110 MB/s) into the client carries "
          f"{110 / mb_s:.0f} workers; the client writes {parquet / play / 2**20:.3f} MB/s of Parquet a worker")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=["scaling", "overhead", "memory", "cluster"])
    p.add_argument("--games", type=int, default=4000)
    p.add_argument("--policy", default="random")
    p.add_argument("--repeat", type=int, default=2, help="overhead, cluster: rounds")
    p.add_argument("--scale-games", type=int, default=2000, help="cluster: games a run for the scale-out")
    p.add_argument("--chunk-sizes", type=int, nargs="+", default=[10, 250], help="cluster: chunk sizes for the "
                   "scale-out (the first and last fit the client's cost a chunk and a game)")
    p.add_argument("--attempts", type=int, default=1, help="scaling: retry until the cores are free, N times")
    p.add_argument("--workers", type=int, default=None, help="memory: worker processes (default: all cores)")
    p.add_argument("--every", type=float, default=30.0, help="memory: seconds between RSS samples; "
                   "scaling: seconds between attempts")
    p.add_argument("--out", help="memory: keep the run here (resumable) instead of a temp dir")
    p.add_argument("--cluster", help="memory: play on this Dask cluster (e.g. local:2) instead of --workers")
    p.add_argument("--dask-profiler", action="store_true",
                   help="memory, with --cluster local:N: keep Dask's profiler on in the workers (Dask's default)")
    args = p.parse_args()
    if args.dask_profiler and not (args.cluster or "").startswith("local"):
        p.error("--dask-profiler needs --cluster local or local:N")
    {"scaling": scaling, "overhead": overhead, "memory": memory, "cluster": cluster}[args.mode](args)


if __name__ == "__main__":
    main()
