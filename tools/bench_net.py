"""Bounded loopback load test of `wif serve` (issue #15, docs/NETWORK.md).

Starts one server process on a free 127.0.0.1 port with its own temporary games folder and
config dir, creates GAMES Barbarossa games, and lets two bot clients (threads, random policy)
play each for at most SECONDS; then stops everything and prints what the one process held:
games, clients, commands decided, commands per second, and the server's memory.

    .venv/bin/python tools/bench_net.py --games 4 --seconds 60

Loopback only; at most 20 games and 300 seconds, whatever is asked.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
MAX_GAMES, MAX_SECONDS = 20, 300.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    result = run(args.games, args.seconds)
    print_table(result)
    return 1 if result["errors"] else 0


def print_table(result: dict) -> None:
    """`wif bench net` prints this too (app/cli.py cmd_bench)."""
    print(f"one server process: {result['games']} games, {result['clients']} clients, {result['commands']} commands "
          f"in {result['seconds']:.1f} s ({result['commands_per_second']:.1f} commands/s), peak RSS "
          f"{result['peak_rss_mib']:.0f} MiB")
    for line in result["errors"][:5]:
        print(f"  client failed: {line}", file=sys.stderr)


def run(games: int = 4, seconds: float = 60.0, **_) -> dict:
    games, seconds = max(1, min(games, MAX_GAMES)), max(5.0, min(seconds, MAX_SECONDS))
    tmp = Path(tempfile.mkdtemp(prefix="wif-bench-net-"))
    os.environ["WIF_CONFIG_DIR"] = str(tmp / "clients")
    port = free_port()
    server = subprocess.Popen([sys.executable, "-c", "import sys; from app.cli import main; sys.exit(main())",
                               "serve", "--port", str(port), "--games", str(tmp / "games")],
                              cwd=ROOT, env={**os.environ, "WIF_CONFIG_DIR": str(tmp / "server")})
    try:
        return _play(f"ws://127.0.0.1:{port}/ws", port, server, games, seconds)
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)


def _play(url: str, port: int, server, games: int, seconds: float) -> dict:
    import psutil

    from app.net.client import NetClient, play_seat

    deadline = time.monotonic() + 20
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                return {"games": games, "clients": 0, "commands": 0, "seconds": 0.0, "commands_per_second": 0.0,
                        "peak_rss_mib": 0.0, "errors": ["the server did not start"]}
            time.sleep(0.1)
    with NetClient(url, "bench") as lobby:
        for g in range(games):
            lobby.create(f"g{g}", "barbarossa", {f"a{g}": ["germany"], f"b{g}": ["ussr"]})
    counts: dict[str, int] = {}
    errors: list[str] = []

    def seat(game: str, player: str) -> None:
        try:
            with NetClient(url, player) as client:
                tally, _ = play_seat(client, game, seed=len(player), seconds=seconds)
                counts[player] = tally.commands
        except Exception as exc:  # a bench reports every client's failure and goes on
            errors.append(f"{player}: {exc}")

    threads = [threading.Thread(target=seat, args=(f"g{g}", f"{side}{g}"), daemon=True)
               for g in range(games) for side in "ab"]
    begun = time.monotonic()
    for t in threads:
        t.start()
    peak = 0
    proc = psutil.Process(server.pid)
    while any(t.is_alive() for t in threads) and time.monotonic() - begun < seconds + 30:
        peak = max(peak, sum(p.memory_info().rss for p in [proc, *proc.children(recursive=True)]))
        time.sleep(0.5)
    elapsed = time.monotonic() - begun
    total = sum(counts.values())
    return {"games": games, "clients": len(threads), "commands": total, "seconds": elapsed,
            "commands_per_second": total / elapsed, "peak_rss_mib": peak / 2**20, "errors": errors}


if __name__ == "__main__":
    sys.exit(main())
