"""The naval figures of ``wif bench rules`` (issue #14): naval search and interception for one
moving task force, and Guadalcanal's automatic end-of-turn sequence.  ``bench_rules.py``
lists these functions in its ``MEASUREMENTS``."""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path


def _p(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def _ship(uid: str, power: str, hex_, type_: str = "ca") -> dict:
    return {"id": uid, "power": power, "branch": "naval", "type": type_, "name": uid,
            "factors": {"attack": 3, "defense": 3, "aa": 1, "speed": 5, "range": 5}, "hex": list(hex_)}


def measure_interception(repeat: int = 20, **_options) -> dict:
    """One German task force of 6 ships sails from Konigsberg into the Baltic where 4 Soviet
    ships wait at sea: timed from the move's submit through the interception offer, the
    Soviet Intercept (its search roll and the result) to the next decision.  A fresh lab game
    each time (its set-up is not timed).  One more game is played first, untimed but for its
    own figure (``..._first_ms``): it pays the process's one-time work (the map's sea-area
    tables and ports by distance, the sea boxes' hexes), which no later move repeats.  Wall
    time and CPU time (``_cpu``: this process's, less noisy on a shared machine)."""
    from kernel.game import Game
    from plugins.rules.core import world_map

    konigsberg = world_map().port("Konigsberg").hex
    leningrad = world_map().port("Leningrad").hex
    origin = f"{konigsberg[0]},{konigsberg[1]}"
    german = [_ship(f"g{i}", "germany", konigsberg, "dd" if i % 2 else "ca") for i in range(6)]
    soviet = [_ship(f"r{i}", "ussr", leningrad) for i in range(4)]
    moves, intercepts, moves_cpu, intercepts_cpu = [], [], [], []
    first = None
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(-1, repeat):
            seed = n + 1 if n >= 0 else repeat + 1  # the timed games: seeds 1..repeat, as before
            game = Game.new("lab", Path(tmp) / f"n{n}.wif", seed=seed, lab=True, extra_plugins=["naval", "rig"], options={
                "units": german + soviet, "actions": {"germany": "naval"},
                "start_at": "turn.impulse.naval.naval-movement"})
            game.submit({"type": "RigShipsAtSea", "actor": "ussr", "units": [u["id"] for u in soviet],
                         "area": "BA", "section": 2})
            start, start_cpu = time.perf_counter(), time.process_time()
            out = game.submit({"type": "MoveNavalGroup", "actor": "germany", "origin": origin, "to": "BA",
                               "section": 1, "units": [u["id"] for u in german]})
            move, move_cpu = (time.perf_counter() - start) * 1000, (time.process_time() - start_cpu) * 1000
            if not out.accepted:
                raise RuntimeError(f"benchmark move refused: {out.reason}")
            offered = [c for c in game.choices(None).commands() if c.type == "Intercept"]
            if not offered:
                raise RuntimeError("benchmark: no interception offered")
            cmd = offered[0].sample(random.Random(n if n >= 0 else repeat))
            start, start_cpu = time.perf_counter(), time.process_time()
            out = game.submit(cmd)
            intercept, intercept_cpu = (time.perf_counter() - start) * 1000, (time.process_time() - start_cpu) * 1000
            if not out.accepted:
                raise RuntimeError(f"benchmark intercept refused: {out.reason}")
            game.close()
            if n < 0:
                first = move + intercept
                continue
            moves.append(move)
            intercepts.append(intercept)
            moves_cpu.append(move_cpu)
            intercepts_cpu.append(intercept_cpu)
    both = [a + b for a, b in zip(moves, intercepts)]
    both_cpu = [a + b for a, b in zip(moves_cpu, intercepts_cpu)]
    return {"naval_move_p95_ms": round(_p(moves, 0.95), 2), "naval_intercept_p95_ms": round(_p(intercepts, 0.95), 2),
            "naval_search_interception_p95_ms": round(_p(both, 0.95), 2),
            "naval_search_interception_median_ms": round(statistics.median(both), 2),
            "naval_search_interception_p95_cpu_ms": round(_p(both_cpu, 0.95), 2),
            "naval_search_interception_median_cpu_ms": round(statistics.median(both_cpu), 2),
            "naval_search_interception_first_ms": round(first, 2)}


def _plain_driver(game, rng: random.Random) -> None:
    """Pass actions and finish steps; a step that may not be finished yet gets its first
    offered command (Return To Base, targets, ...)."""
    k = game.state.kernel
    who = k.sequence.pending[0]
    power = k.acting_power()
    legal = game.legal_commands()
    if "ChooseFirstMover" in legal and game.submit({"type": "ChooseFirstMover", "actor": who,
                                                    "side": "axis"}).accepted:
        return
    if "ChooseAction" in legal and game.submit({"type": "ChooseAction", "actor": power, "action": "pass"}).accepted:
        return
    if game.submit({"type": "FinishStep", "actor": who}).accepted:
        return
    for choice in game.choices(None).commands():
        if choice.type not in ("FinishStep",) and not choice.type.startswith("Rig"):
            cmd = choice.sample(rng)
            if cmd is not None and game.submit(cmd).accepted:
                return
    raise RuntimeError(f"benchmark game stuck at {k.sequence.current}")


def measure_guadalcanal(**_options) -> dict:
    """Guadalcanal played with Pass actions: each submit that ends a turn and runs the End of
    Turn stage's automatic phases (Return To Base of what must return, Naval Repair's
    returns, the convoy and victory points) up to the next turn's first decision.  Wall time
    and CPU time (``_cpu``)."""
    from kernel.game import Game

    rng = random.Random(1942)
    turn_ends, turn_ends_cpu = [], []
    with tempfile.TemporaryDirectory() as tmp:
        game = Game.new("guadalcanal", Path(tmp) / "g.wif", seed=1942)
        while not game.state.kernel.sequence.finished:
            turn = game.state.kernel.turn
            start, start_cpu = time.perf_counter(), time.process_time()
            _plain_driver(game, rng)
            elapsed, elapsed_cpu = (time.perf_counter() - start) * 1000, (time.process_time() - start_cpu) * 1000
            if turn >= 1 and (game.state.kernel.turn != turn or game.state.kernel.sequence.finished):
                turn_ends.append(elapsed)
                turn_ends_cpu.append(elapsed_cpu)
        game.close()
    return {"guadalcanal_end_of_turn_max_ms": round(max(turn_ends), 1),
            "guadalcanal_end_of_turn_median_ms": round(statistics.median(turn_ends), 1),
            "guadalcanal_end_of_turn_max_cpu_ms": round(max(turn_ends_cpu), 1),
            "guadalcanal_end_of_turn_median_cpu_ms": round(statistics.median(turn_ends_cpu), 1),
            "guadalcanal_end_of_turn_sequences_timed": len(turn_ends)}


MEASUREMENTS = {
    "naval search and interception for one moving task force": measure_interception,
    "Guadalcanal: automatic end of turn": measure_guadalcanal,
}
TARGETS = {"naval_search_interception_p95_ms": 20.0, "guadalcanal_end_of_turn_max_ms": 200.0}


if __name__ == "__main__":  # the naval part alone: .venv/bin/python tools/bench_rules_naval.py
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    for name, measure in MEASUREMENTS.items():
        print(name)
        for key, value in measure().items():
            target = TARGETS.get(key)
            mark = f"  (target <= {target}: {'ok' if value <= target else 'MISSED'})" if target is not None else ""
            print(f"  {key:<42} {value}{mark}")
