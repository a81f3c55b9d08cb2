"""Overrun and Supply: supply is checked "immediately before resolving an overrun" (Supply,
Background); the overrun also needs its final odds (Land Movement; data/overrun.json).  Both
must hold, and the odds are judged first: a unit's destinations list every overrun in reach,
and tracing the power's supply net for each would make a click on a unit slow while the
odds, cheap to judge, rule almost all of them out.

Built in the lab (a stretch of the Polish-Soviet front), with a stand-in for the rules after
land: odds by plain combat factors; supply refused for the units the game's "out_of_supply"
option names, and never to be asked for those "supply_not_asked" names (asking raises):
helpers.OVERRUN_STAND_IN.
"""

from __future__ import annotations

import pytest

import helpers
from helpers import unit
from kernel.game import Game

LAND_MOVEMENT = "turn.impulse.land.movement.land-movement"
TARGET = (207, 52)


def _armour(uid, hex_, combat):
    u = unit(uid, hex_=hex_, type_="arm", move=6)
    u["factors"] = {"combat": combat, "move": 6}
    return u


@pytest.fixture
def game(tmp_path, plugin_dir):
    plugin_dir.add("overrun-supply-stand-in", helpers.OVERRUN_STAND_IN, requires=["land"])
    defender = unit("r1", power="ussr", hex_=TARGET, size="division")
    defender["factors"] = {"combat": 2, "move": 3}
    made = []

    def make(**options):
        units = [_armour("g_weak", (205, 52), combat=3), _armour("g_strong", (205, 53), combat=24), defender]
        opts = {"units": units, "countries": {"GE": "germany", "SU": "ussr", "PL": "germany"},
                "actions": {"germany": "land"}, "start_at": LAND_MOVEMENT, **options}
        made.append(Game.new("lab", tmp_path / f"game{len(made)}.wif", seed=7, options=opts, extra_plugins=["land", "overrun-supply-stand-in"],
                             plugin_dirs=[plugin_dir.path]))
        return made[-1]
    yield make
    for g in made:
        g.close()


def _destinations(game, uid):
    for decision in game.choices(None).decisions:
        for choice in decision.commands:
            if choice.type == "MoveLandUnit":
                option = next(o for o in choice.fields[0].all_options() if o.value == uid)
                return [tuple(o.value) for o in option.then()[0].all_options()]
    raise AssertionError("no MoveLandUnit offered")


def test_overrun_odds_judged_before_supply(game):
    """A unit both short of the odds and out of supply is refused for the odds, supply unasked."""
    g = game(out_of_supply=["g_weak"], supply_not_asked=["g_weak"])
    helpers.refused(g, {"type": "MoveLandUnit", "actor": "germany", "unit": "g_weak", "to": list(TARGET)},
                    "Overrun", "needs 11:1", match_case=True)


def test_overrun_destinations_trace_supply_only_for_overruns_with_the_odds(game):
    """Supply, Background: checked "immediately before resolving an overrun".  The weak unit's
    destinations leave the overrun out without asking supply; the strong unit's overrun is
    offered in supply and left out (and refused) out of supply."""
    g = game(supply_not_asked=["g_weak"])
    assert TARGET not in _destinations(g, "g_weak")
    assert TARGET in _destinations(g, "g_strong")
    g = game(out_of_supply=["g_strong"])
    assert TARGET not in _destinations(g, "g_strong")
    helpers.refused(g, {"type": "MoveLandUnit", "actor": "germany", "unit": "g_strong", "to": list(TARGET)},
                    "Overrun", "out of supply", match_case=True)
