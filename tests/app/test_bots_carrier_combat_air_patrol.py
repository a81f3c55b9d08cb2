"""The greedy bot flies its carrier planes on Combat Air Patrol (app/bot_sea.py ``cap_score``;
seeds "Combat Air Patrol (CAP)" L11785-11834: non-phasing fighters over the hexes the phasing
side's bombers threaten; "flying CAP 'uses up' the fighter"): over a port holding its ships or
over its army, not over a hex it does not care about.  Lab games: a Soviet carrier in the Baltic's section 3, 5 hexes
from Riga, which a German bomber threatens (tests/plugins/rules/test_naval_carrier_combat_air_patrol*)."""

from __future__ import annotations

from helpers import air_unit, go_to, lab_game, rig, ship, unit
from app.bots import Bot
from plugins.rules.core import world_map

RIGA = world_map().port("Riga").hex
LENINGRAD = world_map().port("Leningrad").hex
AIRFIELD = (205, 44)
CAP = "wif.procedures.air-mission.combat-air-patrol"


def _soviet_carrier_off_riga(tmp_path, at: str, in_riga: dict, german: dict):
    g = lab_game(tmp_path / "g.wif", options={
        "units": [german, in_riga,
                  ship("rcv", power="ussr", type_="cv", hex_=LENINGRAD, attack=1, defense=4, aa=1, factors={"class": 4}),
                  air_unit("q1", power="ussr", type_="cvp", hex_=LENINGRAD, air=3, range_=10,
                           factors={"naval": 2, "class": 2})],
        "hex_control": {f"{AIRFIELD[0]},{AIRFIELD[1]}": "germany"},
        "actions": {"germany": "air"}, "start_at": "turn.impulse.naval.naval-movement"}, extra_plugins=["naval"])
    rig(g, "RigAboard", ship="rcv", units=["q1"])
    rig(g, "RigShipsAtSea", units=["rcv"], area="BA", section=3)
    go_to(g, at, active_side="axis")
    assert g.state.kernel.sequence.current == CAP
    return g


def _greedy_choice(g) -> dict:
    [decision] = [d for d in g.choices(None).decisions if d.pending and d.decider == "ussr"]
    assert any(c.type == "FlyCarrierAirUnit" for c in decision.commands)
    return Bot("greedy", 3).choose(g, decision, None)


def test_combat_air_patrol_greedy_covers_a_port_holding_its_battleship(tmp_path):
    g = _soviet_carrier_off_riga(
        tmp_path, "turn.impulse.naval.port-attack",
        ship("r1", power="ussr", type_="bb", hex_=RIGA, attack=6, defense=6, aa=0),
        air_unit("ju88", type_="lnd", hex_=AIRFIELD, range_=4, factors={"naval": 6}))
    cmd = _greedy_choice(g)
    assert cmd["type"] == "FlyCarrierAirUnit" and cmd["role"] == "cap" and tuple(cmd["hex"]) == tuple(RIGA)
    assert g.submit(cmd).accepted


def test_combat_air_patrol_greedy_covers_its_army_from_a_ground_strike(tmp_path):
    g = _soviet_carrier_off_riga(
        tmp_path, "turn.impulse.independent-air.ground-strike", unit("8a", power="ussr", hex_=RIGA),
        air_unit("ju87", type_="tac", hex_=AIRFIELD, air=1, tactical=3, range_=4))
    cmd = _greedy_choice(g)
    assert cmd["type"] == "FlyCarrierAirUnit" and cmd["role"] == "cap" and tuple(cmd["hex"]) == tuple(RIGA)


def test_combat_air_patrol_greedy_keeps_its_plane_aboard_over_a_hex_it_does_not_care_about(tmp_path):
    """A Ground Strike on a Soviet bomber on the ground in Riga (no land unit, no ship, no
    objective of the lab): CAP is offered, the greedy bot finishes the step and keeps its plane
    organized."""
    g = _soviet_carrier_off_riga(
        tmp_path, "turn.impulse.independent-air.ground-strike",
        air_unit("db3", power="ussr", type_="tac", hex_=RIGA, air=1, tactical=2, range_=4),
        air_unit("ju87", type_="tac", hex_=AIRFIELD, air=1, tactical=3, range_=4))
    assert _greedy_choice(g)["type"] == "FinishStep"
