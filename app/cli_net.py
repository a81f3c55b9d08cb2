"""`wif serve` (the game server, app/net/server.py) and `wif net create|list|join` (its lobby,
from the command line); `wif bot --server URL GAME --as PLAYER` lands in ``cmd_bot_net``."""

from __future__ import annotations

import sys
from pathlib import Path

from kernel.errors import WifError


def add_net_commands(sub) -> None:
    p = sub.add_parser("serve", help="serve games over WebSockets: the server decides every command and rolls the dice")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8765)
    p.add_argument("--games", default="games", help="folder of the server's games (one save each)")
    p.set_defaults(func=cmd_serve)

    net = sub.add_parser("net", help="the lobby of a game server").add_subparsers(dest="net_command", required=True)
    p = net.add_parser("create", help="create a game whose seats players join")
    p.add_argument("server", help="the server's URL, e.g. ws://127.0.0.1:8765/ws")
    p.add_argument("game", help="the game's name (letters, digits, _)")
    p.add_argument("--scenario", required=True)
    p.add_argument("--seat", action="append", required=True, metavar="PLAYER=POWER,…",
                   help="a seat: the player and the powers they play, e.g. alice=germany,italy")
    p.add_argument("--rules", action="append", default=[], metavar="PLUGIN", help="an optional rule plugin to add")
    p.add_argument("--invitation", action="store_true", help="list it only to the players of its seats")
    p.add_argument("--as", dest="player", required=True, help="who creates it (your key proves it)")
    p.set_defaults(func=cmd_net_create)
    p = net.add_parser("list", help="the server's games and their open seats")
    p.add_argument("server")
    p.add_argument("--as", dest="player", required=True)
    p.set_defaults(func=cmd_net_list)
    p = net.add_parser("join", help="take your seat in a game")
    p.add_argument("server")
    p.add_argument("game")
    p.add_argument("--as", dest="player", required=True)
    p.set_defaults(func=cmd_net_join)
    p = net.add_parser("chat", help="read a game's chat, or say something in it")
    p.add_argument("server")
    p.add_argument("game")
    p.add_argument("--as", dest="player", required=True)
    p.add_argument("--say", help="the message to send")
    p.set_defaults(func=cmd_net_chat)

    pbem = sub.add_parser("pbem", help="play by e-mail: signed turn files (app/pbem.py)").add_subparsers(
        dest="pbem_command", required=True)
    p = pbem.add_parser("export", help="write a signed turn file of your new commands")
    p.add_argument("path", help="your save")
    p.add_argument("--as", dest="player", required=True)
    p.add_argument("--since", type=int, help="commands after this seq (default: your commands since the other's last)")
    p.add_argument("--out", required=True, help="the turn file to write")
    p.set_defaults(func=cmd_pbem_export)
    p = pbem.add_parser("import", help="check a turn file and append it to your save")
    p.add_argument("path", help="your save")
    p.add_argument("turn", help="the turn file received")
    p.add_argument("--as", dest="player", required=True, help="you (your receipt is checked)")
    p.set_defaults(func=cmd_pbem_import)


def cmd_serve(args) -> int:
    from app.net.server import serve

    serve(args.host, args.port, Path(args.games))
    return 0


def parse_seats(pairs: list[str]) -> dict[str, list[str]]:
    seats: dict[str, list[str]] = {}
    for pair in pairs:
        player, sep, powers = pair.partition("=")
        if not sep or not player or not powers:
            raise WifError(f"--seat {pair!r}: write PLAYER=POWER,POWER")
        seats[player] = [p for p in powers.split(",") if p]
    return seats


def cmd_net_create(args) -> int:
    from app.net.client import NetClient

    with NetClient(args.server, args.player) as client:
        out = client.create(args.game, args.scenario, parse_seats(args.seat), rules=args.rules,
                            invitation=args.invitation)
    print(f"game {out['game']} created; open seats: {', '.join(out['open_seats'])}")
    return 0


def cmd_net_list(args) -> int:
    from app.net.client import NetClient

    with NetClient(args.server, args.player) as client:
        for g in client.list_games():
            state = "playing" if g["started"] else f"open seats: {', '.join(g['open_seats'])}"
            print(f"{g['game']}: {g['scenario']}, {state}")
    return 0


def cmd_net_join(args) -> int:
    from app.net.client import NetClient

    with NetClient(args.server, args.player) as client:
        out = client.join(args.game)
    if out.get("started"):
        print(f"{args.player} seated in {args.game}: seq {out['seq']}, step {out['step']}")
    else:
        print(f"{args.player} seated in {args.game}; waiting for seats {', '.join(out['open_seats'])}")
    return 0


def cmd_net_chat(args) -> int:
    from app.net.client import NetClient

    with NetClient(args.server, args.player) as client:
        out = client.request("chat", game=args.game, text=args.say)
    for m in out["messages"]:
        print(f"{m['player']}: {m['text']}")
    return 0


def cmd_bot_net(args) -> int:
    """`wif bot --server URL GAME --as PLAYER`: a bot plays the seat until the game ends (or
    --commands decisions); run it again to resume from its receipt."""
    from app.net.client import NetClient, play_seat

    with NetClient(args.server, args.player) as client:
        tally, status = play_seat(client, args.path, args.policy, args.seed, decisions=args.commands,
                                  seconds=args.seconds)
    end = "the game is over" if status["finished"] else f"now at seq {status['seq']}, {status['step']}"
    print(f"{args.player}: {tally.commands} commands; {end}")
    for line in tally.refused[:5]:
        print(f"  refused (broken choices contract): {line}", file=sys.stderr)
    return 1 if tally.refused else 0


def cmd_pbem_export(args) -> int:
    from app.pbem import export_turn, write_turn

    turn = export_turn(args.path, args.player, args.since)
    write_turn(turn, args.out)
    body = turn["turn"]
    print(f"{args.out}: {len(body['commands'])} commands of {args.player} after seq {body['from'][0]}")
    return 0


def cmd_pbem_import(args) -> int:
    from app.pbem import import_turn, read_turn

    count = import_turn(args.path, read_turn(args.turn), args.player)
    print(f"{args.path}: {count} commands appended and verified")
    return 0
