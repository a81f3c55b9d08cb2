"""Combat Air Patrol (CAP) by carrier air units beyond the port attack (seed 000 "Combat Air
Patrol (CAP)" L11785-11834: non-phasing fighters over "hexes that are vulnerable to air attack
during the current air mission phase (e.g., ground strike phase)", "in each of the 8 air mission
phases"; "Carrier Based Air Unit Classes" L1356-1479, Carrier planes as aircraft and Landing;
Ships in Flames 8.5 Flying Missions: from any hex dot of the sea area, "to any hex within
range"; "Naval Air" L10311-10329: aircraft flying to sea "can not be intercepted while flying
out to sea", so no CAP there): a Soviet carrier in the Baltic's section 3 covers Riga (5 hexes
from the Baltic's open sea), where a German Ground Strike may hit a Soviet army."""

import random

from helpers import air_unit, dice, go_to, lab_game, ok, play_by_choices, refused, rig, ship, unit
from plugins.rules.naval.port_attack_carrier_air import why_not_fly
from test_naval_carrier_combat_air_patrol import MOSCOW, cap
from test_naval_port_attack_carrier_air import AIRFIELD, AM, BOMBERS, LENINGRAD, RIGA, back_in_the_turn, of_type

CAP = f"{AM}.combat-air-patrol"
GROUND_STRIKE = "turn.impulse.independent-air.ground-strike"


def soviet_carrier_off_riga(tmp_path, plane_face_up=True, land_fighter=False, plane_range=10, at=GROUND_STRIKE, extra=()):
    """A German Ju 87 (tactical 3) may strike the Soviet army in Riga; the Soviet carrier's plane
    is at sea in the Baltic's section 3 (``land_fighter``: a Soviet fighter far off in Moscow,
    so the CAP subphase is played whether the carrier plane may fly or not)."""
    fighters = [air_unit("i16", power="ussr", hex_=MOSCOW, air=3, range_=4)] if land_fighter else []
    g = lab_game(tmp_path / "g.wif", options={
        "units": [air_unit("ju87", type_="tac", hex_=AIRFIELD, air=1, tactical=3, range_=4),
                  unit("8a", power="ussr", hex_=RIGA),
                  ship("rcv", power="ussr", type_="cv", hex_=LENINGRAD, attack=1, defense=4, aa=1, factors={"class": 4}),
                  air_unit("q1", power="ussr", type_="cvp", hex_=LENINGRAD, air=3, range_=plane_range,
                           face_up=plane_face_up, factors={"naval": 2, "class": 2})] + fighters + list(extra),
        "hex_control": {f"{AIRFIELD[0]},{AIRFIELD[1]}": "germany"},
        "actions": {"germany": "air"}, "start_at": "turn.impulse.naval.naval-movement"}, extra_plugins=["naval"])
    rig(g, "RigAboard", ship="rcv", units=["q1"])
    rig(g, "RigShipsAtSea", units=["rcv"], area="BA", section=3)
    go_to(g, at, active_side="axis")
    return g


def landed_face_down(g) -> bool:
    q1 = g.state["units"].units["q1"]
    return q1.where == "aboard" and g.state["naval"].aboard["rcv"] == ["q1"] and not q1.face_up


def test_combat_air_patrol_carrier_plane_covers_a_ground_strike_target_and_lands_aboard(tmp_path):
    g = soviet_carrier_off_riga(tmp_path)
    assert g.state.kernel.sequence.current == CAP and g.state["air"].mission.kind == "ground-strike"
    [offer] = [c for c in g.choices().commands() if c.type == "FlyCarrierAirUnit"]
    [plane] = offer.fields[0].options
    [role] = plane.next_fields()[0].options
    # only the hex a German bomber threatens: Riga's army (Leningrad, in the plane's range too, holds
    # only ships, no Ground Strike target)
    assert role.value == "cap" and [o.value for o in role.next_fields()[0].options] == [tuple(RIGA)]
    preview = g.preview(cap())
    assert preview["mission"] == "Ground Strike" and preview["reach"] == 10 and preview["distance"] == 5
    assert preview["lands_on"] == "rcv" and preview["activities"] == {}
    ok(g, cap())
    assert g.state["units"].units["q1"].where == "aboard"
    ok(g, type="FinishStep", actor="ussr")
    ok(g, type="FlyMission", actor="germany", unit="ju87", hex=list(RIGA))
    play_by_choices(g, random.Random(5), max_commands=60, until=back_in_the_turn)
    [combat] = [c for c in of_type(g, "AirCombatSelected") if tuple(c["hex"]) == tuple(RIGA)]
    assert combat["lines"]["allies"]["fighters"] == ["q1"]
    # landed back aboard face down (or shot down), never asked for a land base
    assert g.state["units"].units["q1"].where == "force-pool" or landed_face_down(g)
    assert not g.state["air"].mission.flights


def test_combat_air_patrol_carrier_plane_aborted_lands_aboard_at_once(tmp_path):
    """"A carrier air unit that aborts from an air-to-air combat returns immediately to a
    carrier": a strong German escort aborts the CAP plane, which is not sent to a land hex."""
    me109 = air_unit("me109", hex_=AIRFIELD, air=7, range_=4)
    g = soviet_carrier_off_riga(tmp_path, extra=[me109])
    ok(g, cap())
    ok(g, type="FinishStep", actor="ussr")
    ok(g, type="FlyMission", actor="germany", unit="ju87", hex=list(RIGA))
    ok(g, type="FlyMission", actor="germany", unit="me109", hex=list(RIGA), role="escort")
    dice(g, 10, 1, then_ordinary=True)
    play_by_choices(g, random.Random(1), max_commands=80, until=back_in_the_turn)
    assert {"cause": "DA", "effect": "aborted", "unit": "q1"} in of_type(g, "AirCombatResultApplied")
    assert landed_face_down(g) and not g.state["air"].mission.flights
    [landing] = [r for r in of_type(g, "AirUnitReturned") if r["unit"] == "q1"]
    assert tuple(landing["hex"]) != tuple(RIGA)  # its carrier's sea box, not the hex it covered
    assert not [d for d in of_type(g, "DigressionStarted") if d["step"].endswith("digressions.return-to-base")]


def test_combat_air_patrol_carrier_plane_lands_when_no_ground_strike_flies(tmp_path):
    g = soviet_carrier_off_riga(tmp_path)
    ok(g, cap())
    ok(g, type="FinishStep", actor="ussr")
    assert g.state.kernel.sequence.current == BOMBERS
    ok(g, type="FinishStep", actor="germany")
    assert landed_face_down(g) and not g.state["air"].mission.flights
    assert not g.state.kernel.sequence.current.startswith(AM)


def test_combat_air_patrol_carrier_plane_refusals_beyond_the_port_attack(tmp_path):
    g = soviet_carrier_off_riga(tmp_path, plane_range=4, land_fighter=True)
    assert g.state.kernel.sequence.current == CAP
    refused(g, cap(), "can fly 4 hexes from Baltic Sea for a cap", "5 hexes from that sea area")
    assert not [c for c in g.choices().commands() if c.type == "FlyCarrierAirUnit"]
    g2 = soviet_carrier_off_riga(tmp_path / "b")
    refused(g2, cap(hex_=LENINGRAD), "not threatened by this Ground Strike mission")
    # a port attack's other roles are not flown in the other missions
    refused(g2, {**cap(), "role": "escort"}, "not a role in this subphase (cap)")
    # a face-down plane may not fly, and with no other fighter the subphase is skipped
    g3 = soviet_carrier_off_riga(tmp_path / "c", plane_face_up=False)
    skipped = [e.data["reason"] for e in g3.store.records() if e.type == "StepSkipped" and e.data["step"] == CAP]
    assert skipped and "no organized fighters to fly CAP" in skipped[-1]


def test_combat_air_patrol_carrier_plane_not_over_naval_air_flights(tmp_path):
    """"Naval Air": aircraft flying out to sea "can not be intercepted": no CAP against them."""
    ju88 = air_unit("ju88", type_="lnd", hex_=AIRFIELD, range_=8, factors={"naval": 6})
    g = soviet_carrier_off_riga(tmp_path, at="turn.impulse.naval.naval-air", extra=[ju88])
    assert g.state.kernel.sequence.current.endswith("naval-air")
    assert "can not be intercepted while flying out to sea" in why_not_fly(g.state, "ussr", "q1", RIGA, "cap")
    assert not [c for c in g.choices(None).commands() if c.type == "FlyCarrierAirUnit"]


def test_combat_air_patrol_carrier_planes_in_a_ground_strike_every_offered_command_is_accepted(tmp_path):
    for seed in (2, 9):
        g = soviet_carrier_off_riga(tmp_path / str(seed))
        play_by_choices(g, random.Random(seed), max_commands=80, prefer=("FlyCarrierAirUnit", "FlyMission"),
                        until=back_in_the_turn)
        assert [f for f in of_type(g, "AirUnitFlew") if f["unit"] == "q1" and f["role"] == "cap"]
        assert not g.state["air"].mission.flights
        q1 = g.state["units"].units["q1"]
        assert q1.where == "force-pool" or landed_face_down(g)
