"""What the window and the command line ask the optional-rule framework (the front end's
hooks, specified in app/uihooks.py; optional here, so a game without a window does not need
their specifications).  Answers are plain data: the front end imports nothing of ours."""

from __future__ import annotations

from kernel.hookspecs import hookimpl

from . import game_catalogue, rules_view
from .catalogue import BUILTIN_PRESETS, GROUP_TITLES, RuleInfo, build_catalogue
from .presets import (
    choose_rules,
    choose_rules_for,
    list_rule_sets,
    new_game,
    rule_sets_dir,
    rules_fitting,
    rules_not_applying,
    save_rule_set,
)

__all__ = ["new_game_with_rules", "optional_rule", "optional_rule_sets", "optional_rules_catalogue",
           "optional_rules_choice", "optional_rules_choice_for_scenario", "optional_rules_fitting",
           "optional_rules_in_game", "save_optional_rule_set"]


def rule_row(rule: RuleInfo) -> dict:
    return {"id": rule.id, "name": rule.name, "group": rule.group, "description": rule.description,
            "implemented": rule.implemented, "prerequisites": list(rule.prerequisites),
            "exclusions": list(rule.exclusions), "toggle": rule.toggle, "not_during": list(rule.not_during),
            "plugin": rule.plugin, "origin": rule.origin, "source": rule.source, "status": rule.status(),
            "listed": rule.listed, "needs_powers": list(rule.needs_powers)}


@hookimpl(optionalhook=True)
def optional_rules_catalogue():
    catalogue = build_catalogue()
    saved = [n for n in list_rule_sets() if n not in BUILTIN_PRESETS]
    # only the rules our sources name: an unnamed catalogue entry is no rule to offer a player
    return {"groups": dict(GROUP_TITLES), "rules": [rule_row(r) for r in catalogue.listed()],
            "presets": list(BUILTIN_PRESETS) + saved, "errors": list(catalogue.errors)}


@hookimpl(optionalhook=True)
def optional_rule(rule_id):
    return rule_row(build_catalogue().get(rule_id))


@hookimpl(optionalhook=True)
def optional_rules_choice(preset, rules_on, rules_off):
    choice = choose_rules(build_catalogue(), preset, list(rules_on or ()), list(rules_off or ()))
    return {"preset": choice.preset, "rules": list(choice.rules), "notes": list(choice.notes)}


@hookimpl(optionalhook=True)
def optional_rules_choice_for_scenario(scenario, preset, rules_on, rules_off):
    choice = choose_rules_for(scenario, preset, list(rules_on or ()), list(rules_off or ()))
    return {"preset": choice.preset, "rules": list(choice.rules), "notes": list(choice.notes)}


@hookimpl(optionalhook=True)
def optional_rules_fitting(scenario):
    # "not_applying": rule id -> why it does nothing in this scenario (Kamikaze without Japan)
    return {"scenario": scenario, "rules": rules_fitting(scenario), "not_applying": rules_not_applying(scenario)}


@hookimpl(optionalhook=True)
def new_game_with_rules(scenario, path, preset, rules_on, rules_off, options, players, seed):
    return new_game(scenario, path, preset=preset, on=list(rules_on or ()), off=list(rules_off or ()),
                    options=options, players=players, seed=seed)


@hookimpl(optionalhook=True)
def optional_rule_sets():
    return {"folder": str(rule_sets_dir()), "sets": list_rule_sets()}


@hookimpl(optionalhook=True)
def save_optional_rule_set(name, rules):
    return str(save_rule_set(name, rules, build_catalogue()))


@hookimpl(optionalhook=True)
def optional_rules_in_game(game):
    catalogue = game_catalogue(game.host)
    return [rule_row(catalogue.rules[row["id"]]) | row for row in rules_view(game)]
