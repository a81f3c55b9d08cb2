"""Hooks the land combat plugin publishes (``HOOKSPECS``), for optional rules to implement.

Each is called from the base rules with the game's plugin manager; with no implementation
(or every optional rule OFF) the base rules are unchanged.
"""

from __future__ import annotations

from kernel.hookspecs import hookspec


class HOOKSPECS:
    @staticmethod
    @hookspec
    def land_combat_modifiers(state, attackers, defenders, evaluation):
        """Extra die-roll modifiers of one land combat: a list of ``(drm, reason)``.

        ``evaluation`` is the combat as ``odds.evaluate`` computed it (``table`` may be None
        before the table is chosen); ``attackers``/``defenders`` are unit models."""

    @staticmethod
    @hookspec
    def land_odds_shifts(state, attackers, defenders, evaluation):
        """Extra odds shifts (levels, + favours the attacker): a list of ``(shift, reason)``."""

    @staticmethod
    @hookspec(firstresult=True)
    def table_choice_weight(state, unit, side, kind):
        """How many units ``unit`` counts as among the ``side``'s (attacker/defender) ``kind``
        ("arm": ARM and HQ-A; "mech") units when choosing the combat table; None: the base count
        (a division 1/2, a corps 1, other types 0)."""

    @staticmethod
    @hookspec
    def snow_unit(state, unit):
        """True if ``unit`` counts as a snow unit (Weather Report: MTN, ski troops, ...) beyond
        the base ones; None otherwise."""

    @staticmethod
    @hookspec(firstresult=True)
    def land_odds_roll(ctx, combat, evaluation):
        """Just before the combat die: roll for a better odds column (may roll through
        ``ctx``).  Return ``{"shift": int, "reason": str}`` or None."""

    @staticmethod
    @hookspec(firstresult=True)
    def land_combat_result(ctx, combat, evaluation, table):
        """Roll and read a different results table.  Return None (the 1D10 tables), or a dict
        ``{"roll", "modified", "result", "drm", "losses": {"attacker", "defender"}}``."""

    @staticmethod
    @hookspec(firstresult=True)
    def land_combat_disorganized(state, combat, side, units, result):
        """Which of ``units`` (the side's organized survivors the result disorganizes) are
        disorganized; None: all of them."""

    @staticmethod
    @hookspec(firstresult=True)
    def first_loss_eligible(state, unit, combat):
        """True if ``unit`` may be the first loss of an attacker that used the snow units'
        benefit although it is not a snow unit (Weather Report's exception)."""

    @staticmethod
    @hookspec(firstresult=True)
    def land_attack_factor(state, unit, hex_, factor):
        """``unit``'s combat factor attacking ``hex_`` (before terrain) if not ``factor``
        (e.g. doubled by an offensive chit); None: unchanged."""
