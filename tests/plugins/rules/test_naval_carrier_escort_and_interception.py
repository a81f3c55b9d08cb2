"""Escort and interception by carrier air units in every air mission phase (seed 000 "Phasing
Side Flies Bombers & Escorts" L11840-11880: carriers at sea fly "as fighter escorts (during all
air mission phases)"; "Non-Phasing Side Flies Interceptors" L11896-11908: "carriers at sea can
fly as fighter interceptors"; Ships in Flames 8.5 Flying Missions: "Only face-up carrier planes
can fly a mission (except naval air), an escort, or an interception from a CV", from any hex dot
of the sea area "to any hex within range"; "Naval Air" L10311-10329: no interception of flights
out to sea): in a German Ground Strike on the Soviet army in Riga (5 hexes from the Baltic's open
sea), a German carrier in the Baltic escorts the Ju 87 and a Soviet carrier's plane intercepts
it at half range."""

import random

from helpers import air_unit, go_to, lab_game, ok, play_by_choices, refused, rig, ship, unit
from plugins.rules.naval.port_attack_carrier_air import why_not_fly
from test_naval_carrier_combat_air_patrol import MOSCOW
from test_naval_port_attack_carrier_air import AIRFIELD, AM, BOMBERS, LENINGRAD, RIGA, back_in_the_turn, of_type

GROUND_STRIKE = "turn.impulse.independent-air.ground-strike"
NP_INTERCEPTORS = f"{AM}.non-phasing-side-flies-interceptors"


def carriers_in_the_baltic(tmp_path, soviet_range=10, soviet_face_up=True, soviet_at_sea=True, german_range=6,
                           at=GROUND_STRIKE, extra=(), moscow_fighter=True):
    """A German Ju 87 may strike the Soviet army in Riga; a German carrier (plane p1) and a
    Soviet carrier (plane q1) are in the Baltic's section 3; a Soviet fighter far off in Moscow
    keeps the Soviet subphases played whether q1 may fly or not."""
    g = lab_game(tmp_path / "g.wif", options={
        "units": [air_unit("ju87", type_="tac", hex_=AIRFIELD, air=1, tactical=3, range_=4),
                  ship("gcv", type_="cv", attack=1, defense=4, aa=1, factors={"class": 4}),
                  air_unit("p1", type_="cvp", hex_=(200, 50), air=3, range_=german_range, factors={"naval": 2, "class": 2}),
                  unit("8a", power="ussr", hex_=RIGA),
                  ship("rcv", power="ussr", type_="cv", hex_=LENINGRAD, attack=1, defense=4, aa=1, factors={"class": 4}),
                  air_unit("q1", power="ussr", type_="cvp", hex_=LENINGRAD, air=3, range_=soviet_range,
                           face_up=soviet_face_up, factors={"naval": 2, "class": 2})]
                  + ([air_unit("i16", power="ussr", hex_=MOSCOW, air=3, range_=4)] if moscow_fighter else []) + list(extra),
        "hex_control": {f"{AIRFIELD[0]},{AIRFIELD[1]}": "germany"},
        "actions": {"germany": "air"}, "start_at": "turn.impulse.naval.naval-movement"}, extra_plugins=["naval"])
    rig(g, "RigAboard", ship="gcv", units=["p1"])
    rig(g, "RigAboard", ship="rcv", units=["q1"])
    rig(g, "RigShipsAtSea", units=["gcv"], area="BA", section=3)
    if soviet_at_sea:
        rig(g, "RigShipsAtSea", units=["rcv"], area="BA", section=3)
    go_to(g, at, active_side="axis")
    return g


def escort(hex_=RIGA):
    return {"type": "FlyCarrierAirUnit", "actor": "germany", "unit": "p1", "hex": list(hex_), "role": "escort"}


def intercept(hex_=RIGA):
    return {"type": "FlyCarrierAirUnit", "actor": "ussr", "unit": "q1", "hex": list(hex_), "role": "interceptor"}


def to_bombers_with_the_ju87(g):
    """Past the Soviet CAP (not flown), the Ju 87 flies to Riga."""
    if g.state.kernel.sequence.current == f"{AM}.combat-air-patrol":
        ok(g, type="FinishStep", actor="ussr")
    assert g.state.kernel.sequence.current == BOMBERS and g.state["air"].mission.kind == "ground-strike"
    ok(g, type="FlyMission", actor="germany", unit="ju87", hex=list(RIGA))


def offered(g, unit_id):
    """{role: [hexes]} offered to ``unit_id`` by FlyCarrierAirUnit now."""
    out = {}
    for c in g.choices(None).commands():
        if c.type != "FlyCarrierAirUnit":
            continue
        for plane in c.fields[0].options:
            if plane.value == unit_id:
                for role in plane.next_fields()[0].options:
                    out[role.value] = [o.value for o in role.next_fields()[0].options]
    return out


def landed_face_down(g, plane, carrier) -> bool:
    u = g.state["units"].units[plane]
    return u.where == "force-pool" or (u.where == "aboard" and plane in g.state["naval"].aboard[carrier] and not u.face_up)


def test_escorts_carrier_plane_escorts_a_ground_strike_and_interception_by_a_carrier_plane(tmp_path):
    g = carriers_in_the_baltic(tmp_path)
    # Phasing Side Flies Bombers & Escorts: nothing to escort before a bomber flies
    if g.state.kernel.sequence.current == f"{AM}.combat-air-patrol":
        ok(g, type="FinishStep", actor="ussr")
    assert offered(g, "p1") == {}
    refused(g, escort(), "no friendly bomber is flying to hex")
    to_bombers_with_the_ju87(g)
    assert offered(g, "p1") == {"escort": [tuple(RIGA)]}
    preview = g.preview(escort())
    assert preview["mission"] == "Ground Strike" and preview["reach"] == 6 and preview["distance"] == 5
    assert preview["lands_on"] == "gcv" and preview["activities"] == {}
    refused(g, escort(LENINGRAD), "no friendly bomber is flying to hex")
    ok(g, escort())
    assert g.state["air"].mission.flights["p1"].role == "escort"
    assert g.state["units"].units["p1"].where == "aboard"
    ok(g, type="FinishStep", actor="germany")
    # Non-Phasing Side Flies Interceptors: q1 reaches Riga at half range (10 // 2 = 5)
    assert g.state.kernel.sequence.current == NP_INTERCEPTORS
    assert offered(g, "q1") == {"interceptor": [tuple(RIGA)]}
    assert g.preview(intercept())["reach"] == 5
    ok(g, intercept())
    play_by_choices(g, random.Random(3), max_commands=80, until=back_in_the_turn)
    [combat] = [c for c in of_type(g, "AirCombatSelected") if tuple(c["hex"]) == tuple(RIGA)]
    assert "q1" in combat["lines"]["allies"]["fighters"] and "p1" in combat["lines"]["axis"]["fighters"]
    assert landed_face_down(g, "p1", "gcv") and landed_face_down(g, "q1", "rcv")
    assert not g.state["air"].mission.flights
    assert not [d for d in of_type(g, "DigressionStarted") if d["step"].endswith("digressions.return-to-base")]


def test_interception_carrier_plane_refusals(tmp_path):
    # out of half range: 8 // 2 = 4 hexes, Riga is 5 from the Baltic
    g = carriers_in_the_baltic(tmp_path / "range", soviet_range=8)
    to_bombers_with_the_ju87(g)
    ok(g, type="FinishStep", actor="germany")
    assert g.state.kernel.sequence.current == NP_INTERCEPTORS
    refused(g, intercept(), "can fly 4 hexes from Baltic Sea for a intercept", "5 hexes from that sea area")  # nothing appended
    assert offered(g, "q1") == {}
    # face down
    g = carriers_in_the_baltic(tmp_path / "down", soviet_face_up=False)
    to_bombers_with_the_ju87(g)
    ok(g, type="FinishStep", actor="germany")
    refused(g, intercept(), "face down")
    assert offered(g, "q1") == {}
    # in port
    g = carriers_in_the_baltic(tmp_path / "port", soviet_at_sea=False)
    to_bombers_with_the_ju87(g)
    ok(g, type="FinishStep", actor="germany")
    refused(g, intercept(), "in port", "cannot fly at all")
    # from a damaged carrier
    g = carriers_in_the_baltic(tmp_path / "damaged")
    rig(g, "RigNavalDamage", unit="rcv")
    to_bombers_with_the_ju87(g)
    ok(g, type="FinishStep", actor="germany")
    refused(g, intercept(), "is damaged", "can no longer fly from it")
    # an interceptor is not an escort, and no escort in the interception subphase
    g = carriers_in_the_baltic(tmp_path / "roles")
    to_bombers_with_the_ju87(g)
    assert "not a role in this subphase (bomber, escort)" in why_not_fly(g.state, "ussr", "q1", RIGA, "interceptor")
    ok(g, type="FinishStep", actor="germany")
    assert "not a role in this subphase (interceptor)" in why_not_fly(g.state, "germany", "p1", RIGA, "escort")


def test_escorts_carrier_plane_refused_out_of_range_and_from_a_damaged_carrier(tmp_path):
    g = carriers_in_the_baltic(tmp_path / "range", german_range=4)
    to_bombers_with_the_ju87(g)
    refused(g, escort(), "can fly 4 hexes from Baltic Sea for a escort")
    assert offered(g, "p1") == {}
    g = carriers_in_the_baltic(tmp_path / "damaged")
    rig(g, "RigNavalDamage", unit="gcv")
    to_bombers_with_the_ju87(g)
    refused(g, escort(), "is damaged")
    assert offered(g, "p1") == {}


def test_interception_carrier_plane_plays_the_subphase_only_in_reach(tmp_path):
    """With no fighter on the map, the Non-Phasing Side Flies Interceptors subphase is played
    for a carrier plane in half range of the Ju 87's hex (``MissionKind.interceptors``), and
    skipped for one out of it."""
    g = carriers_in_the_baltic(tmp_path / "near", moscow_fighter=False)
    to_bombers_with_the_ju87(g)
    ok(g, type="FinishStep", actor="germany")
    assert g.state.kernel.sequence.current == NP_INTERCEPTORS
    g = carriers_in_the_baltic(tmp_path / "far", soviet_range=8, moscow_fighter=False)
    to_bombers_with_the_ju87(g)
    ok(g, type="FinishStep", actor="germany")
    skipped = [e.data["reason"] for e in g.store.records() if e.type == "StepSkipped" and e.data["step"] == NP_INTERCEPTORS]
    assert skipped and "no organized fighters to intercept" in skipped[-1]
    assert g.state.kernel.sequence.current != NP_INTERCEPTORS


def test_interception_carrier_plane_not_against_naval_air(tmp_path):
    """"Naval Air": aircraft flying out to sea "can not be intercepted while flying out to sea"."""
    ju88 = air_unit("ju88", type_="lnd", hex_=AIRFIELD, range_=8, factors={"naval": 6})
    g = carriers_in_the_baltic(tmp_path, at="turn.impulse.naval.naval-air", extra=[ju88])
    assert g.state.kernel.sequence.current.endswith("naval-air")
    assert "can not be intercepted while flying out to sea" in why_not_fly(g.state, "ussr", "q1", RIGA, "interceptor")
    assert "can not be intercepted while flying out to sea" in why_not_fly(g.state, "germany", "p1", RIGA, "escort")
    assert not [c for c in g.choices(None).commands() if c.type == "FlyCarrierAirUnit"]


def test_escorts_and_interception_carrier_planes_every_offered_command_is_accepted(tmp_path):
    for seed in (2, 9):
        g = carriers_in_the_baltic(tmp_path / str(seed))
        play_by_choices(g, random.Random(seed), max_commands=100, prefer=("FlyCarrierAirUnit", "FlyMission"),
                        until=back_in_the_turn)
        flew = {(f["unit"], f["role"]) for f in of_type(g, "AirUnitFlew")}
        assert ("p1", "escort") in flew and {("q1", "interceptor"), ("q1", "cap")} & flew
        assert not g.state["air"].mission.flights
        assert landed_face_down(g, "p1", "gcv") and landed_face_down(g, "q1", "rcv")


def test_escorts_and_interception_the_greedy_bot_flies_its_carrier_planes(tmp_path):
    """app/bot_sea.py: the greedy bot escorts its bombers with its carrier plane and intercepts
    the enemy's over its army with its own (drawing only from Game.choices and previews)."""
    from app.bots import Bot

    g = carriers_in_the_baltic(tmp_path)
    to_bombers_with_the_ju87(g)
    decision = next(d for d in g.choices(None).decisions if d.find("FlyCarrierAirUnit"))
    cmd = Bot("greedy", 1).choose(g, decision, None)
    assert cmd == {**cmd, "type": "FlyCarrierAirUnit", "unit": "p1", "role": "escort", "hex": list(RIGA)}, cmd
    ok(g, cmd)
    ok(g, type="FinishStep", actor="germany")
    decision = next(d for d in g.choices(None).decisions if d.find("FlyCarrierAirUnit"))
    cmd = Bot("greedy", 1).choose(g, decision, None)
    assert cmd == {**cmd, "type": "FlyCarrierAirUnit", "unit": "q1", "role": "interceptor", "hex": list(RIGA)}, cmd
    ok(g, cmd)



def test_a_carrier_plane_lands_on_its_carrier_gone_back_to_port_while_it_flew(tmp_path):
    """"Carrier Based Air Unit Classes", Landing: a carrier air unit that flew from a carrier
    returns to it ("lands on the carrier it flew from", port_attack.py).  Its carrier may be back
    in port by then (a Guadalcanal game through the window met one: the landing asked for the
    carrier's sea box and the command that ended the mission was refused with an AttributeError):
    the mission ends and the plane's flight with it."""
    from test_naval_port_attack_carrier_air import KONIGSBERG

    g = carriers_in_the_baltic(tmp_path, soviet_at_sea=False)
    to_bombers_with_the_ju87(g)
    ok(g, escort())
    # the carrier's return to port, as the naval rules tell it (a unit's move, then its group's)
    rig(g, "RigEvent", event="UnitMoved", data={"unit": "gcv", "to_hex": list(KONIGSBERG), "to_where": "map"})
    rig(g, "RigEvent", event="NavalGroupMoved", data={"power": "germany", "units": ["gcv"], "origin": "BA:3", "path": [],
                                                     "port_hex": list(KONIGSBERG)})
    assert g.state["units"].units["gcv"].where == "map" and "p1" in g.state["naval"].aboard["gcv"]
    play_by_choices(g, random.Random(3), until=lambda g: g.state["air"].mission.kind != "ground-strike")
    # the strike is over, every command accepted (before the fix the step's end was refused)
    assert g.state["air"].mission.kind != "ground-strike"
    assert "p1" not in g.state["air"].mission.flights
