"""`wif replay`: a game's history in words, optionally stepped, rendered, or in the viewer."""

from __future__ import annotations

import sys
from pathlib import Path

from kernel.errors import WifError


def line_for(replay, rec, state_before) -> str:
    where = f"T{rec.turn}.{rec.impulse}" if rec.turn else "setup"
    return f"{rec.seq:>7} {where:<7} {replay.describe(rec, state_before)}"


def cmd_replay(args) -> int:
    if args.window:
        return _window(args)
    if args.bench_viewer:
        return _bench_viewer(Path(args.path), args.bench_viewer)
    from kernel.replay import open_replay

    replay = open_replay(args.path)
    try:
        for problem in replay.game.problems:
            print(f"note: read-only replay: {problem}", file=sys.stderr)
        start = max(1, args.from_seq or 1)
        end = min(replay.last, args.to_seq or replay.last)
        if args.render_every:
            return _render_every(replay, args.render_every, Path(args.out), start, end, _view_options(args))
        replay.seek(start - 1)
        interactive = args.step and sys.stdin.isatty()
        while replay.position < end:
            rec = replay.event(replay.position + 1)
            before = replay.state
            text = line_for(replay, rec, before)
            replay.forward()
            print(text, flush=True)
            if args.step:
                if interactive:
                    if input("  [Enter: next, q: quit] ").strip().lower() == "q":
                        break
        if replay.skipped:
            print(f"note: {len(replay.skipped)} events could not be applied (first at seq {replay.skipped[0]})",
                  file=sys.stderr)
    finally:
        replay.game.close()
    return 0


def _window(args) -> int:
    """The replay viewer; "Play on from here" continues the forked save in the game window."""
    path = Path(args.path)
    if not path.exists():
        raise WifError(f"{path}: no such save file")
    from app.replay_view import run_replay_window

    from app.cli_render import _size

    forked = run_replay_window(path, start_seq=args.from_seq, size=_size(args.size) if args.size else None,
                               zoom=args.zoom, frames=args.frames, screenshot=args.screenshot)
    if forked is None:
        return 0
    print(f"forked at the viewer's position into {forked} (the original is untouched)")
    if args.no_play:
        return 0
    import argparse

    from app import play

    return play.main(argparse.Namespace(save=forked, scenario=None, dev=False, frames=None, screenshot=None))


def bench_viewer(path: Path, samples: int = 200, size: tuple[int, int] = (1280, 800)) -> dict:
    """Time the viewer off screen on ``path``: a step back and forward with the history rows,
    the frame drawn after each, a jump to a turn, choosing a kind filter and stepping with it,
    opening it.  Times are in ms (p50, p95) but opening (s)."""
    import os
    import random
    import time

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from app.replay_view import ReplayWindow

    pygame.display.init()
    pygame.font.init()
    started = time.perf_counter()
    viewer = ReplayWindow(path, screen=pygame.Surface(size))
    viewer.draw()
    opened = time.perf_counter() - started
    rng = random.Random(3)
    times: dict[str, list[float]] = {"step back": [], "step forward": [], "frame after a move": [],
                                     "jump to a turn": [], "choose a kind filter": [],
                                     "step back with a kind filter": []}

    def timed(name, action):
        t0 = time.perf_counter()
        action()
        times[name].append(time.perf_counter() - t0)

    kinds = viewer.kinds
    turns = viewer.replay.bookmarks["turn"]
    try:
        for _ in range(samples):
            viewer.go_to(rng.randint(2, viewer.replay.last))
            viewer.draw()
            timed("step back", lambda: (viewer.step(-1), viewer.history_rows()))
            timed("frame after a move", viewer.draw)
            timed("step forward", lambda: (viewer.step(1), viewer.history_rows()))
            timed("frame after a move", viewer.draw)
            if turns:
                timed("jump to a turn", lambda: (viewer.go_to(rng.choice(turns).seq), viewer.history_rows()))
            timed("choose a kind filter", lambda: (viewer.set_kind_filter(rng.choice(kinds)), viewer.history_rows()))
            timed("step back with a kind filter", lambda: (viewer.step(-1), viewer.history_rows()))
            viewer.set_kind_filter(None)
    finally:
        viewer.close()
        pygame.quit()

    def p(values, q):
        ordered = sorted(values)
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 2) if ordered else None

    out = {"events": viewer.replay.last, "open_s": round(opened, 2)}
    for name, values in times.items():
        out[name] = (p(values, 0.5), p(values, 0.95))
    return out


def _bench_viewer(path: Path, samples: int) -> int:
    import os

    if not path.exists():
        raise WifError(f"{path}: no such save file")
    result = bench_viewer(path, samples)
    print(f"viewer on {path.name}: {result['events']} events, opened in {result['open_s']} s")
    for name, value in result.items():
        if isinstance(value, tuple):
            print(f"  {name:<30} p50 {value[0]:>6} ms   p95 {value[1]:>6} ms")
    print("  load average " + " ".join(f"{v:.2f}" for v in os.getloadavg()))
    return 0


def _view_options(args) -> dict:
    from app.cli_render import _size

    options = {"view": args.view, "zoom": args.zoom or 5, "size": _size(args.size or "1280x800")}
    if args.center:
        options["center"] = args.center
    return options


def _render_every(replay, kind: str, out: Path, start: int, end: int, view_options: dict | None = None) -> int:
    """One PNG per bookmark: the state at its first event, with the hexes touched since the
    previous picture outlined (and, without --center, the map centred on them)."""
    try:
        from app.render import centre_of, render_state_png
    except ImportError as exc:
        raise WifError(f"rendering needs the map renderer (app.render): {exc}") from exc
    view_options = view_options or {}
    out.mkdir(parents=True, exist_ok=True)
    marks = [m for m in replay.bookmarks[kind] if start <= m.seq <= end]
    replay.seek(start - 1)
    for n, mark in enumerate(marks, 1):
        touched: list[tuple[int, int]] = []
        while replay.position < mark.seq:
            rec = replay.event(replay.position + 1)
            try:
                touched += [h for h in replay.touched_hexes(rec, replay.state) if h not in touched]
            except Exception:  # an old event a changed plugin cannot place: draw without it
                pass
            replay.forward()
        name = out / f"{n:04d}-seq{mark.seq}-T{mark.turn}.{mark.impulse}.png"
        render_state_png(replay.game, replay.state, name, highlight=touched, focus=centre_of(touched),
                         **view_options)
        print(f"{name}  {mark.title} (turn {mark.turn}, impulse {mark.impulse})")
    if not marks:
        print(f"no {kind} starts between events {start} and {end}", file=sys.stderr)
    return 0


def add_replay_commands(sub) -> None:
    p = sub.add_parser("replay", help="print, render or view a game's history event by event")
    p.add_argument("path")
    p.add_argument("--from", dest="from_seq", type=int,
                   help="first event to print (--window: where the viewer starts; default the last event)")
    p.add_argument("--to", dest="to_seq", type=int)
    p.add_argument("--step", action="store_true", help="wait for Enter after each event")
    p.add_argument("--window", action="store_true", help="open the replay viewer (timeline, history, maps)")
    p.add_argument("--no-play", action="store_true",
                   help="--window: after Play on from here, only print the new save instead of opening it")
    p.add_argument("--render-every", choices=["step", "phase", "impulse", "turn"],
                   help="write one PNG per bookmark of this kind instead of printing")
    p.add_argument("--out", default="replay-png", help="folder for --render-every")
    p.add_argument("--view", choices=("detailed", "global", "window"), default="detailed",
                   help="--render-every: what to draw, as in wif render")
    p.add_argument("--zoom", type=int, choices=range(1, 9), metavar="1-8", help="detailed map zoom (default 5)")
    p.add_argument("--frames", type=int, help="--window: close after this many frames (scripts, screenshots)")
    p.add_argument("--screenshot", help="--window: save the last frame to this PNG")
    p.add_argument("--center", help="--render-every: a fixed centre (name or COL,ROW); default: where things happened")
    p.add_argument("--bench-viewer", type=int, nargs="?", const=200, metavar="SAMPLES",
                   help="time the viewer off screen on this save (steps, frames, jumps; default 200 samples)")
    p.add_argument("--size", help="WIDTHxHEIGHT of the pictures (default 1280x800) or of the viewer's window")
    p.set_defaults(func=cmd_replay)
