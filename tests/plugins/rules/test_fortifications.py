"""Fortification Hexside: attacks across a printed fort are thirded and leave the table to the
defender; no overrun across one; a fort is destroyed for good when an enemy land unit enters.

Built in the lab on the Maginot Line: France's hexes given to the USSR power for the test
(the lab's two powers), German units across the border."""

from functools import partial

import helpers
from kernel.game import Game
from plugins.rules import core
from plugins.rules.combat.odds import attacker_chooses_table, evaluate

FORT = (186, 59)  # clear, France, fortified towards Germany
GERMAN = [(186, 58), (187, 59)]  # both across Maginot hexsides
COUNTRIES = {"GE": "germany", "FR": "ussr"}
unit = partial(helpers.unit, type_="arm", combat=6, move=6)  # a panzer army unless told otherwise


def game_at(save, units, **options):
    return Game.new("lab", save, seed=3, options={"units": units, "countries": COUNTRIES,
                                                  "actions": {"germany": "land"}, **options},
                    extra_plugins=["land", "combat"])


def test_fortification_hexside_thirds_the_attack_and_the_defender_chooses_the_table(save):
    game = game_at(save, [unit("g1", "germany", GERMAN[0]), unit("g2", "germany", GERMAN[1]),
                          unit("f1", "ussr", FORT, combat=3, type_="inf")])
    state = game.state
    assert core.across_fort(state, GERMAN[0], FORT) and not core.across_fort(state, FORT, GERMAN[0])
    out = evaluate(state, ["g1", "g2"], FORT)
    assert out["attack"] == 4  # 6 + 6, each thirded
    chooses, reasons = attacker_chooses_table(state, [state["units"].units[i] for i in ("g1", "g2")], FORT)
    assert not chooses and "every attacking unit attacks across a fortification hexside" in reasons
    game.close()


def test_fortification_hexside_no_overrun_across_it(save):
    game = game_at(save, [unit("g1", "germany", GERMAN[0], combat=60),
                          unit("f1", "ussr", FORT, combat=1, type_="inf")])
    out = game.submit({"type": "MoveLandUnit", "actor": "germany", "unit": "g1", "path": [list(FORT)]})
    assert not out.accepted and "Overrun" in out.reason
    game.close()


def test_fortification_is_destroyed_when_an_enemy_land_unit_enters_its_hex(save):
    game = game_at(save, [unit("g1", "germany", GERMAN[0])])
    assert core.across_fort(game.state, GERMAN[1], FORT)
    out = game.submit({"type": "MoveLandUnit", "actor": "germany", "unit": "g1", "path": [list(FORT)]})
    assert out.accepted, out.reason
    assert core.world(game.state).forts_destroyed == [core.hex_key(FORT)]
    assert not core.across_fort(game.state, GERMAN[1], FORT)
    game.close()
