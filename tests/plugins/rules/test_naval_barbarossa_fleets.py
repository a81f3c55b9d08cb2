"""Ships in Flames "16.3 1941 Barbarossa Scenario" (seed 001 L1162-1188) places a Baltic and a
Black Sea fleet on each side: the USSR's Kirov, Marat, Maxim Gorkiy and Oct Revolution in its
Baltic ports, K. Kavkaz, Molotov, P Commune and Voroshilov in its Black Sea ports; Germany's
Schlesien, Schl.-Holstein and Tirpitz with a SUB, a TRS and 10 convoy points in the Baltic,
and the Romanian destroyer flotilla and a convoy point in the Black Sea.

The Barbarossa scenario plugin does not place them yet (its order of battle is land and air
only: plugins/rules/naval/README.md, Not done yet).  These tests put some of them on the Barbarossa game with the
rig and check that the naval rules work there as on the lab's map: naval movement out of the
Barbarossa ports, the interception the other side's fleet at sea is offered, the Black Sea
behind the Bosporus, and every offered naval move accepted.  The factors are the test's own."""

import random

import pytest

from helpers import dice, go_to, lab_game, ok, refused, rig, ship
from plugins.rules.core import hex_controller, world_map

M = world_map()
LENINGRAD, SEVASTOPOL, KONIGSBERG, CONSTANTA = (M.port(n).hex for n in ("Leningrad", "Sevastopol", "Konigsberg",
                                                                          "Constanta"))
D = "wif.digressions.naval-interception"


def key(h):
    return f"{h[0]},{h[1]}"


@pytest.fixture
def barbarossa(tmp_path):
    """A Barbarossa game (June 1941 control, its order of battle) with some of 16.3's ships,
    the Soviet Baltic fleet at sea, at Germany's Naval Movement under a Naval action."""
    g = lab_game(tmp_path / "b.wif", scenario="barbarossa", extra_plugins=["naval"])
    assert hex_controller(g.state, LENINGRAD) == "ussr" and hex_controller(g.state, KONIGSBERG) == "germany"
    fleets = [ship("su-kirov", "ussr", "cl", LENINGRAD, attack=2, defense=2, speed=5, range_=4),
              ship("su-marat", "ussr", "bb", LENINGRAD, attack=4, defense=5, speed=3, range_=3),
              ship("su-parkom", "ussr", "bb", SEVASTOPOL, attack=4, defense=5, speed=3, range_=3),
              ship("ge-tirpitz", "germany", "bb", KONIGSBERG, attack=8, defense=8, aa=2, speed=5, range_=5),
              ship("ge-schlesien", "germany", "bb", KONIGSBERG, attack=2, defense=4, speed=3, range_=3),
              ship("ge-convoy-bk", "germany", "convoy", CONSTANTA, factors={"points": 1})]
    for u in fleets:
        rig(g, "RigUnit", unit=u)
    rig(g, "RigShipsAtSea", units=["su-kirov", "su-marat"], area="BA", section=1, actor="ussr")
    rig(g, "RigAction", power="germany", action="naval")
    go_to(g, "turn.impulse.naval.naval-movement", active_side="axis")
    yield g
    g.close()


def test_16_3_barbarossa_baltic_fleet_sails_and_the_soviet_fleet_at_sea_may_intercept(barbarossa):
    g = barbarossa
    ok(g, type="MoveNavalGroup", actor="germany", origin=key(KONIGSBERG), to="BA", section=2,
       units=["ge-tirpitz", "ge-schlesien"])
    # Naval Interception: the Soviet Baltic fleet at sea is asked, with the search number to beat
    assert g.state.kernel.sequence.current == f"{D}.offer-interception"
    assert g.state.kernel.sequence.pending == ["ussr"]
    assert g.preview({"type": "Intercept", "actor": "ussr", "unit": "su-kirov", "commit_subs": False})["need"] == 1
    dice(g, 1, then_ordinary=True)
    ok(g, type="Intercept", actor="ussr", unit="su-kirov", commit_subs=False)
    # found: Germany's group stops in the Baltic or fights through (Naval Stop or Fight)
    assert g.state.kernel.sequence.current == f"{D}.stop-or-fight"
    ok(g, type="StopOrFight", actor="germany", fight=False, section=2)
    assert g.state["naval"].at_sea["ge-tirpitz"].area == "BA" and g.state["naval"].moving is None


def test_16_3_barbarossa_black_sea_the_convoy_sails_and_the_bosporus_is_closed(barbarossa):
    g = barbarossa
    # Istanbul is neutral Turkey's: the Bosporus is closed to both sides (3.2.3 (d))
    refused(g, {"type": "MoveNavalGroup", "actor": "germany", "origin": key(CONSTANTA), "to": "EM", "section": 0,
                "units": ["ge-convoy-bk"]}, "the Bosporus and the Dardanelles is closed")
    ok(g, type="MoveNavalGroup", actor="germany", origin=key(CONSTANTA), to="BK", section=0, units=["ge-convoy-bk"])
    if g.state.kernel.sequence.current == f"{D}.offer-interception":
        ok(g, type="DeclineIntercept", actor="ussr")
    assert g.state["naval"].at_sea["ge-convoy-bk"].area == "BK"


def test_16_3_barbarossa_every_offered_naval_move_is_accepted(barbarossa):
    g = barbarossa
    offered = [c for ch in g.choices(None).commands() if ch.type == "MoveNavalGroup" for c in ch.commands()]
    assert {c["origin"] for c in offered} == {key(KONIGSBERG), key(CONSTANTA)}
    for cmd in random.Random(16).sample(offered, min(20, len(offered))):
        outcome = g.dry_run(cmd)
        assert outcome.accepted, (cmd, outcome.reason)
