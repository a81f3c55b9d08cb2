"""Load time and memory of the world map (the budget is <= 300 ms and <= 40 MB).

Run: .venv/bin/python tools/bench_map.py [--repeat N]
Prints the best and median wall time of a cold WorldMap load and the resident-memory growth.
"""

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import psutil  # noqa: E402

from kernel.worldmap import WorldMap  # noqa: E402


def run(repeat: int = 7, **_options) -> dict:
    """Figures for `wif bench map` (targets: load <= 300 ms, <= 40 MB)."""
    process = psutil.Process()
    gc.collect()
    before = process.memory_info().rss
    start = time.perf_counter()
    world = WorldMap()
    first_ms = (time.perf_counter() - start) * 1000
    gc.collect()
    grown_mb = (process.memory_info().rss - before) / 2**20
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        WorldMap()
        times.append((time.perf_counter() - start) * 1000)
    # the naval rules' "Sea Box Section" question: hexes from a hex to a sea area (cached per pair)
    pairs = [(p.hex, code) for p in world.ports for code in world.port_areas(p)]
    start = time.perf_counter()
    for hex_, code in pairs:
        world.approach(hex_, code)
    approach_port_us = (time.perf_counter() - start) * 1e6 / len(pairs)
    start = time.perf_counter()
    world.approach(world.city("Moscow").hex, "NP")  # none within the limit: the most a query explores
    approach_worst_ms = (time.perf_counter() - start) * 1000
    return {
        "hexes": world.grid.hex_count,
        "cities": len(world.cities),
        "ports": len(world.ports),
        "hexside_features": len(world.hexside_features()),
        "load_first_ms": round(first_ms, 1),
        "load_best_ms": round(min(times), 1),
        "load_median_ms": round(statistics.median(times), 1),
        "rss_growth_mb": round(grown_mb, 1),
        "approach_port_to_its_area_us": round(approach_port_us, 1),
        "approach_worst_ms": round(approach_worst_ms, 1),
    }


def print_table(result: dict) -> None:
    for key, value in result.items():
        print(f"{key:<20} {value}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    print_table(run(args.repeat))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
