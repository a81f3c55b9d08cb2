"""What the window (and the command line) asks a game's plugins that is not a command.

The window never imports a plugin: what it may do comes from ``Game.choices`` and
``Game.preview``, and what it shows beyond that (the victory standing, the set-up areas of
the Setup Tray, the optional-rule catalogue) from the hooks specified here.  They are the
front end's own hooks: ``ask`` adds these specifications to a plugin host's manager the first
time it asks, so a game played without a window never needs them; a plugin implements them
with ``@hookimpl(optionalhook=True)``.

Each answer is plain data (dicts, lists, strings), so the front end depends on no plugin's
classes.
"""

from __future__ import annotations

import sys
from typing import Any

import pluggy

from kernel.errors import WifError

hookspec = pluggy.HookspecMarker("wif")

OPTIONAL_RULES_PLUGIN = "optional-rules"  # the plugin id of the optional-rule framework


# ---------------------------------------------------------------- a game's scenario and rules
@hookspec(firstresult=True)
def victory_standing(state):
    """The victory objectives as they stand now (the Victory form), or None:
    ``{"totals": {power: objectives}, "rows": [{"name", "hex": [col, row], "value",
    "controller", "credited": {power: share of the value}}], "result": the result in words
    once decided, else None}``."""


@hookspec(firstresult=True)
def setup_areas(state, power):
    """The set-up areas of ``power``'s setup tray (the Setup Tray's area list), or None:
    ``[{"id", "name", "units": [unit ids], "hexes": [[col, row], ...]}]`` in the tray's order."""


@hookspec(firstresult=True)
def scenario_front(state, power):
    """Where a scenario's fighting is for ``power`` (the detailed map opens there, issue 11
    item 6), when the scenario names it rather than leaving it to the units' positions:
    ``[[col, row], ...]`` (the map opens on their middle), or None."""


@hookspec(firstresult=True)
def activities_left(state, power):
    """Seeds, "Activity Limits": ``{"action": the action chosen, "left": {activity: how many
    more (None: any)}}`` for ``power`` this impulse, or None before it has chosen."""


@hookspec(firstresult=True)
def land_combat_chart(table, odds, modified, crt):
    """Seeds, "Land Combat" (the chart): the land combat results ``table`` ("blitz" /
    "assault") of the results table ``crt`` ("1d10", or an optional rule's, e.g. "2d10") as ``{"title", "rows": [modified-roll labels], "columns": [odds names],
    "cells": {row: {column: result code}}, "legend": [[code, meaning]], "source",
    "approximations", "column": the column ``odds`` is read on, "row": the row of the
    ``modified`` roll}`` (``column`` / ``row`` None when not asked), or None."""


@hookspec(firstresult=True)
def supply_status(state, power):
    """Seeds, "Supply Sources and Paths": ``power``'s supply now, or None: ``{"out_of_supply":
    [ids of its units on the map out of supply], "sources": [{"hex": [col, row], "kind":
    "primary" | "secondary" | "tertiary", "label"}]}``."""


@hookspec(firstresult=True)
def supply_path(state, unit_id):
    """Seeds, "Supply Sources and Paths": the path a unit on the map traces, or None:
    ``{"unit", "in_supply", "path": [[col, row], ...] from the unit to its source (then on
    from a secondary or tertiary source to a primary one), "source": {"hex", "kind", "label"}
    or None, "why": why it is out of supply, in words, or None, "sea": [[i, j], ...] the path's
    legs that go overseas, from path[i] (a coastal hex or port) to path[j] (the port it lands
    at), drawn as one line across the sea}``."""


# ---------------------------------------------------------------- the war at sea
@hookspec(firstresult=True)
def sea_boxes(state):
    """Seeds, "Sea Box Section": the sea areas with units at sea (the sea-box layer), or None:
    ``[{"area": code, "name", "hex": [col, row] the box is drawn at, "sections": [0, 1, 2, 3, 4],
    "units": [{"id", "power", "side", "section", "type", "kind", "damaged", "aboard": [ids]}]}]``
    (units aboard a ship are listed under it, not as entries)."""


@hookspec(firstresult=True)
def naval_review(state):
    """Seeds, "Naval Review Summary": ``{"classes": {type: name}, "powers": {power: {"at_sea":
    {type: n}, "in_port": {type: n}, "damaged": n, "aboard": n}}, "locations": [{"kind": "port" |
    "sea", "id": "col,row" | area code, "name", "hex": [col, row], "sides": {side: {"carriers",
    "carrier_air", "battleships", "cruisers", "transports", "subs", "convoy_points"}},
    "sections": [occupied sections]}]}``, or None."""


@hookspec(firstresult=True)
def naval_review_details(state, location):
    """Seeds, "Naval Review Details": the units at ``location`` (a port "col,row" or a sea area
    code) by column: ``{"kind", "id", "name", "hex", "columns": {"carriers" | "battleships" |
    "cruisers" | "transports": [[ship id, ids aboard...]]}, "units": {id: {"power", "side",
    "name", "type", "section", "damaged", "factors"}}}``; a WifError naming an unknown location."""


@hookspec(firstresult=True)
def naval_combat_report(state, records):
    """Seeds, "Naval Combat Results" (its form: the attacked units, the Damage Risks, the running
    table Possible / Effect / Cumulative) for a batch of events just stored (``records``: the
    kernel's event records), or None when the batch holds no naval combat or port attack:
    ``{"title", "lines": [words, the dice among them], "rows": [{"unit", "name", "possible",
    "defence", "roll", "effect", "cumulative"}], "chart": a chart as ``land_combat_chart`` gives
    one plus "hits": [[row, column], ...] read this batch (or None), "seqs": [the seqs of the
    records the report tells], "round": a key naming the combat round (the form's running
    table gathers the rows of one round)}``."""


@hookspec(firstresult=True)
def sea_area_counts(state):
    """Seeds, "Global Map" (its convoys view: up to four numbers per sea area): what is at sea,
    per sea area and major power, or None: ``{area code: {"name", "hex": [col, row], "powers":
    {power: {"convoy_points", "surface", "subs", "air"}}}}``."""


# ---------------------------------------------------------------- the optional-rule framework
@hookspec(firstresult=True)
def optional_rules_catalogue():
    """Every optional rule and what may be chosen before a game: ``{"groups": {group id:
    title}, "rules": [{"id", "name", "group", "description", "implemented", "prerequisites",
    "exclusions", "toggle", "not_during", "plugin", "origin", "source", "status"}], "presets":
    [preset and saved set names], "errors": [problems with installed rule plugins]}``."""


@hookspec(firstresult=True)
def optional_rule(rule_id):
    """One rule's row (as in ``optional_rules_catalogue``); a WifError for an unknown id,
    suggesting the ids it may have meant."""


@hookspec(firstresult=True)
def optional_rules_choice(preset, rules_on, rules_off):
    """The rules a new game would start with: ``preset`` (or a saved set), then ``rules_on``,
    then ``rules_off``; raises a WifError naming every problem.  ``{"preset", "rules",
    "notes"}``."""


@hookspec(firstresult=True)
def optional_rules_choice_for_scenario(scenario, preset, rules_on, rules_off):
    """``optional_rules_choice`` as a new game of ``scenario`` makes it: a preset leaves OFF,
    with a note, the rules whose plugins need rules that game does not play."""


@hookspec(firstresult=True)
def optional_rules_fitting(scenario):
    """The implemented rules whose plugins suit a game of ``scenario`` (what a preset may switch
    ON in it; Kamikaze needs the naval rules), in catalogue order: ``{"scenario", "rules"}``."""


@hookspec(firstresult=True)
def new_game_with_rules(scenario, path, preset, rules_on, rules_off, options, players, seed):
    """A new game (``kernel.game.Game``) of ``scenario`` in a new save at ``path`` with the
    optional rules chosen as in ``optional_rules_choice`` (recorded in its options, their
    plugins loaded); ``players`` and ``seed`` as ``Game.new`` takes them.  A WifError names
    any problem before the save is written."""


@hookspec(firstresult=True)
def optional_rule_sets():
    """The saved rule sets: ``{"folder": where they are, "sets": [names]}``."""


@hookspec(firstresult=True)
def save_optional_rule_set(name, rules):
    """Save ``rules`` as the set ``name`` (``personal``: the Personal Set; or a .json path);
    the path written, or a WifError naming the problem."""


@hookspec(firstresult=True)
def optional_rules_in_game(game):
    """The rules of a game as Ctrl+O shows them: rows as in ``optional_rules_catalogue`` plus
    ``on``, ``label``, ``may_toggle_now`` and ``why_not``."""


# ---------------------------------------------------------------- asking
def _with_specs(pm: pluggy.PluginManager) -> pluggy.PluginManager:
    hook = getattr(pm.hook, "victory_standing", None)
    if hook is None or hook.spec is None:
        pm.add_hookspecs(sys.modules[__name__])
    return pm


def ask(host, hook: str, /, **kwargs) -> Any:
    """Call the front-end hook ``hook`` on a plugin host (a game's ``game.host``); None when no
    plugin of it answers."""
    return getattr(_with_specs(host.pm).hook, hook)(**kwargs)


def ask_game(game, hook: str, /, **kwargs) -> Any:
    return ask(game.host, hook, **kwargs)


def optional_rules_host(plugin_dirs=None):
    """A plugin host of the optional-rule framework alone (no game), to ask it about the
    catalogue and rule sets before a game exists; a WifError when it is not installed."""
    from kernel.plugins import PluginHost, discover, resolve

    found = discover(plugin_dirs)
    if OPTIONAL_RULES_PLUGIN not in found.plugins:
        raise WifError("the optional-rule framework (plugin 'optional-rules') is not installed")
    return PluginHost(resolve([OPTIONAL_RULES_PLUGIN], found.plugins))


def ask_optional_rules(hook: str, host=None, /, **kwargs) -> Any:
    """Ask the optional-rule framework (``host``: one built by ``optional_rules_host``)."""
    answer = ask(host or optional_rules_host(), hook, **kwargs)
    if answer is None:
        raise WifError(f"the optional-rule framework does not answer {hook}")
    return answer
