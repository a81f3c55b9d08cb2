"""Air Transport, Paradrop and Reorganization by Air Transport ("Reorganize Units", By Air):
missions flown by air transports (ATR), built with the rig (helpers.lab_game, playback dice).

Map facts: (201,51) is a German forest hex in supply; (203,52), 2 hexes away, is made German;
(206,52), 5 hexes from (201,51), a clear Polish hex, is made Soviet."""

from __future__ import annotations

from helpers import air_unit, dice, lab_game, ok, refused, types, unit

from plugins.rules import air as air_plugin
from plugins.rules.combat.odds import evaluate_combat

AM = "wif.procedures.air-mission"
BASE, FRIENDLY, ENEMY = (201, 51), (203, 52), (206, 52)
JU52 = air_unit("ju52", "germany", "atr", BASE, air=0, range_=6)
INFANTRY = unit("g1", "germany", BASE, size="division")
PARA = unit("fj", "germany", BASE, type_="para", combat=2, move=3, size="division")
RIFLE = unit("r1", "ussr", ENEMY, combat=3, move=3)


def transport_lab(save, units, start="turn.impulse.land.movement.air-transport", action="land", **options):
    control = {"203,52": "germany", "206,52": "ussr"}
    return lab_game(save, options={"units": units, "actions": {"germany": action}, "hex_control": control,
                                   "start_at": start, **options}, extra_plugins=["air"])


def current(game):
    return game.state.kernel.sequence.current


def units(game):
    return game.state["units"].units


def skipped(records) -> dict:
    return {e.data["step"]: e.data["reason"] for e in records if e.type == "StepSkipped"}


def test_air_transport_places_the_land_unit_in_a_friendly_hex_as_a_land_move(save):
    game = transport_lab(save, [JU52, INFANTRY, RIFLE])
    assert current(game) == f"{AM}.phasing-side-flies-bombers"
    refused(game, None, "must carry a land unit", type="FlyMission", actor="germany", unit="ju52", hex=list(FRIENDLY))
    refused(game, None, "not controlled by a friendly country", type="FlyMission", actor="germany", unit="ju52",
            hex=list(ENEMY), cargo="g1")
    preview = game.preview({"type": "FlyMission", "actor": "germany", "unit": "ju52", "hex": list(FRIENDLY),
                            "cargo": "g1"})
    # Activity Limits: the ATR is an air mission; moving the unit by air transport a land move
    assert preview["legal"] and preview["activities"] == {"air-mission": 1, "land-move": 1}
    events = ok(game, type="FlyMission", actor="germany", unit="ju52", hex=list(FRIENDLY), cargo="g1")
    used = [e.data for e in events if e.type == "ActivityUsed"]
    assert {"power": "germany", "kind": "land-move", "count": 1} in used
    events = ok(game, type="FinishStep", actor="germany")
    assert "AirCargoDelivered" in types(events)
    assert units(game)["g1"].hex == FRIENDLY and units(game)["g1"].face_up
    assert current(game) == f"{AM}.return-to-base-phasing"
    ok(game, type="ReturnAirToBase", actor="germany", unit="ju52", hex=list(BASE))
    assert not units(game)["ju52"].face_up  # "The ATR becomes disorganized after completing the mission"


def test_paradrop_lands_the_para_and_forces_a_land_attack(save):
    game = transport_lab(save, [JU52, PARA, INFANTRY, RIFLE], start="turn.impulse.land.movement.paradrop")
    assert current(game) == f"{AM}.phasing-side-flies-bombers"
    refused(game, None, "PARA", type="FlyMission", actor="germany", unit="ju52", hex=list(ENEMY), cargo="g1")
    refused(game, None, "not controlled by an enemy", type="FlyMission", actor="germany", unit="ju52",
            hex=list(FRIENDLY), cargo="fj")
    events = ok(game, type="FlyMission", actor="germany", unit="ju52", hex=list(ENEMY), cargo="fj")
    # "Each land unit that paradrops counts as a land move"; "All land attacks, including ...
    # paradrop, count as a land attack"
    assert {e.data["kind"] for e in events if e.type == "ActivityUsed"} == {"air-mission", "land-move", "land-attack"}
    events = ok(game, type="FinishStep", actor="germany")
    assert units(game)["fj"].hex == ENEMY
    attack = next(e for e in events if e.type == "AttackDeclared")
    assert attack.data["units"] == ["fj"] and attack.data["forced"] == "paradrop" and tuple(attack.data["hex"]) == ENEMY
    combat = game.state["combat"].combats["206,52"]
    assert combat.forced == "paradrop" and combat.paradropped == ["fj"]
    # Land Combat: "Add 1 to the roll for each paradropping unit"
    assert evaluate_combat(game.state, combat)["drm"]["paradropping units"] == 1


def test_a_transport_destroyed_by_anti_aircraft_fire_takes_its_cargo_with_it(save):
    flak = unit("flak", "ussr", ENEMY, type_="aa", combat=1, move=2, size="division", factors={"aa": 3})
    game = transport_lab(save, [JU52, PARA, RIFLE, flak], start="turn.impulse.land.movement.paradrop")
    ok(game, type="FlyMission", actor="germany", unit="ju52", hex=list(ENEMY), cargo="fj")
    ok(game, type="FinishStep", actor="germany")
    assert current(game) == f"{AM}.aa-by-non-phasing-side.plot-aa-fire"
    ok(game, type="PlotAAFire", actor="ussr", unit="flak", hex=list(ENEMY), shots=4)
    dice(game, 10, 10, 10, 10, 10)  # 12 factors, 1 transport (-1/5): 10 points, destroy it
    ok(game, type="FinishStep", actor="ussr")
    ok(game, type="ApplyAADamage", actor="germany", hex=list(ENEMY), unit="ju52")
    events = ok(game, type="FinishStep", actor="germany")
    assert units(game)["ju52"].hex is None and units(game)["fj"].hex is None
    assert "AttackDeclared" not in types(events)
    assert next(e for e in events if e.type == "AirCargoDelivered").data["outcome"] == "destroyed"


def test_reorganization_by_air_transport_organizes_the_unit_it_names(save):
    tired = unit("g2", "germany", FRIENDLY, face_up=False)
    game = transport_lab(save, [JU52, tired, RIFLE], start="turn.impulse.end-of-impulse.reorganization-by-air-transport")
    assert current(game) == f"{AM}.phasing-side-flies-bombers"
    choice = next(c for d in game.choices().decisions for c in d.commands if c.type == "FlyMission")
    bomber = choice.fields[0].all_options()[0].next_fields()[0].all_options()[0]
    hexes = bomber.next_fields()[0]
    assert hexes.name == "hex" and hexes.values() == [FRIENDLY]
    assert hexes.all_options()[0].next_fields()[0].values() == ["g2"]
    refused(game, None, "must name the disorganized unit", type="FlyMission", actor="germany", unit="ju52",
            hex=list(FRIENDLY))
    ok(game, type="FlyMission", actor="germany", unit="ju52", hex=list(FRIENDLY), cargo="g2")
    events = ok(game, type="FinishStep", actor="germany")
    assert units(game)["g2"].face_up and units(game)["g2"].hex == FRIENDLY
    assert next(e for e in events if e.type == "AirCargoDelivered").data["outcome"] == "reorganized"


def test_without_air_transports_the_phases_say_why(save):
    game = transport_lab(save, [INFANTRY, RIFLE])
    reasons = skipped(game.store.records())
    assert "no phasing power has organized air transports (ATR)" in reasons["wif.turn.impulse.land.movement.air-transport"]
    assert "paradrop (PARA) unit" in reasons["wif.turn.impulse.land.movement.paradrop"]
    assert air_plugin.air(game.state).mission.kind == ""


def test_air_supply_suffers_anti_aircraft_fire_only_with_its_optional_rule(save):
    tired = unit("g2", "germany", FRIENDLY, face_up=False)
    flak = unit("flak", "ussr", (204, 52), type_="aa", combat=1, move=2, size="division", factors={"aa": 3})
    game = transport_lab(save, [JU52, tired, RIFLE, flak],
                         start="turn.impulse.end-of-impulse.reorganization-by-air-transport")
    ok(game, type="FlyMission", actor="germany", unit="ju52", hex=list(FRIENDLY), cargo="g2")
    reasons = skipped(ok(game, type="FinishStep", actor="germany"))
    assert "AsA option 3" in reasons[f"{AM}.aa-by-non-phasing-side"]
