"""Ship counters a player can read (issue 14, "On the map and in the forms"): each naval class
has its own silhouette on the counter, from the sea boxes' smallest counters (22 px, zoom 4)
up, so a carrier is told from a battleship, a cruiser, a destroyer flotilla, a submarine, a
transport, an amphibious ship and a convoy without opening a form."""

from __future__ import annotations

import itertools

import pygame
import pytest

from app.counters import counter_picture
from plugins.rules.units import Unit

CLASSES = ("cv", "bb", "ca", "dd", "sub", "trs", "amph", "convoy")


@pytest.fixture(autouse=True)
def display():
    pygame.display.init()
    pygame.display.set_mode((8, 8))
    yield
    pygame.quit()


def ship(type_: str) -> Unit:
    return Unit(id=type_, power="usa", branch="naval", type=type_, name="Yorktown",
                factors={"attack": 5, "defense": 4, "aa": 2, "speed": 5, "range": 9})


@pytest.mark.parametrize("size", [22, 26, 46])
def test_every_naval_class_has_its_own_silhouette(size):
    pictures = {t: pygame.image.tobytes(counter_picture(ship(t), size), "RGB") for t in CLASSES}
    for a, b in itertools.combinations(CLASSES, 2):
        assert pictures[a] != pictures[b], f"{a} and {b} look the same at {size} px"


def test_a_convoy_counter_shows_its_convoy_points_not_attack_and_defence():
    from app.counters import factor_text

    convoy = Unit(id="cp", power="usa", branch="naval", type="convoy", factors={"points": 3, "speed": 4, "range": 8})
    assert factor_text(convoy) == "3CP"
    assert factor_text(ship("bb")) == "5-4"


def test_a_pile_holding_a_damaged_ship_is_framed_in_red_and_shows_its_count_beside_it(tmp_path, monkeypatch):
    """Seeds, "Naval Combat Results": a damaged unit has half its attack and +1 defence; a player
    sees which pile holds one without opening a form; the pile's count stands beside it."""
    from app.play import GameWindow
    from app.uihooks import ask_game
    from helpers import lab_game, rig
    from helpers import ship as lab_ship

    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.font.init()
    g = lab_game(tmp_path / "g.wif", options={"units": [lab_ship("bb", type_="bb"), lab_ship("ca")],
                                              "start_at": "turn.impulse.naval.naval-movement"}, extra_plugins=["naval"])
    try:
        rig(g, "RigShipsAtSea", units=["bb", "ca"], area="BA", section=2)
        rig(g, "RigNavalDamage", unit="ca")
        win = GameWindow(g, forms=True)
        win.primary.set_zoom(7)
        win.primary.center_on(tuple(next(b["hex"] for b in ask_game(g, "sea_boxes", state=g.state))))
        win.draw()
        layer = next(layer for layer in win.ui.layers if getattr(layer, "name", "") == "sea boxes")
        cell = next(c for b in layer.layout(win, win.primary) for c in b.cells)
        assert cell.units == ["bb", "ca"]
        body = win.panels["detailed"].body
        x, y = body.x + cell.rect[0] + 3, body.y + cell.rect[1] + 3 + 4  # the top counter's corner
        size = 40  # zoom 7's counters
        # a frame all round (not a corner over the name): top, bottom and right edges
        for point in ((x + size // 2, y), (x + size // 2, y + size - 1), (x + size - 1, y + size // 2)):
            assert tuple(win.screen.get_at(point))[:3] == (230, 40, 40), point
    finally:
        g.close()


def test_a_ship_damaged_in_port_has_the_damage_marker_on_its_stack(tmp_path, monkeypatch):
    """Ships in Flames, "Naval Combat Results": a D result - "Put a damage marker on the unit".
    A ship damaged in port (a port attack, or back from combat) shows the marker on the map: a
    red frame round its stack's top counter; the undamaged ship beside it has none, and the
    marker goes when the ship is repaired."""
    from app.counters import DAMAGED
    from app.play import GameWindow
    from app.stackdraw import counter_layout
    from helpers import lab_game, rig
    from helpers import ship as lab_ship

    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.font.init()
    konigsberg, danzig = (200, 50), (198, 51)
    g = lab_game(tmp_path / "g.wif", options={"units": [lab_ship("bb", type_="bb", hex_=konigsberg),
                                                        lab_ship("ca", hex_=danzig)],
                                              "start_at": "turn.impulse.naval.naval-movement"}, extra_plugins=["naval"])
    try:
        win = GameWindow(g, forms=True)
        win.primary.set_zoom(7)
        win.primary.center_on(konigsberg)
        body = win.panels["detailed"].body
        layout = counter_layout(7)
        size = layout.side

        def frame_of(hex_) -> list:
            """The top counter's top, left and right edges (the city's name is drawn over its foot)."""
            win.draw()
            cx, cy = win.primary.hex_to_screen(hex_)
            x, y = body.x + cx + layout.corner, body.y + cy + layout.corner
            return [tuple(win.screen.get_at(p))[:3] for p in ((x + size // 2, y), (x, y + size // 4),
                                                               (x + size - 1, y + size // 4))]

        assert DAMAGED not in frame_of(konigsberg)
        rig(g, "RigNavalDamage", unit="bb")
        assert frame_of(konigsberg) == [DAMAGED] * 3
        assert DAMAGED not in frame_of(danzig), "only the damaged ship's stack is marked"
        rig(g, "RigNavalDamage", unit="bb", damaged=False)
        assert DAMAGED not in frame_of(konigsberg)
    finally:
        g.close()
