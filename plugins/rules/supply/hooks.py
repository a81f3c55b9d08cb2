"""Hooks the supply plugin publishes (``HOOKSPECS``), for optional rules to implement."""

from __future__ import annotations

from kernel.hookspecs import hookspec


class HOOKSPECS:
    @staticmethod
    @hookspec(firstresult=True)
    def end_of_turn_reorganization_refusal(state, unit):
        """End of Turn Reorganization: why this disorganized unit on the map is not reorganized
        (a reason, e.g. the optional rule for reorganizing isolated units), or None."""

    @staticmethod
    @hookspec(firstresult=True)
    def reorganization_cost(state, hq, unit):
        """Reorganize Units (By HQ): the reorganization points ``hq`` spends to organize ``unit``
        now, when a rule changes it ("MWIF figures out the 'cost' in reorganization points, which
        can depend on nationality, unit type, and action selected for the impulse"; Pick HQ: "every
        land unit reorganized by that HQ only costs half the usual reorganization point cost"), or
        None for the usual cost (data/supply.json ``reorg_cost``).  A number above 0."""
