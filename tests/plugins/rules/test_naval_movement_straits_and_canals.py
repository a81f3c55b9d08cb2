"""Straits and canals (Ships in Flames 3.2.3 "Naval Movement Restriction"): who controls the
land around a strait or canal closes it to the other side's ships; SUBs pass Gibraltar;
the seas a passage joins are the real map's (data/straits_and_canals.json)."""

from helpers import control, lab_game, ok, refused, ship
from plugins.rules.core import world_map

KONIGSBERG = world_map().port("Konigsberg").hex
MARSEILLE = world_map().port("Marseilles").hex
CONSTANTA = world_map().port("Constanta").hex


def key(h):
    return f"{h[0]},{h[1]}"


def game(tmp_path, units):
    g = lab_game(tmp_path / "g.wif", options={"units": units, "actions": {"germany": "naval"},
                                              "start_at": "turn.impulse.naval.naval-movement"}, extra_plugins=["naval"])
    for h in {tuple(u["hex"]) for u in units}:
        control(g, h, "germany")
    return g


def move(origin, to, units, section=0):
    return {"type": "MoveNavalGroup", "actor": "germany", "origin": origin, "to": to, "section": section,
            "units": units}


def test_straits_the_danish_straits_close_when_the_other_side_holds_two_of_oslo_copenhagen_kiel(tmp_path):
    g = game(tmp_path, [ship("ca", hex_=KONIGSBERG, speed=5, range_=5)])
    control(g, world_map().city("Oslo").hex, "ussr")
    control(g, world_map().city("Copenhagen").hex, "ussr")
    before = len(list(g.store.records()))
    refused(g, move(key(KONIGSBERG), "NS", ["ca"]), "the Danish straits is closed", "2 of Oslo, Copenhagen, Kiel")
    assert len(list(g.store.records())) == before
    # and the choices do not offer the North Sea
    offered = [c for ch in g.choices(None).commands() if ch.type == "MoveNavalGroup" for c in ch.commands()]
    assert offered and all(c["to"] != "NS" for c in offered)
    g.close()


def test_straits_the_danish_straits_stay_open_while_the_other_side_holds_one(tmp_path):
    g = game(tmp_path, [ship("ca", hex_=KONIGSBERG, speed=5, range_=5)])
    control(g, world_map().city("Oslo").hex, "ussr")
    ok(g, move(key(KONIGSBERG), "NS", ["ca"]))
    g.close()


def test_straits_gibraltar_closed_to_surface_ships_not_to_subs(tmp_path):
    g = game(tmp_path, [ship("ca", hex_=MARSEILLE, speed=5, range_=5),
                        ship("sub", type_="sub", hex_=MARSEILLE, speed=5, range_=5)])
    control(g, world_map().port("Gibraltar").hex, "ussr")
    refused(g, move(key(MARSEILLE), "SV", ["ca"]), "the Strait of Gibraltar is closed", "controls Gibraltar")
    ok(g, move(key(MARSEILLE), "SV", ["sub"]))
    g.close()


def test_straits_the_bosporus_needs_istanbul_friendly(tmp_path):
    g = game(tmp_path, [ship("ca", hex_=CONSTANTA, speed=5, range_=5)])
    control(g, world_map().city("Istanbul").hex, None)  # neutral Turkey
    refused(g, move(key(CONSTANTA), "EM", ["ca"]), "the Bosporus and the Dardanelles is closed", "Istanbul")
    control(g, world_map().city("Istanbul").hex, "germany")
    ok(g, move(key(CONSTANTA), "EM", ["ca"]))
    g.close()
