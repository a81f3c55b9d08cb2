"""Air Transport, Paradrop and Reorganization by Air Transport ("Reorganize Units", By Air):
missions flown by air transports (ATR), built with the rig (helpers.lab_game, playback dice).

Map facts: (201,51) is a German forest hex in supply; (203,52), 2 hexes away, is made German;
(206,52), 5 hexes from (201,51), a clear Polish hex, is made Soviet."""

from __future__ import annotations

from helpers import air_unit, dice, lab_game, offered, ok, refused, rig, types, unit

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


# ---------------------------------------------------------------- Paradrop under an Air action
def test_paradrop_is_not_flown_under_an_air_action_whose_forced_attack_no_phase_resolves(save):
    # Paradrop: "paradropping into a hex means that the paradropping major power must conduct a
    # land attack"; Land Combat Declaration: only under a Land or Combined action
    game = transport_lab(save, [JU52, PARA, RIFLE], start="turn.impulse.land.movement.paradrop", action="air")
    reason = skipped(game.store.records())["wif.turn.impulse.land.movement.paradrop"]
    assert "must conduct a land attack" in reason and "Land or Combined" in reason


def test_paradrop_refused_and_not_offered_once_the_action_allows_no_land_attack(save):
    game = transport_lab(save, [JU52, PARA, RIFLE], start="turn.impulse.land.movement.paradrop")
    assert [c.fields[0].values() for c in offered(game, "FlyMission")] == [["ju52"]]
    rig(game, "RigAction", power="germany", action="air")  # the rig: any action, mid-mission
    assert offered(game, "FlyMission") == [] or all("ju52" not in c.fields[0].values()
                                                    for c in offered(game, "FlyMission"))
    refused(game, None, "must conduct a land attack", type="FlyMission", actor="germany", unit="ju52",
            hex=list(ENEMY), cargo="fj")
    assert not game.preview({"type": "FlyMission", "actor": "germany", "unit": "ju52", "hex": list(ENEMY),
                             "cargo": "fj"})["legal"]


# ---------------------------------------------------------------- Stacking at the target hex
def test_air_transport_may_not_overstack_its_destination(save):
    # Over-Stacked Hex: "Up to 2 land units can stack in a hex ... You cannot voluntarily overstack"
    there = [unit("g3", "germany", FRIENDLY), unit("g4", "germany", FRIENDLY)]
    army = unit("g5", "germany", BASE)
    game = transport_lab(save, [JU52, army, *there, RIFLE])
    reason = refused(game, None, "at most 2 land units", type="FlyMission", actor="germany", unit="ju52",
                     hex=list(FRIENDLY), cargo="g5")
    assert "hex 203,52" in reason
    role = offered(game, "FlyMission")[0].fields[0].all_options()[0].next_fields()[0]  # unit -> role
    cargo = role.all_options()[0].next_fields()[0]
    assert cargo.values() == ["g5"]
    hexes = cargo.all_options()[0].next_fields()[0].values()
    assert hexes and FRIENDLY not in hexes  # the choices ask the same stacking check
    # a division makes a third unit legal
    game2 = transport_lab(save.parent / "div.wif", [JU52, INFANTRY, *there, RIFLE])
    ok(game2, type="FlyMission", actor="germany", unit="ju52", hex=list(FRIENDLY), cargo="g1")


def test_paradropping_units_have_their_own_stacking_limit(save):
    # Over-Stacked Hex: "Units invading ... and paradropping ... have a stacking limit in addition
    # to the defending units' limit ... applied to the combined number of invading and paradropping units"
    atrs = [air_unit(f"ju52{i}", "germany", "atr", BASE, air=0, range_=6) for i in "abc"]
    paras = [unit(f"fj{i}", "germany", BASE, type_="para", combat=2, move=3, size="corps") for i in "abc"]
    game = transport_lab(save, [*atrs, *paras, RIFLE, unit("r2", "ussr", ENEMY)],
                         start="turn.impulse.land.movement.paradrop", action="combined")
    ok(game, type="FlyMission", actor="germany", unit="ju52a", hex=list(ENEMY), cargo="fja")
    ok(game, type="FlyMission", actor="germany", unit="ju52b", hex=list(ENEMY), cargo="fjb")
    refused(game, None, "paradropping units stack at most 2", type="FlyMission", actor="germany", unit="ju52c",
            hex=list(ENEMY), cargo="fjc")


def test_every_offered_air_transport_and_paradrop_is_accepted_stacking_included(tmp_path):
    """THE CONTRACT for FlyMission in Air Transport and Paradrop: what Game.choices offers
    (cargo, hex) is accepted, with the stacking checks in play (a nearly full friendly hex, a
    third paradrop over the paradropping units' limit)."""
    from helpers import play_by_choices

    atrs = [air_unit(f"ju52{i}", "germany", "atr", BASE, air=0, range_=6) for i in "abc"]
    cargo = [unit(f"g{i}", "germany", BASE, size="corps") for i in "xy"]
    paras = [unit(f"fj{i}", "germany", BASE, type_="para", combat=2, move=3, size="corps") for i in "ab"]
    full = [unit("g3", "germany", FRIENDLY), unit("g4", "germany", FRIENDLY, size="division")]
    flown = set()
    for start in ("turn.impulse.land.movement.air-transport", "turn.impulse.land.movement.paradrop"):
        for seed in range(1, 4):
            game = transport_lab(tmp_path / f"{start[-5:]}{seed}.wif", [*atrs, *cargo, *paras, *full, RIFLE],
                                 start=start, action="combined")

            def mission_over(g):
                return not g.state.kernel.sequence.current.startswith(AM + ".phasing-side-flies-bombers")
            play_by_choices(game, seed, max_commands=20, until=mission_over, prefer=("FlyMission",), finish_weight=0.1)
            flown |= {e.data.get("unit") for e in game.store.records() if e.type == "AirUnitFlew"}
    assert flown & {"ju52a", "ju52b", "ju52c"}
