"""What a player reads in the combat choices: units, hexes with their defenders."""

from __future__ import annotations

from plugins.rules.land.labels import hex_label, unit_label  # noqa: F401  (land's labels, re-used)

from . import odds as O


def units_label(units) -> str:
    return ", ".join(f"{u.name or u.id} ({u.type} {O.combat_factor(u):g})" for u in units)


def target_label(state, hex_, attacker_power: str) -> str:
    """The attacked hex, its terrain, and who defends it."""
    return f"{hex_label(hex_)}: {units_label(O.defenders(state, hex_, attacker_power))}"


def names(state, ids) -> list[str]:
    units = state["units"].units
    return [(units[i].name or units[i].type) if i in units else i for i in ids]
