"""``wif log`` and ``wif state``: a game's events and state, whole or as one player sees them.

The log streams: events come one at a time from a store cursor (kernel/views.py) and are
printed as they come, so printing a game of a million events holds one event in memory, not
the million (docs/BENCHMARKS.md, issue 13).  ``--as PLAYER`` shows what that player may see, to
the holder of that player's key only (kernel/views.py check_viewer).
"""

from __future__ import annotations

import json
import sys


def _warn(game) -> None:
    """What was skipped on the way (a bad snapshot: a cache, the events hold the truth)."""
    for note in game.store.warnings:
        print(f"warning: {note}", file=sys.stderr)


def cmd_log(args) -> int:
    from kernel.game import Game
    from kernel.views import check_viewer, records_seen_by

    with Game.open(args.path, read_only=True) as game:
        if args.player is not None:
            check_viewer(game, args.player)
        records = records_seen_by(game, args.from_seq, args.to_seq, player=args.player)
        write = sys.stdout.write
        if args.json:
            # the same text as json.dumps(list, indent=2), one element at a time
            write("[")
            sep = "\n"
            for r in records:
                item = json.dumps(r.as_dict(), indent=2, ensure_ascii=False)
                write(sep + "  " + item.replace("\n", "\n  "))
                sep = ",\n"
            write("\n]\n" if sep != "\n" else "]\n")
        else:
            for r in records:
                where = f"T{r.turn}.{r.impulse}" if r.turn else "setup"
                write(f"{r.seq:>7} {where:<7} {game.describe(r)}\n")
        _warn(game)
    return 0


def cmd_state(args) -> int:
    from kernel.game import Game
    from kernel.views import check_viewer

    with Game.open(args.path, read_only=True) as game:
        if args.player is not None:
            check_viewer(game, args.player)
        if args.at is not None:
            game.state = game.state_at(args.at)
        view = game.view(args.player)
        if args.json:
            print(json.dumps(view, indent=2, ensure_ascii=False))
        else:
            k = view["kernel"]
            seq = k["sequence"]
            print(f"{args.path}: {k['scenario']}, event {k['seq']}, turn {k['turn']} impulse {k['impulse']}")
            print(f"  step: {seq['current']}{' (game over)' if seq['finished'] else ''}")
            if seq["pending"]:
                print(f"  waiting for: {', '.join(seq['pending'])}")
            print(f"  active side: {k['active_side']}")
            print(f"  dice: {game.identity.describe()}")  # seeded (not fair) or fair (kernel/fairplay.py)
            for name, section in view["sections"].items():
                print(f"  [{name}] {json.dumps(section, ensure_ascii=False)[:400]}")
            for problem in game.problems:
                print(f"  read-only: {problem}")
        _warn(game)
    return 0


def add_log_commands(sub) -> None:
    p = sub.add_parser("log", help="print a game's events")
    p.add_argument("path")
    p.add_argument("--from", dest="from_seq", type=int, default=1)
    p.add_argument("--to", dest="to_seq", type=int)
    p.add_argument("--json", action="store_true")
    p.add_argument("--as", dest="player", help="show only what this player may see")
    p.set_defaults(func=cmd_log)

    p = sub.add_parser("state", help="print a game's state")
    p.add_argument("path")
    p.add_argument("--at", type=int, help="the state after this event seq")
    p.add_argument("--json", action="store_true")
    p.add_argument("--as", dest="player", help="show only what this player may see")
    p.set_defaults(func=cmd_state)
