"""The Victory form (seeds, "Victory"): the result in words and a table of the objectives,
who holds each, whom it counts for, totalled per major power (Barbarossa's Special Victory
Conditions, in a lab game that starts at the victory check of its last turn)."""

from __future__ import annotations

import re

import pygame
import pytest

from app.play import GameWindow
from app.victory import victory_report
from kernel.game import Game
from plugins.rules.core import world_map
from plugins.scenarios.barbarossa import oob


@pytest.fixture
def ended_game(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    m = world_map()
    countries, hexes = oob.start_control()
    control = {f"{h[0]},{h[1]}": p for h, p in hexes.items()}
    control.update({f"{m.city(c).hex[0]},{m.city(c).hex[1]}": "germany" for c in ("Leningrad", "Kiev", "Minsk", "Riga")})
    game = Game.new("lab", tmp_path / "v.wif", seed=1, extra_plugins=["barbarossa", "turn"], options={
        "scenario_rules": "barbarossa", "last_turn": 1, "countries": countries, "hex_control": control,
        "start_at": "turn.end-of-turn.victory-check"})
    yield game
    game.close()


def test_victory_report_counts_objectives_per_power_and_side(ended_game):
    report = victory_report(ended_game)
    assert report["totals"] == {"germany": 9.5, "ussr": 45.5}
    assert any("wins" in line for line in report["lines"])
    rows = {r["name"]: r for r in report["rows"]}
    assert rows["Kiev"]["controller"] == "germany" and rows["Kiev"]["value"] == 2
    assert rows["Helsinki"]["credited"] == {"germany": 0.5, "ussr": 0.5}
    assert report["sides"] == {"axis": 9.5, "allies": 45.5}
    # issue 11 item 5: powers and sides by their names, never their ids
    shown = " ".join(report["lines"]) + report["totals_text"]
    assert "Germany" in shown and "USSR" in shown and "Allies" in shown
    assert not re.search(r"\b(germany|ussr|allies|axis)\b", shown), shown


def test_the_victory_form_opens_with_the_table_when_the_game_is_over(ended_game, tmp_path):
    pygame.display.init()
    pygame.font.init()
    try:
        window = GameWindow(ended_game, screen=pygame.display.set_mode((1024, 768)), forms=True)
        window.draw()
        forms = [p for p in window.play.popups.open if getattr(p, "report", None)]
        assert len(forms) == 1
        table = forms[0].table_surface
        assert table.get_height() >= 18 * (len(forms[0].report["rows"]) + 1)
        pygame.image.save(window.screen, str(tmp_path / "victory.png"))
        # OK closes it
        ok = next(b for b in forms[0].owned if getattr(b, "text", "") == "OK")
        for e in (pygame.event.Event(pygame.MOUSEMOTION, pos=ok.rect.center, rel=(0, 0), buttons=(0, 0, 0)),
                  pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=ok.rect.center, button=1),
                  pygame.event.Event(pygame.MOUSEBUTTONUP, pos=ok.rect.center, button=1)):
            pygame.event.post(e)
        for _ in range(3):
            for e in pygame.event.get():
                window.handle(e)
            window.draw()
        assert not [p for p in window.play.popups.open if getattr(p, "report", None)]
    finally:
        pygame.quit()
