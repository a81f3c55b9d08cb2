"""Port Attack by carrier air units (seed 000 "Port Attack" L10280-10305: "carrier based air
units that are at sea"; "Carrier Based Air Unit Classes" L1356-1479, Landing; "Surprise Points"
L6925-6950: "Carrier planes are in the section their carrier is in"; Ships in Flames 8.5 Flying
Missions): a German carrier in the Baltic's section 2 sends its plane against Soviet ships in
Riga (5 hexes from the Baltic's open sea) and cannot reach Leningrad (10 hexes)."""

import random

from helpers import air_unit, dice, go_to, lab_game, ok, play_by_choices, refused, rig, ship
from plugins.rules.core import world_map
from plugins.rules.naval import port_attack_surprise as pas
from plugins.rules.naval.naval_air import hexes_to_sea

KONIGSBERG = world_map().port("Konigsberg").hex
RIGA = world_map().port("Riga").hex
LENINGRAD = world_map().port("Leningrad").hex
AIRFIELD = (205, 44)
AM = "wif.procedures.air-mission"
BOMBERS = f"{AM}.phasing-side-flies-bombers"


def of_type(g, type_):
    return [e.data for e in g.store.records() if e.type == type_]


def carrier_in_the_baltic(tmp_path, section=2, soviet_aa=0, plane_range=5, land_bomber=False, carrier_in_port=False):
    german = [ship("cv", type_="cv", attack=1, defense=4, aa=1, factors={"class": 4}),
              air_unit("p1", type_="cvp", hex_=KONIGSBERG, air=2, range_=plane_range, factors={"naval": 9, "class": 2})]
    if land_bomber:
        german.append(air_unit("ju88", type_="lnd", hex_=AIRFIELD, range_=8, factors={"naval": 6}))
    soviet = [ship("r1", power="ussr", type_="bb", hex_=RIGA, attack=6, defense=6, aa=soviet_aa),
              ship("r2", power="ussr", type_="dd", hex_=LENINGRAD, attack=1, defense=2, aa=0)]
    g = lab_game(tmp_path / "g.wif", options={
        "units": german + soviet, "hex_control": {f"{AIRFIELD[0]},{AIRFIELD[1]}": "germany"},
        "actions": {"germany": "air"}, "start_at": "turn.impulse.naval.naval-movement"}, extra_plugins=["naval"])
    rig(g, "RigAboard", ship="cv", units=["p1"])
    if not carrier_in_port:
        rig(g, "RigShipsAtSea", units=["cv"], area="BA", section=section)
    go_to(g, "turn.impulse.naval.port-attack", active_side="axis")
    return g


def back_in_the_turn(game) -> bool:
    """The port attack and its air-to-air combats (a procedure of their own) are over."""
    return game.state.kernel.sequence.current.startswith("wif.turn")


def fly(unit="p1", hex_=RIGA, role="bomber"):
    return {"type": "FlyCarrierAirUnit", "actor": "germany", "unit": unit, "hex": list(hex_), "role": role}


def finish_mission(g, until_step=None):
    """FinishStep through the mission's steps (no fighters: no interception, no air-to-air)."""
    for _ in range(20):
        step = g.state.kernel.sequence.current
        if not step.startswith(AM) or step == until_step:
            return
        pending = g.state.kernel.sequence.pending
        ok(g, type="FinishStep", actor=pending[0])


def test_port_attack_carrier_air_unit_flies_from_its_carrier_and_lands_back_aboard(tmp_path):
    g = carrier_in_the_baltic(tmp_path)
    assert g.state.kernel.sequence.current == BOMBERS
    assert hexes_to_sea(RIGA, "BA") == 5 and hexes_to_sea(LENINGRAD, "BA") == 10
    [offer] = [c for c in g.choices().commands() if c.type == "FlyCarrierAirUnit"]
    [plane] = offer.fields[0].options
    assert plane.value == "p1"
    roles = {o.value: o for o in plane.next_fields()[0].options}
    assert set(roles) == {"bomber"}  # no bomber flies yet, so nothing to escort
    assert [o.value for o in roles["bomber"].next_fields()[0].options] == [tuple(RIGA)]  # Leningrad is out of range
    preview = g.preview(fly())
    assert preview["distance"] == 5 and preview["reach"] == 5 and preview["section"] == 2
    assert preview["lands_on"] == "cv" and preview["activities"] == {"air-mission": 1}
    ok(g, fly())
    flight = g.state["air"].mission.flights["p1"]
    assert flight.role == "bomber" and tuple(flight.hex) == tuple(RIGA)
    assert g.state["units"].units["p1"].where == "aboard" and g.state["naval"].aboard["cv"] == ["p1"]
    dice(g, 3, 3, 1, 1, 1, 1, then_ordinary=True)  # the surprise rolls (3 against 3), then the defence rolls
    finish_mission(g)
    assert of_type(g, "AirMissionPerformed")
    # 9 air-to-sea factors against 1 ship: the battleship suffers the chart's results
    assert "r1" in g.state["naval"].damaged or g.state["units"].units["r1"].where != "map"
    plane = g.state["units"].units["p1"]
    assert plane.where == "aboard" and g.state["naval"].aboard["cv"] == ["p1"] and not plane.face_up
    assert "p1" not in g.state["air"].mission.flights
    assert not g.state.kernel.sequence.current.startswith(AM)


def test_port_attack_carrier_air_unit_out_of_range_is_refused_and_nothing_is_appended(tmp_path):
    g = carrier_in_the_baltic(tmp_path)
    reason = refused(g, fly(hex_=LENINGRAD), "can fly 5 hexes from Baltic Sea", "10 hexes from that sea area")
    assert "Port Attack (carrier air units)" in reason
    refused(g, fly(hex_=AIRFIELD), "not a port")
    refused(g, fly(hex_=(9999, 9999)), "hex (9999, 9999) is not on the map")  # bad input: nothing appended
    refused(g, fly(role="escort"), "no friendly bomber is flying")
    refused(g, fly(unit="ju88"), "not a carrier air unit of germany")
    refused(g, {**fly(), "actor": "ussr"}, "nothing (more) to decide")


def test_port_attack_carrier_air_unit_cannot_fly_from_port_or_a_damaged_carrier(tmp_path):
    g = carrier_in_the_baltic(tmp_path, carrier_in_port=True, land_bomber=True)
    refused(g, fly(), "in port", "cannot fly at all")
    assert not [c for c in g.choices().commands() if c.type == "FlyCarrierAirUnit"]
    g2 = carrier_in_the_baltic(tmp_path / "b", land_bomber=True)
    rig(g2, "RigNavalDamage", unit="cv", damaged=True)
    refused(g2, fly(), "damaged", "can no longer fly from it")


def test_port_attack_skipped_when_only_carrier_planes_in_port_could_fly(tmp_path):
    g = carrier_in_the_baltic(tmp_path, carrier_in_port=True)
    skipped = [e.data["reason"] for e in g.store.records()
               if e.type == "StepSkipped" and e.data["step"] == "wif.turn.impulse.naval.port-attack"]
    assert skipped and "carrier air units aboard undamaged carriers at sea" in skipped[-1]


def test_port_attack_surprise_carrier_planes_count_in_their_carriers_section(tmp_path):
    """Surprise Points: the attacker's points are the modified search number of the carrier's
    section (4, +1 for the carrier with its plane in fine weather) plus the defender's roll."""
    g = carrier_in_the_baltic(tmp_path, section=4)
    ok(g, fly())
    dice(g, 2, 3, then_ordinary=True)
    finish_mission(g, until_step=pas.SPEND_STEP)
    rolled = of_type(g, "PortSurpriseRolled")[-1]["ports"][f"{RIGA[0]},{RIGA[1]}"]
    # the Axis: section 4 modified to 5, + the Soviet roll 3 = 8; the Allies: Riga is a major
    # port (section 5) + the German roll 2 = 7
    assert rolled == {"rolls": {"axis": 2, "allies": 3}, "surprise": {"axis": 1, "allies": 0}}


def test_port_attack_surprise_carrier_in_a_low_section_counts_no_more_than_it(tmp_path):
    g = carrier_in_the_baltic(tmp_path, section=1)
    ok(g, fly())
    dice(g, 2, 3, then_ordinary=True)
    finish_mission(g, until_step=pas.SPEND_STEP)
    rolled = of_type(g, "PortSurpriseRolled")[-1]["ports"][f"{RIGA[0]},{RIGA[1]}"]
    # the Axis: section 1 modified to 2, + 3 = 5; the Allies: 5 + 2 = 7
    assert rolled["surprise"] == {"axis": 0, "allies": 2}


def test_port_attack_carrier_air_unit_escorts_a_land_based_bomber(tmp_path):
    g = carrier_in_the_baltic(tmp_path, land_bomber=True)
    ok(g, type="FlyMission", actor="germany", unit="ju88", hex=list(RIGA))
    assert g.preview(fly(role="escort"))["activities"] == {}
    ok(g, fly(role="escort"))
    assert g.state["air"].mission.flights["p1"].role == "escort"
    dice(g, 3, 3, then_ordinary=True)
    finish_mission(g, until_step=f"{AM}.return-to-base-phasing")
    # the escort landed on its carrier when the attack was over; the land-based bomber returns to base
    assert "p1" not in g.state["air"].mission.flights and g.state["naval"].aboard["cv"] == ["p1"]
    ok(g, type="ReturnAirToBase", actor="germany", unit="ju88", hex=list(AIRFIELD))


def test_port_attack_carrier_air_every_offered_command_is_accepted(tmp_path):
    g = carrier_in_the_baltic(tmp_path, soviet_aa=30, land_bomber=True)
    play_by_choices(g, random.Random(5), max_commands=80, prefer=("FlyCarrierAirUnit", "FlyMission"),
                    until=lambda game: not game.state.kernel.sequence.current.startswith(AM))
    assert of_type(g, "AirUnitFlew")
    p1 = g.state["units"].units["p1"]
    assert p1.where in ("aboard", "force-pool")
    if p1.where == "aboard":
        assert not p1.face_up and g.state["naval"].aboard["cv"] == ["p1"]


def test_port_attack_combat_air_patrol_over_a_port_only_carrier_planes_threaten(tmp_path):
    """Combat Air Patrol: "There has to be an enemy bomber ... capable of flying a mission to the
    hex": the carrier plane threatens Riga (5 hexes from the Baltic), not Leningrad (10); the
    Soviet fighter's CAP then fights the carrier plane in an air-to-air combat over Riga."""
    g = lab_game(tmp_path / "g.wif", options={
        "units": [ship("cv", type_="cv", attack=1, defense=4, aa=1, factors={"class": 4}),
                  air_unit("p1", type_="cvp", hex_=KONIGSBERG, air=2, range_=5, factors={"naval": 9, "class": 2}),
                  ship("r1", power="ussr", type_="bb", hex_=RIGA, attack=6, defense=6, aa=0),
                  ship("r2", power="ussr", type_="dd", hex_=LENINGRAD, attack=1, defense=2, aa=0),
                  air_unit("i16", power="ussr", hex_=RIGA, air=3, range_=12)],
        "hex_control": {f"{RIGA[0]},{RIGA[1]}": "ussr", f"{LENINGRAD[0]},{LENINGRAD[1]}": "ussr"},
        "actions": {"germany": "air"}, "start_at": "turn.impulse.naval.naval-movement"}, extra_plugins=["naval"])
    rig(g, "RigAboard", ship="cv", units=["p1"])
    rig(g, "RigShipsAtSea", units=["cv"], area="BA", section=2)
    go_to(g, "turn.impulse.naval.port-attack", active_side="axis")
    assert g.state.kernel.sequence.current == f"{AM}.combat-air-patrol"
    [cap] = [c for c in g.choices().commands() if c.type == "FlyCAP" and c.actor == "ussr"]
    [fighter] = cap.fields[0].options
    assert [o.value for o in fighter.next_fields()[0].options] == [tuple(RIGA)]
    refused(g, {"type": "FlyCAP", "actor": "ussr", "unit": "i16", "hex": list(LENINGRAD)}, "not threatened")
    ok(g, type="FlyCAP", actor="ussr", unit="i16", hex=list(RIGA))
    ok(g, type="FinishStep", actor="ussr")
    ok(g, fly())
    play_by_choices(g, random.Random(2), max_commands=60,
                    until=lambda game: not game.state.kernel.sequence.current.startswith(AM))
    assert [c for c in of_type(g, "AirCombatSelected") if tuple(c["hex"]) == tuple(RIGA)]
    p1 = g.state["units"].units["p1"]
    assert p1.where == "force-pool" or (p1.where == "aboard" and not p1.face_up)
    assert not g.state["air"].mission.flights


def test_port_attack_carrier_air_unit_intercepts_over_the_port_and_lands_back(tmp_path):
    """Ships in Flames 8.5: carrier planes fly "an escort, or an interception from a CV": a Soviet
    carrier plane in the Baltic (half of range 10: 5 hexes, Riga) intercepts the German bomber."""
    g = lab_game(tmp_path / "g.wif", options={
        "units": [air_unit("ju88", type_="lnd", hex_=AIRFIELD, range_=8, factors={"naval": 6}),
                  ship("r1", power="ussr", type_="bb", hex_=RIGA, attack=6, defense=6, aa=0),
                  ship("rcv", power="ussr", type_="cv", hex_=LENINGRAD, attack=1, defense=4, aa=1, factors={"class": 4}),
                  air_unit("q1", power="ussr", type_="cvp", hex_=LENINGRAD, air=3, range_=10, factors={"naval": 2, "class": 2})],
        "hex_control": {f"{AIRFIELD[0]},{AIRFIELD[1]}": "germany"},
        "actions": {"germany": "air"}, "start_at": "turn.impulse.naval.naval-movement"}, extra_plugins=["naval"])
    rig(g, "RigAboard", ship="rcv", units=["q1"])
    rig(g, "RigShipsAtSea", units=["rcv"], area="BA", section=3)
    go_to(g, "turn.impulse.naval.port-attack", active_side="axis")
    intercept = {"type": "FlyCarrierAirUnit", "actor": "ussr", "unit": "q1", "hex": list(RIGA), "role": "interceptor"}
    # the carrier plane could fly CAP over Riga (the bomber threatens it); it waits to intercept
    assert g.state.kernel.sequence.current == f"{AM}.combat-air-patrol"
    ok(g, type="FinishStep", actor="ussr")
    ok(g, type="FlyMission", actor="germany", unit="ju88", hex=list(RIGA))
    refused(g, {**fly(), "unit": "ju88"}, "not a carrier air unit")
    ok(g, type="FinishStep", actor="germany")
    assert g.state.kernel.sequence.current == f"{AM}.non-phasing-side-flies-interceptors"
    [offer] = [c for c in g.choices().commands() if c.type == "FlyCarrierAirUnit"]
    [plane] = offer.fields[0].options
    [role] = plane.next_fields()[0].options
    assert role.value == "interceptor" and [o.value for o in role.next_fields()[0].options] == [tuple(RIGA)]
    refused(g, {**intercept, "role": "bomber"}, "not a role in this subphase")
    assert g.preview(intercept)["reach"] == 5
    ok(g, intercept)
    play_by_choices(g, random.Random(4), max_commands=60, until=back_in_the_turn)
    assert [c for c in of_type(g, "AirCombatSelected") if tuple(c["hex"]) == tuple(RIGA)]
    q1 = g.state["units"].units["q1"]
    assert q1.where == "force-pool" or (q1.where == "aboard" and g.state["naval"].aboard["rcv"] == ["q1"] and not q1.face_up)
    assert not g.state["air"].mission.flights
