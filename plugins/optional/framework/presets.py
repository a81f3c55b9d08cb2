"""Presets and rule sets: which optional rules a new game starts with.

Seeds, "Optional Rules" (L2728-2762, L9378-9444): presets (None, All, Novice, Standard,
Advanced, a personal set, named sets saved to files), prerequisites and the one exclusion
checked on every choice.  The catalogue the choices are made from is ``catalogue.py``.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from .catalogue import FRAMEWORK_PLUGIN, PRESETS_FILE, Catalogue, RulesError, build_catalogue
from .scope import out_of_scope, scenario_powers, scoped


def config_dir() -> Path:
    """The user config folder (the same as the front end's): WIF_CONFIG_DIR overrides it."""
    if os.environ.get("WIF_CONFIG_DIR"):
        return Path(os.environ["WIF_CONFIG_DIR"])
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "wif"


def rule_sets_dir() -> Path:
    return config_dir() / "optional-rules"


RULE_SET_FORMAT = "wif-optional-rules"


def _set_path(name: str) -> Path:
    if name.endswith(".json") or os.sep in name or "/" in name:
        return Path(name)
    if not re.match(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$", name):
        raise RulesError(f"rule-set name {name!r}: use letters, digits, '-', '_' or '.'")
    return rule_sets_dir() / f"{name}.json"


def save_rule_set(name: str, rules: Iterable[str], catalogue: Catalogue | None = None) -> Path:
    """Save a set (``personal`` is the Personal Set) to the config folder, or to a .json path."""
    rules = sorted(dict.fromkeys(rules))
    if catalogue is not None:
        catalogue.check(rules)
    path = _set_path(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps({"format": RULE_SET_FORMAT, "version": 1, "name": name, "rules": rules},
                              indent=2) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path


def load_rule_set(name: str) -> list[str]:
    path = _set_path(name)
    if not path.exists():
        hint = "save one with `wif rules save personal …`" if name == "personal" else \
            f"saved sets: {', '.join(list_rule_sets()) or 'none'}"
        raise RulesError(f"no optional-rule set {name!r} ({path} does not exist); {hint}")
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RulesError(f"{path}: not a readable optional-rule set ({exc})") from exc
    if not isinstance(raw, dict) or raw.get("format") != RULE_SET_FORMAT or not isinstance(raw.get("rules"), list) \
            or not all(isinstance(r, str) for r in raw["rules"]):
        raise RulesError(f"{path}: not an optional-rule set (expected {{\"format\": \"{RULE_SET_FORMAT}\", "
                         "\"rules\": [ids…]}})")
    return list(raw["rules"])


def list_rule_sets() -> list[str]:
    folder = rule_sets_dir()
    return sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []


@dataclass
class RuleChoice:
    """The rules ON at the start of a game, and the plugins the game must load for them."""

    preset: str
    rules: list[str]
    plugins: list[str]
    notes: list[str] = field(default_factory=list)


def preset_rules(preset: str, catalogue: Catalogue, fits: Callable[[str], bool] | None = None
                 ) -> tuple[list[str], list[str]]:
    """The rules a preset turns ON, and notes about rules it could not (not implemented yet, or
    ``fits`` says their plugin does not suit the game: see ``_suits``)."""
    name = preset.lower()
    notes: list[str] = []
    if name == "none":
        return [], notes
    if name == "all":
        # "All" is every rule that can be ON: implemented ones players are shown, and of the
        # exclusive pair the one listed first (2D10 Land CRT before Blitz bonus).
        chosen: list[str] = []
        for rule in catalogue.implemented():
            if not rule.listed or not _suits(rule, fits, notes):
                continue
            if any(x in chosen for x in rule.exclusions):
                notes.append(f"{rule.name} left OFF: it excludes {', '.join(x for x in rule.exclusions if x in chosen)}")
                continue
            chosen.append(rule.id)
        return _close_under_prerequisites(chosen, catalogue, notes), notes
    if name in ("novice", "standard", "advanced"):
        listed = tomllib.loads(PRESETS_FILE.read_text(encoding="utf-8"))[name]["rules"]
        chosen, missing = [], []
        for rule_id in listed:
            rule = catalogue.rules.get(rule_id)
            if rule is None or not rule.implemented:
                missing.append(rule_id)
                continue
            if _suits(rule, fits, notes):
                chosen.append(rule_id)
        if missing:
            notes.append(f"{preset} lists {len(missing)} rules not implemented yet, left OFF: {', '.join(missing)}")
        return _close_under_prerequisites(chosen, catalogue, notes), notes
    # A saved set (the Personal Set or a named one) is checked strictly (an unknown rule is a
    # mistake worth naming), but like a preset it keeps only the rules that suit this game: a
    # set saved for Guadalcanal with Kamikaze does not drag the naval rules into Barbarossa.
    saved = load_rule_set("personal" if name == "personal" else preset)
    catalogue.check(saved)
    suiting = [r for r in saved if _suits(catalogue.rules[r], fits, notes)]
    return _close_under_prerequisites(suiting, catalogue, notes), notes


def _suits(rule, fits: Callable[[str], bool] | None, notes: list[str]) -> bool:
    """May a preset switch ``rule`` ON in this game?  Not when its plugin needs rules the game
    does not play (Kamikaze needs the naval rules): a preset chooses what suits the game, and
    must not drag whole rule sets into it (naval into Barbarossa), nor may a saved set; nor a rule
    that does not apply in the scenario (scope.py: Kamikaze without Japan).  Rules a player names
    one by one (``--rules-on``) are taken as they are, unless they do not apply (``choose_rules``)."""
    plugin_fits = getattr(fits, "plugin_fits", fits)  # the rules the game plays, named first
    if fits is None or rule.plugin is None or plugin_fits(rule.plugin):
        scope = getattr(fits, "out_of_scope", {})
        if rule.id in scope:
            notes.append(f"{scope[rule.id]}: left OFF")
            return False
        return True
    lacking = [p for p in rule.requires if not plugin_fits(p)] or [rule.plugin]
    notes.append(f"{rule.name} left OFF: it needs the {', '.join(lacking)} rules, which this game does not play")
    return False


def _close_under_prerequisites(chosen: list[str], catalogue: Catalogue, notes: list[str]) -> list[str]:
    """Drop rules whose prerequisite could not be ON (so a preset is always a legal set)."""
    changed = True
    while changed:
        changed = False
        for rule_id in list(chosen):
            missing = [p for p in catalogue.rules[rule_id].prerequisites if p not in chosen]
            if missing:
                chosen.remove(rule_id)
                notes.append(f"{catalogue.rules[rule_id].name} left OFF: its prerequisite "
                             f"{', '.join(missing)} is OFF")
                changed = True
    return chosen


def choose_rules(catalogue: Catalogue, preset: str = "none", on: Iterable[str] = (), off: Iterable[str] = (),
                 fits: Callable[[str], bool] | None = None) -> RuleChoice:
    """A preset, then rules switched ON, then OFF; refused with every problem named.
    ``fits``: which rule plugins suit the game (see ``game_plugins``)."""
    rules, notes = preset_rules(preset or "none", catalogue, fits)
    rules = list(rules)
    scope = getattr(fits, "out_of_scope", {})
    for rule_id in on:
        if rule_id in scope:
            raise RulesError(scope[rule_id])
        if rule_id not in rules:
            rules.append(rule_id)
    off = list(off)
    for rule_id in off:
        catalogue.get(rule_id)  # an unknown id is a mistake worth naming
    rules = [r for r in rules if r not in off]
    catalogue.check(rules)
    ordered = [r for r in catalogue.rules if r in rules]
    return RuleChoice(preset=preset or "none", rules=ordered, plugins=game_plugins(catalogue, ordered, fits),
                      notes=notes)


def game_plugins(catalogue: Catalogue, rules_on: Iterable[str], fits: Callable[[str], bool] | None = None
                 ) -> list[str]:
    """The plugins a new game loads: the framework, the plugins of the rules ON, and every
    built-in rule that may be toggled during play (so it can be switched on later).  A mod's
    rule that is OFF is left out, so installing a mod never makes other games depend on it.

    ``fits(plugin_id)``: may a rule that is OFF be loaded into this game (``fits_game``)?  So a
    game never gains whole rule sets (combat for 2D10 Land CRT) for a rule it does not play."""
    on = set(rules_on)
    plugins = [FRAMEWORK_PLUGIN]
    for rule in catalogue.implemented():
        toggleable = rule.origin == "builtin" and rule.toggle == "in-play"
        # a rule whose prerequisite is OFF for good (chosen only at the start) can never be ON
        possible = all(p in on or catalogue.rules[p].toggle != "never" for p in rule.prerequisites)
        if rule.id in on or (toggleable and possible and (fits is None or fits(rule.plugin))):
            plugins.append(rule.plugin)
    return plugins


def fits_game(discovery, game_has: Iterable[str]) -> Callable[[str], bool]:
    """A rule plugin fits a game that has ``game_has`` (its scenario and extra plugins with
    what they require) when every rules plugin it needs, directly or not, is among them
    (the optional-rule plugins it needs come along)."""
    from kernel.plugins import PluginError, resolve

    has = set(game_has) | {FRAMEWORK_PLUGIN}

    def fits(plugin_id: str) -> bool:
        try:
            needed = resolve([plugin_id], discovery.plugins)
        except PluginError:
            return False
        return all(i.id in has or i.manifest.kind == "optional-rule" for i in needed)

    return fits


def fits_scenario(discovery, scenario: str, extra_plugins: Iterable[str] | None = None) -> Callable[[str], bool]:
    """``fits_game`` for a game of ``scenario`` (and ``extra_plugins``) with all they require."""
    from kernel.plugins import PluginError, resolve

    try:
        game_has = {i.id for i in resolve([scenario, *(extra_plugins or [])], discovery.plugins)}
    except PluginError:
        game_has = set()  # Game.new names what is missing
    fits = fits_game(discovery, game_has)
    catalogue = build_catalogue(discovery)
    if not game_has or not any(r.needs_powers for r in catalogue.rules.values()):
        return fits
    scope = out_of_scope(catalogue, scenario, scenario_powers(discovery, scenario, extra_plugins))
    return scoped(fits, catalogue, scope) if scope else fits


def rules_not_applying(scenario: str, plugin_dirs: list[Path] | None = None) -> dict[str, str]:
    """The rules that do not apply in a game of ``scenario`` (scope.py), each with why: what the
    Start New Game form shows as "does not apply in this scenario"."""
    from kernel.plugins import discover

    return dict(getattr(fits_scenario(discover(plugin_dirs), scenario), "out_of_scope", {}))


def rules_fitting(scenario: str, plugin_dirs: list[Path] | None = None) -> list[str]:
    """The implemented rules whose plugins suit a game of ``scenario`` (what a preset may switch
    ON in it), in catalogue order: the pool a random subset for that scenario is drawn from."""
    from kernel.plugins import discover

    discovery = discover(plugin_dirs)
    fits = fits_scenario(discovery, scenario)
    return [r.id for r in build_catalogue(discovery).implemented() if r.plugin and fits(r.plugin)]


def choose_rules_for(scenario: str, preset: str = "none", on: Iterable[str] = (), off: Iterable[str] = (),
                     extra_plugins: list[str] | None = None, plugin_dirs: list[Path] | None = None) -> RuleChoice:
    """``choose_rules`` as a new game of ``scenario`` makes it (``new_game``): with its notes on
    the rules a preset left OFF because their plugins do not suit that game."""
    from kernel.plugins import discover

    discovery = discover(plugin_dirs)
    return choose_rules(build_catalogue(discovery), preset, on, off,
                        fits_scenario(discovery, scenario, extra_plugins))


def new_game(scenario: str, path, preset: str = "none", on: Iterable[str] = (), off: Iterable[str] = (),
             options: dict | None = None, extra_plugins: list[str] | None = None,
             plugin_dirs: list[Path] | None = None, **kwargs):
    """``Game.new`` with optional rules chosen as on the Start New Game form.

    The rules ON are recorded in the game's options (``optional_rules``, ``rules_preset``),
    so they are in the save's meta and in its GameStarted event."""
    from kernel.game import Game

    choice = choose_rules_for(scenario, preset, on, off, extra_plugins, plugin_dirs)
    options = dict(options or {})
    options["optional_rules"] = choice.rules
    options["rules_preset"] = choice.preset
    plugins = list(dict.fromkeys(choice.plugins + list(extra_plugins or [])))
    return Game.new(scenario, path, options=options, extra_plugins=plugins, plugin_dirs=plugin_dirs, **kwargs)
