"""Naval Review Summary and Naval Review Details (seeds), as one form opened with Ctrl+N on the
game window and driven by posted events, on Guadalcanal's opening position: the US carriers
Lexington and Yorktown with 9 cruisers and destroyers in the Coral Sea, section 1; Japan's
convoys in the China Sea and South China Sea; the rest in port."""

from __future__ import annotations

from collections import Counter

import pygame
import pytest

from app.navalreview import NavalReview
from app.play import GameWindow
from app.toolforms import open_forms
from kernel.errors import WifError
from kernel.game import Game

from helpers import unit
from test_find_review_supply import click, ctrl, pump


@pytest.fixture
def window(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    game = Game.new("guadalcanal", tmp_path / "g.wif", seed=1)
    win = GameWindow(game, forms=True)
    win.draw()
    yield win
    pygame.quit()
    game.close()


def review(win) -> NavalReview:
    return next(f for f in open_forms(win) if isinstance(f, NavalReview))


def row(form, key):
    return next(button for k, button in form.rows if k == key)


def test_naval_review_summary_per_power_and_location(window):
    pump(window, ctrl(pygame.K_n))
    form = review(window)
    state = window.game.state
    units, at_sea = state["units"].units, state["naval"].at_sea
    usa_line = next(line for line in form.powers_label.html_text.split("<br>") if line.startswith("Usa: "))
    at_sea_part = usa_line.split("; in port")[0]
    usa_at_sea = Counter(units[u].type for u in at_sea if units[u].power == "usa")
    assert usa_at_sea["cv"] == 2 and all(f"{n} {t.upper()}" in at_sea_part for t, n in usa_at_sea.items())
    lines = {k: b.text for k, b in form.rows}
    assert lines["CO"].startswith("Coral Sea (sea) [sections ") and "allies: CV 2:2" in lines["CO"]
    truk_hex = next(u.hex for u in units.values() if u.id == "jp-shoho")
    truk = f"{truk_hex[0]},{truk_hex[1]}"
    in_truk = [u for u in units.values() if u.branch == "naval" and u.hex == truk_hex and u.id not in at_sea]
    carriers = [u for u in in_truk if u.type == "cv"]
    aboard = sum(len(state["naval"].aboard.get(u.id, [])) for u in carriers)
    assert lines[truk].startswith("Truk (port)") and f"axis: CV {len(carriers)}:{aboard}" in lines[truk]


def test_naval_review_details_of_a_sea_area_by_column(window):
    pump(window, ctrl(pygame.K_n))
    form = review(window)
    pump(window, *click(row(form, "CO").rect.center))
    shown = form.shown
    assert form.location == "CO" and form.title.text == "Coral Sea (sea area)"
    assert [r[0] for r in shown["columns"]["carriers"]] == ["us-lexington", "us-yorktown"]
    assert shown["columns"]["carriers"][0][1:] == ["us-lexington-air"]  # the planes aboard, to the right
    assert ["us-portland"] in shown["columns"]["cruisers"] and shown["units"]["us-portland"]["section"] == 1
    # Map: the detailed map centred on the sea area's box
    buttons = {b.text: b for b in form.form.owned if hasattr(b, "text")}
    pump(window, *click(buttons["Map"].rect.center))
    assert window.primary.centre_hex == tuple(shown["hex"])


def test_naval_review_side_filter_and_cycling(window):
    pump(window, ctrl(pygame.K_n))
    form = review(window)
    form.set_side("axis")
    keys = [k for k, _ in form.rows]
    answer = form.ask_review()["locations"]
    assert keys == [loc["id"] for loc in answer if "axis" in loc["sides"]] and "CS" in keys
    assert len(keys) < len(answer)  # the Allies' ports left out (San Francisco, Pearl Harbor...)
    assert all("allies:" not in b.text for _, b in form.rows)
    first = form.cycle(0)
    assert first == keys[0] and form.cycle(1) == keys[1] and form.cycle(-1) == keys[0]
    assert form.cycle(None) == keys[-1] and form.cycle(1) == keys[0]  # Next after Last wraps round
    pump(window, pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0))
    assert form.closed


def test_naval_review_of_an_unknown_place_is_named(window):
    pump(window, ctrl(pygame.K_n))
    form = review(window)
    with pytest.raises(WifError, match="no sea area 'Atlantis'"):
        form.show("Atlantis")
    with pytest.raises(WifError, match="hex 1,1 is not a port"):
        form.show("1,1")


def test_naval_review_without_naval_rules_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    game = Game.new("lab", tmp_path / "lab.wif", seed=1, options={"units": [unit("g", "germany", (206, 52))]},
                    extra_plugins=["land"])
    try:
        win = GameWindow(game, forms=True)
        win.draw()
        pump(win, ctrl(pygame.K_n))
        assert not [f for f in open_forms(win) if isinstance(f, NavalReview)]
        assert any("no naval rules" in m[0] for m in win.messages)
    finally:
        pygame.quit()
        game.close()
