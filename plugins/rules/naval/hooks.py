"""Hooks the naval plugin publishes (``HOOKSPECS``), for scenarios and optional rules.

Each is asked from the base rules with the game's plugin manager; with no implementation
the base rules are unchanged."""

from __future__ import annotations

from kernel.hookspecs import hookspec


class HOOKSPECS:
    @staticmethod
    @hookspec(firstresult=True)
    def sea_area_refusal(state, area):
        """Why no naval unit may enter the sea area ``area`` (a code, e.g. "CO") in this game, or
        None: a scenario's partial map closes the sea areas it leaves out (Guadalcanal)."""
