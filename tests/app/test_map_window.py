"""The map window driven by real pygame events (SDL_VIDEODRIVER=dummy): scrolling and wrap,
zoom at the cursor, map views and screen layouts saved and restored, layer pixels, the
global map's click, selection, units in hex, and bad input."""

from __future__ import annotations

import json

import pygame
import pytest

from app import mapstyle
from app.play import TITLE_H, GameWindow
from kernel.game import Game


@pytest.fixture(scope="module")
def demo_game(tmp_path_factory):
    game = Game.new("render_demo", tmp_path_factory.mktemp("demo") / "demo.wif", seed=1)
    yield game
    game.close()


@pytest.fixture
def window(demo_game, tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    win = GameWindow(demo_game)
    yield win
    demo_game.listeners.clear()
    pygame.quit()


def post(window, *events):
    """Post the events and handle them, then the events the forms posted in reply (pygame_gui
    reports a button press as a second event), drawing between passes as the window does."""
    for e in events:
        pygame.event.post(e)
    for _ in range(4):
        pending = pygame.event.get()
        if not pending:
            break
        for e in pending:
            window.handle(e)
        window.gui.update(0.01)


def key(k, mod=0):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)


def motion(pos):
    return pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))


def click(pos):
    return [motion(pos), pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
            pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)]


def map_point(window, local=(300, 250)):
    body = window.panels["detailed"].body
    return (body.x + local[0], body.y + local[1])


def test_scrolling_east_past_column_359_continues_at_column_0(window):
    dmap = window.primary
    dmap.center_on((357, 60))
    post(window, motion(map_point(window)))
    cols = []
    for _ in range(4):
        post(window, key(pygame.K_RIGHT))
        cols.append(dmap.centre_hex[0])
    assert cols == [358, 359, 0, 1]
    # and back west across the seam
    for _ in range(3):
        post(window, key(pygame.K_LEFT))
    assert dmap.centre_hex[0] == 358
    # no seam: both sides of the date line are drawn with their own terrain colour
    window.draw()
    for hex_ in ((359, 60), (0, 60)):
        sx, sy = dmap.hex_to_screen(hex_)
        assert 0 <= sx < dmap.size[0]


def test_ctrl_arrows_scroll_a_page_and_rows_are_clamped(window):
    dmap = window.primary
    dmap.center_on((200, 100))
    before = dmap.fx
    post(window, motion(map_point(window)), key(pygame.K_RIGHT, pygame.KMOD_CTRL))
    assert round((dmap.fx - before) * dmap.geometry.w) == dmap.size[0]
    for _ in range(20):
        post(window, key(pygame.K_UP, pygame.KMOD_CTRL))
    assert dmap.view_origin()[1] >= -1  # clamped at the top row, not scrolled into the void
    assert dmap.screen_to_hex((dmap.size[0] // 2, 5))[1] == 0


def test_wheel_scrolls_and_shift_wheel_scrolls_sideways(window):
    dmap = window.primary
    dmap.center_on((200, 80))
    post(window, motion(map_point(window)))
    post(window, pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False))
    assert dmap.centre_hex[1] > 80
    pygame.key.set_mods(pygame.KMOD_SHIFT)
    try:
        col = dmap.centre_hex[0]
        post(window, pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False))
        assert dmap.centre_hex[0] == col + 3
    finally:
        pygame.key.set_mods(0)


def test_zoom_in_and_out_keeps_the_hex_under_the_cursor(window):
    dmap = window.primary
    dmap.center_on((210, 57))
    dmap.set_zoom(1)
    pos = map_point(window, (700, 400))
    post(window, motion(pos))
    under = window.hover_hex
    pygame.key.set_mods(pygame.KMOD_CTRL)
    try:
        for zoom in range(2, 9):
            post(window, pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False), motion(pos))
            assert dmap.zoom == zoom and window.hover_hex == under
        for zoom in range(7, 0, -1):
            post(window, pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False), motion(pos))
            assert dmap.zoom == zoom and window.hover_hex == under
    finally:
        pygame.key.set_mods(0)


def test_a_saved_map_view_restores_all_nine_parameters(window, tmp_path):
    dmap = window.primary
    dmap.center_on((219, 61))
    dmap.set_zoom(7)
    post(window, motion(map_point(window)), key(pygame.K_r), key(pygame.K_z), key(pygame.K_w), key(pygame.K_h),
         key(pygame.K_m), key(pygame.K_u))
    saved = window.map_view_of(dmap, "x").parameters()
    assert saved["zoom"] == 7 and not saved["rail"] and saved["weather_zones"] and saved["unit_resolution"] == "medium"
    panel = window.panels["mapviews"]
    save_button = dict(window._mapview_buttons(panel))["save"]
    post(window, *click(save_button.center))
    power = window.power()
    assert window.views.names(power)[-1] != "View 1"  # not before it is named
    post(window, key(pygame.K_RETURN))  # the naming dialog suggests "View 1"
    assert window.views.names(power)[-1] == "View 1"
    # somewhere else entirely, then restore by clicking the label
    window.apply_map_view(window.views.get(power, window.views.names(power)[0]))
    assert window.map_view_of(dmap, "x").parameters() != saved
    window.views.move(power, "View 1", "top")  # Ctrl+Up puts it first, where we can click it
    post(window, *click((panel.body.x + 20, panel.body.y + 10)))
    assert window.map_view_of(dmap, "x").parameters() == saved
    on_disk = json.loads(window.views.path(power).read_text())
    assert on_disk["views"][0]["name"] == "View 1" and on_disk["views"][0]["zoom"] == 7


def test_map_view_labels_reorder_with_up_down_and_ctrl(window):
    power = window.power()
    panel = window.panels["mapviews"]
    names = window.views.names(power)
    second = (panel.body.x + 20, panel.body.y + 4 + 18 + 9)
    post(window, motion(second), key(pygame.K_UP))
    assert window.views.names(power)[:2] == [names[1], names[0]]
    post(window, motion((panel.body.x + 20, panel.body.y + 10)), key(pygame.K_DOWN, pygame.KMOD_CTRL))
    assert window.views.names(power)[-1] == names[1]


def test_a_saved_layout_restores_window_geometry(window, tmp_path):
    legend_title = window.panels["units_in_hex"].rect
    start = (legend_title.x + 100, legend_title.y + 5)
    post(window, motion(start), pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1),
         pygame.event.Event(pygame.MOUSEMOTION, pos=(start[0] + 40, start[1] - 200), rel=(40, -200), buttons=(1, 0, 0)),
         pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(start[0] + 40, start[1] - 200), button=1))
    moved = window.panels["units_in_hex"].geometry.model_copy()
    assert (moved.x, moved.y) == (legend_title.x + 40, legend_title.y - 200)
    save_button = dict(window._layout_buttons(window.panels["layouts"]))["save"]
    post(window, *click(save_button.center), key(pygame.K_RETURN))
    assert "Layout 1" in window.layouts.names()
    window.apply_layout("M1007")
    assert window.panels["units_in_hex"].geometry != moved
    window.apply_layout("Layout 1")
    assert window.panels["units_in_hex"].geometry == moved
    assert window.layout.name == "Layout 1"


def test_windows_roll_up_to_their_title_bar(window):
    panel = window.panels["main"]
    post(window, *click((panel.rect.x + 8, panel.rect.y + 8)))
    assert panel.geometry.rolled and panel.rect.height == TITLE_H
    post(window, *click((panel.rect.x + 8, panel.rect.y + 8)))
    assert not panel.geometry.rolled


def _quiet_hex(window, terrain):
    """A hex of ``terrain`` far from cities, rails, rivers, borders and units."""
    m = window.model
    units = m.units()
    busy = {c.hex for c in m.world.cities.values()}
    for row in range(30, 150):
        for col in range(0, 360, 3):
            h = (col, row)
            if m.terrain_grid[row][col] != terrain or units.in_hex(h):
                continue
            near = m.grid.within(h, 2)
            if any(n in busy or m.world.rails_at(n) or m.world.hexsides_of(n) for n in near):
                continue
            if len({m.country_grid[r][c] for c, r in near}) > 1:
                continue
            return h
    raise AssertionError(f"no quiet {terrain} hex")


def test_pixels_at_known_hexes_have_the_layer_colours(window):
    dmap = window.primary
    dmap.layers["labels"] = False
    dmap.set_zoom(5)
    body = window.panels["detailed"].body
    for terrain in ("sea", "clear", "desert"):
        hex_ = _quiet_hex(window, terrain)
        dmap.center_on(hex_)
        window.draw()
        sx, sy = dmap.hex_to_screen(hex_)
        pixel = window.screen.get_at((body.x + sx + 1, body.y + sy + 1))[:3]
        if terrain == "desert":  # desert has dots; look at its upper-left area instead
            pixel = window.screen.get_at((body.x + sx - 6, body.y + sy - 7))[:3]
        assert pixel == mapstyle.TERRAIN_COLOURS[terrain], terrain
    # hex control: at zoom 4+ a band in the controller's colour just inside the hex edge
    hex_ = _quiet_hex(window, "clear")
    owner = window.model.controller(hex_)
    dmap.layers["control"] = True
    dmap.center_on(hex_)
    window.draw()
    sx, sy = dmap.hex_to_screen(hex_)
    band = window.screen.get_at((body.x + sx - dmap.geometry.half_w + 1, body.y + sy))[:3]
    assert band == mapstyle.power_colour(owner)


def test_counters_are_drawn_in_the_powers_colour(window):
    dmap = window.primary
    units = window.model.units()
    unit = next(u for u in units.units.values() if u.power == "ussr" and u.face_up and u.on_map
                and window.model.units().in_hex(u.hex)[0].id == u.id and u.branch == "land"
                and len(units.in_hex(u.hex)) == 1)
    dmap.set_zoom(6)
    dmap.center_on(unit.hex)
    window.draw()
    sx, sy = dmap.hex_to_screen(unit.hex)
    body = window.panels["detailed"].body
    size = dmap.geometry.counter
    corner = window.screen.get_at((body.x + sx - size // 2 + 2, body.y + sy - size // 2 + 2))[:3]
    assert corner == mapstyle.POWER_COLOURS["ussr"]
    # switching the units layer off shows the map beneath
    post(window, motion(map_point(window)), key(pygame.K_u))
    window.draw()
    assert window.screen.get_at((body.x + sx - size // 2 + 2, body.y + sy - size // 2 + 2))[:3] != corner


def test_global_map_click_recentres_the_detailed_map(window):
    panel = window.panels["global"]
    panel.geometry.rolled = False
    window.draw()
    tokyo = window.model.world.city("Tokyo").hex
    image = window._global_image_rect(panel)
    gm = window.global_map
    x = tokyo[0] * gm.scale + (tokyo[1] & 1) + 1 - gm.scroll_x
    y = tokyo[1] * gm.scale + 1
    post(window, *click((image.x + x, image.y + y)))
    assert window.model.grid.distance(window.primary.centre_hex, tokyo) <= 1
    # the black rectangle now surrounds that place
    window.draw()
    rect = gm.link_rect(window.primary)
    assert rect.collidepoint((x, y))


def test_global_map_view_buttons_switch_views(window):
    panel = window.panels["global"]
    panel.geometry.rolled = False
    buttons = dict(window._global_toolbar(panel))
    for view in ("weather", "control", "units", "convoys", "production", "terrain"):
        post(window, *click(buttons[view].center))
        assert window.global_map.view == view
        window.draw()
    post(window, *click(buttons["zoom"].center))
    assert window.global_map.double


def test_click_selects_a_hex_and_its_units_and_tells_listeners(window):
    seen = []
    window.selection_listeners.append(seen.append)
    units = window.model.units()
    stack_hex = next(tuple(int(v) for v in k.split(",")) for k, ids in units.at_hex.items() if len(ids) >= 2)
    dmap = window.primary
    dmap.set_zoom(6)
    dmap.center_on(stack_hex)
    sx, sy = dmap.hex_to_screen(stack_hex)
    body = window.panels["detailed"].body
    post(window, *click((body.x + sx, body.y + sy)))
    assert seen and seen[-1].hex == stack_hex
    assert seen[-1].units == [u.id for u in units.in_hex(stack_hex)]
    assert dmap.selection.hex == stack_hex
    # hover info and the units-in-hex panel follow the cursor; Space locks the panel
    assert window.hover_hex == stack_hex
    assert [u.id for u in window.units_shown()[1]] and window.units_shown()[0] == stack_hex
    post(window, key(pygame.K_SPACE), motion((body.x + 5 * dmap.geometry.w + sx, body.y + sy)))
    assert window.units_shown()[0] == stack_hex and window.hover_hex != stack_hex
    window.draw()  # flyout, panel and hover outline draw without error


def test_drag_scrolls_the_map_and_autoscroll_border_moves_it(window):
    dmap = window.primary
    dmap.center_on((200, 80))
    start = map_point(window)
    before = dmap.fx
    post(window, motion(start), pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1),
         pygame.event.Event(pygame.MOUSEMOTION, pos=(start[0] - 90, start[1]), rel=(-90, 0), buttons=(1, 0, 0)),
         pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(start[0] - 90, start[1]), button=1))
    assert round((dmap.fx - before) * dmap.geometry.w) == 90
    body = window.panels["detailed"].body
    post(window, motion((body.right - 2, body.centery)))
    col = dmap.centre_hex[0]
    for _ in range(window.settings.autoscroll * 3):
        window.tick()
    assert dmap.centre_hex[0] == col + 1
    window.settings.autoscroll = 0  # seeds: sensitivity 0 turns the border off
    for _ in range(20):
        window.tick()
    assert dmap.centre_hex[0] == col + 1


def test_right_click_menu_renames_a_map_view_through_the_naming_dialog(window):
    power = window.power()
    panel = window.panels["mapviews"]
    first = window.views.names(power)[0]
    pos = (panel.body.x + 20, panel.body.y + 10)
    post(window, motion(pos), pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=3),
         pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=3))
    menu = window.gui.modal[-1]
    assert [item["text"] for item in menu.item_list] == ["Restore", "Save…", "Redefine", "Rename…", "Delete"]
    rename = next(item["button_element"] for item in menu.item_list if item["text"] == "Rename…")
    post(window, *click(rename.rect.center))
    dialog = window.gui.modal[-1]
    assert dialog.entry.get_text() == first
    post(window, pygame.event.Event(pygame.TEXTINPUT, text="North front"), key(pygame.K_RETURN))
    assert window.views.names(power)[0] == "North front" and first not in window.views.names(power)
    assert not window.gui.modal


def test_the_wheel_scrolls_the_map_views_list(window):
    power = window.power()
    panel = window.panels["mapviews"]
    names = window.views.names(power)
    pos = (panel.body.x + 20, panel.body.y + 10)
    post(window, motion(pos), pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False), motion(pos))
    assert window.list_scroll["mapviews"] == 1
    assert window.mapview_hover == names[1]  # the row under the cursor is now the second view
