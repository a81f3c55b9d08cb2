"""Supply searches kept and shared (plugins/rules/supply/reuse.py, issue 15), named after the
seed sections whose answers they must not change: "Supply Sources and Paths" and the supply
range of the "Weather Report".  Built in the lab scenario on the real map (Orenburg, a Soviet
city in the steppe: a unit at (236,57) is 3 hexes from it, one at (237,58) 4 hexes)."""

import threading
from collections import OrderedDict
from functools import partial

import pytest

import helpers
from plugins.rules import core
from plugins.rules.supply import in_supply, reuse, trace

unit = partial(helpers.unit, move=3)
UNITS = [unit("s3", "ussr", (236, 57)), unit("s4", "ussr", (237, 58)), unit("g1", "germany", (200, 52))]


@pytest.fixture
def game(save):
    trace.clear_cache()
    game = helpers.lab_game(save, seed=3, options={"units": UNITS}, extra_plugins=["supply"])
    yield game
    game.close()
    trace.clear_cache()


@pytest.fixture
def fresh_searches(monkeypatch):
    """How many searches start from scratch (no kept search to reuse or repair)."""
    count = [0]
    search = trace.Tracer.search

    def counted(self, seeds, railway, limit=trace.MAX_RANGE, parents=None, known=None, again=()):
        count[0] += known is None
        return search(self, seeds, railway, limit, parents, known, again)
    monkeypatch.setattr(trace.Tracer, "search", counted)
    return count


def from_scratch(state, power):
    saved = reuse._kept, trace._caches, reuse._published
    reuse._kept, trace._caches, reuse._published = threading.local(), threading.local(), OrderedDict()
    try:
        return trace.Tracer(state, power).trace()
    finally:
        reuse._kept, trace._caches, reuse._published = saved


def same(a, b) -> bool:
    return (a.dist, a.supplied, a.active, a.sources) == (b.dist, b.supplied, b.active, b.sources)


def test_weather_report_rain_keeps_the_searches_and_shortens_the_range(game, fresh_searches):
    """Rain (range 2) reads no search again: a search reads only whether a zone is frozen; the
    unit 3 hexes from Orenburg is out of supply all the same, as a trace from scratch says."""
    assert in_supply(game.state, "s3") and in_supply(game.state, "s4")
    before = fresh_searches[0]
    zone = core.world_map().weather_zone((236, 57))
    helpers.weather(game, zone, "rain")
    assert not in_supply(game.state, "s3") and not in_supply(game.state, "s4")
    assert fresh_searches[0] == before
    assert same(trace.result_for(game.state, "ussr"), from_scratch(game.state, "ussr"))


def test_weather_report_snow_freezes_lakes_a_new_search_situation(game):
    """Snow freezes lakes (a path may cross them): the searches' situation is a new one."""
    zone = core.world_map().weather_zone((236, 57))
    fine = trace.tracer_for(game.state, "ussr").search_situation()
    helpers.weather(game, zone, "rain")
    assert trace.tracer_for(game.state, "ussr").search_situation() == fine
    helpers.weather(game, zone, "snow")
    snowed = trace.tracer_for(game.state, "ussr")
    assert snowed.search_situation() != fine
    assert same(trace.result_for(game.state, "ussr"), from_scratch(game.state, "ussr"))


def test_supply_sources_and_paths_a_new_thread_starts_from_published_searches(game, fresh_searches):
    """A server decides each game on its own thread: a thread with nothing kept starts from the
    searches another thread published, and answers as a trace from scratch."""
    here = trace.result_for(game.state, "ussr")
    before = fresh_searches[0]
    assert before > 0
    got = {}

    def elsewhere():
        got["result"] = trace.result_for(game.state, "ussr")
    thread = threading.Thread(target=elsewhere)
    thread.start()
    thread.join()
    assert fresh_searches[0] == before  # reused, not searched again
    assert same(got["result"], here)
    assert same(got["result"], from_scratch(game.state, "ussr"))
