"""`wif replay --render-every KIND --out DIR`: one PNG per bookmark, drawn by the same code as
`wif render` and the window (app/render.py over GameWindow)."""

from __future__ import annotations

import pygame
import pytest

from app.cli import main
from app.cli_render import render
from app.render import HIGHLIGHT, render_state_png
from kernel.game import Game
from kernel.replay import open_replay

from helpers import play_land_turns, unit

UNITS = [unit("g1", "germany", (204, 52), "arm", move=6, name="4th Panzer Army"),
         unit("r1", "ussr", (210, 48), combat=3, move=3, name="3rd Army")]


@pytest.fixture(scope="module")
def lab_save(tmp_path_factory):
    """Two turns of a lab game in which each power moves its unit a hex every impulse."""
    path = tmp_path_factory.mktemp("every") / "lab.wif"
    game = Game.new("lab", path, seed=7, extra_plugins=["land", "turn"], options={
        "units": UNITS, "countries": {"GE": "germany", "SU": "ussr", "PL": "germany"},
        "actions": {"germany": "land"}})
    play_land_turns(game, 2)
    game.close()
    return path


def bookmarks(path, kind):
    replay = open_replay(path)
    try:
        return list(replay.bookmarks[kind])
    finally:
        replay.game.close()


def test_render_every_impulse_writes_one_png_per_impulse(lab_save, tmp_path, capsys):
    marks = bookmarks(lab_save, "impulse")
    assert len(marks) >= 4
    out = tmp_path / "png"
    assert main(["replay", str(lab_save), "--render-every", "impulse", "--out", str(out), "--size", "320x200",
                 "--zoom", "6"]) == 0
    pngs = sorted(out.glob("*.png"))
    assert len(pngs) == len(marks)
    assert [p.name.split("-")[1] for p in pngs] == [f"seq{m.seq}" for m in marks]
    assert len(capsys.readouterr().out.strip().splitlines()) == len(marks)
    # the second impulse's picture outlines the hexes the first impulse's moves touched
    image = pygame.image.load(str(pngs[1]))
    assert image.get_size() == (320, 200)
    cyan = sum(1 for x in range(0, 320, 2) for y in range(0, 200, 2) if image.get_at((x, y))[:3] == HIGHLIGHT)
    assert cyan > 0


def test_render_every_turn_within_from_and_to(lab_save, tmp_path):
    turns = bookmarks(lab_save, "turn")
    out = tmp_path / "turns"
    assert main(["replay", str(lab_save), "--render-every", "turn", "--from", str(turns[1].seq), "--out", str(out),
                 "--size", "200x120", "--view", "global"]) == 0
    assert len(list(out.glob("*.png"))) == len(turns) - 1
    out2 = tmp_path / "none"
    assert main(["replay", str(lab_save), "--render-every", "turn", "--from", "2", "--to", "5",
                 "--out", str(out2)]) == 0
    assert list(out2.glob("*.png")) == []


def test_render_state_png_draws_exactly_what_wif_render_draws(lab_save, tmp_path):
    """The latest state through render_state_png and through `wif render` give the same pixels."""
    options = {"view": "detailed", "center": "Minsk", "zoom": 6, "size": (360, 240)}
    render(str(lab_save), str(tmp_path / "cli.png"), **options)
    game = Game.open(lab_save, read_only=True)
    try:
        render_state_png(game, game.state, tmp_path / "replay.png", **options)
        # an earlier state draws the unit where it stood then
        render_state_png(game, game.state_at(10), tmp_path / "early.png", **options)
    finally:
        game.close()
    a = pygame.image.load(str(tmp_path / "cli.png"))
    b = pygame.image.load(str(tmp_path / "replay.png"))
    c = pygame.image.load(str(tmp_path / "early.png"))
    assert pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB")
    assert pygame.image.tobytes(b, "RGB") != pygame.image.tobytes(c, "RGB")
