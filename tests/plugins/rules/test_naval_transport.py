"""Embark/Debark Units (seed 000 L1775-1849), Unload Land Units and Invasion (L10611-10630),
Carrier Classes (L1089-1129): a German transport from Konigsberg in the Baltic Sea."""

from helpers import air_unit, lab_game, offered, ok, refused, rig, ship, unit
from plugins.rules.core import world_map
from plugins.rules.naval.naval_transport import coastal_hexes

M = world_map()
KONIGSBERG = M.port("Konigsberg").hex
K = f"{KONIGSBERG[0]},{KONIGSBERG[1]}"
GERMAN_COAST = min(h for h in coastal_hexes("BA") if M.country_code(h) == "GE" and h != KONIGSBERG
                   and M.terrain(h) == "clear")
SOVIET_COAST = min(h for h in coastal_hexes("BA") if M.country_code(h) == "SU" and M.city_at(h) is None)


def transport_game(tmp_path, cargo, action="combined"):
    return lab_game(tmp_path / "g.wif", options={
        "units": [ship("trs", type_="trs", attack=0, defense=1, aa=0, speed=4, range_=4)] + cargo,
        "actions": {"germany": action}, "start_at": "turn.impulse.naval.naval-movement"},
        extra_plugins=["naval"])


def test_embark_debark_units_transport_capacity(tmp_path):
    g = transport_game(tmp_path, [unit("inf", hex_=KONIGSBERG), unit("inf2", hex_=KONIGSBERG),
                                  unit("d1", size="division", hex_=KONIGSBERG), unit("d2", size="division", hex_=KONIGSBERG)])
    refused(g, {"type": "EmbarkUnits", "actor": "germany", "ship": "trs", "units": ["inf", "inf2"]}, "carries 1 land unit")
    ok(g, type="EmbarkUnits", actor="germany", ship="trs", units=["d1", "d2"])  # 2 divisions fit
    assert g.state["units"].units["d1"].where == "aboard" and g.state["naval"].aboard["trs"] == ["d1", "d2"]
    refused(g, {"type": "EmbarkUnits", "actor": "germany", "ship": "trs", "units": ["inf"]}, "carries")


def test_unload_land_units_into_a_friendly_coastal_hex(tmp_path):
    g = transport_game(tmp_path, [unit("inf", hex_=KONIGSBERG)])
    ok(g, type="EmbarkUnits", actor="germany", ship="trs", units=["inf"])
    ok(g, type="MoveNavalGroup", actor="germany", origin=K, to="BA", section=0, units=["trs"])
    assert g.state["naval"].aboard == {"trs": ["inf"]}
    rig(g, "RigStep", step="turn.impulse.land.movement.unload-land-units")
    cmd = {"type": "DebarkUnit", "actor": "germany", "ship": "trs", "unit": "inf", "hex": list(GERMAN_COAST)}
    assert g.preview(cmd)["legal"]
    refused(g, {**cmd, "hex": list(SOVIET_COAST)}, "not controlled by germany's side")
    refused(g, {**cmd, "hex": [10, 10]}, "not a coastal hex of Baltic Sea")
    ok(g, cmd)
    assert g.state["units"].units["inf"].hex == GERMAN_COAST
    assert not g.state["units"].units["trs"].face_up  # "the TRS is then disorganized"


def test_invasion_forces_a_land_attack(tmp_path):
    g = transport_game(tmp_path, [unit("inf", hex_=KONIGSBERG)])
    ok(g, type="EmbarkUnits", actor="germany", ship="trs", units=["inf"])
    ok(g, type="MoveNavalGroup", actor="germany", origin=K, to="BA", section=0, units=["trs"])
    rig(g, "RigStep", step="turn.impulse.land.movement.invasion")
    assert offered(g, "Invade")
    ok(g, type="Invade", actor="germany", ship="trs", unit="inf", hex=list(SOVIET_COAST))
    combat = g.state["combat"].combats[f"{SOVIET_COAST[0]},{SOVIET_COAST[1]}"]
    assert combat.forced == "invasion" and combat.attackers == ["inf"]


def test_invasion_needs_a_land_or_combined_action(tmp_path):
    g = transport_game(tmp_path, [unit("inf", hex_=KONIGSBERG)], action="naval")
    ok(g, type="EmbarkUnits", actor="germany", ship="trs", units=["inf"])
    ok(g, type="MoveNavalGroup", actor="germany", origin=K, to="BA", section=0, units=["trs"])
    rig(g, "RigStep", step="turn.impulse.land.movement.invasion")
    skipped = {e.data["step"]: e.data["reason"] for e in g.store.records() if e.type == "StepSkipped"}
    assert "Invasion needs a Land or Combined action" in skipped["wif.turn.impulse.land.movement.invasion"]
    refused(g, {"type": "Invade", "actor": "germany", "ship": "trs", "unit": "inf", "hex": list(SOVIET_COAST)})


def test_carrier_classes_planes_fit_their_carrier(tmp_path):
    g = lab_game(tmp_path / "g.wif", options={"units": [
        ship("cv", type_="cv", factors={"class": 3}),
        air_unit("p1", type_="cvp", hex_=KONIGSBERG, factors={"class": 2}),
        air_unit("p2", type_="cvp", hex_=KONIGSBERG, factors={"class": 2}),
        air_unit("r1", power="ussr", type_="cvp", hex_=KONIGSBERG, factors={"class": 1})],
        "start_at": "turn.impulse.naval.naval-movement", "actions": {"germany": "naval"}}, extra_plugins=["naval"])
    refused(g, {"type": "RigAboard", "actor": "germany", "ship": "cv", "units": ["p1", "p2"]}, "add up to 4")
    refused(g, {"type": "RigAboard", "actor": "germany", "ship": "cv", "units": ["r1"]}, "own major power")
    rig(g, "RigAboard", ship="cv", units=["p1"])
    ok(g, type="MoveNavalGroup", actor="germany", origin=K, to="BA", section=1, units=["cv"])
    assert g.state["naval"].aboard["cv"] == ["p1"] and g.state["units"].units["p1"].where == "aboard"


def test_attacking_shore_bombardment_adds_the_ships_attack(tmp_path):
    g = transport_game(tmp_path, [unit("inf", hex_=KONIGSBERG), ship("bb", type_="bb", attack=6, defense=7)])
    ok(g, type="EmbarkUnits", actor="germany", ship="trs", units=["inf"])
    ok(g, type="MoveNavalGroup", actor="germany", origin=K, to="BA", section=0, units=["trs"])
    ok(g, type="MoveNavalGroup", actor="germany", origin=K, to="BA", section=1, units=["bb"])
    rig(g, "RigStep", step="turn.impulse.land.movement.invasion")
    ok(g, type="Invade", actor="germany", ship="trs", unit="inf", hex=list(SOVIET_COAST))
    rig(g, "RigStep", step="turn.impulse.land.combat.attacking-shore-bombardment")
    combat = f"{SOVIET_COAST[0]},{SOVIET_COAST[1]}"
    refused(g, {"type": "ShoreBombard", "actor": "germany", "ship": "trs", "combat": combat}, "not an organized warship")
    ok(g, type="ShoreBombard", actor="germany", ship="bb", combat=combat)
    assert g.state["combat"].ground_support[combat]["attacker"] == 6
    assert not g.state["units"].units["bb"].face_up


def test_reorganization_by_naval_transport(tmp_path):
    g = transport_game(tmp_path, [unit("tired", hex_=GERMAN_COAST, face_up=False)])
    ok(g, type="MoveNavalGroup", actor="germany", origin=K, to="BA", section=0, units=["trs"])
    rig(g, "RigStep", step="turn.impulse.end-of-impulse.reorganization-by-naval-transport")
    ok(g, type="NavalTransportReorganize", actor="germany", ship="trs", unit="tired")
    assert g.state["units"].units["tired"].face_up and not g.state["units"].units["trs"].face_up


def _invasion_with_a_soviet_battleship_off_the_coast(tmp_path, optional_rules=()):
    """Germany invades the Soviet Baltic coast; a Soviet battleship is at sea in the Baltic."""
    leningrad = M.port("Leningrad").hex
    g = lab_game(tmp_path / "g.wif", options={
        "units": [ship("trs", type_="trs", attack=0, defense=1, aa=0, speed=4, range_=4), unit("inf", hex_=KONIGSBERG),
                  ship("bb", type_="bb", attack=6, defense=7), unit("def", power="ussr", hex_=SOVIET_COAST),
                  ship("kirov", power="ussr", type_="ca", attack=4, defense=4, hex_=leningrad)],
        "actions": {"germany": "combined"}, "start_at": "turn.impulse.naval.naval-movement",
        "optional_rules": list(optional_rules)}, extra_plugins=["naval"])
    rig(g, "RigShipsAtSea", units=["kirov"], area="BA", section=1, actor="ussr")
    ok(g, type="EmbarkUnits", actor="germany", ship="trs", units=["inf"])
    ok(g, type="MoveNavalGroup", actor="germany", origin=K, to="BA", section=0, units=["trs"])
    if g.state.kernel.sequence.current.endswith("offer-interception"):
        ok(g, type="DeclineIntercept", actor="ussr")
    ok(g, type="MoveNavalGroup", actor="germany", origin=K, to="BA", section=1, units=["bb"])
    if g.state.kernel.sequence.current.endswith("offer-interception"):
        ok(g, type="DeclineIntercept", actor="ussr")
    rig(g, "RigStep", step="turn.impulse.land.movement.invasion")
    ok(g, type="Invade", actor="germany", ship="trs", unit="inf", hex=list(SOVIET_COAST))
    return g


def test_defending_shore_bombardment_the_defenders_ship_adds_its_attack_to_the_defence(tmp_path):
    """Defending Shore Bombardment (seed 000 L10732-10743): "non-phasing major powers which could
    provide defensive shore bombardment support to attacked hexes ... are given the opportunity";
    Attacking Shore Bombardment (L10749-10751): the same "for major powers belonging to the
    phasing side"."""
    g = _invasion_with_a_soviet_battleship_off_the_coast(tmp_path, ["shore-bombardment"])
    combat = f"{SOVIET_COAST[0]},{SOVIET_COAST[1]}"
    rig(g, "RigStep", step="turn.impulse.land.combat.defending-shore-bombardment")
    assert g.state.kernel.sequence.current.endswith("defending-shore-bombardment")
    assert offered(g, "ShoreBombard")
    # the attacker's ship does not bombard in the defender's phase; bad input names the thing
    refused(g, {"type": "ShoreBombard", "actor": "germany", "ship": "bb", "combat": combat})
    refused(g, {"type": "ShoreBombard", "actor": "ussr", "ship": "bb", "combat": combat},
            "'bb' is not an organized warship of ussr at sea")
    refused(g, {"type": "ShoreBombard", "actor": "ussr", "ship": "kirov", "combat": "10,10"},
            "no land combat is declared at 10,10")
    assert g.preview({"type": "ShoreBombard", "actor": "ussr", "ship": "kirov", "combat": combat})["factors"] == 4
    ok(g, type="ShoreBombard", actor="ussr", ship="kirov", combat=combat)
    assert g.state["combat"].ground_support[combat]["defender"] == 4
    assert not g.state["units"].units["kirov"].face_up
    # then the attacker's in its own phase; the defender's ship may not bombard there
    rig(g, "RigStep", step="turn.impulse.land.combat.attacking-shore-bombardment")
    refused(g, {"type": "ShoreBombard", "actor": "ussr", "ship": "kirov", "combat": combat})
    ok(g, type="ShoreBombard", actor="germany", ship="bb", combat=combat)
    assert g.state["combat"].ground_support[combat] == {"defender": 4, "attacker": 6}


def test_defending_shore_bombardment_is_skipped_when_the_optional_rule_is_off(tmp_path):
    """Defending Shore Bombardment: "This is a optional rule and if it has not been selected,
    the phase is skipped"."""
    g = _invasion_with_a_soviet_battleship_off_the_coast(tmp_path)
    rig(g, "RigStep", step="turn.impulse.land.combat.defending-shore-bombardment")
    skipped = {e.data["step"]: e.data["reason"] for e in g.store.records() if e.type == "StepSkipped"}
    assert "optional rule Shore bombardment is off" in skipped["wif.turn.impulse.land.combat.defending-shore-bombardment"]
    assert not g.state.kernel.sequence.current.endswith("defending-shore-bombardment")


def test_invasion_counts_a_land_move_and_a_land_attack_within_the_limits(tmp_path):
    """Invasion (L10611-10619): "Each land unit that invades counts as a land move.  In addition,
    invading a hex means that the invading major power must conduct a land attack on the hex,
    which may also be limited in number"; only an enemy-controlled hex is invaded."""
    from plugins.rules import core
    from plugins.rules.turn.activities import activity_problem

    other_coast = max(h for h in coastal_hexes("BA") if M.country_code(h) == "SU" and h != SOVIET_COAST)
    g = transport_game(tmp_path, [unit("inf", hex_=KONIGSBERG), unit("inf2", hex_=KONIGSBERG),
                                  ship("trs2", type_="trs", attack=0, defense=1, aa=0, speed=4, range_=4)])
    ok(g, type="EmbarkUnits", actor="germany", ship="trs", units=["inf"])
    ok(g, type="EmbarkUnits", actor="germany", ship="trs2", units=["inf2"])
    ok(g, type="MoveNavalGroup", actor="germany", origin=K, to="BA", section=0, units=["trs", "trs2"])
    rig(g, "RigStep", step="turn.impulse.land.movement.invasion")
    cmd = {"type": "Invade", "actor": "germany", "ship": "trs", "unit": "inf", "hex": list(SOVIET_COAST)}
    refused(g, {**cmd, "hex": list(GERMAN_COAST)}, "not controlled by an enemy of germany")
    rig(g, "RigActivity", power="germany", kind="land-attack", count=2)  # Germany's Combined action allows 3
    assert activity_problem(g.state, "germany", "land-attack") is None
    moves = core.used(g.state, "germany", "land-move")
    ok(g, cmd)  # the third land attack
    assert activity_problem(g.state, "germany", "land-attack") and core.used(g.state, "germany", "land-move") == moves + 1
    refused(g, {**cmd, "ship": "trs2", "unit": "inf2", "hex": list(other_coast)},
            "Invasion: invading forces a land attack", "Activity Limits")
    # joining the attack already declared on the hex is no new attack
    ok(g, {**cmd, "ship": "trs2", "unit": "inf2"})
    assert g.state["combat"].combats[f"{SOVIET_COAST[0]},{SOVIET_COAST[1]}"].attackers == ["inf", "inf2"]
