"""Port Attack (seed 000 L10280-10305, Naval Combat Results Table: "During port attacks, A and
half-A results cannot be applied to units already disorganized"): German bombers over the
Soviet fleet in Leningrad, through the air plugin's Air Mission sub-machine."""

import random

from helpers import air_unit, dice, lab_game, ok, refused, ship
from plugins.rules.core import world_map

LENINGRAD = world_map().port("Leningrad").hex
AIRFIELD = (205, 44)
AM = "wif.procedures.air-mission"


def port_attack_game(tmp_path, soviet, naval_factor=12):
    return lab_game(tmp_path / "g.wif", options={
        "units": [air_unit("ju88", type_="lnd", hex_=AIRFIELD, range_=8, factors={"naval": naval_factor})] + soviet,
        "hex_control": {f"{AIRFIELD[0]},{AIRFIELD[1]}": "germany"},
        "actions": {"germany": "air"}, "start_at": "turn.impulse.naval.port-attack"}, extra_plugins=["naval"])


def test_port_attack_bombers_damage_ships_in_port(tmp_path):
    g = port_attack_game(tmp_path, [ship("r1", power="ussr", type_="bb", hex_=LENINGRAD, attack=6, defense=6, aa=0),
                                    ship("r2", power="ussr", type_="dd", hex_=LENINGRAD, attack=1, defense=2, aa=0)])
    assert g.state.kernel.sequence.current.startswith(AM), g.state.kernel.sequence.current
    refused(g, {"type": "FlyMission", "actor": "germany", "unit": "ju88", "hex": list(AIRFIELD)}, "not a port")
    ok(g, type="FlyMission", actor="germany", unit="ju88", hex=list(LENINGRAD))
    dice(g, 1, 1, 1, 1, 1, 1, then_ordinary=True)
    for _ in range(12):  # finish the mission's steps (no fighters: no interception, no air-to-air)
        if not g.state.kernel.sequence.current.startswith(AM):
            break
        if g.state.kernel.sequence.current.endswith("return-to-base-phasing"):
            ok(g, type="ReturnAirToBase", actor="germany", unit="ju88", hex=list(AIRFIELD))
            continue
        pending = g.state.kernel.sequence.pending
        ok(g, type="FinishStep", actor=pending[0] if pending[0] in ("germany", "ussr") else "germany")
    # 12 air-to-sea factors against 2 ships: column 4 (12-16), row 2-3: D, D, A; the
    # attacker picks first (the strongest ship), then the owner (the weakest)
    assert "r1" in g.state["naval"].damaged
    assert [e.type for e in g.store.records() if e.type == "AirMissionPerformed"]


def test_port_attack_skipped_without_a_naval_target(tmp_path):
    g = port_attack_game(tmp_path, [])
    skipped = {e.data["step"]: e.data["reason"] for e in g.store.records() if e.type == "StepSkipped"}
    assert "viable naval target" in skipped["wif.turn.impulse.naval.port-attack"]



def test_port_attack_ships_anti_aircraft_fire_destroys_bombers(tmp_path):
    """Anti-Air Fire: "Naval units provide anti-aircraft fire during port attacks": the ships'
    AA is rolled on the air plugin's anti-aircraft table with no AA unit plotting, and the
    bombers' owner applies the damage (ApplyAADamage)."""
    g = port_attack_game(tmp_path, [ship("r1", power="ussr", type_="bb", hex_=LENINGRAD, attack=6, defense=6, aa=60)])
    ok(g, type="FlyMission", actor="germany", unit="ju88", hex=list(LENINGRAD))
    dice(g, 3, 5, 10, 10, then_ordinary=True)  # the surprise rolls (3 + 5 against 5 + 3: none), then the AA dice
    for _ in range(12):
        step = g.state.kernel.sequence.current
        if not step.startswith(AM) or g.state["units"].units["ju88"].where != "map":
            break
        applying = [c for c in g.choices().commands() if c.type == "ApplyAADamage"]
        if applying:
            ok(g, applying[0].sample(random.Random(0)))
            continue
        pending = g.state.kernel.sequence.pending
        ok(g, type="FinishStep", actor=pending[0])
    [fired] = [e.data for e in g.store.records() if e.type == "AAFireRolled"]
    assert fired["side"] == "allies" and fired["factors"] == 60 and fired["points"] == 20 and fired["destroy"] == 2
    assert g.state["units"].units["ju88"].where == "force-pool"  # shot down before it attacked
    assert not g.state["naval"].damaged
