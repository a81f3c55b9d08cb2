"""`wif choices` (what a player may do now) and `wif steps` (who handles each step of play)."""

from __future__ import annotations

import json
import sys

from kernel.choices import Choices, Field
from kernel.errors import WifError

SHOWN = 12  # options listed per field before "… N more"


def add_choices_commands(sub) -> None:
    p = sub.add_parser("choices", help="what a player may decide now: commands and each field's legal values")
    p.add_argument("path")
    p.add_argument("--as", dest="player", help="the player asking (default: every decider)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--depth", type=int, default=3, help="how many dependent fields deep to list (default 3)")
    p.set_defaults(func=cmd_choices)

    p = sub.add_parser("steps", help="every step of the sequence of play and the plugin function that handles it")
    p.add_argument("--scenario", default="barbarossa", help="the scenario whose plugin set is asked (default barbarossa)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_steps)


def cmd_choices(args) -> int:
    from kernel.game import Game

    with Game.open(args.path, read_only=True) as game:
        if game.problems:
            raise WifError(f"{args.path} cannot be played as it is: " + "; ".join(game.problems))
        found = game.choices(args.player)
        if args.json:
            print(json.dumps(found.as_dict(args.depth), indent=2, ensure_ascii=False))
        else:
            print_choices(found, game, args.depth)
    return 0


def print_choices(found: Choices, game, depth: int = 3, out=None) -> None:
    out = out or sys.stdout
    k = game.state.kernel
    if found.finished:
        print("The game is over: nobody decides anything.", file=out)
        return
    if found.waiting:
        print(f"The game is {found.waiting}.", file=out)
        return
    pending = [d for d in found.decisions if d.pending]
    if not pending:
        waiting = ", ".join(k.sequence.pending) or "nobody (the game moves on by itself)"
        who = f"{found.player} has nothing to decide now" if found.player else "Nobody has anything to decide now"
        print(f"{who}; the game waits for: {waiting}.", file=out)
    for decision in found.decisions:
        if decision.pending:
            print(f"{decision.decider} decides in {decision.title!r}:", file=out)
        else:
            print(f"{decision.decider} may at any time:", file=out)
        for choice in decision.commands:
            note = "  (no choices function yet: fields from the schema, values unchecked)" if choice.source == "schema" else ""
            print(f"  {choice.type} as {choice.actor}{note}", file=out)
            _print_fields(choice.fields, depth, "    ", out)
    if found.schema_only:
        print(f"Commands with no choices function yet: {', '.join(found.schema_only)}", file=out)


def _print_fields(fields: list[Field], depth: int, indent: str, out) -> None:
    for f in fields:
        if f.kind == "number":
            print(f"{indent}{f.name}: a number from {f.min} to {f.max}", file=out)
            continue
        if f.kind == "text":
            print(f"{indent}{f.name}: {f.label or 'a value'}", file=out)
            continue
        options = f.all_options()
        how = {"units": f"any {f.min or 0} to {f.max if f.max is not None else len(options)} of"}.get(f.kind, "one of")
        print(f"{indent}{f.name}: {how} {len(options)}", file=out)
        for o in options[:SHOWN]:
            label = f" ({o.label})" if o.label else ""
            print(f"{indent}  {json.dumps(o.value)}{label}", file=out)
            if depth > 1 and f.kind != "units":
                _print_fields(o.next_fields(), depth - 1, indent + "    ", out)
        if len(options) > SHOWN:
            print(f"{indent}  … {len(options) - SHOWN} more", file=out)


def step_handlers(host, root, state=None) -> list[dict]:
    """Each step of the tree with who decides it and the plugin function that handles it.

    With ``state`` (a game of the scenario as it starts), a step no function handles is
    asked ``skip_step`` there: its reason (option off, not in this scenario, nothing to act
    on) is how the game handles it, and ``skip_reason`` gives it."""
    from kernel.engine import NO_RULE_YET, SequenceIndex

    index = SequenceIndex(root)
    rows = []
    skipped: dict[str, str] = {}  # step -> why it is skipped at the start of the game
    for step, spec in index.specs.items():
        row = {"step": step, "title": spec.title, "decides": spec.decides, "handled_by": [],
               "called": _called(index, step)}
        if spec.children:
            row["decides"] = "container"
        elif spec.decides == "system":
            rule = host.step_rules.get(step)
            if rule:
                row["handled_by"].append(f"{rule[1]}: {_name(rule[0])}")
        else:
            for name in spec.commands:
                entry = host.commands.get(name)
                if entry is not None and name != "FinishStep":
                    choices = host.choices.get(name)
                    extra = "" if choices and choices.choices else " (no choices function)"
                    row["handled_by"].append(f"{entry.plugin}: {_name(entry.handler)}{extra}")
        if state is not None and (spec.children or not row["handled_by"]):
            # a container skipped there takes its leaves with it
            parent = index.parent.get(step)
            reason = skipped.get(parent) if parent else None
            reason = reason or host.pm.hook.skip_step(state=state, step_id=step, spec=spec)
            if reason:
                skipped[step] = row["skip_reason"] = str(reason)
                if not spec.children:
                    row["handled_by"] = [f"skipped: {reason}"]
        if not spec.children and not row["handled_by"]:
            row["handled_by"] = [NO_RULE_YET] if spec.decides == "system" or spec.commands else ["FinishStep only"]
        rows.append(row)
    return rows


def _called(index, step: str) -> bool:
    """Inside a sub-machine or digression: entered only when a rule pushes it."""
    while step is not None:
        if index.specs[step].called:
            return True
        step = index.parent.get(step)
    return False


def _name(fn) -> str:
    return f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', repr(fn))}"


def cmd_steps(args) -> int:
    import tempfile
    from pathlib import Path

    from kernel.game import Game
    from kernel.plugins import discover

    info = discover().plugins.get(args.scenario)
    if info is None or info.manifest.kind != "scenario":
        raise WifError(f"no scenario {args.scenario!r} is installed")
    # A game of the scenario as it starts answers why a step with no rule is skipped there.
    with tempfile.TemporaryDirectory() as tmp:
        game = Game.new(args.scenario, Path(tmp) / "steps.wif", seed=1)
        try:
            host = game.host
            root = host.sequences[host.scenarios[args.scenario].sequence][0]
            rows = step_handlers(host, root, game.state)
        finally:
            game.close()
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return 0
    leaves = [r for r in rows if r["decides"] != "container"]
    missing = [r for r in leaves if r["handled_by"] == ["no rule yet"]]
    reasons = [r for r in leaves if "skip_reason" in r and r["handled_by"][0].startswith("skipped")]
    in_flow = [r for r in missing if not r["called"]]
    for r in rows:
        depth = r["step"].count(".")
        handled = "" if r["decides"] == "container" else "  <- " + "; ".join(r["handled_by"])
        print(f"{'  ' * depth}{r['title']} [{r['decides']}]{handled}")
    print(f"{len(leaves)} steps, {len(reasons)} skipped with a reason at the start of a game, {len(missing)} with "
          f"no rule yet ({len(in_flow)} of them in the flow, the others only where a rule pushes them) "
          f"(scenario {args.scenario})")
    return 0
