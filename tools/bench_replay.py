"""Replay benchmark (issue 6): a 300,000-event synthetic game, watched through a Replay.

    wif bench replay [--events N] [--json]

Figures: step back one event p50/p95, jump to the start of a random turn p50/p95, full
replay rate stepping forward one event at a time, and RSS before/after the play-through
(memory stays flat: the cursor keeps one state, snapshots are read on demand).
Targets: step back p95 <= 30 ms, turn jump p95 <= 50 ms, full replay at the kernel's rate.
"""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path

import bench_kernel

from kernel.replay import open_replay


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    import os

    return round(pages * os.sysconf("SC_PAGE_SIZE") / 2**20, 1)


def run(events: int = 300_000, keep: str | None = None, samples: int = 200) -> dict:
    tmp = tempfile.TemporaryDirectory()
    path = Path(keep) if keep else Path(tmp.name) / "replay.wif"
    if not path.exists():
        bench_kernel.build_game(path, events)
    replay = open_replay(path)
    rng = random.Random(3)
    back = []
    for _ in range(samples):
        replay.seek(rng.randint(2, replay.last))
        t0 = time.perf_counter()
        replay.back()
        back.append(time.perf_counter() - t0)
    turns = [m.turn for m in replay.bookmarks["turn"]]
    jumps = []
    for _ in range(samples):
        t0 = time.perf_counter()
        replay.seek(replay.turn_start(rng.choice(turns)))
        jumps.append(time.perf_counter() - t0)
    replay.seek(0)
    rss_before = _rss_mb()
    t0 = time.perf_counter()
    while replay.position < replay.last:
        replay.forward()
    full = time.perf_counter() - t0
    rss_after = _rss_mb()
    result = {
        "events": replay.last,
        "turns": len(turns),
        "step_back_p50_ms": round(bench_kernel._p(back, 0.5) * 1000, 2),
        "step_back_p95_ms": round(bench_kernel._p(back, 0.95) * 1000, 2),
        "turn_jump_p50_ms": round(bench_kernel._p(jumps, 0.5) * 1000, 2),
        "turn_jump_p95_ms": round(bench_kernel._p(jumps, 0.95) * 1000, 2),
        "play_through_events_per_s": round(replay.last / full),
        "rss_before_play_through_mb": rss_before,
        "rss_after_play_through_mb": rss_after,
    }
    replay.game.close()
    tmp.cleanup()
    return result


TARGETS = {"step_back_p95_ms": ("<=", 30), "turn_jump_p95_ms": ("<=", 50)}


def print_table(result: dict) -> None:
    for key, value in result.items():
        target = TARGETS.get(key)
        mark = ""
        if target:
            op, limit = target
            ok = value <= limit
            mark = f"   target {op} {limit}: {'ok' if ok else 'MISSED'}"
        print(f"{key:<30} {value}{mark}")
