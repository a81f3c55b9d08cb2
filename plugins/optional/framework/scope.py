"""Which optional rules apply in a scenario: a rule whose ``needs_powers`` (its rule.toml) names
major powers none of which is in play there does nothing in that scenario, so it is neither
offered nor switched on by a preset, and a player naming it is told why.

Kamikaze: seeds "Kamikaze Form" (L9952-9966): "The Japanese player can declare kamikaze attacks
in any naval air combat"; Barbarossa (Germany against the USSR, June 1941) has no Japan, so the
rule could be switched on there and do nothing.

The powers in play are the scenario's sides (its ``ScenarioSpec``), which are known only once its
plugins are loaded (as ``Game.new`` loads them): loaded once per process and scenario, and only
when some rule has a ``needs_powers``.
"""

from __future__ import annotations

from typing import Callable, Iterable

from .catalogue import Catalogue

_powers: dict[tuple, frozenset | None] = {}


def scenario_powers(discovery, scenario: str, extra_plugins: Iterable[str] | None = None) -> frozenset | None:
    """The major powers in play in a game of ``scenario`` (None: it cannot be loaded; Game.new
    names why)."""
    from kernel.plugins import PluginError, PluginHost, resolve

    key = (scenario, tuple(extra_plugins or ()))
    if key not in _powers:
        try:
            spec = PluginHost(resolve([scenario, *key[1]], discovery.plugins)).scenarios.get(scenario)
        except PluginError:
            spec = None
        _powers[key] = frozenset(p for ps in spec.sides.values() for p in ps) if spec is not None else None
    return _powers[key]


def out_of_scope(catalogue: Catalogue, scenario: str, powers: frozenset | None) -> dict[str, str]:
    """Rule id -> why it does not apply in a game of ``scenario`` whose powers are ``powers``."""
    if powers is None:
        return {}
    return {rule.id: (f"{rule.name} does not apply in this scenario ({scenario}): it needs "
                      f"{' or '.join(rule.needs_powers)} in play, and its major powers are {', '.join(sorted(powers))}")
            for rule in catalogue.rules.values() if rule.needs_powers and not powers & set(rule.needs_powers)}


def scoped(fits: Callable[[str], bool], catalogue: Catalogue, scope: dict[str, str]) -> Callable[[str], bool]:
    """``fits`` that also leaves out the plugins of the rules ``scope`` says do not apply; the
    reasons are its ``out_of_scope`` (presets name them)."""
    left_out = {catalogue.rules[r].plugin for r in scope if catalogue.rules[r].plugin}

    def fits_here(plugin_id: str) -> bool:
        return plugin_id not in left_out and fits(plugin_id)
    fits_here.out_of_scope = scope
    fits_here.plugin_fits = fits
    return fits_here
