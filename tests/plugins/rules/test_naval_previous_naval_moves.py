"""Ships in Flames "16.1.1 Previous Naval Moves" (seed 001 L1125-1133; seed 000 "Setup Tray"
L6715-6735), the naval plugin's rule on the naval rig: the sections a unit may set up in at sea
from the ports a scenario lets it set up in (one below what Naval Movement reaches, a convoy in
the 0 section), neutral major powers (convoys only), cargo, an iced-in port."""

from helpers import lab_game, rig, ship
from plugins.rules.core import world_map
from plugins.rules.naval.naval_movement_moving_naval_units import highest_section
from plugins.rules.naval.previous_naval_moves import at_sea_setup_boxes, at_sea_setup_problem
from plugins.rules.naval.return_to_base import section_after_staying

M = world_map()
KONIGSBERG = tuple(M.port("Konigsberg").hex)
LENINGRAD = tuple(M.port("Leningrad").hex)


def game(tmp_path, *units, at_war=(("germany", "ussr"),)):
    return lab_game(tmp_path / "g.wif", options={"units": list(units), "at_war": [list(p) for p in at_war]},
                    extra_plugins=["naval"])


def unit(g, uid):
    return g.state["units"].units[uid]


def test_16_1_1_one_section_below_what_naval_movement_reaches(tmp_path):
    g = game(tmp_path, ship("fast", speed=5), ship("slow", speed=3), ship("cp", type_="convoy", speed=3, factors={"points": 2}),
             ship("crawl", speed=1))
    s = g.state
    k = f"{KONIGSBERG[0]},{KONIGSBERG[1]}"
    assert highest_section(s, unit(g, "fast"), k, "BA") == 4 and highest_section(s, unit(g, "slow"), k, "BA") == 2
    assert highest_section(s, unit(g, "crawl"), k, "BA") == 0
    boxes = {uid: [b for b in at_sea_setup_boxes(s, "germany", unit(g, uid), [KONIGSBERG]) if b[0] == "BA"]
             for uid in ("fast", "slow", "cp", "crawl")}
    assert boxes == {"fast": [("BA", s_) for s_ in range(4)], "slow": [("BA", 0), ("BA", 1)], "cp": [("BA", 0)],
                     "crawl": []}  # only the 0 section reached: a non-convoy in it must return, not stay
    assert at_sea_setup_problem(s, "germany", unit(g, "fast"), [KONIGSBERG], "BA", 3) is None
    assert "3 at most, not 4" in at_sea_setup_problem(s, "germany", unit(g, "fast"), [KONIGSBERG], "BA", 4)
    assert "cannot set up there" in at_sea_setup_problem(s, "germany", unit(g, "crawl"), [KONIGSBERG], "BA", 0)
    # Stay At Sea's step down, the one home of "moved down one sea box section"
    assert section_after_staying(unit(g, "fast"), 4) == 3 and section_after_staying(unit(g, "cp"), 0) == 0
    assert section_after_staying(unit(g, "fast"), 0) is None


def test_16_1_1_neutral_major_powers_only_start_convoy_points_at_sea(tmp_path):
    g = game(tmp_path, ship("ca"), ship("cp", type_="convoy", speed=3, factors={"points": 2}), at_war=())
    s = g.state  # at war with no one
    assert "neutral major powers can only use this free move to start convoy points at sea" in \
        at_sea_setup_problem(s, "germany", unit(g, "ca"), [KONIGSBERG], "BA", 0)
    assert at_sea_setup_problem(s, "germany", unit(g, "cp"), [KONIGSBERG], "BA", 0) is None
    assert at_sea_setup_boxes(s, "germany", unit(g, "ca"), [KONIGSBERG]) == []
    rig(g, "RigWar", powers=["germany", "ussr"])
    assert at_sea_setup_problem(g.state, "germany", unit(g, "ca"), [KONIGSBERG], "BA", 0) is None


def test_16_1_1_no_cargo_and_not_from_an_iced_in_port(tmp_path):
    g = game(tmp_path, ship("trs", type_="trs", attack=0, aa=0), ship("leningrad", power="ussr", hex_=LENINGRAD),
             {"id": "inf", "power": "germany", "branch": "land", "type": "inf", "hex": list(KONIGSBERG),
              "factors": {"attack": 2, "defense": 2, "move": 3}})
    rig(g, "RigAboard", ship="trs", units=["inf"])
    assert "cannot carry cargoes" in at_sea_setup_problem(g.state, "germany", unit(g, "trs"), [KONIGSBERG], "BA", 0)
    assert at_sea_setup_problem(g.state, "ussr", unit(g, "leningrad"), [LENINGRAD], "BA", 0) is None
    rig(g, "RigWeather", zone=str(M.port("Leningrad").iced_zone), weather="snow")
    assert "iced-in port" in at_sea_setup_problem(g.state, "ussr", unit(g, "leningrad"), [LENINGRAD], "BA", 0)
    assert "is germany's" in at_sea_setup_problem(g.state, "ussr", unit(g, "trs"), [KONIGSBERG], "BA", 0)
