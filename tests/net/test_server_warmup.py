"""`wif serve` warms the rules' per-process tables before its first game (issue #15): the
server asks each installed scenario's plugins through the ``warm_tables`` hook (it imports no
plugin), and supply fills its facts of every land hex of the map (seeds, "Supply Sources and
Paths": what a trace reads that never changes)."""

from __future__ import annotations

from app.net.warmup import warm_up
from plugins.rules import core
from plugins.rules.supply import map_facts


def test_server_warm_up_fills_supplys_tables_of_every_land_hex():
    warmed = warm_up()
    assert "barbarossa" in warmed["scenarios"]
    land = sum(1 for h in core.world_map().grid.all_hexes() if core.world_map().is_land(h))
    assert warmed["filled"]["supply land hexes"] == land > 20000
    assert map_facts._node.cache_info().currsize >= land
    moscow = core.world_map().city(core.world_map().countries["SU"].capital).hex
    hits = map_facts._node.cache_info().hits
    map_facts._node(moscow)  # a trace's first look-up is already there
    assert map_facts._node.cache_info().hits == hits + 1
    # naval air missions measure a plane's range to each sea area's all-sea hexes (naval_air.py)
    from plugins.rules.naval import naval_air
    assert warmed["filled"]["sea areas' all-sea rows"] == len(core.world_map().sea_areas) > 50
    assert naval_air._all_sea_rows.cache_info().currsize >= len(core.world_map().sea_areas)
