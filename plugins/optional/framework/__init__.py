"""The optional-rule framework: which rules are ON in a game, and switching one during play.

How an optional rule knows it is ON
-----------------------------------
The rules ON when a game starts are in its options (``state.kernel.options["optional_rules"]``,
recorded in the GameStarted event and the save's meta).  Every change during play is an
``OptionalRuleToggled`` event, folded into the state section ``optional.rules``.  So
``is_on(state, rule_id)`` is a pure function of the event log: replay, ``state --at SEQ`` and
the replay viewer all see the rule change exactly where it changed.

An optional rule's plugin is loaded whether its rule is ON or OFF (so it can be switched
on during play, and so its events replay); each of its hooks starts with
``if not is_on(state, RULE_ID): return None`` and so leaves the base rules alone while OFF.

Seeds, "Optional Rules" (L2749-2758): some rules may be toggled during play, not all, and
not everywhere in the sequence of play (Kamikaze not during naval air combat; 2D10 Land
CRT not during land movement or land combat).  ``ToggleOptionalRule`` checks that, and the
prerequisites and exclusion, before anything is recorded.
"""

from __future__ import annotations

from fnmatch import fnmatchcase
from typing import Iterable

from pydantic import BaseModel, Field

from kernel.errors import Rejected
from kernel.events import Command, EventData
from kernel import choices as offer
from kernel.registry import Registry

# the framework's public names
from .catalogue import GROUPS, Catalogue, RuleInfo, RulesError, build_catalogue, catalogue_for_plugins  # noqa: F401
from .presets import choose_rules, new_game  # noqa: F401

rules = Registry()

SECTION = "optional.rules"
OPTION = "optional_rules"


@rules.state(SECTION)
class OptionalRulesState(BaseModel):
    # Rules switched during play: rule id -> ON.  Rules never switched follow the options.
    toggled: dict[str, bool] = Field(default_factory=dict)
    # Every switch, in order: {"seq", "rule", "on", "by"} (what the Ctrl+O form shows as history).
    changes: list[dict] = Field(default_factory=list)


# ---------------------------------------------------------------- reading (for every rule)
def is_on(state, rule_id: str) -> bool:
    """Is optional rule ``rule_id`` ON in this state?  The one question rule hooks ask."""
    section = state.sections.get(SECTION)
    if section is not None and rule_id in section.toggled:
        return section.toggled[rule_id]
    return rule_id in (state.kernel.options.get(OPTION) or ())


def rules_on(state) -> list[str]:
    started = list(state.kernel.options.get(OPTION) or ())
    section = state.sections.get(SECTION)
    toggled = section.toggled if section is not None else {}
    out = [r for r in started if toggled.get(r, True)]
    out += [r for r, on in toggled.items() if on and r not in out]
    return out


_catalogues: dict[int, tuple[object, Catalogue]] = {}


def game_catalogue(host) -> Catalogue:
    """The catalogue as this game knows it (its own plugin set: deterministic on replay)."""
    cached = _catalogues.get(id(host))
    if cached is None or cached[0] is not host:
        cached = (host, catalogue_for_plugins(list(host.infos.values())))
        _catalogues[id(host)] = cached
    return cached[1]


def rules_view(game) -> list[dict]:
    """The Ctrl+O list: every rule with ON/OFF and whether it may be toggled now."""
    catalogue = game_catalogue(game.host)
    out = []
    for rule in catalogue.rules.values():
        on = is_on(game.state, rule.id)
        if not rule.listed and not on:
            continue  # a rule our sources do not name is shown only if this game plays it
        reason = toggle_refusal(rule, game.state, game.host, want=not on, catalogue=catalogue)
        out.append({"id": rule.id, "name": rule.name, "group": rule.group, "on": on,
                    "label": f"{rule.name} (ON)" if on else rule.name, "implemented": rule.implemented,
                    "may_toggle_now": reason is None, "why_not": reason})
    return out


# ---------------------------------------------------------------- when a rule may be toggled
def _steps_now(state) -> list[str]:
    """The current step and every step a digression interrupted (relative to the root)."""
    seq = state.kernel.sequence
    steps = [seq.current] + [f.step for f in seq.stack] + [f.resume for f in seq.stack]
    out = []
    for step in steps:
        if step:
            out.append(step.split(".", 1)[1] if "." in step else "")
    return out


def toggle_window_refusal(rule: RuleInfo, state) -> str | None:
    """Why ``rule`` may not be toggled at this point of the sequence of play, or None."""
    if rule.toggle == "never":
        return (f"{rule.name} cannot be switched on or off during play: it is chosen when the game starts "
                "(seeds, Optional Rules: rules which add units cannot be toggled during game play)")
    for step in _steps_now(state):
        for pattern in rule.not_during:
            if fnmatchcase(step, pattern):
                return (f"{rule.name} cannot be switched on or off now: the game is in {step!r}, where this rule "
                        f"may not change (seeds, Optional Rules)")
    return None


def toggle_refusal(rule: RuleInfo, state, host, want: bool, catalogue: Catalogue) -> str | None:
    """Why switching ``rule`` to ``want`` is refused now, or None if it is allowed."""
    if not rule.listed:
        return (f"{rule.name} cannot be switched during play: it is no rule our sources name ({rule.unlisted}); "
                "it is chosen by its id when a game starts, or not at all")
    in_play = {p for powers in state.kernel.sides.values() for p in powers}
    if rule.needs_powers and not in_play & set(rule.needs_powers):  # scope.py: Kamikaze without Japan
        return (f"{rule.name} does not apply in this scenario: it needs {' or '.join(rule.needs_powers)} in play, "
                f"and its major powers are {', '.join(sorted(in_play))}")
    if want and not is_on(state, rule.id):
        # named first: a game whose prerequisite is OFF did not load the rule's plugin either
        for pre in rule.prerequisites:
            if not is_on(state, pre):
                return f"{rule.name} needs {catalogue.rules[pre].name} ON first: it is its prerequisite"
    # The game's catalogue holds only the plugins the game was created with (so a toggle
    # decides the same way on every machine): a rule without one here cannot change.
    if not rule.implemented or rule.plugin not in host.infos:
        return (f"{rule.name} cannot be switched on or off in this game: it is not implemented yet, or its plugin "
                "was not part of the game when it was created (start a new game with the rule ON)")
    if is_on(state, rule.id) == want:
        return f"{rule.name} is {'ON' if want else 'OFF'} already"
    window = toggle_window_refusal(rule, state)
    if window:
        return window
    if want:
        for pre in rule.prerequisites:
            if not is_on(state, pre):
                return f"{rule.name} needs {catalogue.rules[pre].name} ON first: it is its prerequisite"
        for other in rule.exclusions:
            if is_on(state, other):
                return (f"{rule.name} and {catalogue.rules[other].name} are mutually exclusive: switch "
                        f"{catalogue.rules[other].name} OFF first")
    else:
        needing = [catalogue.rules[d].name for d in catalogue.dependents(rule.id) if is_on(state, d)]
        if needing:
            return f"{rule.name} cannot be switched OFF while {', '.join(needing)} (which need it) are ON"
    return None


# ---------------------------------------------------------------- events and commands
@rules.event
class OptionalRuleToggled(EventData):
    """An optional rule was switched ON or OFF during play (seeds, Optional Rules: right-click)."""

    rule: str
    on: bool


class ToggleOptionalRule(Command):
    rule: str
    on: bool


def toggle_optional_rule(ctx, cmd: ToggleOptionalRule) -> None:
    catalogue = game_catalogue(ctx.host)
    try:
        rule = catalogue.get(cmd.rule)
    except RulesError as exc:
        raise Rejected(str(exc)) from None
    reason = toggle_refusal(rule, ctx.state, ctx.host, cmd.on, catalogue)
    if reason:
        raise Rejected(reason)
    ctx.emit(OptionalRuleToggled(rule=rule.id, on=cmd.on))


def toggle_choices(state, actor: str, step_id: str, host):
    """The rules this game may switch now, each offered the way it may go (seeds, Optional
    Rules: a right-click toggles a rule where the rule allows it): toggle_refusal decides."""
    catalogue = game_catalogue(host)
    options = []
    for rule in catalogue.implemented():
        want = not is_on(state, rule.id)
        if toggle_refusal(rule, state, host, want, catalogue) is None:
            options.append(offer.Option(rule.id, f"{rule.name}: switch {'ON' if want else 'OFF'}",
                                        then=[offer.Field("on", "bool", [offer.Option(want, "ON" if want else "OFF")])]))
    return [offer.Field("rule", "option", options)] if options else None


def toggle_preview(state, cmd: ToggleOptionalRule, host) -> dict:
    catalogue = game_catalogue(host)
    try:
        rule = catalogue.get(cmd.rule)
    except RulesError as exc:
        raise Rejected(str(exc)) from None
    reason = toggle_refusal(rule, state, host, cmd.on, catalogue)
    if reason:
        raise Rejected(reason)
    return {"rule": rule.name, "on": cmd.on}


@rules.reducer("OptionalRuleToggled")
def _toggled(state, event) -> None:
    d = event.data
    section = state[SECTION]
    section.toggled[d["rule"]] = d["on"]
    section.changes.append({"seq": event.seq, "rule": d["rule"], "on": d["on"], "by": event.actor})


# ---------------------------------------------------------------- hooks
# Legal in any step; toggle_refusal decides which steps refuse which rule.
rules.command(ToggleOptionalRule, anytime=True, choices=toggle_choices, preview=toggle_preview)(toggle_optional_rule)


@rules.describe("OptionalRuleToggled")
def _say_toggled(event, state):
    rule_id = event.data["rule"]
    return f"{event.actor}: optional rule {rule_id} switched {'ON' if event.data['on'] else 'OFF'}"


def describe_rules(rules: Iterable[str]) -> str:
    return ", ".join(rules) or "none"

rules.export(globals())

from .ui import *  # noqa: E402,F401,F403 - the front end's hooks (app/uihooks.py), ui.__all__
