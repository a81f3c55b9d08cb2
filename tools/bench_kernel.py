"""Kernel benchmark: a synthetic skirmish game written through ``submit``.

    wif bench kernel [--events N] [--json]

Figures: append rate and p95 commit latency per command, full replay rate, raw read + JSON
decode of the same rows and the replay/raw ratio, ``state_at(random seq)`` p50/p95, bytes
per event on disk, peak RSS, and (issue 13) the time of ``wif verify`` on the whole game:
every signature checked, every command re-decided, host dice re-derived.  The game has fair
dice (this machine's host key) and every command is signed, so commit latency includes the
signature.  Targets (issue 2): replay >= 200k events/s, ratio <= 2.0, seek p95 <= 50 ms,
commit p95 <= 2 ms, <= 250 bytes/event; (issue 13) verify <= 60 s on 300,000 events.
"""

from __future__ import annotations

import json
import random
import resource
import statistics
import tempfile
import time
from pathlib import Path

from kernel.engine import fold_rows
from kernel.game import Game
from kernel.state import GameState
from kernel.verify import verify


def _p(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def _commands(game: Game, rng: random.Random):
    """Plausible play: each pending power shuffles its counters, attacks now and then."""
    from plugins.scenarios.skirmish import board, neighbours

    while True:
        k = game.state.kernel
        seq = k.sequence
        if seq.finished:
            return
        pending = seq.pending
        if not pending:
            raise RuntimeError(f"benchmark game stuck at {seq.current}")
        who = pending[0]
        powers = k.sides.get(who, [who])
        step = seq.current or ""
        counters = board(game.state).counters
        if step.endswith("movement") and rng.random() < 0.995:
            own = [(cid, c) for cid, c in counters.items() if c.power in powers]
            occupied = {c.hex for c in counters.values()}
            rng.shuffle(own)
            for cid, c in own:
                free = [h for h in neighbours(*c.hex) if h not in occupied]
                if free:
                    yield {"type": "MoveCounter", "actor": c.power, "counter": cid, "to": list(rng.choice(free))}
                    break
            else:
                yield {"type": "FinishStep", "actor": who}
        elif step.endswith("retreat"):
            cid = board(game.state).retreating
            c = counters[cid]
            occupied = {x.hex for x in counters.values()}
            free = [h for h in neighbours(*c.hex) if h not in occupied]
            yield {"type": "Retreat", "actor": c.power, "counter": cid, "to": list(free[0])}
        elif step.endswith("combat") and rng.random() < 0.3:
            attack = None
            for cid, c in counters.items():
                if c.power not in powers:
                    continue
                for did, d in counters.items():
                    if d.power not in powers and k.side_of(d.power) != who and d.hex in neighbours(*c.hex):
                        attack = {"type": "Attack", "actor": c.power, "attacker": cid, "defender": did}
                        break
                if attack:
                    break
            yield attack or {"type": "FinishStep", "actor": who}
        else:
            yield {"type": "FinishStep", "actor": who if who in k.powers() else powers[0]}


def build_game(path: Path, events: int) -> tuple[list[float], int, float]:
    """Write a synthetic skirmish game of ``events`` events through ``submit``.

    Returns the per-command latencies, the number of commands and the seconds taken."""
    rng = random.Random(7)
    game = Game.new("skirmish", path, options={"turns": 10**9, "impulses": 4})  # fair dice, signed commands
    latencies: list[float] = []
    commands = 0
    started = time.perf_counter()
    gen = _commands(game, rng)
    while game.state.kernel.seq < events:
        command = next(gen)
        t0 = time.perf_counter()
        outcome = game.submit(command)
        latencies.append(time.perf_counter() - t0)
        if not outcome.accepted:
            raise RuntimeError(f"benchmark command rejected: {command}: {outcome.reason}")
        commands += 1
    seconds = time.perf_counter() - started
    game.close()
    return latencies, commands, seconds


def run(events: int = 300_000, keep: str | None = None, seeks: int = 200) -> dict:
    """``keep``: write the game there (and leave it) instead of a temporary folder."""
    tmp = tempfile.TemporaryDirectory()
    path = Path(keep) if keep else Path(tmp.name) / "bench.wif"
    if path.exists():
        path.unlink()
    latencies, commands, write_seconds = build_game(path, events)

    game = Game.open(path)
    total = game.state.kernel.seq
    host = game.host
    store = game.store
    # Raw: read the same rows and decode their JSON, nothing else.
    t0 = time.perf_counter()
    n = 0
    for row in store.rows():
        json.loads(row[8])
        n += 1
    raw_seconds = time.perf_counter() - t0
    # Replay: the same rows folded into a fresh state by the reducers.
    t0, cpu0 = time.perf_counter(), time.process_time()
    state = GameState.empty(host.state_models)
    fold_rows(game.host, state, store.rows())
    replay_seconds = time.perf_counter() - t0
    replay_cpu_seconds = time.process_time() - cpu0  # this process's CPU: less shaken by other jobs
    assert state.to_json() == game.state.to_json(), "replay diverged from the live state"

    seek_rng = random.Random(11)
    seek_times = []
    for _ in range(seeks):
        target = seek_rng.randint(1, total)
        t0 = time.perf_counter()
        game.state_at(target)
        seek_times.append(time.perf_counter() - t0)
    game.close()
    t0 = time.perf_counter()
    report = verify(path)
    verify_seconds = time.perf_counter() - t0
    if not report.ok:
        raise RuntimeError(f"the benchmark game does not verify: {report.problems}")
    size = sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))
    result = {
        "events": total,
        "commands": commands,
        "append_events_per_s": round(total / write_seconds),
        "commands_per_s": round(commands / write_seconds),
        "commit_p50_ms": round(_p(latencies, 0.5) * 1000, 3),
        "commit_p95_ms": round(_p(latencies, 0.95) * 1000, 3),
        "replay_events_per_s": round(total / replay_seconds),
        "replay_cpu_events_per_s": round(total / replay_cpu_seconds),
        "raw_read_decode_events_per_s": round(n / raw_seconds),
        "replay_raw_ratio": round(replay_seconds / raw_seconds, 2),
        "seek_p50_ms": round(_p(seek_times, 0.5) * 1000, 2),
        "seek_p95_ms": round(_p(seek_times, 0.95) * 1000, 2),
        "bytes_per_event": round(size / total, 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "seek_mean_ms": round(statistics.mean(seek_times) * 1000, 2),
        "verify_seconds": round(verify_seconds, 2),
        "verify_commands_redecided": report.redecided,
        "verify_dice": report.fairness,
    }
    tmp.cleanup()
    return result


TARGETS = {
    "replay_events_per_s": (">=", 200_000),
    "replay_raw_ratio": ("<=", 2.0),
    "seek_p95_ms": ("<=", 50),
    "commit_p95_ms": ("<=", 2),
    "bytes_per_event": ("<=", 250),
    "verify_seconds": ("<=", 60),
}


def print_table(result: dict) -> None:
    for key, value in result.items():
        target = TARGETS.get(key)
        mark = ""
        if target:
            op, limit = target
            ok = value >= limit if op == ">=" else value <= limit
            mark = f"   target {op} {limit}: {'ok' if ok else 'MISSED'}"
        print(f"{key:<30} {value}{mark}")


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=300_000)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--keep", help="write the benchmark game to this path and leave it there")
    args = parser.parse_args()
    res = run(args.events, keep=args.keep)
    print(json.dumps(res, indent=2)) if args.json else print_table(res)
