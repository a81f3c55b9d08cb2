"""Carrier planes flying missions (Ships in Flames 8.1: "A carrier plane can be used as either a
fighter or a bomber"; 8.5 Flying Missions L792-796: "Only face-up carrier planes can fly a mission
(except naval air) ... You resolve these missions in the normal way.  Turn your carrier plane
face-down when it returns"; seed 000 "Phasing Side Flies Bombers & Escorts" L11840-11880: carriers
at sea fly "air missions performed by bombers during the phases: port attacks, strategic bombing,
carpet bombing, ground strikes, and ground support"; "Non-Phasing Side Flies Bombers & Escorts"
L11882-11894).  A German carrier in the Baltic's section 3 sends its plane p1 (tactical 3, range 6)
against the Soviet army in Riga, 5 hexes from the Baltic's open sea; no German aircraft is on the
map, so the phases are played for the carrier plane alone."""

import random

from helpers import air_unit, dice, go_to, lab_game, ok, play_by_choices, refused, rig, ship, unit
from plugins.rules import air as air_plugin
from plugins.rules.air.mission_kinds import KINDS
from plugins.rules.naval.carrier_planes_flying_missions import carrier_bombs_in
from plugins.rules.naval.naval_air_combat import KIND as NAVAL_AIR_COMBAT
from plugins.rules.naval.port_attack_carrier_air import why_not_fly
from test_naval_carrier_escort_and_interception import landed_face_down, offered
from test_naval_port_attack_carrier_air import AM, BOMBERS, LENINGRAD, RIGA, back_in_the_turn, of_type

GROUND_STRIKE = "turn.impulse.independent-air.ground-strike"
CARPET = "turn.impulse.independent-air.carpet-bombing"
DECLARATION = "turn.impulse.land.combat.land-combat-declaration"
NP_BOMBERS = f"{AM}.non-phasing-side-flies-bombers"
BESIDE_RIGA = (203, 47)  # clear, 5 hexes from the Baltic's open sea
FAR = (200, 60)  # a land hex far south of the Baltic


def carrier_at_sea(tmp_path, at=GROUND_STRIKE, tactical=3, range_=6, face_up=True, in_port=False, factors=None,
                   extra=(), actions=None, soviet_carrier=False, rules=(), plugins=()):
    """p1 aboard the German carrier gcv in the Baltic's section 3 (or in Konigsberg), the Soviet
    8th Army in Riga; with ``soviet_carrier`` the Soviet carrier rcv (plane q1, tactical 2) in the
    same section."""
    units = [ship("gcv", type_="cv", attack=1, defense=4, aa=1, factors={"class": 4}),
             air_unit("p1", type_="cvp", hex_=(200, 50), air=3, tactical=tactical, range_=range_, face_up=face_up,
                      factors={"naval": 2, "class": 2, **(factors or {})}),
             unit("8a", power="ussr", hex_=RIGA)] + list(extra)
    if soviet_carrier:
        units += [ship("rcv", power="ussr", type_="cv", hex_=LENINGRAD, attack=1, defense=4, aa=1, factors={"class": 4}),
                  air_unit("q1", power="ussr", type_="cvp", hex_=LENINGRAD, air=3, tactical=2, range_=6,
                           factors={"naval": 2, "class": 2})]
    g = lab_game(tmp_path / "g.wif", options={
        "units": units, "hex_control": {f"{BESIDE_RIGA[0]},{BESIDE_RIGA[1]}": "germany"},
        "actions": actions or {"germany": "air"}, "optional_rules": list(rules),
        "start_at": "turn.impulse.naval.naval-movement"}, extra_plugins=["naval", *plugins])
    rig(g, "RigAboard", ship="gcv", units=["p1"])
    if not in_port:
        rig(g, "RigShipsAtSea", units=["gcv"], area="BA", section=3)
    if soviet_carrier:
        rig(g, "RigAboard", ship="rcv", units=["q1"])
        rig(g, "RigShipsAtSea", units=["rcv"], area="BA", section=3)
    go_to(g, at, active_side="axis")
    return g


def bomb(hex_=RIGA, unit_id="p1", actor="germany"):
    return {"type": "FlyCarrierAirUnit", "actor": actor, "unit": unit_id, "hex": list(hex_), "role": "bomber"}


def skipped(g, step):
    return [e.data["reason"] for e in g.store.records() if e.type == "StepSkipped" and e.data["step"] == step]


def test_carrier_planes_flying_missions_ground_strike_disorganizes_the_army_and_the_plane_lands_face_down(tmp_path):
    g = carrier_at_sea(tmp_path)
    # the Ground Strike phase is played for a carrier plane alone (MissionKind.bombers_elsewhere)
    assert g.state.kernel.sequence.current == BOMBERS and g.state["air"].mission.kind == "ground-strike"
    assert offered(g, "p1") == {"bomber": [tuple(RIGA)]}
    preview = g.preview(bomb())
    assert preview["mission"] == "Ground Strike" and preview["factor"] == "tactical" and preview["tactical"] == 3
    assert preview["targets"] == ["8a"] and preview["distance"] == 5 and preview["reach"] == 6
    assert preview["lands_on"] == "gcv" and preview["activities"] == {"air-mission": 1}
    events = ok(g, bomb())
    assert [e.type for e in events].count("ActivityUsed") == 1  # "each carrier air unit counts separately"
    assert g.state["air"].mission.flights["p1"].role == "bomber"
    assert g.state["units"].units["p1"].where == "aboard"
    dice(g, 2, then_ordinary=True)  # 2 <= tactical 3: the strike disorganizes the army
    ok(g, type="FinishStep", actor="germany")
    play_by_choices(g, random.Random(1), max_commands=40, until=back_in_the_turn)
    [rolled] = of_type(g, "GroundStrikeRolled")
    assert rolled == {**rolled, "bomber": "p1", "target": "8a", "tactical": 3, "success": True}
    assert not g.state["units"].units["8a"].face_up
    assert landed_face_down(g, "p1", "gcv") and not g.state["air"].mission.flights
    assert not [d for d in of_type(g, "DigressionStarted") if d["step"].endswith("digressions.return-to-base")]


def test_carrier_planes_flying_missions_ground_strike_phase_skipped_with_no_target_in_range(tmp_path):
    g = carrier_at_sea(tmp_path, range_=4)  # Riga is 5 hexes from the Baltic
    [reason] = skipped(g, f"wif.{GROUND_STRIKE}")
    assert "no phasing power has organized bombers to fly" in reason


def test_carrier_planes_flying_missions_refusals_append_nothing(tmp_path):
    # face down
    g = carrier_at_sea(tmp_path / "down", face_up=False, extra=[air_unit("ju87", type_="tac", hex_=BESIDE_RIGA, tactical=3)])
    assert g.state.kernel.sequence.current == BOMBERS
    refused(g, bomb(), "face down")
    assert offered(g, "p1") == {}
    # aboard a carrier in port
    g = carrier_at_sea(tmp_path / "port", in_port=True, extra=[air_unit("ju87", type_="tac", hex_=BESIDE_RIGA, tactical=3)])
    refused(g, bomb(), "in port", "cannot fly at all")
    # from a damaged carrier
    g = carrier_at_sea(tmp_path / "damaged", extra=[air_unit("ju87", type_="tac", hex_=BESIDE_RIGA, tactical=3)])
    rig(g, "RigNavalDamage", unit="gcv")
    refused(g, bomb(), "is damaged", "can no longer fly from it")
    assert offered(g, "p1") == {}
    # no tactical factor: the Ground Strike's own flyer
    g = carrier_at_sea(tmp_path / "factor", tactical=0, extra=[air_unit("ju87", type_="tac", hex_=BESIDE_RIGA, tactical=3)])
    refused(g, bomb(), "Ground Strike", "has no tactical factor and cannot fly as a bomber")
    assert offered(g, "p1") == {}
    # out of range, and not a target
    g = carrier_at_sea(tmp_path / "range", extra=[unit("9a", power="ussr", hex_=FAR)])
    refused(g, bomb(FAR), "can fly 6 hexes from Baltic Sea for a mission")
    refused(g, bomb(BESIDE_RIGA), "Ground Strike", "not a target")
    refused(g, bomb(LENINGRAD), "Ground Strike", "not a target")
    assert offered(g, "p1") == {"bomber": [tuple(RIGA)]}


def test_carrier_planes_flying_missions_not_in_naval_air(tmp_path):
    """"except naval air": a naval air combat has rules of its own (naval_air_combat.py)."""
    ju88 = air_unit("ju88", type_="lnd", hex_=BESIDE_RIGA, range_=8, factors={"naval": 6})
    g = carrier_at_sea(tmp_path, at="turn.impulse.naval.naval-air", extra=[ju88], soviet_carrier=True)
    assert g.state.kernel.sequence.current.endswith("naval-air")
    assert "as bombers in a port attack, ground strike" in why_not_fly(g.state, "germany", "p1", RIGA, "bomber")
    refused(g, bomb(), "not allowed now", "Naval Air")
    assert not [c for c in g.choices(None).commands() if c.type == "FlyCarrierAirUnit"]
    # the naval air combat's mission kind (id "naval-air") is left as it is by the carrier planes'
    # extensions (they once named it "naval-air-combat", which matched no kind)
    naval_air_combat = KINDS[NAVAL_AIR_COMBAT]
    assert not carrier_bombs_in(naval_air_combat)
    assert naval_air_combat.bombers_elsewhere is None and naval_air_combat.cap_flyers is None
    assert naval_air_combat.interceptors is None


def test_carrier_planes_flying_missions_ground_support_for_the_attacker_and_the_defender(tmp_path):
    g = carrier_at_sea(tmp_path, at=DECLARATION, actions={"germany": "land"}, soviet_carrier=True,
                       extra=[unit("g1", hex_=BESIDE_RIGA)])
    ok(g, type="DeclareAttack", actor="germany", hex=list(RIGA), units=["g1"])
    ok(g, type="FinishStep", actor="germany")
    while g.state.kernel.sequence.current != BOMBERS:  # past the Soviet CAP, if offered
        ok(g, type="FinishStep", actor=g.state.kernel.sequence.pending[0])
    assert g.state["air"].mission.kind == "ground-support"
    preview = g.preview(bomb())
    assert preview["mission"] == "Ground Support" and preview["tactical"] == 3 and preview["activities"] == {}
    events = ok(g, bomb())
    assert "ActivityUsed" not in [e.type for e in events]  # ground support is not counted
    ok(g, type="FinishStep", actor="germany")
    assert g.state.kernel.sequence.current == NP_BOMBERS
    assert offered(g, "q1") == {"bomber": [tuple(RIGA)]}  # no Soviet bomber flies yet: nothing to escort
    ok(g, bomb(unit_id="q1", actor="ussr"))
    play_by_choices(g, random.Random(2), max_commands=60, until=lambda g: g.state["air"].mission.performed
                    or not g.state.kernel.sequence.current.startswith(AM))
    # no fighter flew (no air-to-air combat) and no AA unit fired: each plane's tactical factor is added
    added = {e["side"]: (e["factors"], e["units"]) for e in of_type(g, "AirGroundSupportFlown")}
    assert added == {"axis": (3, ["p1"]), "allies": (2, ["q1"])}
    assert air_plugin.ground_support(g.state, RIGA) == {"axis": 3, "allies": 2}
    assert landed_face_down(g, "p1", "gcv") and landed_face_down(g, "q1", "rcv")


def test_carrier_planes_flying_missions_strategic_bombardment_and_carpet_bombing(tmp_path):
    # Strategic Bombardment: the kind's own rule, no viable target without production
    g = carrier_at_sea(tmp_path / "sb", at="turn.impulse.independent-air.strategic-bombardment", factors={"strategic": 2})
    reason = skipped(g, "wif.turn.impulse.independent-air.strategic-bombardment")[-1]
    assert "keeps no production" in reason
    # Carpet Bombing (its optional rule on): a strategic factor, an enemy unit in the hex
    g = carrier_at_sea(tmp_path / "carpet", at=CARPET, factors={"strategic": 2}, rules=("carpet-bombing",),
                       plugins=("carpet-bombing",))
    assert g.state.kernel.sequence.current == BOMBERS and g.state["air"].mission.kind == "carpet-bombing"
    preview = g.preview(bomb())
    assert preview["factor"] == "strategic" and preview["strategic"] == 2 and preview["activities"] == {"air-mission": 1}
    ok(g, bomb())
    ok(g, type="FinishStep", actor="germany")
    play_by_choices(g, random.Random(1), max_commands=40, until=back_in_the_turn)
    [resolved] = of_type(g, "CarpetBombingResolved")
    assert resolved["bombers"] == ["p1"] and resolved["factors"] == 2
    assert landed_face_down(g, "p1", "gcv")
    # no strategic factor: Carpet Bombing's own flyer
    g = carrier_at_sea(tmp_path / "nostrat", at=CARPET, rules=("carpet-bombing",), plugins=("carpet-bombing",),
                       extra=[air_unit("he111", type_="lnd", hex_=BESIDE_RIGA, factors={"strategic": 4})])
    refused(g, bomb(), "Carpet Bombing", "no strategic factor")


def test_carrier_planes_flying_missions_every_offered_command_is_accepted(tmp_path):
    for seed in (2, 9):
        g = carrier_at_sea(tmp_path / str(seed), soviet_carrier=True)
        play_by_choices(g, random.Random(seed), max_commands=100, prefer=("FlyCarrierAirUnit",), until=back_in_the_turn)
        assert ("p1", "bomber") in {(f["unit"], f["role"]) for f in of_type(g, "AirUnitFlew")}
        assert not g.state["air"].mission.flights
        assert landed_face_down(g, "p1", "gcv")


def test_carrier_planes_flying_missions_the_greedy_bot_flies_a_ground_strike(tmp_path):
    """app/bot_carrier_air.py: the greedy bot strikes the enemy army in Riga, beside its own army,
    with its carrier plane (drawing only from Game.choices and previews; app/bot_air.py: a ground
    strike is worth it only where its side may attack, beside its land units, or on an objective)."""
    from app.bots import Bot

    g = carrier_at_sea(tmp_path, extra=[unit("ge-inf", hex_=BESIDE_RIGA)])
    decision = next(d for d in g.choices(None).decisions if d.find("FlyCarrierAirUnit"))
    cmd = Bot("greedy", 1).choose(g, decision, None)
    assert cmd == {**cmd, "type": "FlyCarrierAirUnit", "unit": "p1", "role": "bomber", "hex": list(RIGA)}, cmd
    ok(g, cmd)


def test_carrier_planes_flying_missions_the_greedy_bot_keeps_its_plane_for_a_port_attack(tmp_path):
    """... but not when a port on its sea area's coast holds an enemy ship (the port attack, in the
    naval stage, comes first next impulse; a plane that strikes lands face down)."""
    from app.bots import Bot

    g = carrier_at_sea(tmp_path, extra=[ship("r1", power="ussr", type_="bb", hex_=RIGA, attack=6, defense=6)])
    decision = next(d for d in g.choices(None).decisions if d.find("FlyCarrierAirUnit"))
    assert Bot("greedy", 1).choose(g, decision, None)["type"] == "FinishStep"


def test_carrier_planes_flying_missions_combat_air_patrol_over_what_a_carrier_bomber_threatens(tmp_path):
    """"Combat Air Patrol (CAP)" (L11785-11834): CAP "may only be flown for hexes where an enemy
    attack is possible"; with no German bomber on the map, Riga is threatened by the carrier plane
    alone (``MissionKind.threatened``), so the Soviet fighter may patrol it, and only it."""
    i16 = air_unit("i16", power="ussr", hex_=RIGA, air=3, range_=4)
    g = carrier_at_sea(tmp_path, extra=[i16, unit("9a", power="ussr", hex_=FAR)])
    assert g.state.kernel.sequence.current == f"{AM}.combat-air-patrol"
    [cap] = [c for c in g.choices(None).commands() if c.type == "FlyCAP"]
    [fighter] = cap.fields[0].all_options()
    assert [o.value for o in fighter.next_fields()[0].options] == [tuple(RIGA)]
    ok(g, type="FlyCAP", actor="ussr", unit="i16", hex=list(RIGA))
