"""Games per second of this checkout against an earlier commit, on the same machine in the same run.

    python benchmarks/speed_against.py c51d88a                      # the Desert heuristic and random play
    python benchmarks/speed_against.py c51d88a --rounds 5 --games 400 --difficulty normal
    python benchmarks/speed_against.py HEAD~3 --game island --policy random --games 20000

Machines differ by 3x and a shared one drifts within the hour, so a speed measured in another session says little
about a change. Here the earlier commit is built as its own install (``git archive`` of it, in a virtual
environment of its own under ``--build-dir``, compiled as its ``pyproject.toml`` says; built once and kept), and
each round runs its ``benchmarks/speed.py`` and then this checkout's, one policy at a time: the two sides share
the machine's state of the moment. Random play gets ``--random-games`` deals (default 4,000), enough clock for
the speed.py of any commit, older ones not playing the deals again.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import venv
from pathlib import Path

from strength import game_count  # the benchmark script beside this one

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
# the line speed.py prints for each policy (since the Desert was measured): games, policy, seconds, decisions/s
LINE = re.compile(r"^([\d,]+) games of (\S+).* in ([\d.]+) s: [\d,]+ games/s, ([\d,]+) decisions/s, ([\d.]+) turns")


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
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(src)], check=True)
    (home / "done").write_text(commit + "\n")
    return python


def speed(python: Path, benchmarks: Path, args: list[str]) -> tuple[float, float, float]:
    """(games/s, decisions/s, turns a game) of one speed.py run, read from its output."""
    out = subprocess.run([str(python), "speed.py", *args], cwd=benchmarks, capture_output=True, text=True)
    for line in out.stdout.splitlines():
        m = LINE.match(line)
        if m:
            games, seconds = int(m[1].replace(",", "")), float(m[3])
            return games / seconds, float(m[4].replace(",", "")), float(m[5])
    sys.exit(f"speed_against.py: speed.py {' '.join(args)} in {benchmarks} printed no speed:\n{out.stdout}{out.stderr}")


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
    ap.add_argument("--games", type=game_count, default=400, help="deals for each policy but random (default 400)")
    ap.add_argument("--random-games", type=game_count, default=4000, help="deals for random play (default %(default)s)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--difficulty", default="novice")
    ap.add_argument("--rounds", type=_rounds, default=3, help="times each side is measured, alternated (default 3)")
    ap.add_argument("--build-dir", type=Path, default=default_build_dir(),
                    help="where earlier commits are built and kept (default: %(default)s)")
    args = ap.parse_args()
    commit = commit_of(args.rev)
    if commit is None:
        ap.error(f"no commit {args.rev!r} in {REPO} (give a hash, a tag or HEAD~N)")
    sides = {commit[:12]: (built(commit, args.build_dir), args.build_dir / commit[:12] / "src" / "benchmarks"),
             "this checkout": (Path(sys.executable), HERE)}  # fmt: skip
    policies = args.policy.split(",")
    print(f"command: {' '.join(['python'] + sys.argv)}")
    print(f"{args.game}, {args.players} players, {args.difficulty}; one process at a time; {args.rounds} rounds")
    rates: dict[tuple[str, str], list[tuple[float, float, float]]] = {}
    for r in range(args.rounds):
        for policy in policies:
            games = args.random_games if policy == "random" else args.games
            run = ["--game", args.game, "--players", str(args.players), "--difficulty", args.difficulty,
                   "--policy", policy, "--games", str(games)]  # fmt: skip
            for side, (python, benchmarks) in sides.items():
                g, d, t = speed(python, benchmarks, run)
                rates.setdefault((side, policy), []).append((g, d, t))
                print(f"round {r + 1}: {side:>13} {policy:>10}: {g:9,.0f} games/s {d:11,.0f} decisions/s "
                      f"{t:5.1f} turns/game", flush=True)  # fmt: skip
    old, new = sides
    print(f"\nmedians of {args.rounds} rounds (this checkout / {old}):")
    for policy in policies:
        a = [statistics.median(x) for x in zip(*rates[(old, policy)], strict=True)]
        b = [statistics.median(x) for x in zip(*rates[(new, policy)], strict=True)]
        print(f"  {policy}: {b[0]:,.0f} / {a[0]:,.0f} games/s = {b[0] / a[0]:.2f}x; "
              f"{b[1]:,.0f} / {a[1]:,.0f} decisions/s = {b[1] / a[1]:.2f}x; turns/game {b[2]:.1f} / {a[2]:.1f}")
    if "random" in policies:
        for policy in policies:
            if policy != "random":
                ratio = [statistics.median(g for g, _, _ in rates[(side, policy)])
                         / statistics.median(g for g, _, _ in rates[(side, "random")]) for side in sides]  # fmt: skip
                print(f"  {policy}'s games/s relative to random play: {ratio[1]:.4f} / {ratio[0]:.4f}")


if __name__ == "__main__":
    main()
