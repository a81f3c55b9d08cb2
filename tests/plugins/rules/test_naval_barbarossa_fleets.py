"""Ships in Flames "16.3 1941 Barbarossa Scenario" (seed 001 L1162-1188) places a Baltic and a
Black Sea fleet on each side: the USSR's Kirov, Marat, Maxim Gorkiy and Oct Revolution in its
Baltic ports, K. Kavkaz, Molotov, P Commune and Voroshilov in its Black Sea ports; Germany's
Schlesien, Schl.-Holstein and Tirpitz with a SUB, a TRS and 10 convoy points in the Baltic,
and the Romanian destroyer flotilla and a convoy point in the Black Sea.

The Barbarossa scenario plugin places them (plugins/scenarios/barbarossa/data/
naval_order_of_battle.json).  These tests play the naval rules with those ships on a real
Barbarossa game: naval movement out of the Barbarossa ports, the interception the other side's
fleet at sea is offered, the Black Sea behind the Bosporus, the partial map at sea (only the
Baltic and the Black Sea are in play), and every offered naval move accepted."""

import random

import pytest

from helpers import dice, go_to, lab_game, ok, refused, rig
from plugins.rules.core import hex_controller, world_map
from plugins.scenarios.barbarossa import oob

M = world_map()
LENINGRAD, TALLINN, SEVASTOPOL, KONIGSBERG, KIEL, GDYNIA, CONSTANTA = (
    M.port(n).hex for n in ("Leningrad", "Tallinn", "Sevastopol", "Konigsberg", "Kiel", "Gdynia", "Constanta"))
D = "wif.digressions.naval-interception"


def key(h):
    return f"{h[0]},{h[1]}"


@pytest.fixture
def barbarossa(tmp_path):
    """A Barbarossa game (June 1941 control, its order of battle and 16.3's fleets) with the
    Soviet Baltic cruisers at sea, at Germany's Naval Movement under a Naval action."""
    g = lab_game(tmp_path / "b.wif", scenario="barbarossa")
    assert hex_controller(g.state, LENINGRAD) == "ussr" and hex_controller(g.state, KONIGSBERG) == "germany"
    for ship in oob.naval_data().units:  # the ships wait in the setup tray: each to its default port
        unit = g.state["units"].units[ship.id].model_dump(mode="json")
        rig(g, "RigUnit", unit={**unit, "where": "map", "hex": list(oob.port_hex(ship))}, actor=ship.power)
    rig(g, "RigShipsAtSea", units=["su-kirov", "su-maxim-gorkiy"], area="BA", section=1, actor="ussr")
    rig(g, "RigAction", power="germany", action="naval")
    go_to(g, "turn.impulse.naval.naval-movement", active_side="axis")
    yield g
    g.close()


def offered_moves(g):
    return [c for ch in g.choices(None).commands() if ch.type == "MoveNavalGroup" for c in ch.commands()]


def test_16_3_barbarossa_baltic_fleet_sails_and_the_soviet_fleet_at_sea_may_intercept(barbarossa):
    g = barbarossa
    ok(g, type="MoveNavalGroup", actor="germany", origin=key(KIEL), to="BA", section=2, units=["ge-tirpitz"])
    # Naval Interception: the Soviet cruisers at sea are asked, with the search number to beat
    assert g.state.kernel.sequence.current == f"{D}.offer-interception"
    assert g.state.kernel.sequence.pending == ["ussr"]
    assert g.preview({"type": "Intercept", "actor": "ussr", "unit": "su-kirov", "commit_subs": False})["need"] >= 1
    dice(g, 1, then_ordinary=True)
    ok(g, type="Intercept", actor="ussr", unit="su-kirov", commit_subs=False)
    # found: Germany's ship stops in the Baltic or fights through (Naval Stop or Fight)
    assert g.state.kernel.sequence.current == f"{D}.stop-or-fight"
    ok(g, type="StopOrFight", actor="germany", fight=False, section=2)
    assert g.state["naval"].at_sea["ge-tirpitz"].area == "BA" and g.state["naval"].moving is None


def test_16_3_barbarossa_black_sea_the_convoy_sails_and_the_bosporus_is_closed(barbarossa):
    g = barbarossa
    # Istanbul is neutral Turkey's and the Eastern Mediterranean lies off Barbarossa's map
    refused(g, {"type": "MoveNavalGroup", "actor": "germany", "origin": key(CONSTANTA), "to": "EM", "section": 0,
                "units": ["ge-convoy-black-sea"]}, "EM")
    ok(g, type="MoveNavalGroup", actor="germany", origin=key(CONSTANTA), to="BK", section=0,
       units=["ge-convoy-black-sea"])
    if g.state.kernel.sequence.current == f"{D}.offer-interception":
        ok(g, type="DeclineIntercept", actor="ussr")
    assert g.state["naval"].at_sea["ge-convoy-black-sea"].area == "BK"


@pytest.mark.parametrize("origin,ship", [(KONIGSBERG, "ge-trs-baltic"), (KIEL, "ge-tirpitz")])
def test_16_3_barbarossa_partial_map_a_move_off_the_baltic_is_refused_and_not_offered(barbarossa, origin, ship):
    g = barbarossa
    # the North Sea (the way to the Atlantic; Kiel opens on it through its canal) lies off the map
    reason = refused(g, {"type": "MoveNavalGroup", "actor": "germany", "origin": key(origin), "to": "NS",
                         "section": 0, "units": [ship]}, "Barbarossa", "NS", "outside its map")
    assert "Baltic Sea and the Black Sea" in reason
    assert not g.dry_run({"type": "MoveNavalGroup", "actor": "germany", "origin": key(origin), "to": "NS",
                          "section": 0, "units": [ship]}).accepted
    offered = offered_moves(g)
    assert offered, "the German fleets are offered moves"
    in_play = {"BA", "BK"} | {key(M.port(name).hex) for code in ("BA", "BK") for name in M.sea_areas[code].ports}
    assert {c["to"] for c in offered} <= in_play  # a sea area of the map, or a port on one
    assert not [c for c in offered if c["to"] == "NS"]


def test_16_3_barbarossa_every_offered_naval_move_is_accepted(barbarossa):
    g = barbarossa
    offered = offered_moves(g)
    assert {c["origin"] for c in offered} == {key(KIEL), key(GDYNIA), key(KONIGSBERG), key(CONSTANTA)}
    for cmd in random.Random(16).sample(offered, min(20, len(offered))):
        outcome = g.dry_run(cmd)
        assert outcome.accepted, (cmd, outcome.reason)
