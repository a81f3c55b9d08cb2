"""Nothing shows internal ids to a player (issue 11, "What a player met", item 5): a unit's
label gave its type code and hex ("18th Army (inf, 202,50)"), a combat its coordinates ("Land
combat at hex 201,49"). The Play form's lists, Selectable Units, the log and the result
dialogs say the type in words and the place by its city or the nearest city ("hex NE of
Kaunas"); real posted pygame events (SDL_VIDEODRIVER=dummy).

Situation: tests/app/test_playing.py's (lab scenario, German corps at 206,51 and 206,52, a
Soviet rifle corps at 207,52), seeds "Land Movement" and "Land Combat Declaration"."""

from __future__ import annotations

import re

import pygame

from app.placewords import hex_words, type_words
from test_playing import (DECL, FINISH, SUPPLY_HQ, TARGET, buttons, click, hex_pos, lab_game, motion, resolve_by_buttons,  # noqa: F401
                          open_window, press, pump)

# a type code in a label ("(inf, ", "(arm 6)") or a hex by its coordinates ("206,52", "hex 207,52")
CODE = re.compile(r"\((?:inf|arm|hq-i)[ ,)]|\b\d{3},\d{2}\b")


def option_texts(play) -> list[str]:
    return [b.text for b in play.body.owned if getattr(b, "sets", None) is not None]


def test_place_words_name_a_city_or_the_way_from_the_nearest_one():
    assert hex_words((207, 51)) == "Minsk"
    assert hex_words((202, 50)) == "hex W of Kaunas"  # next to it
    assert hex_words((201, 49)) == "hex 2 NW of Kaunas"
    assert hex_words((100, 10)).startswith("hex in ")  # far from any city: its sea area
    assert type_words("inf") == "infantry" and type_words("hq-a") == "armor HQ" and type_words("xyz") == "xyz"


def test_the_play_forms_units_and_destinations_are_in_words(open_window, tmp_path):
    game = lab_game(tmp_path / "words.wif")
    window = open_window(game)
    play = window.play
    units = option_texts(play)
    rows = [(b.text, b.tool_tip_text) for b in play.selectable.form.unit_rows]
    assert any("(infantry, " in t for t in units) and any("(armor, " in t for t in units), units
    assert any("(infantry, " in tip for _, tip in rows), rows
    for text in units + [t for row in rows for t in row]:
        assert not CODE.search(text), text
    pump(window, *click(hex_pos(window, (206, 52))))
    assert play.fill.values["unit"] == "g-inf"
    listed = next(e for e in play.body.owned if getattr(e, "field_name", None) == "to")
    rows = [(item["text"], tuple(option.value)) for item, option in zip(listed.item_list, listed.options)]
    assert len(rows) > 3
    for text, hex_ in rows:
        assert not CODE.search(text), text
        assert text.startswith(hex_words(hex_)), text
    goal = rows[0][1]
    pump(window, motion(hex_pos(window, goal)))  # the hovered destination's preview names its place
    box = next(e for e in play.body.get_container().elements if getattr(e, "preview", None))
    assert box.html_text.startswith(f"{hex_words(goal)}:") and not CODE.search(box.html_text), box.html_text
    pump(window, *click(listed.item_list[0]["button_element"].rect.center))
    assert tuple(game.state["units"].units["g-inf"].hex) == goal
    said = [play.status[0], *play.log]
    assert any(hex_words(goal) in t for t in said), said
    for text in said:
        assert not CODE.search(text), text


def test_a_combat_is_named_by_its_place_in_the_lists_log_and_result(open_window, tmp_path):
    game = lab_game(tmp_path / "combat.wif", start_at=DECL, extra_units=[SUPPLY_HQ])
    window = open_window(game)
    play = window.play
    where = hex_words(TARGET)
    pump(window, *click(hex_pos(window, TARGET)))
    shown = [e.html_text for e in play.body.get_container().elements if hasattr(e, "html_text")]
    listed = option_texts(play) + shown
    assert any(where in t for t in listed), listed
    for text in listed:
        assert not CODE.search(text), text
    pump(window, *click(hex_pos(window, (206, 51))), *click(hex_pos(window, (206, 52))))
    press(window, play.form, "Declare attack")
    press(window, play.form, FINISH)
    resolve_by_buttons(window)
    popup = next(p for p in play.popups.open if any("Land combat at" in line for line in p.lines))
    said = [*popup.lines, *play.log]
    # the loss is told once: the rules' "The defender loses s-inf", not the kernel's "moves to eliminated" too
    assert any("loses s-inf" in line for line in popup.lines), popup.lines
    assert not any("moves to" in line for line in said), said
    assert any(f"Land combat at {where}" in line for line in said), said
    for text in said:
        assert not CODE.search(text), text


def test_the_setup_trays_units_say_their_type_and_place_in_words(tmp_path, monkeypatch):
    """Barbarossa's Setup Tray (seeds, "Setup Tray") listed "1st Shock Army (inf, placed at
    223,47)"; a unit placed by a click on the map is listed with its type and city in words."""
    from app.play import GameWindow
    from kernel.game import Game
    from plugins.rules.core import world_map

    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    game = Game.new("barbarossa", tmp_path / "b.wif", seed=1941)
    try:
        window = GameWindow(game, screen=pygame.display.set_mode((1280, 1024)), forms=True, layout="M1210")
        window.draw()
        tray = window.play.tray
        texts = [i["text"] for i in tray.form.unit_list.item_list]
        assert texts and any("(infantry, " in t for t in texts), texts[:5]
        unit_id = tray.listed_units()[0]
        pump(window, *click(next(i["button_element"] for i in tray.form.unit_list.item_list
                                 if i["text"] == tray.label(unit_id)).rect.center))
        assert tray.in_stack == [unit_id]
        to = next(h for h in tray.outlined() if world_map().city_at(h) is not None)
        window.primary.center_on(to)
        window.draw()
        pump(window, *click(hex_pos(window, to)))
        assert tuple(game.state["units"].units[unit_id].hex) == to
        window.draw()
        texts = [i["text"] for i in tray.form.unit_list.item_list]
        placed = next(t for t in texts if f"placed at {world_map().city_at(to).name}" in t)
        for text in texts:
            assert not CODE.search(text), text
        assert placed
    finally:
        pygame.quit()
        game.close()
