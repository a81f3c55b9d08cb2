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


KIEL = world_map().port("Kiel").hex
ALEXANDRIA = world_map().port("Alexandria").hex
SUEZ = world_map().port("Suez").hex
HAMBURG = world_map().port("Hamburg").hex


def test_straits_the_kiel_canal_joins_kiel_to_the_north_sea_unless_the_other_side_holds_a_canal_hex(tmp_path):
    """Ships in Flames 3.2.2: "You can move naval units directly to Kiel from the North Sea and
    vice versa. However, Kiel is a coastal hex only on the Baltic Sea"; 3.2.3 (b): not "if any of
    the ... hexes adjacent to the Kiel Canal" is controlled by the other side."""
    g = game(tmp_path, [ship("ca", hex_=KIEL, speed=1, range_=1)])
    # one sea area entered, straight into the North Sea (not round by the Baltic and the Danish straits)
    assert g.preview(move(key(KIEL), "NS", ["ca"]))["path"] == ["North Sea"]
    control(g, (188, 51), "ussr")  # a hex beside the canal
    refused(g, move(key(KIEL), "NS", ["ca"]), "Kiel Canal is closed", "(188, 51)")
    ok(g, move(key(KIEL), "BA", ["ca"]))  # the Baltic side does not cross the canal
    g.close()


def test_straits_the_kiel_canal_from_the_north_sea_into_kiel(tmp_path):
    g = game(tmp_path, [ship("sea", hex_=HAMBURG, speed=3, range_=3)])
    control(g, KIEL, "germany")
    ok(g, {"type": "RigShipsAtSea", "actor": "germany", "units": ["sea"], "area": "NS", "section": 0})
    # Kiel is offered from the North Sea box, one port entered away
    offered = [c for ch in g.choices(None).commands() if ch.type == "MoveNavalGroup" for c in ch.commands()]
    assert any(c["origin"] == "NS:0" and c["to"] == key(KIEL) for c in offered)
    assert g.preview(move("NS:0", key(KIEL), ["sea"], section=None))["range_used"] == 1
    control(g, (188, 51), "ussr")
    refused(g, move("NS:0", key(KIEL), ["sea"], section=None), "Kiel Canal is closed")
    g.close()


def test_straits_the_suez_canal_closed_when_the_other_side_holds_a_canal_hex(tmp_path):
    """Ships in Flames 3.2.3 (c): no move "between the Eastern Mediterranean and the Red Sea, or
    between Suez and the Eastern Mediterranean if any of the 4 hexes adjacent to the Suez Canal"
    is controlled by the other side; 3.2.2: Suez is reached straight from the Eastern
    Mediterranean."""
    g = game(tmp_path, [ship("ca", hex_=ALEXANDRIA, speed=3, range_=3), ship("dd", type_="dd", hex_=SUEZ)])
    assert g.preview(move(key(ALEXANDRIA), "RS", ["ca"]))["path"] == ["Eastern Mediterranean", "Red Sea"]
    assert g.preview(move(key(SUEZ), "EM", ["dd"]))["path"] == ["Eastern Mediterranean"]
    control(g, (211, 84), "ussr")
    before = len(list(g.store.records()))
    refused(g, move(key(ALEXANDRIA), "RS", ["ca"]), "Suez Canal is closed")
    refused(g, move(key(SUEZ), "EM", ["dd"]), "Suez Canal is closed")
    assert len(list(g.store.records())) == before
    ok(g, move(key(ALEXANDRIA), "EM", ["ca"]))  # the Mediterranean side stays open
    g.close()


def test_straits_the_english_channel_closed_by_london_but_not_to_a_return_to_base(tmp_path):
    """Ships in Flames 3.2.3 (g): no move "between the North Sea and the Bay of Biscay if London
    has been controlled by a major power from the other side ... This restriction does not affect
    moves which are returns to base" (the map's North Sea - Western Approaches boundary)."""
    from plugins.rules.naval.naval_movement_moving_naval_units import route
    from plugins.rules.naval.straits_and_canals import passage_problem

    g = game(tmp_path, [ship("ca", hex_=HAMBURG, speed=3, range_=3)])
    control(g, world_map().city("London").hex, "ussr")
    refused(g, move(key(HAMBURG), "WA", ["ca"]), "the English Channel is closed", "London")
    ca = g.state["units"].units["ca"]
    brest = world_map().port("Brest").hex
    path = route("NS:0", key(brest)).path
    assert "the English Channel" in passage_problem(g.state, ca, "NS:0", key(brest), path)
    assert passage_problem(g.state, ca, "NS:0", key(brest), path, returning=True) is None
    g.close()
