"""Naval Air-to-air Combat (seed 000 L12316-12342), Anti-aircraft Combat by Non-Initiating /
Initiating Side (L12362-12390), Anti-Air Fire (L588-620) and Anti-Air Combat Results (L699-730):
carrier planes over the Baltic, Germany from Konigsberg against the USSR at sea."""

import random

from helpers import air_unit, dice, lab_game, ok, play_by_choices, refused, rig, ship
from plugins.rules.core import world_map

KONIGSBERG = world_map().port("Konigsberg").hex
LENINGRAD = world_map().port("Leningrad").hex
K = f"{KONIGSBERG[0]},{KONIGSBERG[1]}"
ROUND = "wif.procedures.naval-combat.round"
PLANE_ROLES = f"{ROUND}.naval-air-to-air-combat.plane-roles"


def of_type(g, type_):
    return [e.data for e in g.store.records() if e.type == type_]


def carriers_at_sea(tmp_path, soviet_aa=0, soviet_planes=()):
    """A German carrier (plane p1: air-to-air 2, air-to-sea 9) sails into the Baltic where
    Soviet ships wait; Germany picks the area and naval air combat."""
    german = [ship("cv", type_="cv", attack=1, defense=4, aa=1, factors={"class": 4}),
              air_unit("p1", type_="cvp", hex_=KONIGSBERG, air=2, factors={"naval": 9, "class": 2})]
    soviet = [ship("r1", power="ussr", hex_=LENINGRAD, attack=4, defense=5, aa=soviet_aa),
              ship("r2", power="ussr", type_="dd", hex_=LENINGRAD, attack=1, defense=2, aa=0)]
    if soviet_planes:
        soviet.append(ship("rcv", power="ussr", type_="cv", hex_=LENINGRAD, attack=1, defense=4, aa=1,
                           factors={"class": 4}))
        soviet += [air_unit(p, power="ussr", type_="cvp", hex_=LENINGRAD, air=1, factors={"naval": 4, "class": 2})
                   for p in soviet_planes]
    g = lab_game(tmp_path / "g.wif", options={"units": german + soviet, "actions": {"germany": "naval"},
                                              "start_at": "turn.impulse.naval.naval-movement"},
                 extra_plugins=["naval"])
    rig(g, "RigShipsAtSea", units=[u["id"] for u in soviet if u["branch"] == "naval"], area="BA", section=2)
    if soviet_planes:
        rig(g, "RigAboard", ship="rcv", units=list(soviet_planes))
    rig(g, "RigAboard", ship="cv", units=["p1"])
    ok(g, type="MoveNavalGroup", actor="germany", origin=K, to="BA", section=2, units=["cv"])
    if g.state.kernel.sequence.current == "wif.digressions.naval-interception.offer-interception":
        ok(g, type="DeclineIntercept", actor="ussr")
    dice(g, 1, 1, then_ordinary=True)  # both searches find everything
    ok(g, type="FinishStep", actor="germany")
    ok(g, type="SelectNavalCombatArea", actor="germany", area="BA", initiating_unit=None)
    ok(g, type="ChooseNavalCombatType", actor="germany", kind="naval-air")
    return g


def test_naval_air_to_air_assign_plane_roles(tmp_path):
    g = carriers_at_sea(tmp_path, soviet_planes=("q1",))
    assert g.state.kernel.sequence.current == PLANE_ROLES
    assert sorted(g.state.kernel.sequence.pending) == ["germany", "ussr"]  # the owners of planes that may choose
    refused(g, {"type": "SetPlaneRole", "actor": "germany", "unit": "p1", "role": "kamikaze"}, "not a role")
    refused(g, {"type": "SetPlaneRole", "actor": "germany", "unit": "q1", "role": "fighter"}, "not one of germany")
    preview = g.preview({"type": "SetPlaneRole", "actor": "germany", "unit": "p1", "role": "fighter"})
    assert preview["was"] == "bomber" and preview["factor"] == 2
    ok(g, type="SetPlaneRole", actor="germany", unit="p1", role="fighter")
    assert g.state["naval"].combat.fighters == ["p1"]


def test_naval_air_to_air_combat_is_the_air_plugins_with_the_initiating_side_attacking(tmp_path):
    g = carriers_at_sea(tmp_path, soviet_planes=("q1",))
    ok(g, type="SetPlaneRole", actor="germany", unit="p1", role="fighter")
    ok(g, type="FinishStep", actor="germany")
    ok(g, type="FinishStep", actor="ussr")
    flew = {f["unit"]: f for f in of_type(g, "AirUnitFlew")}
    assert flew["p1"]["role"] == "escort" and flew["q1"]["role"] == "bomber"
    selected = of_type(g, "AirCombatSelected")
    assert selected and selected[-1]["attacker"] == "axis" and selected[-1]["defender"] == "allies"
    assert g.state.kernel.sequence.current.startswith("wif.procedures.air-to-air-combat")
    # the air plugin's decisions carry the combat on; every offered command is accepted
    play_by_choices(g, random.Random(3), max_commands=120, until=lambda game: game.state["naval"].combat is None)
    assert of_type(g, "AirCombatRolled") and of_type(g, "AirCombatEnded")
    # a destroyed carrier plane leaves its carrier; an aborted one stays aboard, as it was
    units = g.state["units"].units
    for applied in of_type(g, "AirCombatResultApplied"):
        unit = applied["unit"]
        aboard = any(unit in cargo for cargo in g.state["naval"].aboard.values())
        if applied["effect"] == "destroyed":
            assert units[unit].where == "force-pool" and not aboard
        elif applied["effect"] == "aborted":
            assert aboard or units[unit].where != "aboard"


def test_anti_aircraft_combat_ships_aa_destroys_a_carrier_plane(tmp_path):
    g = carriers_at_sea(tmp_path, soviet_aa=60)
    # no enemy fighter: no air-to-air combat; the Soviet ships' 60 AA against 1 bomber: "2/2"
    dice(g, 10, 10, then_ordinary=True)
    ok(g, type="FinishStep", actor="germany")  # p1 stays a bomber
    assert not of_type(g, "AirCombatSelected")
    assert g.state.kernel.sequence.current == f"{ROUND}.aa-by-nis", g.state.kernel.sequence.current
    fired = of_type(g, "AAFireRolled")[-1]
    assert fired["side"] == "allies" and fired["cell"] == "2/2" and fired["points"] == 20 and fired["destroy"] == 2
    assert g.state.kernel.sequence.pending == ["germany"]
    refused(g, {"type": "FinishStep", "actor": "germany"}, "apply the anti-aircraft damage")
    [apply] = [c for c in g.choices().commands() if c.type == "ApplyAADamage"]
    assert apply.actor == "germany"
    ok(g, apply.sample(random.Random(0)))  # the only bomber: p1
    assert g.state["units"].units["p1"].where == "force-pool"
    assert "cv" not in g.state["naval"].aboard  # the plane left its carrier
    ok(g, type="FinishStep", actor="germany")
    # no bomber is left: no air-to-sea attack falls on the Soviet ships
    assert not of_type(g, "NavalResultsDue")
    assert not g.state["naval"].damaged


def test_anti_aircraft_combat_reduces_air_to_sea_factors(tmp_path):
    g = carriers_at_sea(tmp_path, soviet_aa=5)
    # 5 AA against 1 bomber: column 3, row 0: "-1/7", the lowest of 7 dice: 4 points
    dice(g, 4, 9, 9, 9, 9, 9, 9, then_ordinary=True)
    ok(g, type="FinishStep", actor="germany")
    fired = of_type(g, "AAFireRolled")[-1]
    assert fired["cell"] == "-1/7" and fired["points"] == 4 and fired["reduce"] == 4
    ok(g, type="ApplyAADamage", actor="germany", hex=list(fired["hex"]), unit="p1")
    ok(g, type="FinishStep", actor="germany")
    # 9 - 4 = 5 air-to-sea factors press the attack: column 2 (5-7), 2 ships
    due = of_type(g, "NavalResultsDue")[-1]
    assert due["target_side"] == "allies" and due["column"] == 2 and due["row"] == "2-3"


def test_naval_air_to_air_an_aborted_carrier_plane_returns_to_its_carrier(tmp_path):
    """Ships in Flames 3.6.8: "If a carrier plane which flew from a CV must abort, it returns to
    its CV": it stays aboard, as it was (8.3: "Don't turn a face-up carrier plane face-down after it
    returns from a naval air combat"; 8.5: "It keeps its original facing if it flew into a naval
    air combat from a CV"), and is no longer waiting to return to base."""
    g = carriers_at_sea(tmp_path, soviet_planes=("q1",))
    ok(g, type="SetPlaneRole", actor="germany", unit="p1", role="fighter")
    ok(g, type="FinishStep", actor="germany")
    dice(g, 8, 7, then_ordinary=True)  # the defender fires first: 15 - 1 = 14, "AA": p1 aborts
    ok(g, type="FinishStep", actor="ussr")
    assert [r["result"] for r in of_type(g, "AirCombatRolled")][0] == "AA"
    play_by_choices(g, random.Random(1), max_commands=60, until=lambda game: game.state["naval"].combat is None
                    or game.state["air"].mission.combat is None or game.state["air"].mission.combat.ended)
    applied = {a["unit"]: a["effect"] for a in of_type(g, "AirCombatResultApplied")}
    assert applied["p1"] == "aborted"
    assert "p1" in g.state["naval"].aboard["cv"] and g.state["units"].units["p1"].face_up
    assert "p1" not in g.state["air"].mission.returning
    assert not [f for f in of_type(g, "UnitFlipped") if f["unit"] == "p1"]


def test_naval_air_combat_a_disorganized_carrier_plane_flies_from_its_carrier(tmp_path):
    """"Carrier Based Air Unit Classes": "A disorganized carrier air unit can take part in a naval
    air combat but only if it is flying from an undamaged carrier in that area" (one that flew a
    port attack this impulse, say); one aborted earlier in this combat flies no more in it."""
    from helpers import event
    from plugins.rules.naval.naval_air_combat import combat_planes

    g = carriers_at_sea(tmp_path, soviet_planes=("q1",))
    event(g, "UnitFlipped", unit="p1", face_up=False)
    assert [u.id for u in combat_planes(g.state, "axis")] == ["p1"]
    ok(g, type="SetPlaneRole", actor="germany", unit="p1", role="fighter")
    event(g, "CarrierPlanesAborted", units=["q1"])
    assert combat_planes(g.state, "allies") == []
    assert "q1" in g.describe(g.history()[-1])


def test_anti_aircraft_combat_an_aborted_carrier_plane_stays_aboard_as_it_was(tmp_path):
    """Ships in Flames 8.3: "Don't turn a face-up carrier plane face-down after it returns from a
    naval air combat": aborted by the ships' AA (6 points: 1 abort, 1 factor), p1 ends the round
    aboard its carrier, face up, and flies no more in this combat."""
    g = carriers_at_sea(tmp_path, soviet_aa=5)
    dice(g, 6, 9, 9, 9, 9, 9, 9, then_ordinary=True)  # "-1/7": the lowest die, 6
    ok(g, type="FinishStep", actor="germany")
    fired = of_type(g, "AAFireRolled")[-1]
    assert fired["points"] == 6 and fired["abort"] == 1
    play_by_choices(g, random.Random(2), max_commands=60, until=lambda game: game.state["naval"].combat is None
                    or game.state["units"].units["p1"].id in game.state["naval"].combat.aborted_planes)
    assert "p1" in g.state["air"].mission.aborted or "p1" in g.state["naval"].combat.aborted_planes
    assert "p1" in g.state["naval"].aboard["cv"] and g.state["units"].units["p1"].face_up
    assert not [f for f in of_type(g, "UnitFlipped") if f["unit"] == "p1"]
