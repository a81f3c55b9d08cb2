"""Optional rule Pilots (seeds, "Air Reserves"; "Assigning Pilots to Air Units in the Air
Reserve"; "Moving Air Units from Map to the Air Reserve"): arriving aircraft need a pilot to be
placed, those without one go to the air reserve, and an aircraft on a home city may go back to
the reserve, freeing a pilot for the next turn; a destroyed aircraft's pilot is lost unless shot
down in air-to-air combat over its own side's hex.  OFF: every arriving aircraft is placed."""

from __future__ import annotations

import random

from helpers import air_unit, dice, finish, offered, ok, place, refused, types, unit

from plugins.optional.framework import new_game
from plugins.optional.pilots import ASSIGN, TO_RESERVE, available_pilots, pilot_state
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


# ---------------------------------------------------------------- pilot loss and return
AIR_START = "turn.impulse.independent-air.ground-strike"


def _air_combat(save, rules=("pilots",)):
    """Germany's Stuka escorted by a Bf 109 strikes the Soviet hex (203,54); the USSR's I-16
    intercepts (the base air tests' map facts: (201,51) German, (207,53) Soviet)."""
    units = [air_unit("stuka", "germany", "tac", (201, 51), air=1, tactical=3),
             air_unit("me109", "germany", "ftr", (201, 51), air=5, tactical=1),
             air_unit("i16", "ussr", "ftr", (207, 53), air=3, range_=10),
             unit("r1", "ussr", (203, 54), combat=3, move=3)]
    game = new_game("lab", save, on=list(rules), seed=3, lab=True, extra_plugins=["air", "rig", "rig-turn"],
                    options={"units": units, "actions": {"germany": "air"}, "start_at": AIR_START})
    ok(game, type="FinishStep", actor="ussr")  # no CAP
    ok(game, type="FlyMission", actor="germany", unit="stuka", hex=[203, 54])
    ok(game, type="FlyMission", actor="germany", unit="me109", hex=[203, 54], role="escort")
    ok(game, type="FinishStep", actor="germany")
    ok(game, type="FlyIntercept", actor="ussr", unit="i16", hex=[203, 54])
    return game


def _fates(events):
    return [e.data for e in events if e.type == "PilotFate"]


def test_pilots_shot_down_over_its_own_sides_hex_the_pilot_returns(save):
    game = _air_combat(save)
    before = available_pilots(game.state, "ussr")
    # the USSR (inactive) rolls 1+1-2 = 0: no effect; Germany rolls 10+10+2 = 22: AX on the I-16
    dice(game, 1, 1, 10, 10, then_ordinary=True)
    events = ok(game, type="FinishStep", actor="ussr")
    if "PilotFate" not in types(events):
        events = ok(game, type="ChooseAirCasualty", actor="germany", unit="i16")
    assert _fates(events) == [{"power": "ussr", "unit": "i16", "survived": True,
                               "why": "bailed out over a hex its side controls"}]
    assert game.state["units"].units["i16"].where == "force-pool"
    assert available_pilots(game.state, "ussr") == before + 1  # at once, not next turn


def test_pilots_shot_down_over_an_enemy_hex_the_pilot_is_a_prisoner(save):
    game = _air_combat(save)
    before = available_pilots(game.state, "germany")
    # the USSR rolls 10+10-2 = 18: AX, the USSR destroys the Bf 109 over its own hex
    dice(game, 10, 10, then_ordinary=True)
    ok(game, type="FinishStep", actor="ussr")
    events = ok(game, type="ChooseAirCasualty", actor="ussr", unit="me109")
    assert _fates(events) == [{"power": "germany", "unit": "me109", "survived": False,
                               "why": "bailed out over enemy or neutral territory: a prisoner of war"}]
    assert available_pilots(game.state, "germany") == before
    assert pilot_state(game.state).lost == {"germany": 1}


def test_pilots_destroyed_by_anti_aircraft_fire_the_pilot_dies(save):
    # the AA tests' map facts: (206,52) a Soviet hex in supply, (203,52) made German for the base
    target, base = [206, 52], (203, 52)
    flak = unit("flak", "ussr", tuple(target), type_="aa", combat=1, move=2, size="division", factors={"aa": 3})
    units = [air_unit("ju88", "germany", "lnd", base, air=0, tactical=4),
             unit("r1", "ussr", tuple(target), combat=3, move=3), flak]
    game = new_game("lab", save, on=["pilots"], seed=3, lab=True, extra_plugins=["air", "rig", "rig-turn"],
                    options={"units": units, "actions": {"germany": "air"}, "hex_control": {"203,52": "germany"},
                             "start_at": AIR_START})
    ok(game, type="FlyMission", actor="germany", unit="ju88", hex=target)
    ok(game, type="FinishStep", actor="germany")
    ok(game, type="PlotAAFire", actor="ussr", unit="flak", hex=target, shots=4)
    dice(game, *([10] * 10), then_ordinary=True)
    ok(game, type="FinishStep", actor="ussr")
    events = ok(game, type="ApplyAADamage", actor="germany", hex=target, unit="ju88")
    assert _fates(events) == [{"power": "germany", "unit": "ju88", "survived": False,
                               "why": "lost with its aircraft (destroyed by anti-aircraft fire)"}]
    assert pilot_state(game.state).lost == {"germany": 1}


def test_pilots_off_a_destroyed_aircraft_has_no_pilot_to_lose(save):
    game = _air_combat(save, rules=())
    dice(game, 1, 1, 10, 10, then_ordinary=True)
    events = ok(game, type="FinishStep", actor="ussr")
    if "AirCombatResultApplied" not in types(events):
        events = ok(game, type="ChooseAirCasualty", actor="germany", unit="i16")
    assert game.state["units"].units["i16"].where == "force-pool" and not _fates(events)
