"""Bounded loopback load test of `wif serve` (issue #15, docs/NETWORK.md): `wif bench net`.

For each N in GAMES (default 1, 10, 50) it starts one server process on a free 127.0.0.1 port
with its own temporary games folder and config dir, creates N Barbarossa games, and lets two
random bots play each (both bots of a game in one of a few client processes, one thread each)
for SECONDS once the game has started; then stops everything.  It prints, per N:

- latency p50 / p95 from a command sent by one bot to the moment both clients know of its
  events: the submitting bot has the server's answer (its events are stored and signed), and
  the other bot's ``wait`` (sent before the command) has been answered with a seq that includes
  them.  A command while the other bot was not waiting (deciding itself, a simultaneous step)
  gives no sample: its delay would be the bot's own thinking, not the server's.
- ``--think S``: each bot waits about S seconds before each command (between S/2 and 3S/2), as
  a player would: this is the load the issue's latency target is about.  Without it the bots
  send commands as fast as the server answers: that measures the process's capacity
  (saturation), not a player's latency.
- where a command's time goes on the server (its answer's ``timing``): waiting for its game's
  worker thread, and deciding (the rules, the store, the signature round trip); the slowest
  commands with their step; the server's CPU time per command and the machine's load.
- the server's RSS: empty, at the end, and per game ((end - empty) / N).
- every game is set up (both seats joined from this process) before any bot plays.
- ``--stagger S``: game g's bots begin to play g*S/N seconds after the first's (as a server's
  games start at different times); without it all N games begin together, their set-up placings
  in the same seconds.  Each game plays SECONDS either way.

    .venv/bin/python tools/bench_net.py --games 1,10,50 --seconds 60

Loopback only; at most 50 games and 300 seconds a run, whatever is asked.
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
MAX_GAMES, MAX_SECONDS = 50, 300.0
CLIENT_PROCESSES = 4  # the bots' processes (each bot one thread): the GIL of one would dominate at 100 bots
START_SECONDS = 600.0  # games are set up by the server one after another: 50 take minutes on a loaded machine


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="1,10,50", help="the numbers of concurrent games, e.g. 1,10,50")
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds of play of each game")
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds each bot waits before each command (0: as fast as the server answers)")
    parser.add_argument("--profile", metavar="PY_SPY", help="sample the server with this py-spy while the bots play")
    parser.add_argument("--stagger", type=float, default=0.0,
                        help="spread the games' starts over this many seconds (0: all begin together)")
    args = parser.parse_args()
    result = run([int(n) for n in args.games.split(",")], args.seconds, think=args.think, profile=args.profile,
                 stagger=args.stagger)
    print_table(result)
    return 1 if any(r["errors"] for r in result["runs"]) else 0


def print_table(result: dict) -> None:
    """`wif bench net` prints this too (app/cli.py cmd_bench)."""
    think = result.get("think", 0.0)
    print(f"each bot waits {think / 2:g}-{think * 1.5:g} s before each command" if think
          else "the bots send each command as soon as they may (saturation)")
    stagger = result.get("stagger", 0.0)
    print(f"the games' starts spread over {stagger:g} s" if stagger else "all games begin together")
    print("| games | set-up s | clients | commands | samples | p50 ms | p95 ms | deciding p50 / p95 ms | queued p95 ms "
          "| play wall s | server CPU s (ms/command) | bots' CPU s | load before / after | server RSS empty / end MiB "
          "| RSS per game MiB |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in result["runs"]:
        print(f"| {r['games']} | {r['set_up_seconds']:.0f} | {r['clients']} | {r['commands']} | {r['samples']} | {r['p50_ms']:.1f} | "
              f"{r['p95_ms']:.1f} | {r['decided_p50_ms']:.1f} / {r['decided_p95_ms']:.1f} | {r['queued_p95_ms']:.1f} "
              f"| {r['play_wall_s']:.0f} | {r['server_cpu_s']:.1f} ({r['server_cpu_ms_per_command']:.1f}) | "
              f"{r['clients_cpu_s']:.1f} | {r['load_before']:.1f} / {r['load_after']:.1f} | "
              f"{r['rss_empty_mib']:.0f} / {r['rss_end_mib']:.0f} | {r['rss_per_game_mib']:.1f} |")
    for r in result["runs"]:
        print(f"  {r['games']} games, the slowest commands to decide (ms, type, step): "
              + "; ".join(f"{ms} {kind} in {step.rsplit('.', 1)[-1]}" for ms, kind, step in r.get("slowest", [])))
    for r in result["runs"]:
        if r.get("requests_per_command"):
            print(f"  {r['games']} games, requests a command (each a frame each way): "
                  + ", ".join(f"{op} {n:.2f}" for op, n in r["requests_per_command"].items()))
    for r in result["runs"]:
        if r.get("above_p95"):
            print(f"  {r['games']} games, the samples above the p95 (count, command, step): "
                  + "; ".join(f"{n} {kind}" for kind, n in r["above_p95"]))
    for r in result["runs"]:
        for line in r["errors"][:5]:
            print(f"  {r['games']} games: client failed: {line}", file=sys.stderr)


def run(games=(1, 10, 50), seconds: float = 60.0, think: float = 0.0, profile: str | None = None,
        stagger: float = 0.0, **_) -> dict:
    think = max(0.0, min(think, 10.0))
    stagger = max(0.0, min(stagger, MAX_SECONDS))
    return {"think": think, "stagger": stagger,
            "runs": [run_one(max(1, min(int(n), MAX_GAMES)), max(5.0, min(seconds, MAX_SECONDS)), think, profile, stagger)
                     for n in games]}


def _profile(pid: int, seconds: float, py_spy: str, games: int):
    """py-spy (not a dependency: give its path) samples the server while the bots play; its
    collapsed stacks go to wif-bench-net-N.txt in the working directory.  Only the thread that
    holds the GIL is sampled (``--gil``): one process decides on one core, so that is where the
    process's time goes (a thread waiting for its queue, a lock or the GIL is left out)."""
    return subprocess.Popen([py_spy, "record", "--pid", str(pid), "--duration", str(int(seconds)), "--rate", "100",
                             "--gil", "--format", "raw", "--output", f"wif-bench-net-{games}.txt"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def run_one(games: int, seconds: float, think: float = 0.0, profile: str | None = None, stagger: float = 0.0) -> dict:
    import psutil

    tmp = Path(tempfile.mkdtemp(prefix="wif-bench-net-"))
    port = free_port()
    server = subprocess.Popen([sys.executable, "-c", "import sys; from app.cli import main; sys.exit(main())",
                               "serve", "--port", str(port), "--games", str(tmp / "games")],
                              cwd=ROOT, env={**os.environ, "WIF_CONFIG_DIR": str(tmp / "server")})
    url = f"ws://127.0.0.1:{port}/ws"
    try:
        if not _wait_for_port(port, server):
            return _failed(games, "the server did not start")
        rss = lambda: psutil.Process(server.pid).memory_info().rss / 2**20  # noqa: E731
        empty = rss()
        os.environ["WIF_CONFIG_DIR"] = str(tmp / "clients")
        from app.net.client import NetClient

        with NetClient(url, "bench") as lobby:
            for g in range(games):
                lobby.create(f"g{g}", "barbarossa", {f"a{g}": ["germany"], f"b{g}": ["ussr"]})
        set_up = time.monotonic()
        for g in range(games):  # every game set up before any bot plays: no set-up in the figures
            with NetClient(url, f"a{g}") as a, NetClient(url, f"b{g}") as b:
                a.join(f"g{g}")
                b.join(f"g{g}")
        set_up = time.monotonic() - set_up
        slices = [list(range(games))[i::CLIENT_PROCESSES] for i in range(min(CLIENT_PROCESSES, games))]
        ctx = multiprocessing.get_context("spawn")
        server_cpu = lambda: sum(psutil.Process(server.pid).cpu_times()[:2])  # noqa: E731
        cpu_before, load_before, wall = server_cpu(), os.getloadavg()[0], time.monotonic()
        profiler = _profile(server.pid, seconds + stagger, profile, games) if profile else None
        starts = {g: g * stagger / games for g in range(games)}  # seconds after the first game's
        with ctx.Pool(len(slices)) as pool:
            outs = pool.starmap(_play_games, [(url, str(tmp / "clients"), s, seconds, think, {g: starts[g] for g in s})
                                              for s in slices])
        cpu, wall, load_after = server_cpu() - cpu_before, time.monotonic() - wall, os.getloadavg()[0]
        if profiler is not None:
            profiler.wait(timeout=seconds + 60)
        end = rss()
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)
    latencies = sorted(x for out in outs for x in out["latencies"])
    p95 = _p95(latencies)
    # the commands of the slowest samples (above the p95): the rules' long commands, or all kinds
    above = collections.Counter(k for out in outs for x, k in zip(out["latencies"], out["kinds"]) if x > p95)
    commands = sum(out["commands"] for out in outs)
    requests = collections.Counter()
    for out in outs:
        requests.update(out.get("requests", {}))
    queued, decided = (sorted(x for out in outs for x in out[key]) for key in ("queued_ms", "decided_ms"))
    return {"games": games, "clients": 2 * games, "commands": commands, "samples": len(latencies),
            "p50_ms": 1000 * statistics.median(latencies) if latencies else 0.0,
            "p95_ms": 1000 * p95, "above_p95": above.most_common(6),
            "decided_p50_ms": statistics.median(decided) if decided else 0.0, "decided_p95_ms": _p95(decided),
            "queued_p95_ms": _p95(queued), "slowest": sorted((x for out in outs for x in out["slowest"]), reverse=True)[:5],
            "rss_empty_mib": empty, "rss_end_mib": end, "rss_per_game_mib": (end - empty) / games,
            "seconds": seconds, "set_up_seconds": set_up, "errors": [e for out in outs for e in out["errors"]],
            "play_wall_s": wall, "server_cpu_s": cpu, "clients_cpu_s": sum(out["cpu_s"] for out in outs),
            "server_cpu_ms_per_command": 1000 * cpu / commands if commands else 0.0,
            "load_before": load_before, "load_after": load_after,
            "requests_per_command": {op: n / commands for op, n in requests.most_common()} if commands else {}}


def _p95(values: list[float]) -> float:
    return values[int(0.95 * (len(values) - 1))] if values else 0.0


def _failed(games: int, why: str) -> dict:
    return {"decided_p50_ms": 0.0, "decided_p95_ms": 0.0, "queued_p95_ms": 0.0, "set_up_seconds": 0.0, "play_wall_s": 0.0, "server_cpu_s": 0.0, "clients_cpu_s": 0.0,
            "server_cpu_ms_per_command": 0.0, "load_before": 0.0, "load_after": 0.0, "games": games, "clients": 0, "commands": 0, "samples": 0, "p50_ms": 0.0, "p95_ms": 0.0,
            "rss_empty_mib": 0.0, "rss_end_mib": 0.0, "rss_per_game_mib": 0.0, "seconds": 0.0, "errors": [why]}


def _wait_for_port(port: int, server) -> bool:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and server.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return True
        except OSError:
            time.sleep(0.1)
    return False


# ---------------------------------------------------------------------- the client processes
def _play_games(url: str, config_dir: str, game_numbers: list[int], seconds: float, think: float,
                starts: dict | None = None) -> dict:
    """Both bots of each game, one thread each; the timings of their submits and waits.
    ``starts``: game -> seconds to wait before its bots begin (--stagger)."""
    os.environ["WIF_CONFIG_DIR"] = config_dir
    from app.net.client import NetClient, play_seat

    class TimedClient(NetClient):
        """Notes (op, sent, answered, seq) of every submit and wait (time.monotonic: one clock
        for the process's threads)."""

        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            self.timings: list[tuple[str, float, float, int, str]] = []
            self.step = ""  # the step of the game's last answer: where a submit is decided

        def request(self, op, **fields):
            requests[op] += 1
            sent = time.monotonic()
            out = super().request(op, **fields)
            if op == "wait" or (op == "submit" and out.get("accepted")):
                kind = f"{fields['command'].get('type')} in {self.step.rsplit('.', 1)[-1]}" if op == "submit" else ""
                self.timings.append((op, sent, time.monotonic(), int(out.get("seq", 0)), kind))
            if op == "submit" and out.get("accepted") and "timing" in out:
                server_side.append((out["timing"]["queued_ms"], out["timing"]["decided_ms"]))
                slowest.append((round(out["timing"]["decided_ms"]), fields["command"].get("type"), self.step))
            if "step" in out:
                self.step = out["step"]
            return out

        def _sign(self, msg, game):
            requests["sign (the server's)"] += 1
            return super()._sign(msg, game)

    cpu_start = time.process_time()
    requests: collections.Counter = collections.Counter()  # each a frame each way
    server_side: list[tuple[float, float]] = []  # (queued, decided) ms of each accepted submit
    slowest: list[tuple[int, str, str]] = []  # (decided ms, command type, step)
    errors: list[str] = []
    clients: dict[tuple[int, str], TimedClient] = {}
    commands = [0]

    def seat(g: int, side: str) -> None:
        try:
            time.sleep((starts or {}).get(g, 0.0))
            with TimedClient(url, f"{side}{g}") as client:
                clients[(g, side)] = client
                status = client.join(f"g{g}")
                started = time.monotonic()
                while not status.get("started") and time.monotonic() - started < START_SECONDS:
                    time.sleep(0.5)
                    status = client.join(f"g{g}")
                tally, _ = play_seat(client, f"g{g}", seed=g * 2 + (side == "b"), seconds=seconds, think=think)
                commands[0] += tally.commands
        except Exception as exc:  # a bench reports every client's failure and goes on
            errors.append(f"{side}{g}: {exc}")

    threads = [threading.Thread(target=seat, args=(g, side), daemon=True) for g in game_numbers for side in "ab"]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=START_SECONDS + seconds + max((starts or {0: 0.0}).values()) + 60)
    latencies, kinds = [], []
    for g in game_numbers:
        for me, other in (("a", "b"), ("b", "a")):
            mine, theirs = clients.get((g, me)), clients.get((g, other))
            if mine is None or theirs is None:
                continue
            waits = [t for t in theirs.timings if t[0] == "wait"]
            for op, sent, answered, seq, kind in mine.timings:
                if op != "submit":
                    continue
                heard = [w_answered for _, w_sent, w_answered, w_seq, _ in waits
                         if w_sent <= sent <= w_answered and w_seq >= seq]
                if heard:
                    latencies.append(max(answered, min(heard)) - sent)
                    kinds.append(kind)
    return {"latencies": latencies, "kinds": kinds, "commands": commands[0], "errors": errors, "cpu_s": time.process_time() - cpu_start,
            "queued_ms": [q for q, _ in server_side], "decided_ms": [d for _, d in server_side],
            "slowest": sorted(slowest, reverse=True)[:5], "requests": dict(requests)}


if __name__ == "__main__":
    sys.exit(main())
