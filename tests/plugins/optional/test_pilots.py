"""Optional rule Pilots (seeds, "Air Reserves"; "Assigning Pilots to Air Units in the Air
Reserve"; "Moving Air Units from Map to the Air Reserve"): arriving aircraft need a pilot to be
placed, those without one go to the air reserve, and an aircraft on a home city may go back to
the reserve, freeing a pilot for the next turn.  OFF: every arriving aircraft is placed."""

from __future__ import annotations

import random

from helpers import finish, offered, ok, place, refused

from plugins.optional.framework import new_game
from plugins.optional.pilots import ASSIGN, TO_RESERVE, available_pilots
from plugins.scenarios.barbarossa import tray_units


def _game(save, rules=("pilots",), turn=2):
    game = new_game("barbarossa", save, on=list(rules), seed=1, lab=True, extra_plugins=["rig", "rig-turn"])
    for power in ("ussr", "germany"):  # the default setup: the first turn's aircraft on the map
        ok(game, {"type": "RestoreSetup", "actor": power})
        finish(game, power)
    ok(game, {"type": "RigStep", "actor": "germany", "step": "turn.new-turn.reinforcements", "turn": turn})
    return game


def _air(game, power, where):
    return sorted(u.id for u in game.state["units"].units.values()
                  if u.power == power and u.branch == "air" and u.where == where)


def test_pilots_aircraft_without_a_pilot_go_to_the_air_reserve(save):
    game = _game(save)
    k = game.state.kernel
    assert k.sequence.current == ASSIGN and set(k.sequence.pending) == {"germany", "ussr"}
    arriving_ge, arriving_su = _air(game, "germany", "setup-tray"), _air(game, "ussr", "setup-tray")
    assert len(arriving_ge) == 1 and len(arriving_su) == 2
    assert available_pilots(game.state, "germany") == 1 and available_pilots(game.state, "ussr") == 0
    refused(game, {"type": "AssignPilot", "actor": "ussr", "unit": arriving_su[0]}, "no available pilot")
    ok(game, {"type": "AssignPilot", "actor": "germany", "unit": arriving_ge[0]})
    assert available_pilots(game.state, "germany") == 0
    finish(game, "germany")
    finish(game, "ussr")
    assert _air(game, "ussr", "air-reserve") == arriving_su  # no pilot: into the air reserve
    assert arriving_ge[0] in tray_units(game.state, "germany")  # piloted: placed as a reinforcement
    assert not set(arriving_su) & set(tray_units(game.state, "ussr"))


def test_pilots_a_reserve_aircraft_given_a_pilot_later_returns_to_the_tray(save):
    game = _game(save)
    finish(game, "germany")
    finish(game, "ussr")
    reserve = _air(game, "ussr", "air-reserve")
    ok(game, {"type": "RigStep", "actor": "germany", "step": "turn.new-turn.reinforcements", "turn": 3})
    assert game.state.kernel.sequence.current == ASSIGN and "ussr" in game.state.kernel.sequence.pending
    assert available_pilots(game.state, "ussr") == 1  # the USSR's pilot of turn 3
    ok(game, {"type": "AssignPilot", "actor": "ussr", "unit": reserve[0]})
    assert game.state["units"].units[reserve[0]].where == "setup-tray"
    assert reserve[0] in tray_units(game.state, "ussr")


def test_pilots_aircraft_on_a_home_city_return_to_the_reserve_and_free_a_pilot(save):
    game = _game(save)
    place(game, {"id": "ge-ftr-x", "power": "germany", "branch": "air", "type": "ftr", "name": "JG X",
                 "factors": {"air": 3, "tactical": 0, "range": 4}, "hex": [193, 54]})  # Berlin
    ok(game, {"type": "RigStep", "actor": "germany", "step": "procedures.reinforcements.air-units-to-air-reserve"})
    assert game.state.kernel.sequence.current == TO_RESERVE
    before = available_pilots(game.state, "germany")
    (choice,) = [c for c in offered(game, "MoveAirToReserve") if c.actor == "germany"]
    for cmd in choice.commands(limit=50) + [choice.sample(random.Random(i)) for i in range(5)]:
        assert game.dry_run(cmd).accepted, cmd
    ok(game, {"type": "MoveAirToReserve", "actor": "germany", "unit": "ge-ftr-x"})
    assert game.state["units"].units["ge-ftr-x"].where == "air-reserve"
    assert available_pilots(game.state, "germany") == before  # "may not be used until a following turn"


def test_pilots_off_every_arriving_aircraft_is_placed(save):
    game = _game(save, rules=())
    assert not _air(game, "ussr", "air-reserve")
    assert len([u for u in tray_units(game.state, "ussr") if game.state["units"].units[u].branch == "air"]) == 2
    assert not offered(game, "AssignPilot")
