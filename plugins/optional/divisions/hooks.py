"""Hooks the Divisions rule publishes (``HOOKSPECS``), for the rules that change breakdown and
reform (Unlimited breakdown).  With no implementation the seeds' "Break Down Units" rules apply."""

from __future__ import annotations

from kernel.hookspecs import hookspec


class HOOKSPECS:
    @staticmethod
    @hookspec(firstresult=True)
    def division_breakdown(state, unit):
        """The divisions ``unit`` (a corps or army) may break down into, or None for the force
        pool.  Return ``{"rule": name, "first": [option], "second": [option], "cap": bool}``;
        an option is a unit dict plus ``"choice"`` (what ``BreakDownUnit`` names) and
        ``"create": True`` if it is a new counter; ``cap`` False: the half-factors limit does
        not apply (the divisions are generated to fit)."""

    @staticmethod
    @hookspec(firstresult=True)
    def division_reform(state, divisions):
        """How ``divisions`` (two unit models) reform, or None for the seeds' standard rule.
        Return ``{"rule": name, "refusal": str | None, "player_chooses": bool,
        "divisions_to": "force-pool" | "removed"}``."""
