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
    each time (its set-up is not timed)."""
    from kernel.game import Game
    from plugins.rules.core import world_map

    konigsberg = world_map().port("Konigsberg").hex
    leningrad = world_map().port("Leningrad").hex
    origin = f"{konigsberg[0]},{konigsberg[1]}"
    german = [_ship(f"g{i}", "germany", konigsberg, "dd" if i % 2 else "ca") for i in range(6)]
    soviet = [_ship(f"r{i}", "ussr", leningrad) for i in range(4)]
    moves, intercepts = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(repeat):
            game = Game.new("lab", Path(tmp) / f"n{n}.wif", seed=n + 1, lab=True, extra_plugins=["naval", "rig"], options={
                "units": german + soviet, "actions": {"germany": "naval"},
                "start_at": "turn.impulse.naval.naval-movement"})
            game.submit({"type": "RigShipsAtSea", "actor": "ussr", "units": [u["id"] for u in soviet],
                         "area": "BA", "section": 2})
            start = time.perf_counter()
            out = game.submit({"type": "MoveNavalGroup", "actor": "germany", "origin": origin, "to": "BA",
                               "section": 1, "units": [u["id"] for u in german]})
            moves.append((time.perf_counter() - start) * 1000)
            if not out.accepted:
                raise RuntimeError(f"benchmark move refused: {out.reason}")
            offered = [c for c in game.choices(None).commands() if c.type == "Intercept"]
            if not offered:
                raise RuntimeError("benchmark: no interception offered")
            cmd = offered[0].sample(random.Random(n))
            start = time.perf_counter()
            out = game.submit(cmd)
            intercepts.append((time.perf_counter() - start) * 1000)
            if not out.accepted:
                raise RuntimeError(f"benchmark intercept refused: {out.reason}")
            game.close()
    both = [a + b for a, b in zip(moves, intercepts)]
    return {"naval_move_p95_ms": round(_p(moves, 0.95), 2), "naval_intercept_p95_ms": round(_p(intercepts, 0.95), 2),
            "naval_search_interception_p95_ms": round(_p(both, 0.95), 2),
            "naval_search_interception_median_ms": round(statistics.median(both), 2)}


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
    returns, the convoy and victory points) up to the next turn's first decision."""
    from kernel.game import Game

    rng = random.Random(1942)
    turn_ends = []
    with tempfile.TemporaryDirectory() as tmp:
        game = Game.new("guadalcanal", Path(tmp) / "g.wif", seed=1942)
        while not game.state.kernel.sequence.finished:
            turn = game.state.kernel.turn
            start = time.perf_counter()
            _plain_driver(game, rng)
            elapsed = (time.perf_counter() - start) * 1000
            if turn >= 1 and (game.state.kernel.turn != turn or game.state.kernel.sequence.finished):
                turn_ends.append(elapsed)
        game.close()
    return {"guadalcanal_end_of_turn_max_ms": round(max(turn_ends), 1),
            "guadalcanal_end_of_turn_median_ms": round(statistics.median(turn_ends), 1),
            "guadalcanal_end_of_turn_sequences_timed": len(turn_ends)}


MEASUREMENTS = {
    "naval search and interception for one moving task force": measure_interception,
    "Guadalcanal: automatic end of turn": measure_guadalcanal,
}
TARGETS = {"naval_search_interception_p95_ms": 20.0, "guadalcanal_end_of_turn_max_ms": 200.0}
