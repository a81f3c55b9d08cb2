"""Hooks the air plugin publishes (``HOOKSPECS``), for optional rules to implement.

Called from the base rules with the game's plugin manager; with no implementation (or every
optional rule OFF) the base rules are unchanged.
"""

from __future__ import annotations

from kernel.hookspecs import hookspec


class HOOKSPECS:
    @staticmethod
    @hookspec
    def air_to_air_modifiers(state, unit, role):
        """Changes to ``unit``'s air-to-air rating in air-to-air combat: a list of ``(delta,
        reason)``.  ``role`` is "front-fighter", "front-bomber" or "backup"."""

    @staticmethod
    @hookspec
    def air_combat_value_modifiers(state, combat, side):
        """Changes to ``side``'s air-to-air combat value in ``combat`` (the air plugin's
        ``Combat``) for every round of it: a list of ``(delta, reason)`` (the naval plugin's
        surprise points in a naval air combat)."""

    @staticmethod
    @hookspec(firstresult=True)
    def backup_fighter_counts(state, unit, rating, opposing_front_rating):
        """False if a back-up fighter adds nothing to its side's air-to-air strength;
        None (the base rule: +1 per other fighter)."""

    @staticmethod
    @hookspec(firstresult=True)
    def air_combat_result(state, combat, side, result):
        """The air-to-air result ``side``'s roll achieves, if not ``result``; None: unchanged."""

    @staticmethod
    @hookspec(firstresult=True)
    def ground_support_factor(state, unit, hex_, side, factor):
        """``unit``'s tactical factor in a ground support mission into ``hex_`` if not
        ``factor``; None: unchanged."""

    @staticmethod
    @hookspec
    def ground_strike_extra_dice(state, bomber, target):
        """Extra dice a ground strike by ``bomber`` on ``target`` rolls (any die at or under
        the tactical factor succeeds): a number, or None."""

    @staticmethod
    @hookspec
    def aircraft_destroyed(ctx, unit, reason, hex_):
        """``unit`` (an aircraft id) was just destroyed, for ``reason`` ("air-to-air combat",
        "destroyed by anti-aircraft fire", ...), over or at ``hex_`` (None if unknown): optional
        rules may emit their own events through ``ctx`` (e.g. Pilots: is the pilot lost?)."""
