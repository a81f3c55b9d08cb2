"""``wif log`` memory benchmark (issue 13): peak RSS of printing every event of a long game.

    wif bench log [--events N] [--keep PATH] [--json]

Builds a synthetic skirmish game of N events (default 1,000,000) with the kernel benchmark's
generator (tools/bench_kernel.py; kept at PATH and reused when PATH exists), then runs
``wif log PATH`` with and without ``--json`` (and ``--as solo``) in a child process, output
to /dev/null, and reads the child's peak RSS (ru_maxrss of the waited child).
Target: under 200 MB each (before: 5.3 GB with --json, the whole log held as a list).
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_kernel import build_game

ROOT = Path(__file__).resolve().parent.parent
# the child reports its own child's peak RSS: ru_maxrss of RUSAGE_CHILDREN is the largest
# of all waited children, so each measured run gets a fresh parent
_MEASURE = (
    "import resource, subprocess, sys, time\n"
    "t0 = time.perf_counter()\n"
    "code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode\n"
    "print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, time.perf_counter() - t0)\n"
)


def _peak(argv: list[str]) -> tuple[int, float, float]:
    out = subprocess.run([sys.executable, "-c", _MEASURE, *argv], capture_output=True, text=True, cwd=ROOT, check=True)
    code, kb, seconds = out.stdout.split()
    return int(code), int(kb) / 1024, float(seconds)


def run(events: int = 1_000_000, keep: str | None = None) -> dict:
    tmp = tempfile.TemporaryDirectory()
    path = Path(keep) if keep else Path(tmp.name) / "bench-log.wif"
    built = 0.0
    if not path.exists():
        t0 = time.perf_counter()
        build_game(path, events)
        built = time.perf_counter() - t0
    wif = [sys.executable, "-m", "app.cli", "log", str(path)]
    result: dict = {"events": _events(path), "build_s": round(built, 1)}
    for name, extra in (("text", []), ("json", ["--json"]), ("as_player_json", ["--json", "--as", "solo"])):
        code, mb, seconds = _peak(wif + extra)
        if code != 0:
            raise RuntimeError(f"wif log {' '.join(extra)} exited with {code}")
        result[f"{name}_peak_rss_mb"] = round(mb, 1)
        result[f"{name}_seconds"] = round(seconds, 1)
    tmp.cleanup()
    return result


def _events(path: Path) -> int:
    import sqlite3

    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT MAX(seq) FROM events").fetchone()[0]
    finally:
        conn.close()


def print_table(result: dict) -> None:
    for key, value in result.items():
        mark = ""
        if key.endswith("_peak_rss_mb"):
            mark = f"   target < 200: {'ok' if value < 200 else 'MISSED'}"
        print(f"{key:<28} {value}{mark}")


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--keep")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    res = run(args.events, args.keep)
    print(json.dumps(res, indent=2)) if args.json else print_table(res)
