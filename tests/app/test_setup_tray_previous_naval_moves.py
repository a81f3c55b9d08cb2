"""The Setup Tray sets ships up at sea (seeds "Setup Tray", naval units placed at sea during
setup, L6715-6735; Ships in Flames 16.1.1 Previous Naval Moves) on a new Barbarossa game,
driven with real events: a ship in hand lists its sea boxes ("At sea: Baltic Sea, section 3");
a click on a row, or on a section of a sea box drawn on the map, sets it up there
(PlaceUnitAtSea); a section too high is refused with the rule's reason."""

from __future__ import annotations

import pygame

from test_playing import click, pump
from test_setup_tray import item, tray_window  # noqa: F401 - the fixture

SEA_BOXES = "sea boxes"


def _pick(window, unit_id):
    tray = window.play.tray
    pump(window, *click(item(tray.form.area_list, "Ports on the Baltic Sea").rect.center))
    pump(window, *click(item(tray.form.unit_list, tray.label(unit_id)).rect.center))
    assert tray.in_stack == [unit_id]


def _section_pos(window, area: str, section: int):
    """The screen point of a section of ``area``'s sea box, as the sea boxes layer lays it out."""
    layer = next(lay for lay in window.ui.layers if getattr(lay, "name", "") == SEA_BOXES)
    box = next(b for b in layer.layout(window, window.primary) if b.area == area)
    x, y, w, h = box.section_rects[section]
    body = window.panels["detailed"].body
    return (body.x + x + w // 2, body.y + y + h // 2)


def test_16_1_1_a_ship_in_hand_is_set_up_at_sea_from_the_trays_rows_and_the_map(tray_window, tmp_path):
    window = tray_window
    tray = window.play.tray
    _pick(window, "su-kirov")
    rows = [i["text"] for i in tray.form.sea_list.item_list]
    assert rows == [f"At sea: Baltic Sea, section {s}" for s in range(4)]  # one below section 4
    pump(window, *click(item(tray.form.sea_list, "At sea: Baltic Sea, section 3").rect.center))
    box = window.game.state["naval"].at_sea["su-kirov"]
    assert (box.area, box.section) == ("BA", 3) and tray.in_stack == []
    assert "placed at sea, Baltic Sea section 3" in tray.label("su-kirov")
    # the Baltic's sea box is on the map now: a click on its section 1 sets the Marat up there
    window.primary.center_on(_box_hex(window, "BA"))
    window.draw()
    _pick(window, "su-marat")
    assert [i["text"] for i in tray.form.sea_list.item_list][-1] == "At sea: Baltic Sea, section 1"
    pygame.image.save(window.screen, str(tmp_path / "at-sea.png"))
    before = window.game.state.kernel.seq
    pump(window, *click(_section_pos(window, "BA", 2)))  # too high for the slow Marat
    assert window.game.state.kernel.seq == before and tray.in_stack == ["su-marat"]
    assert "16.1.1" in window.play.status[0] and "at least 1 below" in window.play.status[0]
    pump(window, *click(_section_pos(window, "BA", 1)))
    assert window.game.state["naval"].at_sea["su-marat"].section == 1 and tray.in_stack == []


def _box_hex(window, area: str):
    layer = next(lay for lay in window.ui.layers if getattr(lay, "name", "") == SEA_BOXES)
    return next(tuple(b["hex"]) for b in layer.boxes(window.game) if b["area"] == area)
