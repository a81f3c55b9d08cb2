"""Hooks the supply plugin publishes (``HOOKSPECS``), for optional rules to implement."""

from __future__ import annotations

from kernel.hookspecs import hookspec


class HOOKSPECS:
    @staticmethod
    @hookspec(firstresult=True)
    def end_of_turn_reorganization_refusal(state, unit):
        """End of Turn Reorganization: why this disorganized unit on the map is not reorganized
        (a reason, e.g. the optional rule for reorganizing isolated units), or None."""
