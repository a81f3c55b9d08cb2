"""Air Missions (seeds, "Ground strike": the organized enemy land and air units in the hex):
``viable_target`` answers from the targets kept once a position (missions.target_hexes), the
same answer as the mission kind's own targets, hex by hex (a CAP's choices ask it per hex)."""

from __future__ import annotations

from test_air import GE_BASE, RIFLE, STUKA, SU_BASE, TARGET, land_unit, lab

from plugins.rules import air as air_plugin
from plugins.rules.air.mission_kinds import KINDS


def test_viable_target_is_the_kinds_own_targets_hex_by_hex(save):
    game = lab(save, [STUKA, RIFLE, land_unit("r2", "ussr", SU_BASE, face_up=False)])
    targets = KINDS["ground-strike"].targets(game.state, "germany")
    assert TARGET in targets and SU_BASE not in targets  # a disorganized unit is no target
    for hex_ in (TARGET, SU_BASE, GE_BASE, (0, 0)):
        assert air_plugin.viable_target(game.state, "germany", "ground-strike", hex_) is (hex_ in targets)
    assert not air_plugin.viable_target(game.state, "germany", "no-such-mission", TARGET)


def test_a_new_position_asks_the_targets_again(save):
    game = lab(save, [STUKA, RIFLE])
    assert air_plugin.viable_target(game.state, "germany", "ground-strike", TARGET)
    empty = lab(save.with_name("empty.wif"), [STUKA])  # another state: its own answer
    assert not air_plugin.viable_target(empty.state, "germany", "ground-strike", TARGET)
