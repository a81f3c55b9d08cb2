"""Naval Movement (seed 000 L13538-13572), Sea Box Section (L6350-6402) and Weather Report
(L7720-7723, iced-in ports): a bad move gets the rule's reason and nothing is appended to the
game.  On the real map's Baltic: German ships in Konigsberg and in Riga (an iced port of
weather zone 2)."""

import pytest

from helpers import control, lab_game, ok, refused, rig, ship, weather
from plugins.rules.core import world_map
from plugins.rules.naval.iced_in_ports import iced_in_problem

KONIGSBERG = world_map().port("Konigsberg").hex
RIGA = world_map().port("Riga").hex
K = f"{KONIGSBERG[0]},{KONIGSBERG[1]}"
R = f"{RIGA[0]},{RIGA[1]}"


def baltic_game(tmp_path):
    g = lab_game(tmp_path / "g.wif", options={
        "units": [ship("ca", speed=3, range_=3), ship("short", range_=1),
                  ship("riga", hex_=RIGA), ship("sea", speed=4, range_=4), ship("tired", face_up=False)],
        "actions": {"germany": "naval"}, "start_at": "turn.impulse.naval.naval-movement"}, extra_plugins=["naval"])
    control(g, RIGA, "germany")
    rig(g, "RigShipsAtSea", units=["sea"], area="BA", section=1)
    return g


def move(origin, to, units, section=None):
    return {"type": "MoveNavalGroup", "actor": "germany", "origin": origin, "to": to, "section": section,
            "units": units}


def events(g) -> int:
    return len(list(g.store.records()))


@pytest.mark.parametrize("cmd, words", [
    (move(K, "204,52", ["ca"]), "(204, 52) is not a port"),  # over land: a land hex is no destination
    (move(K, "NS", ["short"], section=0), "has range 1"),  # beyond its range
    (move(K, "BA", ["ca"], section=3), "search number is at most 2"),  # a section it cannot reach
    (move("BA:1", "BA", ["sea"], section=2), "lower-numbered section"),  # at sea, only to a lower section
    (move("BA:1", "NS", ["sea"], section=0), "never move to a different sea area"),
    # out of a port it cannot leave: face down (Ships in Flames 3.2.2 "only face-up units move")
    (move(K, "BA", ["tired"], section=0), "only face-up (organized) units move"),
    # malformed places name themselves (they reached the rule as a crash before)
    (move("BA", "BA", ["sea"], section=0), "origin 'BA' is neither a port hex"),
    (move("ZZ:1", "BA", ["sea"], section=0), "origin 'ZZ:1' is neither a port hex"),
    (move(K, "9999,9999", ["ca"]), "(9999, 9999) is not a port"),
    # from a land hex: no port to leave
    (move("204,52", "BA", ["ca"], section=0), "origin '204,52' is neither a port hex"),
])
def test_naval_movement_bad_move_gets_the_rules_reason_and_nothing_is_appended(tmp_path, cmd, words):
    g = baltic_game(tmp_path)
    before = events(g)
    refused(g, cmd, words)
    assert events(g) == before
    g.close()


def test_naval_movement_out_of_a_port_it_cannot_leave_once_it_has_moved_or_through_a_closed_canal(tmp_path):
    """Ships in Flames 3.2.1: "Each naval unit ... can only make 1 naval movement in an impulse";
    3.2.3 (b): the Kiel Canal closed by the other side's control of a hex beside it."""
    g = baltic_game(tmp_path)
    ok(g, move(K, "BA", ["ca"], section=0))
    refused(g, move("BA:0", K, ["ca"]), "only 1 naval move per impulse")
    kiel = world_map().port("Kiel").hex
    rig(g, "RigUnit", unit=ship("kiel", hex_=kiel))
    control(g, kiel, "germany")
    control(g, (188, 51), "ussr")
    before = events(g)
    refused(g, move(f"{kiel[0]},{kiel[1]}", "NS", ["kiel"], section=0), "Kiel Canal is closed")
    assert events(g) == before
    g.close()


def test_weather_report_no_naval_movement_into_or_out_of_an_iced_in_port_in_snow_or_blizzard(tmp_path):
    g = baltic_game(tmp_path)
    assert world_map().port_at(RIGA).iced_zone == 2
    assert iced_in_problem(g.state, RIGA) is None  # fine weather: Riga is open
    weather(g, 2, "snow")
    before = events(g)
    refused(g, move(R, "BA", ["riga"], section=0), "Riga is an iced-in port and the weather there is snow")
    refused(g, move("BA:1", R, ["sea"]), "Riga is an iced-in port")  # nor into it
    assert events(g) == before
    # the choices offer neither: no group leaves Riga, and Riga is no destination
    moves = [cmd for c in g.choices(None).commands() if c.type == "MoveNavalGroup" for cmd in c.commands()]
    assert moves and all(c["origin"] != R and c["to"] != R for c in moves)
    # Konigsberg is not an iced port: its ships sail in the snow
    weather(g, 2, "blizzard")
    ok(g, move(K, "BA", ["ca"], section=0))
    g.close()
