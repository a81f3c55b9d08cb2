"""Supply Sources and Paths, "Overseas supply paths" (seed 000 L8442-8476): a supply path goes
by sea, through consecutive sea areas, to a friendly port; "You cannot trace a supply path into a
sea area that contains an enemy CV, SCS, or aircraft unit with an air-to-sea factor; unless it
also contains a surface naval unit ... only a convoy, TRS, or AMPH is needed".  Guadalcanal's
Japanese garrison of Guam (coast on the Marianas sea area, MA, only) traces to Japan by sea."""

from helpers import lab_game, rig, ship
from plugins.rules.naval.overseas_supply import blocked_areas
from plugins.rules.supply import in_supply, trace
from plugins.rules.core import world_map

GUAM = world_map().port("Guam").hex
TRUK = world_map().port("Truk").hex


def guadalcanal(tmp_path):
    return lab_game(tmp_path / "g.wif", "guadalcanal")


def at_sea(g, unit: dict, area: str, section: int = 1):
    rig(g, "RigUnit", unit=unit, actor=unit["power"])
    rig(g, "RigShipsAtSea", units=[unit["id"]], area=area, section=section, actor=unit["power"])


def test_overseas_supply_path_reaches_an_island_garrison(tmp_path):
    g = guadalcanal(tmp_path)
    tracer = trace.Tracer(g.state, "japan")
    over_land = tracer.search(tracer.primary_sources(), railway=False)
    assert tuple(GUAM) not in over_land  # no path over land from Japan's cities
    assert in_supply(g.state, "jp-ichiki")  # by sea from a Japanese port
    assert in_supply(g.state, "jp-truk-gar")


def test_overseas_supply_blocked_by_an_enemy_carrier_unless_a_friendly_ship_is_there(tmp_path):
    g = guadalcanal(tmp_path)
    at_sea(g, ship("us-cv-x", power="usa", type_="cv", hex_=TRUK, factors={"class": 4}), "MA")
    assert "MA" in blocked_areas(g.state, "japan") and "MA" not in blocked_areas(g.state, "usa")
    assert not in_supply(g.state, "jp-ichiki")  # Guam's only sea area is closed to Japanese supply
    # "only a convoy, TRS, or AMPH is needed" to keep it open
    at_sea(g, ship("jp-trs-x", power="japan", type_="trs", hex_=GUAM, attack=0, defense=1, aa=0), "MA", 0)
    assert "MA" not in blocked_areas(g.state, "japan")
    assert in_supply(g.state, "jp-ichiki")


def test_overseas_supply_submarines_do_not_block(tmp_path):
    g = guadalcanal(tmp_path)
    at_sea(g, ship("us-ss-x", power="usa", type_="sub", hex_=TRUK), "MA")
    assert "MA" not in blocked_areas(g.state, "japan")
    assert in_supply(g.state, "jp-ichiki")


def test_overseas_supply_paths_stay_out_of_the_sea_areas_the_scenario_closes(tmp_path, monkeypatch):
    """Guadalcanal "is limited to just the Pacific": a sea area off its half-map is closed to
    ships (``sea_area_refusal``) and to supply paths alike; the Commonwealth's paths overseas
    reach no port that lies on closed sea areas only."""
    from plugins.rules.naval import overseas_supply
    from plugins.rules.naval.sea_box_section import areas_of_port, ports_of_area

    g = guadalcanal(tmp_path)
    closed = overseas_supply.closed_sea_areas(g.state)
    assert closed and "MA" not in closed  # the Pacific stays open
    off_the_map = {tuple(p.hex) for a in closed for p in ports_of_area(a)
                   if all(b in closed for b in areas_of_port(tuple(p.hex)))}
    tracer = trace.Tracer(g.state, "commonwealth")
    over_land = tracer.search(tracer.primary_sources(), railway=False)
    ports, _coast = overseas_supply.overseas_links(tracer, over_land, False)
    assert ports and not set(ports) & off_the_map
    # without the scenario's rule the same paths would sail on into them
    monkeypatch.setattr(overseas_supply, "CLOSED_SEA_AREAS", {})
    ports, _coast = overseas_supply.overseas_links(trace.Tracer(g.state, "commonwealth"), over_land, False)
    assert set(ports) & off_the_map
    g.close()


def test_overseas_supply_a_friendly_convoy_keeps_the_sea_area_open(tmp_path):
    """"Note that an escorting combat unit is not necessary; only a convoy, TRS, or AMPH is
    needed": Japanese convoy points at sea beside the enemy carrier."""
    g = guadalcanal(tmp_path)
    at_sea(g, ship("us-cv-x", power="usa", type_="cv", hex_=TRUK, factors={"class": 4}), "MA")
    assert not in_supply(g.state, "jp-ichiki")
    at_sea(g, ship("jp-cp-x", power="japan", type_="convoy", hex_=GUAM, factors={"points": 1}), "MA", 0)
    assert "MA" not in blocked_areas(g.state, "japan") and in_supply(g.state, "jp-ichiki")


def test_overseas_supply_not_through_a_strait_or_canal_closed_to_the_powers_ships(tmp_path):
    """"You can't trace a supply path between sea areas if one of your SCS couldn't move between
    them": from Kiel (a supply source here) a German path reaches the North Sea through the Kiel
    Canal or round by the Danish straits (Ships in Flames 3.2.2-3.2.3), and neither once both
    are closed."""
    from helpers import control
    from plugins.rules.naval.overseas_supply import overseas_links

    kiel = world_map().port("Kiel").hex
    wilhelmshaven = world_map().port("Wilhelmshaven").hex  # a North Sea port only
    g = lab_game(tmp_path / "g.wif", options={"units": []}, extra_plugins=["naval"])
    control(g, kiel, "germany")

    def reached():
        ports, coast = overseas_links(trace.Tracer(g.state, "germany"), {tuple(kiel): 0}, False)
        return tuple(wilhelmshaven) in ports

    assert reached()
    control(g, world_map().city("Oslo").hex, "ussr")
    control(g, world_map().city("Copenhagen").hex, "ussr")  # the Danish straits close
    assert reached()  # the canal is open
    control(g, (188, 51), "ussr")  # a hex beside the Kiel Canal
    assert not reached()
    g.close()
