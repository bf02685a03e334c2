"""Games per second of this checkout against an earlier commit, on the same machine in the same run.

    python benchmarks/speed_against.py c51d88a                      # the Desert heuristic and random play
    python benchmarks/speed_against.py c51d88a --rounds 5 --difficulty normal
    python benchmarks/speed_against.py c51d88a --policy search --games 20 --min-seconds 0 --param depth=3
    python benchmarks/speed_against.py HEAD~3 --game island --policy random,heuristic

Machines differ by 3x and a shared one drifts within the hour, so a speed measured in another session says little
about a change. Here the earlier commit is built as its own install (``git archive`` of it, in a virtual
environment of its own under ``--build-dir``, compiled as its ``pyproject.toml`` says; built once and kept), and
each round times it and then this checkout, one policy at a time, with the same harness (``timed_games.py``:
the same deals, warm-up and clock): the two sides share the machine's state of the moment.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

from strength import game_count, parse_params  # the benchmark script beside this one

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def default_build_dir() -> Path:
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "fi" / "speed_against"


def commit_of(rev: str) -> str | None:
    """The full hash of ``rev`` in this checkout's repository, or None if there is no such commit."""
    out = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                         capture_output=True, text=True)  # fmt: skip
    return out.stdout.strip() if out.returncode == 0 else None


def built(commit: str, build_dir: Path) -> Path:
    """The Python of an install of ``commit`` (its sources unpacked and installed in a venv of their own), built
    unless a finished build is there already."""
    home = build_dir / commit[:12]
    python = home / "venv" / "bin" / "python"
    if (home / "done").exists():
        return python
    print(f"building {commit[:12]} in {home} (once; a compiled install takes a few minutes)", flush=True)
    src = home / "src"
    src.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(REPO), "archive", commit], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
    venv.create(home / "venv", with_pip=True)
    if subprocess.run([str(python), "-m", "pip", "install", "-q", str(src)]).returncode:  # (pip says why above)
        sys.exit(f"speed_against.py: {commit[:12]} could not be installed in {home}; nothing was timed")
    (home / "done").write_text(commit + "\n")
    return python


def harness(python: Path, options: dict) -> subprocess.CompletedProcess:
    """A run of ``timed_games.py`` with the given install's Python (from a directory outside any checkout: it
    imports that install's ``fi_cli``)."""
    return subprocess.run([str(python), str(HERE / "timed_games.py"), json.dumps(options)],
                          cwd=Path(tempfile.gettempdir()), capture_output=True, text=True)  # fmt: skip


def timed(python: Path, options: dict) -> tuple[float, float, float]:
    """(games/s, decisions/s, turns a game) of one timed run, CPU time."""
    out = harness(python, options)
    if out.returncode:
        sys.exit(f"speed_against.py: {python} could not play {options}:\n{out.stderr.strip()}")
    r = json.loads(out.stdout.strip().splitlines()[-1])
    return r["games"] / r["seconds"], r["decisions"] / r["seconds"], r["turns"] / r["games"]


def _rate(games_per_second: float) -> str:
    """Games a second, with decimals where there are few (a search plays about one)."""
    g = games_per_second
    return f"{g:9,.0f}" if g >= 100 else f"{g:9.2f}"


def _rounds(text: str) -> int:
    """argparse type: a number of rounds, 1 or more."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"a whole number of rounds, 1 or more, got {text!r}")
    return int(text)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rev", help="the earlier commit (hash, tag, HEAD~N)")
    ap.add_argument("--game", choices=("island", "desert"), default="desert")
    ap.add_argument("--policy", default="random,heuristic", help="policy ids, comma-separated (default: %(default)s)")
    ap.add_argument("--games", type=game_count, default=400, help="deals 0..N-1 (default %(default)s)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--difficulty", default="novice")
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                    help="a parameter of the policies (but random) this checkout plays, e.g. the search's depth=2")
    ap.add_argument("--rev-param", action="append", default=[], metavar="NAME=VALUE",
                    help="a parameter of the policies (but random) the earlier commit plays")
    ap.add_argument("--min-seconds", type=float, default=2.0, metavar="S",
                    help="each run plays its deals again until this much CPU time has passed (default 2)")
    ap.add_argument("--rounds", type=_rounds, default=3, help="times each side is measured, alternated (default 3)")
    ap.add_argument("--build-dir", type=Path, default=default_build_dir(),
                    help="where earlier commits are built and kept (default: %(default)s)")
    args = ap.parse_args()
    if not args.min_seconds >= 0:
        ap.error(f"argument --min-seconds: a number of seconds, 0 or more, got {args.min_seconds}")
    commit = commit_of(args.rev)
    if commit is None:
        ap.error(f"no commit {args.rev!r} in {REPO} (give a hash, a tag or HEAD~N)")
    sides = {commit[:12]: built(commit, args.build_dir), "this checkout": Path(sys.executable)}
    policies = args.policy.split(",")
    params = {commit[:12]: parse_params(args.rev_param), "this checkout": parse_params(args.param)}
    base = {"game": args.game, "players": args.players, "difficulty": args.difficulty, "games": args.games,
            "min_seconds": args.min_seconds}
    runs = {(side, policy): {**base, "policy": policy, "params": {} if policy == "random" else params[side]}
            for policy in policies for side in sides}  # fmt: skip
    for (side, _), options in runs.items():  # every policy and parameter known, before any clock starts
        out = harness(sides[side], {**options, "check": True})
        if out.returncode:
            ap.error(f"{side}: {out.stderr.strip()}")
    print(f"command: {' '.join(['python'] + sys.argv)}")
    print(f"{args.game}, {args.players} players, {args.difficulty}, deals 0-{args.games - 1}; CPU time of one process "
          f"at a time; {args.rounds} rounds")
    rates: dict[tuple[str, str], list[tuple[float, float, float]]] = {}
    for r in range(args.rounds):
        for policy in policies:
            for side, python in sides.items():
                g, d, t = timed(python, runs[(side, policy)])
                rates.setdefault((side, policy), []).append((g, d, t))
                print(f"round {r + 1}: {side:>13} {policy:>10}: {_rate(g)} games/s ({1 / g:.4f} s a game) "
                      f"{d:9,.0f} decisions/s {t:5.1f} turns/game", flush=True)  # fmt: skip
    old, new = sides
    print(f"\nmedians of {args.rounds} rounds (this checkout / {old}):")
    for policy in policies:
        a = [statistics.median(x) for x in zip(*rates[(old, policy)], strict=True)]
        b = [statistics.median(x) for x in zip(*rates[(new, policy)], strict=True)]
        print(f"  {policy}: {_rate(b[0]).strip()} / {_rate(a[0]).strip()} games/s = {b[0] / a[0]:.2f}x; "
              f"{b[1]:,.0f} / {a[1]:,.0f} decisions/s = {b[1] / a[1]:.2f}x; turns/game {b[2]:.1f} / {a[2]:.1f}")
    if "random" in policies:
        for policy in policies:
            if policy != "random":
                ratio = [statistics.median(g for g, _, _ in rates[(side, policy)])
                         / statistics.median(g for g, _, _ in rates[(side, "random")]) for side in sides]  # fmt: skip
                print(f"  {policy}'s games/s relative to random play: {ratio[1]:.4f} / {ratio[0]:.4f}")


if __name__ == "__main__":
    main()
