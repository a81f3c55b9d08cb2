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
    p.add_argument("--compress", action="store_true",
                   help="offer WebSocket compression (permessage-deflate): fewer bytes on a slow link, more CPU "
                        "a frame (off by default: docs/NETWORK.md)")
    p.add_argument("--client-timeout", type=float, default=None, metavar="SECONDS",
                   help="how long the server waits for a client's answer to its challenge or its signature of a "
                        "command before it gives up on it (default 20)")
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
    p = pbem.add_parser("key", help="print your public key (the other player gives it to 'wif pbem new')")
    p.add_argument("--as", dest="player", required=True)
    p.set_defaults(func=cmd_pbem_key)
    p = pbem.add_parser("new", help="start a PBEM game of two players, its dice joint (neither can foresee or re-roll)")
    p.add_argument("scenario")
    p.add_argument("--save", required=True, help="path of the new save; send a copy to the other player")
    p.add_argument("--seat", action="append", required=True, metavar="PLAYER=POWER,…",
                   help="a player and the powers they play (two seats), e.g. alice=germany")
    p.add_argument("--key", action="append", default=[], metavar="PLAYER=HEX",
                   help="the other player's public key (from his 'wif pbem key')")
    p.set_defaults(func=cmd_pbem_new)
    p = pbem.add_parser("status", help="what a PBEM game waits for")
    p.add_argument("path")
    p.set_defaults(func=cmd_pbem_status)
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

    from app.net.protocol import CLIENT_TIMEOUT

    timeout = CLIENT_TIMEOUT if args.client_timeout is None else args.client_timeout
    if not timeout > 0:
        raise WifError(f"--client-timeout {args.client_timeout}: a number of seconds above 0")
    serve(args.host, args.port, Path(args.games), compress=args.compress, client_timeout=timeout)
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
            state = f"open seats: {', '.join(g['open_seats'])}" if not g["started"] else "over" if g.get("finished") \
                else f"playing, turn {g['turn']} impulse {g['impulse']}, waiting for {', '.join(g['waiting_for']) or 'nobody'}"
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

    done = import_turn(args.path, read_turn(args.turn), args.player)
    print(f"{args.path}: {done.commands} commands appended and verified")
    for rolled in done.rolled:
        print(f"  rolled your declared {rolled}")
    if done.waiting:
        print(f"  the game is {done.waiting}")
    return 0


def cmd_pbem_key(args) -> int:
    from kernel import keys as keyring

    print(keyring.public_key_hex(args.player, create=True))
    return 0


def cmd_pbem_new(args) -> int:
    from kernel.game import Game

    keys = {}
    for pair in args.key:
        player, sep, hex_ = pair.partition("=")
        if not sep or not player or not hex_:
            raise WifError(f"--key {pair!r}: write PLAYER=HEX (the other player's 'wif pbem key --as PLAYER')")
        try:
            if len(bytes.fromhex(hex_)) != 32:
                raise ValueError("not 32 bytes")
        except ValueError as exc:
            raise WifError(f"--key {pair!r}: not a public key ({exc})") from None
        keys[player] = hex_
    with Game.new(args.scenario, args.save, players=parse_seats(args.seat), player_keys=keys, pbem=True) as game:
        print(f"{args.save}: new PBEM game of {args.scenario} ({game.identity.game_id}), {game.identity.describe()}; "
              f"now at {game.state.kernel.step or '-'}")
    print("  send the other player a copy of the save; then play, 'wif pbem export' and send each turn file")
    return 0


def cmd_pbem_status(args) -> int:
    from kernel import pbem_dice
    from kernel.game import Game

    with Game.open(args.path, read_only=True) as game:
        k = game.state.kernel
        waits = pbem_dice.waiting_note(game) if game.identity.dice == pbem_dice.JOINT else None
        if k.sequence.finished:
            print(f"{args.path}: the game is over")
        elif waits:
            print(f"{args.path}: seq {k.seq}, {k.step}: the game is {waits}")
        else:
            pending = ", ".join(k.sequence.pending) or "nobody"
            print(f"{args.path}: seq {k.seq}, {k.step}: waiting for {pending} to decide ({game.identity.describe()})")
    return 0
