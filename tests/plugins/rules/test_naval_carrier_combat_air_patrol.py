"""Combat Air Patrol (CAP) by carrier air units (seed 000 "Combat Air Patrol (CAP)" L11785-11834,
"Disable Phases and Combat Air Patrol" L846-958: full printed range, no mission limit, disorganized
after the phase, only over a threatened hex; "Carrier Based Air Unit Classes" L1356-1479: a carrier
air unit flies "just like any other aircraft", lands on its carrier; Ships in Flames 8.1 and 8.5:
face up, from a CV at sea, not in port nor damaged): a Soviet carrier in the Baltic's section 3
covers Riga (5 hexes from the Baltic's open sea), which a German bomber threatens."""

import random

from helpers import air_unit, dice, go_to, lab_game, ok, play_by_choices, refused, rig, ship
from plugins.rules.core import world_map
from plugins.rules.naval.naval_air import hexes_to_sea
from plugins.rules.naval.port_attack_carrier_air import why_not_fly
from test_naval_port_attack_carrier_air import AIRFIELD, AM, BOMBERS, LENINGRAD, RIGA, back_in_the_turn, of_type

MOSCOW = world_map().city("Moscow").hex
CAP = f"{AM}.combat-air-patrol"


def soviet_carrier_off_riga(tmp_path, plane_range=10, plane_face_up=True, carrier_in_port=False, land_fighter=False):
    """``land_fighter``: a Soviet fighter far off in Moscow, so the CAP subphase is played
    whether the carrier plane may fly or not."""
    fighters = [air_unit("i16", power="ussr", hex_=MOSCOW, air=3, range_=4)] if land_fighter else []
    g = lab_game(tmp_path / "g.wif", options={
        "units": [air_unit("ju88", type_="lnd", hex_=AIRFIELD, range_=4, factors={"naval": 6}),
                  ship("r1", power="ussr", type_="bb", hex_=RIGA, attack=6, defense=6, aa=0),
                  ship("r2", power="ussr", type_="dd", hex_=LENINGRAD, attack=1, defense=2, aa=0),
                  ship("rcv", power="ussr", type_="cv", hex_=LENINGRAD, attack=1, defense=4, aa=1, factors={"class": 4}),
                  air_unit("q1", power="ussr", type_="cvp", hex_=LENINGRAD, air=3, range_=plane_range,
                           face_up=plane_face_up, factors={"naval": 2, "class": 2})] + fighters,
        "hex_control": {f"{AIRFIELD[0]},{AIRFIELD[1]}": "germany"},
        "actions": {"germany": "air"}, "start_at": "turn.impulse.naval.naval-movement"}, extra_plugins=["naval"])
    rig(g, "RigAboard", ship="rcv", units=["q1"])
    if not carrier_in_port:
        rig(g, "RigShipsAtSea", units=["rcv"], area="BA", section=3)
    go_to(g, "turn.impulse.naval.port-attack", active_side="axis")
    return g


def cap(hex_=RIGA, unit="q1", actor="ussr"):
    return {"type": "FlyCarrierAirUnit", "actor": actor, "unit": unit, "hex": list(hex_), "role": "cap"}


def test_combat_air_patrol_carrier_plane_covers_a_threatened_port_at_full_range(tmp_path):
    g = soviet_carrier_off_riga(tmp_path)
    assert g.state.kernel.sequence.current == CAP
    assert hexes_to_sea(RIGA, "BA") == 5 and hexes_to_sea(LENINGRAD, "BA") == 10
    [offer] = [c for c in g.choices().commands() if c.type == "FlyCarrierAirUnit"]
    [plane] = offer.fields[0].options
    [role] = plane.next_fields()[0].options
    # Leningrad is within the plane's range too (10 hexes), but the bomber cannot reach it (6): not threatened
    assert role.value == "cap" and [o.value for o in role.next_fields()[0].options] == [tuple(RIGA)]
    preview = g.preview(cap())
    # "A fighter flying CAP uses its printed range" (an interceptor flies half: 5); CAP does
    # "not count against mission limits"
    assert preview["reach"] == 10 and preview["distance"] == 5 and preview["activities"] == {}
    assert preview["lands_on"] == "rcv" and preview["disorganized_after"] is True
    ok(g, cap())
    flight = g.state["air"].mission.flights["q1"]
    assert flight.role == "cap" and tuple(flight.hex) == tuple(RIGA)
    assert g.state["units"].units["q1"].where == "aboard" and g.state["naval"].aboard["rcv"] == ["q1"]
    ok(g, type="FinishStep", actor="ussr")
    ok(g, type="FlyMission", actor="germany", unit="ju88", hex=list(RIGA))
    play_by_choices(g, random.Random(3), max_commands=60, until=back_in_the_turn)
    # the CAP fights the bomber over Riga, then lands back aboard, face down
    [combat] = [c for c in of_type(g, "AirCombatSelected") if tuple(c["hex"]) == tuple(RIGA)]
    assert combat["lines"]["allies"]["fighters"] == ["q1"]
    q1 = g.state["units"].units["q1"]
    assert q1.where == "force-pool" or (q1.where == "aboard" and g.state["naval"].aboard["rcv"] == ["q1"] and not q1.face_up)
    assert not g.state["air"].mission.flights


def test_combat_air_patrol_carrier_plane_lands_when_no_bomber_flies(tmp_path):
    """"automatically disorganized at the end of the phase regardless of whether an air combat
    takes place": the Germans fly nothing, the plane lands back aboard face down."""
    g = soviet_carrier_off_riga(tmp_path)
    ok(g, cap())
    ok(g, type="FinishStep", actor="ussr")
    assert g.state.kernel.sequence.current == BOMBERS
    ok(g, type="FinishStep", actor="germany")
    q1 = g.state["units"].units["q1"]
    assert q1.where == "aboard" and g.state["naval"].aboard["rcv"] == ["q1"] and not q1.face_up
    assert not g.state["air"].mission.flights and not g.state.kernel.sequence.current.startswith(AM)
    assert [r for r in of_type(g, "AirUnitReturned") if r["unit"] == "q1"]


def test_combat_air_patrol_carrier_plane_out_of_range_or_not_threatened_is_refused(tmp_path):
    g = soviet_carrier_off_riga(tmp_path, plane_range=4, land_fighter=True)
    assert g.state.kernel.sequence.current == CAP
    reason = refused(g, cap(), "can fly 4 hexes from Baltic Sea for a cap", "5 hexes from that sea area")
    assert "Combat Air Patrol (carrier air units)" in reason
    assert not [c for c in g.choices().commands() if c.type == "FlyCarrierAirUnit"]
    g2 = soviet_carrier_off_riga(tmp_path / "b")
    refused(g2, cap(hex_=LENINGRAD), "not threatened")
    refused(g2, cap(hex_=AIRFIELD), "not threatened")
    refused(g2, cap(unit="r1"), "not a carrier air unit of ussr")
    refused(g2, {**cap(), "role": "interceptor"}, "not a role in this subphase")
    # Combat Air Patrol "lets non-phasing major powers fly fighters" (the kernel refuses the
    # phasing side first: it does not decide in this subphase; the rule says why too)
    refused(g2, cap(actor="germany", unit="ju88"), "nothing (more) to decide")
    assert "only the non-phasing side" in why_not_fly(g2.state, "germany", "q1", RIGA, "cap")


def test_combat_air_patrol_carrier_plane_in_port_damaged_or_face_down_is_refused(tmp_path):
    g = soviet_carrier_off_riga(tmp_path, carrier_in_port=True, land_fighter=True)
    assert g.state.kernel.sequence.current == CAP
    refused(g, cap(), "in port", "cannot fly at all")
    assert not [c for c in g.choices().commands() if c.type == "FlyCarrierAirUnit"]
    g2 = soviet_carrier_off_riga(tmp_path / "b")
    rig(g2, "RigNavalDamage", unit="rcv", damaged=True)
    refused(g2, cap(), "damaged", "can no longer fly from it")
    g3 = soviet_carrier_off_riga(tmp_path / "c", plane_face_up=False, land_fighter=True)
    refused(g3, cap(), "face down")
    # with nothing else to fly CAP, the subphase is skipped for a plane that may not fly
    g4 = soviet_carrier_off_riga(tmp_path / "d", plane_face_up=False)
    skipped = [e.data["reason"] for e in g4.store.records() if e.type == "StepSkipped" and e.data["step"] == CAP]
    assert skipped and "no organized fighters to fly CAP" in skipped[-1]


def test_combat_air_patrol_carrier_planes_every_offered_command_is_accepted(tmp_path):
    g = soviet_carrier_off_riga(tmp_path)
    dice(g, 3, 3, then_ordinary=True)
    play_by_choices(g, random.Random(11), max_commands=80, prefer=("FlyCarrierAirUnit", "FlyMission"),
                    until=back_in_the_turn)
    assert [f for f in of_type(g, "AirUnitFlew") if f["unit"] == "q1" and f["role"] == "cap"]
    q1 = g.state["units"].units["q1"]
    assert q1.where in ("aboard", "force-pool") and not g.state["air"].mission.flights
    if q1.where == "aboard":
        assert not q1.face_up
