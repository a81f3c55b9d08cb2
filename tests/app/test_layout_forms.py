"""Screen layouts store the decision forms' places; a layout is fetched from disk through
the layouts list's menu; ``wif render --view global`` draws the linked detailed map's
rectangle (seeds, "Screen Layouts", "Global Map")."""

from __future__ import annotations

import json

import pygame
import pytest

from app import mapstyle
from app.cli_render import render
from app.play import GameWindow

from test_playing import click, lab_game, pump


def key(k, mod=0):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)


@pytest.fixture
def play_window(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    game = lab_game(tmp_path / "l.wif")
    window = GameWindow(game, forms=True)
    window.draw()
    yield window
    pygame.quit()
    game.close()


def drag_title(window, form, by):
    """Drag a pygame_gui form by its title bar with real mouse events."""
    bar = form.title_bar.rect
    start = (bar.x + 60, bar.centery)
    end = (start[0] + by[0], start[1] + by[1])
    # pygame_gui moves a dragged window in update() from the mouse's position
    pygame.mouse.set_pos(start)
    pump(window, pygame.event.Event(pygame.MOUSEMOTION, pos=start, rel=(0, 0), buttons=(0, 0, 0)),
         pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    pygame.mouse.set_pos(end)
    pump(window, pygame.event.Event(pygame.MOUSEMOTION, pos=end, rel=by, buttons=(1, 0, 0)))
    window.gui.update(0.05)
    pump(window, pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))


def test_layouts_place_the_play_and_selectable_units_forms(play_window):
    window = play_window
    play, units = window.play.form, window.play.selectable.form
    assert play is not None and units is not None  # a movement step: both forms are open
    g = window.layout.windows
    assert play.visible_rect() == (g["play"].x, g["play"].y, g["play"].w, g["play"].h)
    assert units.visible_rect().topleft == (g["selectable"].x, g["selectable"].y)
    drag_title(window, play, (-200, 30))
    moved = play.visible_rect().topleft
    assert moved != (g["play"].x, g["play"].y)
    save_button = dict(window._layout_buttons(window.panels["layouts"]))["save"]
    pump(window, *click(save_button.center), key(pygame.K_RETURN))
    assert "Layout 1" in window.layouts.names()
    stored = window.layouts.get("Layout 1").windows["play"]
    assert (stored.x, stored.y) == moved
    window.apply_layout("M1007")
    assert play.visible_rect().topleft == (g["play"].x, g["play"].y)
    window.apply_layout("Layout 1")
    assert play.visible_rect().topleft == moved


def test_fetch_a_screen_layout_from_disk_through_the_menu(play_window, tmp_path):
    window = play_window
    friend = window.layouts.get("M1007").model_copy(update={"name": "Friend's layout"})
    friend.windows["main"].x = 33
    folder = window.layouts.folder
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "friend.json").write_text(json.dumps(friend.model_dump(mode="json")), encoding="utf-8")
    panel = window.panels["layouts"]
    current = (panel.body.x + 20, panel.body.y + 6)  # the current layout heads the list
    assert window._list_row(panel, current) == window.layout.name
    pump(window, pygame.event.Event(pygame.MOUSEMOTION, pos=current, rel=(0, 0), buttons=(0, 0, 0)),
         pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=current, button=3),
         pygame.event.Event(pygame.MOUSEBUTTONUP, pos=current, button=3))
    menu = window.gui.modal[-1]
    items = [item["text"] for item in menu.item_list]
    assert items[0] == "Fetch from disk…"
    fetch = next(item["button_element"] for item in menu.item_list if item["text"] == "Fetch from disk…")
    pump(window, *click(fetch.rect.center))
    dialog = next(w for w in window.gui.manager.get_root_container().elements
                  if getattr(w, "window_display_title", "") == "Fetch a screen layout from disk")
    entry = next(item["button_element"] for item in dialog.file_selection_list.item_list
                 if item["text"] == "friend.json")
    pump(window, *click(entry.rect.center))
    pump(window, *click(dialog.ok_button.rect.center))
    assert "Friend's layout" in window.layouts.names()
    assert window.layout.name == "Friend's layout" and window.panels["main"].geometry.x == 33


def test_fetching_a_file_that_is_no_layout_says_why_and_changes_nothing(play_window, tmp_path):
    window = play_window
    bad = tmp_path / "notes.json"
    bad.write_text('{"name": "x"}', encoding="utf-8")
    names = list(window.layouts.names())
    window.fetch_layout(str(bad))
    assert window.layouts.names() == names
    assert "not a screen layout" in window.messages[-1][0] and "notes.json" in window.messages[-1][0]


def test_render_global_view_draws_the_detailed_maps_rectangle(tmp_path):
    pygame.display.init()
    pygame.font.init()
    try:
        rects = []
        for centre in ("Kiev", "Chicago"):
            out = render("render_demo", str(tmp_path / f"g-{centre}.png"), view="global", global_view="control",
                         center=centre, zoom=4, size=(740, 430))
            image = pygame.image.load(str(out))
            w, h = image.get_size()
            # the rectangle's top edge: the longest run of its colour on one row below the toolbar
            best = (0, 0, 0)
            for y in range(50, h - 2):  # inside the window's black frame
                run = 0
                for x in range(2, w - 2):
                    run = run + 1 if tuple(image.get_at((x, y)))[:3] == mapstyle.RECTANGLE else 0
                    if run > best[0]:
                        best = (run, x - run + 1, y)
            assert best[0] >= 40, centre
            rects.append(best[1:])
        kiev, chicago = rects
        assert kiev[0] > chicago[0] + 200  # Kiev lies far east of Chicago on the picture
    finally:
        pygame.quit()


def test_choosing_a_unit_in_the_selectable_units_list_selects_it(play_window):
    window = play_window
    form = window.play.selectable.form
    entry = next(b for b in form.unit_rows if b.unit_id == "g-inf")
    pump(window, *click(entry.rect.center))
    fill = window.play.fill
    assert fill.values["unit"] == "g-inf" and fill.pending().kind == "hex" and fill.pending().all_options()
    assert window.primary.centre_hex == tuple(window.game.state["units"].units["g-inf"].hex)  # the map follows
