"""Optional rule Backup fighters (seeds, "Air-to-air Combat": back-up fighters add to the
strength only if their modified rating is at least half the opposing front fighter's; not
back-up carrier air units)."""

from __future__ import annotations

from helpers import air_unit
from airlab import GE_BASE, SU_BASE, TARGET, air_lab, land_unit

from plugins.rules import air

UNITS = [air_unit("me109", "germany", "ftr", GE_BASE, air=5), air_unit("old", "germany", "ftr", GE_BASE, air=2),
         air_unit("cv", "germany", "carrier-air", GE_BASE, air=1), air_unit("yak", "ussr", "ftr", SU_BASE, air=6),
         land_unit("r1", "ussr", TARGET)]
MINE = {"fighters": ["me109", "old", "cv"], "bombers": []}
THEIRS = {"fighters": ["yak"], "bombers": []}


def test_backup_fighters_off_every_backup_adds_one(save):
    game = air_lab(save, UNITS)
    assert air.strength(game.state, MINE, THEIRS, hook=game.host.pm.hook) == (5 + 1 + 0.5, True)


def test_backup_fighters_on_a_weak_backup_adds_nothing(save):
    game = air_lab(save, UNITS, rules=["backup-fighters"])
    hook = game.host.pm.hook
    # 2 is less than half of the Yak's 6: it adds nothing; the carrier plane still adds 0.5
    assert air.strength(game.state, MINE, THEIRS, hook=hook) == (5 + 0.5, True)
    # against a front fighter rated 1, a back-up rated 2 counts; with no opposing fighter the base rule holds
    assert air.strength(game.state, {"fighters": ["me109", "old"], "bombers": []}, {"fighters": ["cv"], "bombers": []},
                        hook=hook) == (6, True)
    assert air.strength(game.state, {"fighters": ["me109", "old"], "bombers": []}, hook=hook) == (6, True)
