"""`wif replay`: a game's history in words, optionally stepped, optionally rendered."""

from __future__ import annotations

import sys
from pathlib import Path

from kernel.errors import WifError


def line_for(replay, rec, state_before) -> str:
    where = f"T{rec.turn}.{rec.impulse}" if rec.turn else "setup"
    return f"{rec.seq:>7} {where:<7} {replay.describe(rec, state_before)}"


def cmd_replay(args) -> int:
    from kernel.replay import open_replay

    replay = open_replay(args.path)
    try:
        for problem in replay.game.problems:
            print(f"note: read-only replay: {problem}", file=sys.stderr)
        start = max(1, args.from_seq)
        end = min(replay.last, args.to_seq or replay.last)
        if args.render_every:
            return _render_every(replay, args.render_every, Path(args.out), start, end)
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


def _render_every(replay, kind: str, out: Path, start: int, end: int) -> int:
    try:
        from app.render import render_state_png
    except ImportError as exc:
        raise WifError(f"rendering needs the map renderer (app.render): {exc}") from exc
    out.mkdir(parents=True, exist_ok=True)
    marks = [m for m in replay.bookmarks[kind] if start <= m.seq <= end]
    for n, mark in enumerate(marks, 1):
        state = replay.seek(mark.seq)
        name = out / f"{n:04d}-seq{mark.seq}-T{mark.turn}.{mark.impulse}.png"
        render_state_png(replay.game, state, name)
        print(f"{name}  {mark.title} (turn {mark.turn}, impulse {mark.impulse})")
    if not marks:
        print(f"no {kind} starts between events {start} and {end}", file=sys.stderr)
    return 0


def add_replay_commands(sub) -> None:
    p = sub.add_parser("replay", help="print (or render) a game's history event by event")
    p.add_argument("path")
    p.add_argument("--from", dest="from_seq", type=int, default=1)
    p.add_argument("--to", dest="to_seq", type=int)
    p.add_argument("--step", action="store_true", help="wait for Enter after each event")
    p.add_argument("--render-every", choices=["step", "phase", "impulse", "turn"],
                   help="write one PNG per bookmark of this kind instead of printing")
    p.add_argument("--out", default="replay-png", help="folder for --render-every")
    p.set_defaults(func=cmd_replay)
