"""`wif bench render`: how fast the map draws.

- frame time p50/p95 while panning continuously (12 px a frame east, drifting north-south)
  at each zoom level, on a 1920x1200 surface, with the render_demo scenario's ~670 counters;
  the cache starts empty at each zoom; after the first frame the ring of chunks around the
  view is prefetched (as idle frames do in the window), then each frame draws and, as the
  window's ``tick`` does, prefetches chunks only while the 60 Hz frame has time left
  (``DetailedMap.prefetch(deadline=...)``); "frame" is the drawing, "chunks built while
  drawing" counts the chunks the view needed before prefetch had them (each one a slow frame),
  "busy p95" is drawing plus that frame's prefetching (it stays inside the 16.7 ms frame);
- chunk-cache build time: the first (cold) frame at each zoom, and the mean per chunk;
- global-map view switch: each view built from nothing and drawn;
- launch to first frame: `wif play SAVE --frames 1` as a new process, wall clock;
- playing through the window (tools/bench_play.py): click on a unit -> reachable hexes drawn,
  click on a destination -> moved counter drawn, and the whole-game GUI autoplay's frame rate.
Targets (issue 4): frame p95 <= 4 ms at every zoom, view switch <= 50 ms, first frame <= 1.5 s.
Drawing only: no vsync, no display flip.
"""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
SIZE = (1920, 1200)
FRAMES = 240


def _pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def run(**options) -> dict:
    load_at_start = os.getloadavg()  # the benchmark itself adds about 1 while it runs
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # its banner on stdout would spoil --json
    import pygame

    from app.detailed import DetailedMap
    from app.globalmap import VIEWS, GlobalMap
    from app.mapmodel import MapModel
    from app.play import FRAME_SECONDS, PREFETCH_MARGIN
    from kernel.game import Game

    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((64, 64))
    frames = int(options.get("frames", FRAMES))
    with tempfile.TemporaryDirectory() as tmp:
        save = Path(tmp) / "bench.wif"
        game = Game.new("render_demo", save, seed=1)
        units = len(game.state["units"].units)
        model = MapModel(game=game)
        target = pygame.Surface(SIZE).convert()
        zooms = {}
        for zoom in range(1, 9):
            dmap = DetailedMap(model, SIZE, zoom=zoom, centre=(200, 60))
            built0 = dmap.chunks_built
            t = time.perf_counter()
            dmap.draw(target)
            cold = time.perf_counter() - t
            cold_chunks = dmap.chunks_built - built0
            while dmap.prefetch(4):  # as after a second of idle frames in the window
                pass
            times, busy = [], []
            in_draw = 0
            for i in range(frames):
                dmap.scroll_pixels(12, 3 if (i // 60) % 2 == 0 else -3)
                frame_start = time.perf_counter()
                before = dmap.chunks_built
                dmap.draw(target)
                t1 = time.perf_counter()
                in_draw += dmap.chunks_built - before
                dmap.prefetch(4, deadline=frame_start + FRAME_SECONDS - PREFETCH_MARGIN)
                times.append(t1 - frame_start)
                busy.append(time.perf_counter() - frame_start)
            zooms[zoom] = {
                "frame_p50_ms": round(statistics.median(times) * 1000, 2),
                "frame_p95_ms": round(_pct(times, 95) * 1000, 2),
                "frame_max_ms": round(max(times) * 1000, 2),
                "busy_p95_ms": round(_pct(busy, 95) * 1000, 2),
                "chunks_built_while_drawing": in_draw,
                "first_frame_cold_ms": round(cold * 1000, 1),
                "chunks_first_frame": cold_chunks,
                "chunk_build_mean_ms": round(cold * 1000 / max(1, cold_chunks), 2),
                "chunks_built_while_panning": dmap.chunks_built - built0 - cold_chunks,
            }
        gm = GlobalMap(model, double=True)
        dmap = DetailedMap(model, SIZE, zoom=4)
        switch = {}
        surf = pygame.Surface((1440, 780)).convert()
        for view in VIEWS:
            gm._cache.clear()
            t = time.perf_counter()
            gm.set_view(view)
            gm.draw(surf, surf.get_rect(), dmap)
            switch[view] = round((time.perf_counter() - t) * 1000, 1)
        game.close()
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
                   WIF_CONFIG_DIR=str(Path(tmp) / "config"))
        launches = []
        for _ in range(3):
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "app.cli", "play", str(save), "--frames", "1"], cwd=REPO_ROOT,
                           env=env, check=True, capture_output=True)
            launches.append(time.perf_counter() - t)
    import bench_play  # clicks on the map and the whole-game GUI autoplay (tools/bench_play.py)

    played = bench_play.run(game=options.get("game", True))
    pygame.quit()
    return {
        "play": played,
        "size": f"{SIZE[0]}x{SIZE[1]}",
        "units_on_map": units,
        "frames_per_zoom": frames,
        "zoom": zooms,
        "worst_frame_p95_ms": max(z["frame_p95_ms"] for z in zooms.values()),
        "global_view_switch_ms": switch,
        "worst_view_switch_ms": max(switch.values()),
        "launch_to_first_frame_s": round(min(launches), 2),
        "python": platform.python_version(),
        "pygame_ce": pygame.version.ver,
        "load_average": [round(v, 2) for v in load_at_start],
        "cpus": os.cpu_count(),
        "date": time.strftime("%Y-%m-%d"),
    }


def print_table(result: dict) -> None:
    print(f"map rendering at {result['size']}, {result['units_on_map']} units, {result['frames_per_zoom']} "
          f"panning frames per zoom (cold chunk cache at each zoom)")
    print(f"{'zoom':>4} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'cold frame ms':>14} {'chunks':>7} "
          f"{'ms/chunk':>9} {'built panning':>14} {'in drawing':>11} {'busy p95':>9}")
    for zoom, z in result["zoom"].items():
        print(f"{zoom:>4} {z['frame_p50_ms']:>8} {z['frame_p95_ms']:>8} {z['frame_max_ms']:>8} "
              f"{z['first_frame_cold_ms']:>14} {z['chunks_first_frame']:>7} {z['chunk_build_mean_ms']:>9} "
              f"{z['chunks_built_while_panning']:>14} {z['chunks_built_while_drawing']:>11} {z['busy_p95_ms']:>9}")
    print("global map view switch (build + draw, double size): " +
          ", ".join(f"{k} {v} ms" for k, v in result["global_view_switch_ms"].items()))
    print(f"launch to first frame (new process, wif play --frames 1): {result['launch_to_first_frame_s']} s")
    print(f"load average before measuring (1, 5, 15 min): {result['load_average']}")
    print("targets: frame p95 <= 4 ms, view switch <= 50 ms, first frame <= 1.5 s")
    import bench_play

    bench_play.print_table(result["play"])
