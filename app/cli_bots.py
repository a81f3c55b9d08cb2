"""`wif autoplay` (bots play a whole game) and `wif bot` (a bot plays one side's pending decisions)."""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

from kernel.errors import WifError

from .bots import POLICIES, Bot, Tally, autoplay, play_pending


def add_bots_commands(sub) -> None:
    p = sub.add_parser("autoplay", help="bots play a whole game, drawing only from the game's choices")
    p.add_argument("scenario")
    p.add_argument("--seed", type=int, default=1, help="the game's dice and the bots' seed (default 1)")
    p.add_argument("--seeds", help="play several games, e.g. 1-20, and print the tally of winners by policy")
    p.add_argument("--policy", choices=POLICIES, default="random", help="every side's policy (default random)")
    p.add_argument("--side", action="append", default=[], metavar="SIDE=POLICY",
                   help="one side's policy, e.g. axis=greedy (overrides --policy)")
    p.add_argument("--save", help="path of the save (default: a temporary file, removed afterwards)")
    p.add_argument("--limit", type=int, default=200000, help="stop after this many decisions")
    p.add_argument("--rules", default="none", help="optional rules preset or saved set (as `wif new --rules`)")
    p.add_argument("--rules-on", action="append", metavar="ID,…", help="switch these optional rules ON too")
    p.add_argument("--rules-off", action="append", metavar="ID,…", help="switch these optional rules OFF")
    p.add_argument("--random-rules", action="store_true",
                   help="each game switches ON a random subset (drawn from its seed) of the rules --rules chooses")
    p.add_argument("--skips", action="store_true",
                   help="print, over all games, how often each step was skipped and why ('no rule yet' counted apart)")
    p.set_defaults(func=cmd_autoplay)

    p = sub.add_parser("bot", help="a bot decides a player's pending decisions in a save")
    p.add_argument("path")
    p.add_argument("--as", dest="player", required=True, help="the player the bot plays")
    p.add_argument("--policy", choices=POLICIES, default="random")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--commands", type=int, default=1000, help="stop after this many decisions")
    p.add_argument("--server", help="play PATH as a game of this server (ws://HOST:PORT/ws; app/cli_net.py)")
    p.add_argument("--seconds", type=float, default=3600.0, help="--server: stop after this long")
    p.set_defaults(func=cmd_bot)


def _policies(game, default: str, pairs: list[str]) -> dict[str, str]:
    sides = list(game.state.kernel.sides)
    chosen = {side: default for side in sides}
    for pair in pairs:
        side, _, policy = pair.partition("=")
        if side not in sides:
            raise WifError(f"--side {pair!r}: {side!r} is not a side of this game ({', '.join(sides)})")
        if policy not in POLICIES:
            raise WifError(f"--side {pair!r}: unknown policy {policy!r} ({', '.join(POLICIES)})")
        chosen[side] = policy
    return chosen


def play_one(scenario: str, seed: int, default: str, pairs: list[str], save: Path, limit: int,
             swap: bool = False, rules: dict | None = None,
             skips: dict | None = None) -> tuple[dict, dict | None, Tally, int]:
    """One whole game; returns (policies, result, tally, events).  ``rules``: the optional
    rules as ``wif new`` takes them ({"preset", "rules_on", "rules_off"}), chosen by the framework.
    ``skips``: (step, reason) -> count, added to for every step the game skipped."""
    from kernel.game import Game

    if rules and (rules.get("preset", "none") != "none" or rules.get("rules_on") or rules.get("rules_off")):
        from app.uihooks import ask_optional_rules

        game = ask_optional_rules("new_game_with_rules", None, scenario=scenario, path=save, seed=seed,
                                  preset=rules.get("preset", "none"), rules_on=rules.get("rules_on", []),
                                  rules_off=rules.get("rules_off", []), options={}, players=None)
    else:
        game = Game.new(scenario, save, seed=seed)
    try:
        policies = _policies(game, default, pairs)
        if swap:
            sides = list(policies)
            policies = dict(zip(sides, reversed([policies[s] for s in sides])))
        tally = autoplay(game, policies, seed=seed, limit=limit)
        result = game.host.pm.hook.game_result(state=game.state)
        if not game.state.kernel.sequence.finished:
            k = game.state.kernel
            raise WifError(f"seed {seed}: the game did not finish (turn {k.turn}, step {k.sequence.current}, "
                           f"{tally.decisions} decisions)")
        if skips is not None:
            count_skips(game, skips)
        return policies, result, tally, game.state.kernel.seq
    finally:
        game.close()


def count_skips(game, skips: dict) -> None:
    """Add the game's skipped steps to ``skips``: (step, reason) -> count."""
    for rec in game.history(1):
        if rec.type == "StepSkipped":
            key = (rec.data["step"], rec.data["reason"])
            skips[key] = skips.get(key, 0) + 1


def random_rules(rules: dict, seed: int, scenario: str | None = None) -> dict:
    """A random subset, drawn from ``seed``, of the optional rules ``rules`` would switch ON;
    given ``scenario``, of those among them whose plugins suit its game (no Kamikaze, which
    needs the naval rules, in Barbarossa).  The unsuitable are dropped before the draw, so
    the other rules' draws stay what they were."""
    from app.uihooks import ask_optional_rules

    pool = ask_optional_rules("optional_rules_choice", None, preset=rules.get("preset", "none"),
                              rules_on=rules.get("rules_on", []), rules_off=rules.get("rules_off", []))["rules"]
    if scenario is not None:
        fitting = set(ask_optional_rules("optional_rules_fitting", None, scenario=scenario)["rules"])
        pool = [r for r in pool if r in fitting]
    prerequisites = {row["id"]: row["prerequisites"] for row in ask_optional_rules("optional_rules_catalogue")["rules"]}
    draw = random.Random(f"random-rules:{seed}")
    chosen = {r for r in pool if draw.random() < 0.5}
    while True:  # a drawn rule brings its prerequisites (all in the pool, which is a legal set)
        needed = {p for r in chosen for p in prerequisites.get(r, ())} - chosen
        if not needed:
            break
        chosen |= needed
    return {"preset": "none", "rules_on": sorted(chosen), "rules_off": []}


def print_skips(skips: dict, games: int, out=None) -> int:
    """The skip benchmark: each step's skips and reasons; returns how many were 'no rule yet'."""
    from kernel.engine import NO_RULE_YET

    out = out or sys.stdout
    by_step: dict[str, dict[str, int]] = {}
    for (step, reason), n in skips.items():
        by_step.setdefault(step, {})[reason] = n
    print(f"skipped steps over {games} games:", file=out)
    for step in sorted(by_step):
        for reason, n in sorted(by_step[step].items(), key=lambda kv: -kv[1]):
            print(f"  {n:6d}  {step}: {reason}", file=out)
    missing = {step: r[NO_RULE_YET] for step, r in by_step.items() if NO_RULE_YET in r}
    print(f"'{NO_RULE_YET}': {sum(missing.values())} skips in {len(missing)} steps"
          + (": " + ", ".join(f"{s} ({n})" for s, n in sorted(missing.items())) if missing else ""), file=out)
    return sum(missing.values())


def cmd_autoplay(args) -> int:
    from kernel.verify import verify

    seeds = [args.seed]
    if args.seeds:
        lo, _, hi = args.seeds.partition("-")
        seeds = list(range(int(lo), int(hi or lo) + 1))
    wins: dict[str, int] = {}
    scores: dict[tuple[str, str], list[float]] = {}  # (side, policy) -> the side's score each game
    games = 0
    refusals = 0
    from .cli_rules import split_ids

    rules = {"preset": args.rules, "rules_on": split_ids(args.rules_on), "rules_off": split_ids(args.rules_off)}
    skips: dict | None = {} if args.skips else None
    with tempfile.TemporaryDirectory() as tmp:
        for i, seed in enumerate(seeds):
            chosen = random_rules(rules, seed, args.scenario) if args.random_rules else rules
            if args.random_rules:
                print(f"seed {seed}: optional rules ON: {', '.join(chosen['rules_on']) or 'none'}", flush=True)
            save = Path(args.save) if (args.save and len(seeds) == 1) else Path(tmp) / f"{args.scenario}-{seed}.wif"
            # Over several seeds the sides swap policies every other game, so a tally is fair.
            policies, result, tally, events = play_one(args.scenario, seed, args.policy, args.side, save,
                                                       args.limit, swap=bool(args.seeds) and i % 2 == 1,
                                                       rules=chosen, skips=skips)
            report = verify(save)
            rate = tally.decisions / tally.seconds if tally.seconds else 0.0
            winner = (result or {}).get("winner")
            text = (result or {}).get("text", "no result")
            who = ", ".join(f"{s}={p}" for s, p in policies.items())
            missing = ""
            if skips is not None:
                from kernel.engine import NO_RULE_YET

                missing = f", '{NO_RULE_YET}' skips so far {sum(n for (_, r), n in skips.items() if r == NO_RULE_YET)}"
            print(f"seed {seed}: {who}: {text}; {tally.commands} commands ({tally.decisions} decisions, "
                  f"{rate:.0f}/s), {events} events, verify {'OK' if report.ok else 'FAILED'}{missing}", flush=True)
            for line in tally.refused[:5]:
                print(f"  refused (broken choices contract): {line}", file=sys.stderr)
            refusals += len(tally.refused)
            if not report.ok:
                for problem in report.problems:
                    print(f"  {problem}", file=sys.stderr)
                return 1
            games += 1
            if winner is not None:
                key = policies.get(winner, winner)
                wins[key] = wins.get(key, 0) + 1
            for side, value in ((result or {}).get("scores") or {}).items():
                scores.setdefault((side, policies.get(side, "?")), []).append(float(value))
            if args.save and len(seeds) == 1:
                print(f"saved to {save}")
    if len(seeds) > 1:
        print(f"tally over {games} games: " + ", ".join(f"{p} won {n}" for p, n in sorted(wins.items()))
              + f", no winner {games - sum(wins.values())}")
        for (side, policy), values in sorted(scores.items()):
            print(f"  {side} played by {policy}: mean score {sum(values) / len(values):.1f} over {len(values)} games")
    if skips is not None:
        print_skips(skips, games)
    return 1 if refusals else 0


def cmd_bot(args) -> int:
    from kernel.game import Game

    if args.server:
        from .cli_net import cmd_bot_net

        return cmd_bot_net(args)
    with Game.open(args.path) as game:
        if args.player not in game.players():
            raise WifError(f"{args.player!r} is not a player of this game (players: {', '.join(game.players())})")
        k = game.state.kernel
        sides = {k.side_of(p) or p for p, who in k.controllers.items() if who == args.player}
        bots = {side: Bot(args.policy, args.seed) for side in sides}
        tally = Tally()
        while tally.decisions < args.commands:
            mine = game.choices(args.player)
            if not mine.decisions or not play_pending(game, bots, tally):
                break
        waiting = ", ".join(game.state.kernel.sequence.pending) or "nobody"
        print(f"{args.player}: {tally.commands} commands; now at {game.state.kernel.sequence.current}, "
              f"waiting for {waiting}")
        for line in tally.refused[:5]:
            print(f"  refused (broken choices contract): {line}", file=sys.stderr)
    return 1 if tally.refused else 0
