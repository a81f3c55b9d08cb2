"""The ``wif`` command line.  Command and option names are a contract: tools script them."""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
from pathlib import Path

# pygame's greeting would mix into the JSON and text other tools read from us
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from kernel.errors import WifError  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SCENARIO = "barbarossa"


def _print_json(value) -> None:
    print(json.dumps(value, indent=2, ensure_ascii=False))


def _parse_options(pairs: list[str]) -> dict:
    options = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise WifError(f"--option expects KEY=VALUE, got {pair!r}")
        key, value = pair.split("=", 1)
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    return options


def _parse_players(pairs: list[str]) -> dict[str, list[str]] | None:
    if not pairs:
        return None
    players = {}
    for pair in pairs:
        if "=" not in pair:
            raise WifError(f"--player expects NAME=POWER,POWER…, got {pair!r}")
        name, powers = pair.split("=", 1)
        players[name] = [p for p in powers.split(",") if p]
    return players


# ---------------------------------------------------------------- commands
def cmd_new(args) -> int:
    from app.cli_rules import split_ids
    from app.uihooks import ask_optional_rules, optional_rules_host

    options = _parse_options(args.option)
    # Optional rules (seeds, "Optional Rules"): a preset or saved set, then --rules-on/--rules-off;
    # an illegal choice (prerequisite, exclusion, not implemented) is refused before any file is
    # written.  The optional-rule framework decides, asked through its hooks.
    host = optional_rules_host()
    on, off = split_ids(args.rules_on), split_ids(args.rules_off)
    choice = ask_optional_rules("optional_rules_choice_for_scenario", host, scenario=args.scenario,
                                preset=args.rules, rules_on=on, rules_off=off)
    game = ask_optional_rules("new_game_with_rules", host, scenario=args.scenario, path=args.save, preset=args.rules,
                              rules_on=on, rules_off=off, options=options, players=_parse_players(args.player),
                              seed=args.seed)
    k = game.state.kernel
    dice = f"seed {k.seed}, seeded (not fair)" if game.identity.dice == "seeded" else "fair dice (this machine's host key)"
    print(f"{args.save}: new game of {args.scenario}, {dice}, {k.seq} events; now at {k.step or '-'}")
    print(f"  optional rules ON: {', '.join(choice['rules']) or 'none'}")
    for note in choice["notes"]:
        print(f"  note: {note}")
    game.close()
    return 0


def cmd_submit(args) -> int:
    from kernel.game import Game

    try:
        command = json.loads(args.command)
    except json.JSONDecodeError as exc:
        print(f"rejected: the command is not valid JSON ({exc})", file=sys.stderr)
        return 1
    except RecursionError:
        print("rejected: the command's JSON is nested too deeply", file=sys.stderr)
        return 1
    with Game.open(args.path) as game:
        outcome = game.submit(command, player=args.player)
        if outcome.accepted:
            _print_json([e.as_dict() for e in outcome.events])
            if outcome.reason:  # accepted to wait: a PBEM roll declared (kernel/pbem_dice.py)
                print(f"declared: the game is {outcome.reason}", file=sys.stderr)
            return 0
        print(f"rejected: {outcome.reason}", file=sys.stderr)
        # what the player may do instead, as `wif choices` would print it
        from app.cli_choices import print_choices

        if args.player in game.players():
            print_choices(game.choices(args.player), game, depth=1, out=sys.stderr)
    return 1


def cmd_verify(args) -> int:
    from kernel.verify import verify

    report = verify(args.path, as_player=args.player)
    for warning in report.warnings:
        print(f"  warning: {warning}", file=sys.stderr)
    if report.ok:
        lab = ", lab game: its situations were built by the rig" if report.lab else ""
        signed = (f"{report.commands} signed commands, {report.redecided} re-decided, " if report.signed
                  else "unsigned (made before signatures), ")
        print(f"{args.path}: OK ({report.events} events, {signed}{report.snapshots_checked} snapshots checked{lab}; "
              f"{report.fairness})")
        return 0
    where = f" (first bad seq {report.first_bad_seq})" if report.first_bad_seq else ""
    print(f"{args.path}: FAILED{where}{' (lab game)' if report.lab else ''}", file=sys.stderr)
    for problem in report.problems:
        print(f"  {problem}", file=sys.stderr)
    return 1


def cmd_fork(args) -> int:
    from kernel.game import Game

    with Game.open(args.path, read_only=True) as game:
        forked = game.fork(args.seq, args.newpath)
        print(f"{args.newpath}: forked from {args.path} at seq {args.seq} ({forked.state.kernel.seq} events)")
        forked.close()
    return 0


def cmd_plugins(args) -> int:
    from kernel.plugins import discover

    found = discover()
    rows = [
        {"id": i.id, "name": i.manifest.name, "version": i.manifest.version, "kind": i.manifest.kind,
         "origin": i.origin, "module": i.module_name, "requires": i.manifest.requires,
         "conflicts": i.manifest.conflicts, "affects_state": i.manifest.affects_state, "hash": i.content_hash}
        for i in sorted(found.plugins.values(), key=lambda i: (i.manifest.kind, i.id))
    ]
    if args.json:
        _print_json({"plugins": rows, "errors": found.errors})
    else:
        for r in rows:
            req = f" requires {','.join(r['requires'])}" if r["requires"] else ""
            print(f"{r['id']:<24} {r['version']:<8} {r['kind']:<13} {r['origin']:<11}{req}")
        for err in found.errors:
            print(f"error: {err}", file=sys.stderr)
    return 0


def cmd_schema(args) -> int:
    from kernel.plugins import PluginHost, discover

    found = discover()
    host = PluginHost(list(found.plugins.values()))
    schema = {
        "commands": {n: e.model.model_json_schema() | {"x-plugin": e.plugin} for n, e in sorted(host.commands.items())},
        "events": {
            n: e.model.model_json_schema() | {"x-plugin": e.plugin, "x-version": e.version}
            for n, e in sorted(host.events.items())
        },
    }
    if args.json:
        _print_json(schema)
    else:
        for kind in ("commands", "events"):
            print(f"{kind}:")
            for name, s in schema[kind].items():
                fields = ", ".join(s.get("properties", {}))
                print(f"  {name:<24} [{s['x-plugin']}] {fields}")
    return 0


BENCHMARKS = ("kernel", "replay", "render", "rules", "map", "hotreload", "choices", "play", "log", "net")


def cmd_bench(args) -> int:
    """Each benchmark is tools/bench_<what>.py with run(**options) -> dict and print_table(dict)."""
    import importlib

    sys.path.insert(0, str(REPO_ROOT / "tools"))
    try:
        module = importlib.import_module(f"bench_{args.what}")
    except ImportError as exc:
        raise WifError(f"benchmark {args.what!r} is not available ({exc})") from exc
    options = {k: v for k, v in (("events", args.events), ("keep", args.keep)) if v is not None}
    if args.no_game:
        options["game"] = False
    result = module.run(**options)
    if args.json:
        _print_json(result)
    else:
        module.print_table(result)
    return 0


def cmd_play(args) -> int:
    from app import play

    return play.main(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="wif", description="World in Flames, computer edition")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("new", help="start a new game in a new save file")
    p.add_argument("scenario")
    p.add_argument("--save", required=True, help="path of the new save (*.wif)")
    p.add_argument("--seed", type=int, help="dice from this seed: replayable by anyone, so marked 'seeded (not fair)' "
                                            "(tests, replays); without it the dice come from this machine's host key")
    p.add_argument("--rules", default="none",
                   help="optional rules: none, all, novice, standard, advanced, personal, or a saved set's name or .json path")
    p.add_argument("--rules-on", action="append", metavar="ID,…", help="switch these optional rules ON too")
    p.add_argument("--rules-off", action="append", metavar="ID,…", help="switch these optional rules OFF")
    p.add_argument("--option", action="append", metavar="KEY=VALUE", help="scenario option (JSON value)")
    p.add_argument("--player", action="append", metavar="NAME=POWER,…", help="who plays which powers")
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("submit", help="submit one command (JSON) to a game")
    p.add_argument("path")
    p.add_argument("command", help='e.g. \'{"type": "FinishStep", "actor": "red"}\'')
    p.add_argument("--as", dest="player", default="solo", help="the player submitting (default: solo)")
    p.set_defaults(func=cmd_submit)

    p = sub.add_parser("verify", help="check a save: signatures, chain, meta, every command re-decided, snapshots, plugins")
    p.add_argument("path")
    p.add_argument("--as", dest="player", help="verify as this player: needs their key; checks their receipt")
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("fork", help="copy a game's first SEQ events into a new save")
    p.add_argument("path")
    p.add_argument("seq", type=int)
    p.add_argument("newpath")
    p.set_defaults(func=cmd_fork)

    p = sub.add_parser("plugins", help="list the installed plugins")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_plugins)

    p = sub.add_parser("schema", help="JSON schema of every registered command and event")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_schema)

    p = sub.add_parser("bench", help="benchmarks")
    p.add_argument("what", choices=BENCHMARKS)
    p.add_argument("--events", type=int, help="kernel: size of the synthetic game (default 300,000)")
    p.add_argument("--keep", help="keep the benchmark save at this path")
    p.add_argument("--no-game", action="store_true",
                   help="render / play: leave out the whole-game GUI autoplay (minutes); play: the clicks only")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("play", help="open the game window")
    p.add_argument("save", nargs="?", help="a save to open (default: a new game)")
    p.add_argument("--scenario", help=f"start a new game of this scenario at once (e.g. {DEFAULT_SCENARIO}); "
                   "without it and without a save, the Start New Game form opens")
    p.add_argument("--dev", action="store_true", help="hot reload plugins when their files change")
    p.add_argument("--read-only", action="store_true",
                   help="open a save whose plugins differ, to look at it (no command is accepted)")
    p.add_argument("--frames", type=int, help="quit after this many frames (tests, screenshots)")
    p.add_argument("--screenshot", help="save the last frame to this PNG")
    p.add_argument("--autoplay", action="store_true",
                   help="watch the game play itself: a bot clicks the forms and the map (app/guidriver.py)")
    p.add_argument("--policy", default="random", choices=("random", "greedy"), help="--autoplay: the bots' policy")
    p.add_argument("--seed", type=int, default=0, help="--autoplay: the bots' seed")
    p.add_argument("--delay", type=float, default=0.3, help="--autoplay: seconds between two clicks (default 0.3)")
    p.add_argument("--server", metavar="URL", help="play SAVE, a game's name on this server (wif serve), e.g. ws://host:8765/ws")
    p.add_argument("--as", dest="player", help="--server: your seat (your key proves it)")
    p.add_argument("--spectate", action="store_true", help="--server: watch the game without a seat")
    p.set_defaults(func=cmd_play)

    # Sub-commands that live with their feature: app/cli_<name>.py defines add_<name>_commands.
    import importlib

    for name in ("log", "map", "render", "replay", "rules", "choices", "bots", "net"):
        try:
            module = importlib.import_module(f"app.cli_{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"app.cli_{name}":
                raise
            continue
        getattr(module, f"add_{name}_commands")(sub)
    return parser


@functools.cache
def _parser() -> argparse.ArgumentParser:
    # built once a process: argparse looks up a translation for each of its messages, and the
    # 39 commands took a third of a second to build (a test or a tool calling main() per command)
    return build_parser()


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return args.func(args)
    except WifError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # the reader went away (`wif log … | head`): stop quietly, as Unix tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
