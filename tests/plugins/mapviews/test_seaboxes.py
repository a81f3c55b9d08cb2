"""Sea Box Section (seeds: "Each sea area has a sea box divided into 5 sections, numbered 0 to
4"): the sea-box layer draws the units at sea in their section of their area's box, and a
click on a box fills the naval command being made (app/navalclicks.py), on real games."""

from __future__ import annotations

import pygame
import pytest

from app.play import GameWindow
from app.uihooks import ask_game
from helpers import lab_game, rig, ship
from kernel.game import Game
from plugins.rules.core import world_map

KONIGSBERG = world_map().port("Konigsberg").hex
STETTIN = world_map().port("Stettin").hex
NAVAL_MOVEMENT = "turn.impulse.naval.naval-movement"


@pytest.fixture
def window(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    made = []

    def make(game, zoom=5):
        win = GameWindow(game, forms=True)
        win.primary.set_zoom(zoom)
        made.append(game)
        return win

    yield make
    pygame.quit()
    for game in made:
        game.close()


def sea_layer(win):
    return next(layer for layer in win.ui.layers if getattr(layer, "name", "") == "sea boxes")


def pump(win, *events):
    for e in events:
        pygame.event.post(e)
    for _ in range(5):
        pending = pygame.event.get()
        for e in pending:
            win.handle(e)
        win.draw()
        if not pending:
            break


def click(pos):
    return [pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
            pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
            pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)]


def on_screen(win, point):
    body = win.panels["detailed"].body
    return (body.x + point[0], body.y + point[1])


def cell_centre(win, area, section, unit_id):
    box = next(b for b in sea_layer(win).layout(win, win.primary) if b.area == area)
    cell = next(c for c in box.cells if c.section == section and unit_id in c.units)
    x, y, w, h = cell.rect
    return on_screen(win, (x + w // 2, y + h // 2))


def baltic_game(tmp_path):
    g = lab_game(tmp_path / "g.wif", options={"units": [ship("ca"), ship("dd", type_="dd", speed=5, range_=5)],
                                              "actions": {"germany": "naval"}, "start_at": NAVAL_MOVEMENT},
                 extra_plugins=["naval"])
    rig(g, "RigShipsAtSea", units=["dd"], area="BA", section=2)
    return g


def test_sea_box_section_guadalcanal_units_at_sea_by_area_and_section(tmp_path):
    g = Game.new("guadalcanal", tmp_path / "g.wif", seed=1)
    try:
        boxes = ask_game(g, "sea_boxes", state=g.state)
        at_sea = g.state["naval"].at_sea
        # every unit at sea, once, in its own area's box and section
        assert sorted((b["area"], u["id"], u["section"]) for b in boxes for u in b["units"]) == \
            sorted((box.area, uid, box.section) for uid, box in at_sea.items())
        coral = next(b for b in boxes if b["area"] == "CO")
        assert coral["sections"] == [0, 1, 2, 3, 4] and coral["name"] == "Coral Sea"
        lexington = next(u for u in coral["units"] if u["id"] == "us-lexington")
        assert lexington["section"] == 1 and lexington["side"] == "allies" and lexington["aboard"]  # planes aboard
        assert all(u["section"] == 0 for b in boxes for u in b["units"] if u["type"] == "convoy")  # convoys in 0
    finally:
        g.close()


@pytest.mark.parametrize("zoom", [4, 5, 6])
def test_sea_box_section_drawn_with_its_counters_at_zooms_4_to_6(tmp_path, window, zoom):
    win = window(Game.new("guadalcanal", tmp_path / "g.wif", seed=1), zoom=zoom)
    coral = next(b for b in ask_game(win.game, "sea_boxes", state=win.game.state) if b["area"] == "CO")
    win.primary.center_on(tuple(coral["hex"]))
    win.draw()
    box = next(b for b in sea_layer(win).layout(win, win.primary) if b.area == "CO")
    assert sorted(box.section_rects) == [0, 1, 2, 3, 4]
    cell = next(c for c in box.cells if "us-lexington" in c.units)  # the US task force's pile
    assert cell.section == 1 and cell.side == "allies" and {"us-yorktown", "us-portland"} <= set(cell.units)
    x, y, w, h = cell.rect
    seen = {tuple(win.screen.get_at(on_screen(win, (x + i, y + j))))[:3] for i in range(3, w - 3, 2)
            for j in range(3, h - 3, 2)}
    assert len(seen) > 4  # a counter, not the bare box


def test_sea_box_click_fills_a_naval_move_from_the_section_to_a_port(tmp_path, window):
    g = baltic_game(tmp_path)
    win = window(g)
    box_hex = next(b["hex"] for b in ask_game(g, "sea_boxes", state=g.state) if b["area"] == "BA")
    win.primary.center_on(tuple(box_hex))
    win.draw()
    play = win.play
    play.fill_in(next(c for c in play.decisions.commands() if c.type == "MoveNavalGroup"))
    pump(win, *click(cell_centre(win, "BA", 2, "dd")))  # the DD's pile in section 2
    assert play.fill.values["origin"] == "BA:2"
    assert win.selection.units == ["dd"]
    # the port it goes to: a click on Stettin's hex (an option field's "col,row")
    x, y = win.primary.hex_to_screen(STETTIN)
    pump(win, *click(on_screen(win, (x, y))))
    assert play.fill.values["to"] == f"{STETTIN[0]},{STETTIN[1]}"
    pump(win, *click(cell_centre(win, "BA", 2, "dd")))  # then the units: the pile clicked again
    assert play.fill.values["units"] == ["dd"] and play.fill.complete()
    before = g.state.kernel.seq
    assert play.submit(play.fill.command())
    assert g.state.kernel.seq > before and tuple(g.state["units"].units["dd"].hex) == tuple(STETTIN)
    assert "dd" not in g.state["naval"].at_sea


def test_sea_box_click_takes_the_area_then_its_section(tmp_path, window):
    g = baltic_game(tmp_path)
    win = window(g)
    win.primary.center_on(KONIGSBERG)
    win.draw()
    play = win.play
    play.fill_in(next(c for c in play.decisions.commands() if c.type == "MoveNavalGroup"))
    x, y = win.primary.hex_to_screen(KONIGSBERG)
    pump(win, *click(on_screen(win, (x, y))))  # the CA's port: the move's origin
    assert play.fill.values["origin"] == f"{KONIGSBERG[0]},{KONIGSBERG[1]}"
    box_hex = next(b["hex"] for b in ask_game(g, "sea_boxes", state=g.state) if b["area"] == "BA")
    win.primary.center_on(tuple(box_hex))
    win.draw()
    box = next(b for b in sea_layer(win).layout(win, win.primary) if b.area == "BA")
    sx, sy, sw, sh = box.section_rects[1]
    pump(win, *click(on_screen(win, (sx + sw // 2, sy + 4))))  # section 1's number: the Baltic, section 1
    assert play.fill.values["to"] == "BA" and play.fill.values["section"] == 1
    assert g.preview(play.fill.command(units=["ca"]))["legal"]


def test_sea_box_click_off_every_box_is_a_hex_click(tmp_path, window):
    g = baltic_game(tmp_path)
    win = window(g, zoom=3)  # below zoom 4 a ring, no box: nothing to hit
    win.primary.center_on(KONIGSBERG)
    win.draw()
    assert sea_layer(win).layout(win, win.primary) == []
    assert sea_layer(win).hit(win, win.primary, (10, 10)) is None
