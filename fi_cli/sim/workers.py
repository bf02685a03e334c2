"""How many worker processes a run uses, and how a worker ends when its parent dies."""

from __future__ import annotations

import os
import signal
import sys
import threading

PER_CORE = 2  # games are CPU-bound: more workers than this per core only add memory and start-up time


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity), not all the machine's."""
    count = getattr(os, "process_cpu_count", None)  # Python 3.13+
    if count is not None:
        return count() or 1
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def worker_count(requested: int | None, pending: int) -> tuple[int, str | None]:
    """The workers to start for `pending` chunks, and a warning when fewer than `requested` are started.

    Default: one per usable core. A request is capped at the pending chunks (a worker plays whole chunks)
    and at PER_CORE workers per usable core."""
    cores = usable_cores()
    wanted = requested or cores
    n = max(1, min(wanted, pending, PER_CORE * cores))
    if requested is None or n >= requested or pending == 0:
        return n, None
    why = (f"only {pending} chunk{'s' * (pending != 1)} {'are' if pending != 1 else 'is'} left to play"
           if n == pending else
           f"more than {PER_CORE} per usable core ({cores} core{'s' * (cores != 1)}) only add memory and "
           "start-up time")
    return n, f"{requested} workers asked for, {n} used: {why}"


def die_with_parent() -> None:
    """End this worker process soon after its parent dies, whatever killed the parent (even SIGKILL).

    On Linux the kernel sends SIGTERM at once (prctl PR_SET_PDEATHSIG); everywhere, a daemon thread waits
    on the parent's sentinel (a pipe that closes when the parent dies; already closed if it died before
    this ran) and exits. A worker left behind would play on for minutes and hold its memory."""
    import multiprocessing
    from multiprocessing.connection import wait

    parent = multiprocessing.parent_process()
    if parent is None:
        return
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # 1 = PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass

    def watch() -> None:
        wait([parent.sentinel])
        os._exit(1)

    threading.Thread(target=watch, name="fi-parent-watch", daemon=True).start()
