"""Hooks Barbarossa publishes (``HOOKSPECS``), for optional rules that add units to it."""

from __future__ import annotations

from kernel.hookspecs import hookspec


class HOOKSPECS:
    @staticmethod
    @hookspec
    def scenario_added_units(state, scenario):
        """Counters an optional rule ON adds to ``scenario``'s order of battle: a list of dicts
        in the order-of-battle unit format (``oob.UnitData``: id, power, branch, type, size,
        name, year, factors, flags, turn, area, hex), or None.  Asked once, at setup; the units
        are recorded (``ScenarioUnitsAdded``) and set up or arrive like the scenario's own."""
