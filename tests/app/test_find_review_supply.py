"""The forms a Barbarossa player reaches for (issue 11 item 8), driven by real posted pygame
events on the game window (SDL_VIDEODRIVER=dummy): Find (Ctrl+F; seeds, "Find City/Port",
"Find Country", "Find Sea Area"), Unit Review (Ctrl+U; seeds, "Unit Review", "Unit View
Filter"), the supply layer (Ctrl+S; seeds, "Supply Sources and Paths") and the activities
left (seeds, "Activity Limits") in the Play form.

Situation (lab scenario): German armour in 206,51 kept in supply by an HQ in 204,51, a German
corps far away in 230,40 out of supply, a Soviet rifle corps in 207,52."""

from __future__ import annotations

import pygame
import pytest

from app.findform import FindForm, place
from app.play import GameWindow
from app.supplylayer import OUT_OF_SUPPLY, PATH
from app.toolforms import open_forms, supply_layer
from app.unitreview import UnitReview
from kernel.game import Game

from helpers import unit
from test_playing import pump

MOVE = "turn.impulse.land.movement.land-movement"
ARMOUR, HQ, FAR = (206, 51), (204, 51), (230, 40)


@pytest.fixture
def window(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    options = {"units": [unit("g-arm", "germany", ARMOUR, "arm", combat=6),
                         unit("g-hq", "germany", HQ, "hq-i", combat=1, factors={"reorg": 1}),
                         unit("g-far", "germany", FAR), unit("s-inf", "ussr", (207, 52), combat=1)],
               "countries": {"GE": "germany", "SU": "ussr", "PL": "germany"},
               "actions": {"germany": "land"}, "start_at": MOVE}
    game = Game.new("lab", tmp_path / "lab.wif", seed=1, options=options, extra_plugins=["land", "combat"])
    win = GameWindow(game, forms=True)
    win.primary.center_on((206, 52))
    win.draw()
    yield win
    pygame.quit()
    game.close()


def key(k, mod=0, unicode=""):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=unicode, scancode=0)


def ctrl(k):
    return key(k, pygame.KMOD_CTRL)


def click(pos):
    return [pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
            pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
            pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)]


def type_text(text):
    return [pygame.event.Event(pygame.TEXTINPUT, text=ch) for ch in text]


def hex_pos(window, hex_):
    body = window.panels["detailed"].body
    x, y = window.primary.hex_to_screen(hex_)
    return (body.x + x, body.y + y)


def row_button(selection_list, text):
    item = next(i for i in selection_list.item_list if i["text"].startswith(text))
    return item["button_element"]


# ---------------------------------------------------------------- Find (Ctrl+F)
def test_ctrl_f_finds_a_city_and_centres_the_map_on_it(window):
    pump(window, ctrl(pygame.K_f))
    form = open_forms(window)[-1]
    assert isinstance(form, FindForm)
    pump(window, *type_text("Kie"))
    assert form.entry.get_text() == "Kie"
    assert ("city", "Kiev") in form.matches
    kiev = window.model.world.city("Kiev").hex
    pump(window, *click(row_button(form.list, "Kiev").rect.center))
    assert window.primary.centre_hex == tuple(kiev)
    assert window.primary.selection.hex == tuple(kiev)
    pump(window, *click(next(b for b in form.form.owned if getattr(b, "text", "") == "OK").rect.center))
    assert form.closed and not open_forms(window)


def test_find_goes_to_a_sea_area_and_a_country_with_enter_and_esc_closes(window):
    world = window.model.world
    pump(window, ctrl(pygame.K_f))
    form = open_forms(window)[-1]
    pump(window, *type_text("Baltic"), key(pygame.K_RETURN))  # Enter: the first name found
    assert form.closed
    area = place(world, "sea area", "Baltic Sea")
    assert area is not None and world.sea_area_code(window.primary.centre_hex) == world.sea_area("Baltic Sea").code
    pump(window, ctrl(pygame.K_f))
    form = open_forms(window)[-1]
    pump(window, *type_text("Rumania" if world.country("Rumania") else "Romania"))
    country = next(m for m in form.matches if m[0] == "country")
    pump(window, *click(row_button(form.list, country[1]).rect.center))
    capital = world.city(world.country(country[1]).capital).hex
    assert window.primary.centre_hex == tuple(capital)
    pump(window, key(pygame.K_ESCAPE))
    assert form.closed and window.running  # Esc closed the form, not the game


def test_find_says_when_nothing_matches(window):
    pump(window, ctrl(pygame.K_f))
    form = open_forms(window)[-1]
    pump(window, *type_text("Xqzw"))
    assert form.matches == [] and "no city, port, country or sea area matches 'Xqzw'" in form.hint.text


# ---------------------------------------------------------------- Unit Review (Ctrl+U)
def test_ctrl_u_reviews_units_with_filters_and_centres_on_a_click(window):
    pump(window, ctrl(pygame.K_u))
    review = open_forms(window)[-1]
    assert isinstance(review, UnitReview)
    assert {u for u, _ in review.rows} == {"g-arm", "g-hq", "g-far", "s-inf"}
    far_row = dict(review.rows)["g-far"]
    assert "OUT OF SUPPLY" in far_row.text and "in supply" in dict(review.rows)["g-arm"].text
    # the supply filter, chosen with the mouse in its drop-down menu
    menu = review.menus["supply"]
    pump(window, *click(menu.rect.center))
    option = next(b for b in menu.current_state.options_selection_list.item_list if b["text"] == "out of supply")
    pump(window, *click(option["button_element"].rect.center))
    assert review.filter.supply == "out of supply"
    assert [u for u, _ in review.rows] == ["g-far", "s-inf"]  # the Soviet corps: Minsk is in a German ZOC
    pump(window, *click(dict(review.rows)["g-far"].rect.center))
    assert window.primary.centre_hex == FAR and window.primary.selection.units == ["g-far"]
    # power filter: the USSR's units only
    review.set_filter("power", "Germany")
    assert [u for u, _ in review.rows] == ["g-far"]
    review.set_filter("supply", "in supply")
    assert [u for u, _ in review.rows] == ["g-arm", "g-hq"]
    review.set_filter("where", "eliminated")
    assert review.rows == [] and review.count.text.startswith("0 units")
    with pytest.raises(ValueError, match="no filter 'colour'"):
        review.set_filter("colour", "red")
    pump(window, key(pygame.K_ESCAPE))
    assert review.closed


def test_a_double_click_in_unit_review_centres_on_the_unit_and_closes_it(window):
    pump(window, ctrl(pygame.K_u))
    review = open_forms(window)[-1]
    row = dict(review.rows)["g-arm"]
    pump(window, *click(row.rect.center), *click(row.rect.center))
    assert window.primary.centre_hex == ARMOUR and "g-arm" in window.primary.selection.units
    assert review.closed and not open_forms(window)


# ---------------------------------------------------------------- the supply layer (Ctrl+S)
def colours_near(window, point, radius=6) -> set:
    out = set()
    for dx in range(-radius, radius + 1):
        for dy in range(-radius, radius + 1):
            out.add(tuple(window.screen.get_at((point[0] + dx, point[1] + dy)))[:3])
    return out


def test_ctrl_s_marks_units_out_of_supply_and_shows_a_selected_units_path(window):
    layer = supply_layer(window)
    assert layer is not None and not layer.visible
    window.primary.center_on((226, 44))  # both the far corps and the front on screen, left of the Play form
    window.primary.set_zoom(3)
    window.draw()
    assert OUT_OF_SUPPLY not in colours_near(window, hex_pos(window, FAR))
    pump(window, ctrl(pygame.K_s))
    assert layer.visible
    assert OUT_OF_SUPPLY in colours_near(window, hex_pos(window, FAR))
    assert OUT_OF_SUPPLY not in colours_near(window, hex_pos(window, ARMOUR))
    # click the armour: its path to the HQ and on to a German city is drawn
    pump(window, *click(hex_pos(window, ARMOUR)))
    assert window.primary.selection.units == ["g-arm"]
    answer = layer.path(window.game, "g-arm")
    assert answer["source"]["hex"] == list(HQ)
    a, b = hex_pos(window, tuple(answer["path"][0])), hex_pos(window, tuple(answer["path"][1]))
    assert PATH in colours_near(window, ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2), 2)
    pump(window, ctrl(pygame.K_s))
    assert not layer.visible


# ---------------------------------------------------------------- activities left
def test_the_play_form_shows_the_activities_left(window):
    window.draw()
    texts = [getattr(e, "html_text", "") for e in window.gui.manager.get_sprite_group().sprites()]
    assert any("action <b>Land</b>" in t and "land moves any" in t for t in texts), texts
