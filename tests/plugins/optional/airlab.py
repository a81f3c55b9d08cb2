"""Air situations for the optional-rule tests (the base air tests' map facts: (201,51) is a
German land hex 3 hexes from the Soviet hex (203,54); (207,53) is Soviet)."""

from __future__ import annotations

from plugins.optional.framework import new_game

AM = "wif.procedures.air-mission"
TARGET = (203, 54)
GE_BASE, SU_BASE = (201, 51), (207, 53)


def air_unit(uid, power, type_, hex_, air=1, tactical=0, range_=4, flags=()):
    return {"id": uid, "power": power, "branch": "air", "type": type_, "name": uid, "hex": list(hex_),
            "factors": {"air": air, "tactical": tactical, "range": range_}, "flags": list(flags)}


def land_unit(uid, power, hex_, type_="inf"):
    return {"id": uid, "power": power, "branch": "land", "type": type_, "name": uid, "hex": list(hex_),
            "factors": {"combat": 3, "move": 3}}


def air_lab(save, units, rules=(), seed=3, actions=None, start="turn.impulse.independent-air.ground-strike"):
    options = {"units": units, "actions": actions or {"germany": "air"}, "start_at": start}
    return new_game("lab", save, on=list(rules), options=options, extra_plugins=["air"], seed=seed)


def ok(game, **cmd):
    out = game.submit(cmd)
    assert out.accepted, out.reason
    return out.events
