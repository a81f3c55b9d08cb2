"""Hot-reload benchmark: a plugin of a 50,000-event game is reloaded as `wif play --dev` does
(re-import, new plugin host, the whole game replayed under it, swapped in).

Issue 7's budget: reload + replay + redraw within 1 s for 50k events.  Run directly
(`python tools/bench_hotreload.py [--events N]`); `run()` / `print_table()` follow the
other benchmarks' shape.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_kernel import build_game  # noqa: E402

from kernel.game import Game  # noqa: E402
from kernel.hotreload import PluginReloader  # noqa: E402


def run(events: int = 50_000, repeats: int = 3, save: str | None = None) -> dict:
    """``save``: reload over a copy of this benchmark game (``wif bench kernel``'s kind)
    instead of writing a new one (minutes on a loaded machine)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.wif"
        if save:
            shutil.copyfile(save, path)
        else:
            build_game(path, events)
        game = Game.open(path)
        reloader = PluginReloader(game)
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            result = reloader.reload("skirmish")
            times.append(time.perf_counter() - t0)
            if not result.ok:
                raise RuntimeError(result.message)
        seq = game.state.kernel.seq
        game.close()
    return {"events": seq, "reload_seconds_best": min(times), "reload_seconds_worst": max(times),
            "events_per_second": seq / min(times), "budget_seconds": 1.0}


def print_table(result: dict) -> None:
    print(f"hot reload of a {result['events']:,}-event game (re-import + replay + swap)")
    print(f"  best  {result['reload_seconds_best'] * 1000:8.0f} ms")
    print(f"  worst {result['reload_seconds_worst'] * 1000:8.0f} ms   (budget {result['budget_seconds']:.0f} s)")
    print(f"  replay rate {result['events_per_second']:,.0f} events/s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=50_000)
    parser.add_argument("--save", help="reload over a copy of this save instead of writing a new game")
    args = parser.parse_args()
    print_table(run(args.events, save=args.save))
