"""Rules benchmark: the figures issue 5 asks of the rules plugins.

    wif bench rules [--json]          (or: .venv/bin/python tools/bench_rules.py [--json])

Each figure is one named measurement function in ``MEASUREMENTS``: it takes the options
and returns a dict of numbers (times in ms).  To add a figure, write a function and add
it to the dict; ``TARGETS`` holds the target of each figure it returns, if any.

Figures: reachable hexes for a land unit (the move preview), p50/p95, target <= 5 ms.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_rules_naval  # noqa: E402  (the naval figures)


def _p(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def _lab(path: Path, options: dict, extra_plugins: list[str]):
    from kernel.game import Game

    return Game.new("lab", path, seed=1, options=options, extra_plugins=extra_plugins)


# ---------------------------------------------------------------- land (plugins/rules/land)
def _front_units() -> list[dict]:
    """A typical Barbarossa front: German armies from Brest to the Baltic, Soviet armies
    facing them, in the 1939 borders (Poland given to Germany)."""
    units = []
    for i, row in enumerate(range(50, 60, 2)):
        units.append({"id": f"g{i}", "power": "germany", "branch": "land", "type": "arm" if i % 2 else "inf",
                      "size": "army", "factors": {"combat": 5, "move": 6 if i % 2 else 4}, "hex": [204, row]})
        units.append({"id": f"r{i}", "power": "ussr", "branch": "land", "type": "inf", "size": "army",
                      "factors": {"combat": 3, "move": 3}, "hex": [209, row]})
    return units


def measure_reachable(repeat: int = 200, **_options) -> dict:
    """Reachable hexes for a land unit: ``plugins.rules.land.reachable`` on a 6-MP
    armoured army at the front, each call from scratch (nothing cached between calls but
    the map's per-hex tables)."""
    from plugins.rules.land import reachable

    with tempfile.TemporaryDirectory() as tmp:
        game = _lab(Path(tmp) / "bench.wif", {
            "units": _front_units(), "countries": {"GE": "germany", "SU": "ussr", "PL": "germany"},
            "actions": {"germany": "land"}}, ["land"])
        state = game.state
        start = time.perf_counter()
        found = reachable(state, "g1")
        first = (time.perf_counter() - start) * 1000
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            found = reachable(state, "g1")
            times.append((time.perf_counter() - start) * 1000)
        # open ground: a 6-MP army in the clear Ukrainian steppe, no enemy near
        units = [{"id": "o1", "power": "ussr", "branch": "land", "type": "arm", "size": "army",
                  "factors": {"combat": 5, "move": 6}, "hex": [214, 60]}]
        open_game = _lab(Path(tmp) / "open.wif", {"units": units, "active_side": "allies",
                                                  "actions": {"ussr": "land"}}, ["land"])
        open_times = []
        for _ in range(repeat):
            start = time.perf_counter()
            open_found = reachable(open_game.state, "o1")
            open_times.append((time.perf_counter() - start) * 1000)
        open_game.close()
        game.close()
    return {
        "reachable_p50_ms": round(statistics.median(times), 3),
        "reachable_p95_ms": round(_p(times, 0.95), 3),
        "reachable_first_call_ms": round(first, 1),
        "reachable_hexes": len(found),
        "reachable_open_ground_p95_ms": round(_p(open_times, 0.95), 3),
        "reachable_open_ground_hexes": len(open_found),
    }


# ---------------------------------------------------------------- supply (plugins/rules/supply)
def measure_supply(repeat: int = 50, **_options) -> dict:
    """Supply for all units of a side: ``in_supply`` for every unit of the Axis and of the
    Allies on the Barbarossa front (with two German HQs), the cache cleared before each
    side's run, so each figure is a full trace (map tables stay loaded)."""
    from plugins.rules.supply import in_supply, trace

    units = _front_units() + [
        {"id": "hq1", "power": "germany", "branch": "land", "type": "hq", "factors": {"combat": 2, "move": 4},
         "hex": [203, 53]},
        {"id": "hq2", "power": "germany", "branch": "land", "type": "hq", "factors": {"combat": 2, "move": 4},
         "hex": [203, 57]},
    ]
    figures = {}
    with tempfile.TemporaryDirectory() as tmp:
        game = _lab(Path(tmp) / "supply.wif", {
            "units": units, "countries": {"GE": "germany", "SU": "ussr", "PL": "germany"}}, ["supply"])
        state = game.state
        for side in ("axis", "allies"):
            powers = set(state.kernel.sides[side])
            ids = [u.id for u in state["units"].units.values() if u.power in powers]
            times = []
            for _ in range(repeat):
                trace.clear_cache()
                start = time.perf_counter()
                supplied = sum(in_supply(state, i) for i in ids)
                times.append((time.perf_counter() - start) * 1000)
            figures[f"supply_{side}_p95_ms"] = round(_p(times, 0.95), 2)
            figures[f"supply_{side}_units_in_supply"] = f"{supplied}/{len(ids)}"
        game.close()
    return figures


# ---------------------------------------------------------------- Barbarossa at full size
def _barbarossa_driver(game):
    """Finish whatever is pending the plainest way: default setup, Pass actions."""
    k = game.state.kernel
    who = k.sequence.pending[0]
    power = k.acting_power()
    legal = game.legal_commands()
    if "RestoreSetup" in legal or k.sequence.current.endswith("placing-units-on-the-map"):
        game.submit({"type": "RestoreSetup", "actor": power})
    if "ChooseFirstMover" in legal:
        if game.submit({"type": "ChooseFirstMover", "actor": who, "side": "axis"}).accepted:
            return
    if "ChooseAction" in legal:
        if game.submit({"type": "ChooseAction", "actor": power, "action": "pass"}).accepted:
            return
    out = game.submit({"type": "FinishStep", "actor": who})
    if not out.accepted:
        raise RuntimeError(f"benchmark game stuck at {k.sequence.current}: {out.reason}")


def measure_barbarossa(repeat: int = 20, **_options) -> dict:
    """The whole Barbarossa order of battle after the default setup: supply for every unit
    of each side (cache cleared each time), and the automatic end-of-turn sequence — the
    submit that ends a turn and runs the End of Turn stage's automatic phases up to the
    next turn's first decision — timed over the scenario's turn ends."""
    from kernel.game import Game
    from plugins.rules.supply import in_supply, trace

    figures = {}
    with tempfile.TemporaryDirectory() as tmp:
        game = Game.new("barbarossa", Path(tmp) / "b.wif", seed=1941)
        while game.state.kernel.turn < 1:
            _barbarossa_driver(game)
        state = game.state
        for side in ("axis", "allies"):
            powers = set(state.kernel.sides[side])
            ids = [u.id for u in state["units"].units.values() if u.power in powers and u.on_map]
            times = []
            for _ in range(repeat):
                trace.clear_cache()
                start = time.perf_counter()
                supplied = sum(in_supply(state, i) for i in ids)
                times.append((time.perf_counter() - start) * 1000)
            figures[f"barbarossa_supply_{side}_p95_ms"] = round(_p(times, 0.95), 2)
            figures[f"barbarossa_supply_{side}_units"] = f"{supplied}/{len(ids)} in supply"
        turn_ends = []
        while not game.state.kernel.sequence.finished:
            turn = game.state.kernel.turn
            start = time.perf_counter()
            _barbarossa_driver(game)
            elapsed = (time.perf_counter() - start) * 1000
            if game.state.kernel.turn != turn or game.state.kernel.sequence.finished:
                turn_ends.append(elapsed)
        game.close()
    figures["end_of_turn_sequence_max_ms"] = round(max(turn_ends), 1)
    figures["end_of_turn_sequence_median_ms"] = round(statistics.median(turn_ends), 1)
    figures["end_of_turn_sequences_timed"] = len(turn_ends)
    return figures


def measure_barbarossa_commands(seed: int = 3, **_options) -> dict:
    """Issue #15: every command of a Barbarossa game the random bots play (``wif autoplay
    barbarossa --seed N``), each submit timed, CPU (this process) and wall; the slowest kind
    (ChooseAction: the supply record of every land unit at each impulse start) apart.  Not in
    ``MEASUREMENTS`` (a whole game; the suite runs ``wif bench rules``): ``python
    tools/bench_rules.py --commands [SEED]``.  The first submits pay the process's one-time map
    work (the supply search's hex tables), so the max is also given without the first impulse."""
    from app.bots import autoplay
    from kernel.game import Game

    timed: list[tuple[str, float, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        game = Game.new("barbarossa", Path(tmp) / "b.wif", seed=seed)
        submit = game.submit

        def timed_submit(cmd, *args, **kwargs):
            start, start_cpu = time.perf_counter(), time.process_time()
            out = submit(cmd, *args, **kwargs)
            kind = cmd["type"] if isinstance(cmd, dict) else type(cmd).__name__
            timed.append((kind, (time.process_time() - start_cpu) * 1000, (time.perf_counter() - start) * 1000))
            return out

        game.submit = timed_submit
        autoplay(game, {side: "random" for side in game.state.kernel.sides}, seed=seed)
        game.close()
    cpu = [c for _k, c, _w in timed]
    choose = [c for k, c, _w in timed if k == "ChooseAction"]
    return {"barbarossa_commands": len(timed), "barbarossa_command_max_cpu_ms": round(max(cpu), 1),
            "barbarossa_command_p95_cpu_ms": round(_p(cpu, 0.95), 1),
            "barbarossa_command_max_wall_ms": round(max(w for _k, _c, w in timed), 1),
            "barbarossa_choose_action_median_cpu_ms": round(statistics.median(choose), 1),
            "barbarossa_choose_action_p95_cpu_ms": round(_p(choose, 0.95), 1),
            "barbarossa_choose_action_max_cpu_ms_after_the_first": round(max(choose[1:]), 1)}


MEASUREMENTS = {
    "reachable hexes for a land unit": measure_reachable,
    "supply for all units of a side": measure_supply,
    "Barbarossa: supply of every unit, automatic end of turn": measure_barbarossa,
    **bench_rules_naval.MEASUREMENTS,  # issue #14: interception, Guadalcanal's end of turn
}
TARGETS = {
    "barbarossa_supply_axis_p95_ms": 100.0,
    "barbarossa_supply_allies_p95_ms": 100.0,
    "end_of_turn_sequence_max_ms": 200.0,
    "supply_axis_p95_ms": 100.0,
    "supply_allies_p95_ms": 100.0,
    "reachable_p95_ms": 5.0,
    "reachable_open_ground_p95_ms": 5.0,
    **bench_rules_naval.TARGETS,
}


def run(**options) -> dict:
    """Every measurement, by name: {name: {figure: value}}."""
    return {name: fn(**options) for name, fn in MEASUREMENTS.items()}


def print_table(result: dict) -> None:
    for name, figures in result.items():
        print(name)
        for key, value in figures.items():
            target = TARGETS.get(key)
            mark = ""
            if target is not None:
                mark = f"  (target <= {target}: {'ok' if value <= target else 'MISSED'})"
            print(f"  {key:<30} {value}{mark}")


if __name__ == "__main__":
    if "--commands" in sys.argv:  # issue #15: python tools/bench_rules.py --commands [SEED]
        rest = [a for a in sys.argv[1:] if a != "--commands" and a.isdigit()]
        for key, value in measure_barbarossa_commands(int(rest[0]) if rest else 3).items():
            print(f"  {key:<52} {value}")
        sys.exit(0)
    res = run()
    print(json.dumps(res, indent=2)) if "--json" in sys.argv else print_table(res)
