"""Decisions benchmark: how fast the game answers "what may I do now", and how fast bots play.

    wif bench choices [--json]          (or: .venv/bin/python tools/bench_choices.py [--json])

Figures:
- ``choices_impulse_p95_ms``: ``Game.choices`` for the side to move at the start of each
  Barbarossa impulse of a bot-played game (target <= 20 ms), and p50.
- ``choices_movement_p95_ms``: ``Game.choices`` in the land movement steps with the whole
  tree built, every unit's every destination (what ``wif choices --json`` prints; the window
  and the bots build only the branches they look at).
- ``autoplay_decisions_per_s``: decisions per second of a whole random-policy game.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

TARGETS = {"choices_impulse_p95_ms": 20.0}


def _p(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else 0.0


def _expand(fields) -> None:
    """Build every lazily given option and dependent field (every unit's every destination)."""
    for f in fields:
        for o in f.all_options():
            _expand(o.next_fields())


def run(seed: int = 1941, **_options) -> dict:
    from app.bots import Bot, Tally, play_pending
    from kernel.game import Game

    impulse, movement = [], []
    with tempfile.TemporaryDirectory() as tmp:
        game = Game.new("barbarossa", Path(tmp) / "bench.wif", seed=seed)
        bots = {side: Bot("random", seed) for side in game.state.kernel.sides}
        tally = Tally()
        seen = set()
        measuring = 0.0  # time spent on the measurements themselves, not on playing
        started = time.perf_counter()
        while True:
            k = game.state.kernel
            key = (k.turn, k.impulse)
            step = k.sequence.current or ""
            if k.impulse and key not in seen and k.sequence.pending:
                seen.add(key)
                t = time.perf_counter()
                game.choices(k.controllers.get(k.acting_power() or "", None))
                impulse.append((time.perf_counter() - t) * 1000)
                measuring += impulse[-1] / 1000
            if step.endswith("land-movement") and k.sequence.pending and len(movement) < 40:
                t = time.perf_counter()
                found = game.choices(None)
                for choice in found.commands():
                    _expand(choice.fields)
                movement.append((time.perf_counter() - t) * 1000)
                measuring += movement[-1] / 1000
            if not play_pending(game, bots, tally):
                break
        elapsed = time.perf_counter() - started - measuring
        game.close()
    return {
        "choices_impulse_p50_ms": round(_p(impulse, 0.5), 2),
        "choices_impulse_p95_ms": round(_p(impulse, 0.95), 2),
        "impulses_measured": len(impulse),
        "choices_movement_p50_ms": round(_p(movement, 0.5), 2),
        "choices_movement_p95_ms": round(_p(movement, 0.95), 2),
        "autoplay_decisions": tally.decisions,
        "autoplay_decisions_per_s": round(tally.decisions / elapsed, 1) if elapsed else 0.0,
        "autoplay_refused": len(tally.refused),
    }


def print_table(result: dict) -> None:
    for key, value in result.items():
        target = TARGETS.get(key)
        note = f"  (target <= {target})" if target is not None else ""
        print(f"{key:<28} {value}{note}")


if __name__ == "__main__":
    out = run()
    print(json.dumps(out, indent=2)) if "--json" in sys.argv else print_table(out)
