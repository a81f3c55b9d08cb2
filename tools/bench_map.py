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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    process = psutil.Process()
    gc.collect()
    before = process.memory_info().rss
    start = time.perf_counter()
    world = WorldMap()
    first_ms = (time.perf_counter() - start) * 1000
    gc.collect()
    grown_mb = (process.memory_info().rss - before) / 2**20
    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        WorldMap()
        times.append((time.perf_counter() - start) * 1000)
    print(f"hexes: {world.grid.hex_count}, cities: {len(world.cities)}, hexside features: "
          f"{len(world.hexside_features())}")
    print(f"load: first {first_ms:.0f} ms (includes pydantic warm-up), best {min(times):.0f} ms, "
          f"median {statistics.median(times):.0f} ms over {args.repeat}")
    print(f"memory: +{grown_mb:.1f} MB RSS for one loaded map")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
