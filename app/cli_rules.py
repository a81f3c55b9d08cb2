"""``wif rules`` (the optional-rule catalogue, rule sets, Ctrl+O in a save); ``wif new-plugin``
is registered with them (app/newplugin.py).

Loaded by app/cli.py, which calls ``add_rules_commands(sub)``.
"""

from __future__ import annotations

import json
import sys
import textwrap

from kernel.errors import WifError

def _print_json(value) -> None:
    print(json.dumps(value, indent=2, ensure_ascii=False))


def split_ids(values) -> list[str]:
    """``--rules-on a,b --rules-on c`` -> [a, b, c]."""
    out: list[str] = []
    for value in values or []:
        out += [v.strip() for v in value.split(",") if v.strip()]
    return out


# ---------------------------------------------------------------- wif rules
# The optional-rule framework answers through its hooks (app/uihooks.py): a plugin host of
# the framework alone, no game.
ROW_FIELDS = ("id", "name", "group", "implemented", "prerequisites", "exclusions", "toggle", "not_during", "plugin",
              "origin", "source", "status")


def _row(rule: dict) -> dict:
    return {k: rule[k] for k in ROW_FIELDS}


def cmd_rules(args) -> int:
    from app.uihooks import ask_optional_rules

    catalogue = ask_optional_rules("optional_rules_catalogue")
    titles = catalogue["groups"]
    if args.group and args.group not in titles:
        raise WifError(f"no optional-rule group {args.group!r}; groups: {', '.join(titles)}")
    rules = [r for r in catalogue["rules"] if not args.group or r["group"] == args.group]
    if args.json:
        _print_json({"rules": [_row(r) | {"description": r["description"]} for r in rules],
                     "errors": catalogue["errors"]})
        return 0
    current = None
    for rule in rules:
        if rule["group"] != current:
            current = rule["group"]
            count = sum(1 for r in catalogue["rules"] if r["group"] == current)
            print(f"{titles[current]} ({count})")
        mark = "*" if rule["implemented"] else " "
        extra = []
        if rule["prerequisites"]:
            extra.append("needs " + ", ".join(rule["prerequisites"]))
        if rule["exclusions"]:
            extra.append("excludes " + ", ".join(rule["exclusions"]))
        if rule["toggle"] == "never":
            extra.append("not toggled in play")
        if rule["implemented"] and rule["origin"] != "builtin":
            extra.append(f"from {rule['origin']} {rule['plugin']}")
        print(f"  {mark} {rule['id']:<38} {rule['name']}{'  [' + '; '.join(extra) + ']' if extra else ''}")
    print("* implemented; the others are listed and described but cannot be switched on yet")
    for err in catalogue["errors"]:
        print(f"error: {err}", file=sys.stderr)
    return 0


def cmd_rules_show(args) -> int:
    from app.uihooks import ask_optional_rules

    rule = ask_optional_rules("optional_rule", rule_id=args.rule)
    if args.json:
        _print_json(_row(rule) | {"description": rule["description"]})
        return 0
    print(f"{rule['name']} ({rule['id']}), {rule['group']}: {rule['status']}")
    if rule["prerequisites"]:
        print(f"  prerequisites: {', '.join(rule['prerequisites'])}")
    if rule["exclusions"]:
        print(f"  excludes: {', '.join(rule['exclusions'])}")
    when = "never during play" if rule["toggle"] == "never" else (
        "during play" + (f", except in {', '.join(rule['not_during'])}" if rule["not_during"] else ""))
    print(f"  may be toggled: {when}")
    print(f"  source: {rule['source']}")
    print()
    print(textwrap.fill(rule["description"], width=90))
    return 0


def cmd_rules_save(args) -> int:
    from app.uihooks import ask_optional_rules, optional_rules_host

    host = optional_rules_host()
    choice = ask_optional_rules("optional_rules_choice", host, preset=args.rules, rules_on=split_ids(args.rules_on),
                                rules_off=split_ids(args.rules_off))
    path = ask_optional_rules("save_optional_rule_set", host, name=args.name, rules=choice["rules"])
    print(f"{path}: {len(choice['rules'])} rules ON: {', '.join(choice['rules']) or 'none'}")
    for note in choice["notes"]:
        print(f"  note: {note}")
    return 0


def cmd_rules_sets(args) -> int:
    from app.uihooks import ask_optional_rules

    sets = ask_optional_rules("optional_rule_sets")
    if args.json:
        _print_json(sets)
    else:
        print(f"{sets['folder']}: {', '.join(sets['sets']) or 'no saved sets'}")
    return 0


def cmd_rules_game(args) -> int:
    """What Ctrl+O shows in play: every rule, (ON) after those in play, and what may toggle now."""
    from app.uihooks import OPTIONAL_RULES_PLUGIN, ask_game
    from kernel.game import Game

    with Game.open(args.path, read_only=True) as game:
        if OPTIONAL_RULES_PLUGIN not in game.host.infos:
            raise WifError(f"{args.path}: this game was created without the optional-rule framework")
        rows = ask_game(game, "optional_rules_in_game", game=game)
    if args.json:
        _print_json([{k: r[k] for k in ("id", "name", "group", "on", "label", "implemented", "may_toggle_now",
                                          "why_not")} for r in rows])
        return 0
    for row in rows:
        if not row["implemented"] and not args.all:
            continue
        toggle = "may toggle now" if row["may_toggle_now"] else f"fixed now: {row['why_not']}"
        print(f"  {row['label']:<40} {toggle}")
    return 0


# ---------------------------------------------------------------- registering
def add_rules_commands(sub) -> None:
    p = sub.add_parser("rules", help="the optional-rule catalogue, rule sets, and the rules of a save")
    p.add_argument("--json", action="store_true")
    p.add_argument("--group", help="only this group (additional-units, land, air, naval, supply, production, other)")
    p.set_defaults(func=cmd_rules)
    rs = p.add_subparsers(dest="rules_action")

    q = rs.add_parser("show", help="one rule's full description")
    q.add_argument("rule")
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=cmd_rules_show)

    q = rs.add_parser("save", help="save a rule set (NAME 'personal' is the Personal Set; or a .json path)")
    q.add_argument("name")
    q.add_argument("--rules", default="none", help="start from this preset or saved set")
    q.add_argument("--rules-on", action="append", metavar="ID,…")
    q.add_argument("--rules-off", action="append", metavar="ID,…")
    q.set_defaults(func=cmd_rules_save)

    q = rs.add_parser("sets", help="the saved rule sets")
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=cmd_rules_sets)

    q = rs.add_parser("game", help="a save's optional rules, (ON) and which may be toggled now (Ctrl+O)")
    q.add_argument("path")
    q.add_argument("--json", action="store_true")
    q.add_argument("--all", action="store_true", help="list the rules not implemented yet too")
    q.set_defaults(func=cmd_rules_game)

    from app.newplugin import add_new_plugin_command

    add_new_plugin_command(sub)
