"""Counters are drawn from a per-stack sprite list sliced by column (app/detailed.py):
they land on their hexes on both sides of the date line, at every zoom, and move when the
units do."""

from __future__ import annotations

import pygame
import pytest

from app import mapstyle
from app.play import GameWindow
from app.views import ScreenLayout, WindowGeometry
from kernel.game import Game

from helpers import event, lab_game, unit

# Chukotka (358-359) and Alaska (0-1) on row 28: land hexes on both sides of the date line
WEST, EAST = (358, 28), (1, 28)
MAP_ONLY = ScreenLayout(name="map only", screen=(640, 400), windows={"detailed": WindowGeometry(x=0, y=0, w=640, h=400)})


@pytest.fixture
def window(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    pygame.display.init()
    pygame.font.init()
    game = lab_game(tmp_path / "d.wif", options={  # a lab game: the rig moves units (docs/MODDING.md)
        "units": [unit("ussr-1", "ussr", WEST), unit("usa-1", "usa", EAST)]})
    win = GameWindow(game, screen=pygame.Surface((640, 400)), layout=MAP_ONLY)
    yield win
    pygame.quit()
    game.close()


def counter_corner(window, hex_):
    dmap = window.primary
    body = window.panels["detailed"].body
    sx, sy = dmap.hex_to_screen(hex_)
    size = dmap.geometry.counter
    left, top = sx - size // 2, sy - size // 2
    # just inside the bottom-left corner: clear of the border, the symbol and the factors
    return tuple(window.screen.get_at((body.x + left + 1, body.y + top + size - 2)))[:3]


@pytest.mark.parametrize("zoom", [3, 6, 8])
@pytest.mark.parametrize("centre", [(0, 28), (359, 28), (358, 28), (2, 28)])
def test_counters_on_both_sides_of_the_date_line(window, zoom, centre):
    dmap = window.primary
    dmap.set_zoom(zoom)
    dmap.center_on(centre)
    window.draw()
    assert counter_corner(window, WEST) == mapstyle.power_colour("ussr")
    assert counter_corner(window, EAST) == mapstyle.power_colour("usa")


def test_a_moved_unit_is_drawn_at_its_new_hex(window):
    dmap = window.primary
    dmap.set_zoom(6)
    dmap.center_on((0, 28))
    window.draw()
    event(window.game, "UnitMoved", unit="usa-1", to_hex=[0, 28])  # recorded and folded as a move is
    window.draw()
    assert counter_corner(window, (0, 28)) == mapstyle.power_colour("usa")
    assert counter_corner(window, EAST) != mapstyle.power_colour("usa")


def test_prefetch_builds_chunks_next_to_the_view_only_while_the_frame_has_time(window):
    import time

    dmap = window.primary
    dmap.set_zoom(4)
    dmap.center_on((100, 60))
    window.draw()
    built = dmap.chunks_built
    assert dmap.prefetch(4, deadline=time.perf_counter() - 1) == 0  # no time left: nothing
    assert dmap.chunks_built == built
    dmap._build_seconds[4] = 10.0  # a zoom whose chunks have been slow still gets its ring
    assert dmap.prefetch(1, deadline=time.perf_counter() + 60) == 1
    assert dmap.prefetch(4) == 4  # without a deadline: up to the limit
    # the ring is then ready: panning one chunk east draws without building
    g = dmap.geometry
    while dmap.prefetch(8):
        pass
    before = dmap.chunks_built
    dmap.scroll_pixels(g.chunk_cols * g.w // 2, 0)
    window.draw()
    assert dmap.chunks_built == before


# ---------------------------------------------------------------- counters as printed
# Issue 11, item 7: type symbol, size mark, factors readable at zoom 5 (digits >= 9 px), the
# unit's name at high zoom; a counter and its badge stay inside their hex at every zoom and
# never hide a neighbour or a city label; power codes as the game writes them.
from app.chunklayers import city_label  # noqa: E402
from app.counters import counter_picture, size_mark  # noqa: E402
from app.detailed import DetailedMap  # noqa: E402
from app.mapmodel import MapModel  # noqa: E402
from app.stackdraw import LABEL_PLATE, counter_layout  # noqa: E402

PETROZAVODSK, KAZAN = (214, 38), (229, 48)  # cities with no other city within three hexes
QUIET = (226, 40)  # a land hex far from both
VIEW = (480, 360)


@pytest.fixture
def screen():
    pygame.display.init()
    pygame.font.init()
    yield
    pygame.quit()


def lab_map(tmp_path, units, zoom, centre):
    game = Game.new("lab", tmp_path / f"c{zoom}.wif", seed=1, options={"units": units})
    return game, DetailedMap(MapModel(game=game), VIEW, zoom=zoom, centre=centre)


def drawn(dmap, **layers) -> pygame.Surface:
    dmap.layers.update(layers)
    surface = pygame.Surface(VIEW)
    dmap.draw(surface)
    return surface


def inked_rows_at_foot(surface, left, top, side, ink, paper) -> int:
    """The height of the block of rows with ink above the counter's bottom border: the
    factor digits' glyph height as rendered."""
    def inked(p):
        return sum(abs(a - b) for a, b in zip(p, ink)) < sum(abs(a - b) for a, b in zip(p, paper))

    rows = [any(inked(surface.get_at((left + x, top + y))[:3]) for x in range(1, side - 1))
            for y in range(side - 2, 0, -1)]
    start = rows.index(True)
    end = rows.index(False, start)
    return end - start


def test_factor_digits_are_at_least_9_px_tall_at_zoom_5(tmp_path, screen):
    game, dmap = lab_map(tmp_path, [unit("su-5a", "ussr", QUIET, combat=5, move=4, name="5th Army")], 5, QUIET)
    try:
        surface = drawn(dmap)
        side = dmap.geometry.counter
        sx, sy = dmap.hex_to_screen(QUIET)
        paper = mapstyle.power_colour("ussr")
        ink = mapstyle.text_colour_on(paper)
        assert surface.get_at((sx - side // 2 + 2, sy - side // 2 + 2))[:3] == paper
        assert inked_rows_at_foot(surface, sx - side // 2, sy - side // 2, side, ink, paper) >= 9
    finally:
        game.close()


@pytest.mark.parametrize("zoom", range(1, 9))
def test_a_stack_and_its_badge_stay_inside_their_hex_at_every_zoom(tmp_path, screen, zoom):
    stack = [unit(f"ge-{k}", "germany", QUIET, name=f"{k}th Army") for k in range(4)]
    game, dmap = lab_map(tmp_path, stack, zoom, QUIET)
    try:
        with_units = drawn(dmap, labels=False, units=True)
        without = drawn(dmap, labels=False, units=False)
        changed = [(x, y) for x in range(VIEW[0]) for y in range(VIEW[1])
                   if with_units.get_at((x, y)) != without.get_at((x, y))]
        assert changed, "the stack was drawn"
        outside = {dmap.screen_to_hex((x + 0.5, y + 0.5)) for x, y in changed} - {QUIET}
        assert not outside, f"zoom {zoom}: the stack covers pixels of {sorted(outside)}"
        layout = counter_layout(zoom)
        if layout.side >= 18:  # the count badge is drawn from zoom 4
            badge = dmap.counters.badge(4, layout.side)
            bx, by = layout.badge_at(badge)
            sx, sy = dmap.hex_to_screen(QUIET)
            assert with_units.get_at((sx + bx + 1, sy + by + 1))[:3] == (0, 0, 0)
    finally:
        game.close()


@pytest.mark.parametrize("zoom", [4, 5, 7])
def test_no_counter_hides_a_city_label(tmp_path, screen, zoom):
    """Petrozavodsk (a long name) and its six neighbours hold units; Kazan is empty but its
    neighbours are not:
    both names show whole: each pixel of the text as printed on the map (units layer off)
    or as on its plate over the counters."""
    units, n = [], 0
    dmap_grid = MapModel().grid
    for hex_ in [PETROZAVODSK, *dmap_grid.neighbours(PETROZAVODSK), *dmap_grid.neighbours(KAZAN)]:
        units.append(unit(f"u{n}", "ussr" if n % 2 else "germany", hex_))
        n += 1
    game, dmap = lab_map(tmp_path, units, zoom, KAZAN)
    try:
        g, side = dmap.geometry, dmap.geometry.counter
        for name, hex_, below_counter in (("Petrozavodsk", PETROZAVODSK, True), ("Kazan", KAZAN, False)):
            dmap.center_on(hex_)
            printed = drawn(dmap, units=False)
            surface = drawn(dmap, units=True)
            city = next(c for c in dmap._cities if c.name == name)
            text, dx, dy = city_label(city, g, zoom)
            if below_counter:  # the name moves under the counter on its hex
                dy = side - side // 2 + 1
            sx, sy = dmap.hex_to_screen(hex_)
            plate = pygame.Surface(text.get_size())
            plate.fill(LABEL_PLATE)
            plate.blit(text, (0, 0))  # the name as shown on its plate
            ink = [(x, y) for x in range(text.get_width()) for y in range(text.get_height())
                   if text.get_at((x, y))[3] > 0]
            assert len(ink) > 10
            def shown(x, y):
                seen = surface.get_at((sx + dx + x, sy + dy + y))
                return seen == plate.get_at((x, y)) or (not below_counter and seen == printed.get_at(
                    (sx + dx + x, sy + dy + y)))

            hidden = [(x, y) for x, y in ink if not shown(x, y)]
            assert not hidden, f"zoom {zoom}: {len(hidden)} pixels of {name}'s label are covered"
        # and no name hides a counter on Petrozavodsk's row (the names go under the counters' feet)
        dmap.center_on(PETROZAVODSK)
        surface = drawn(dmap, units=True)
        for direction in (0, 3):  # east, west
            neighbour = dmap_grid.neighbour(PETROZAVODSK, direction)
            top = dmap.stacks() and next(members[0] for h, members in dmap.stacks() if h == neighbour)
            art = dmap.counters.surface(top, side)
            sx, sy = dmap.hex_to_screen(neighbour)
            covered = [(x, y) for x in range(side) for y in range(side)
                       if surface.get_at((sx - side // 2 + x, sy - side // 2 + y)) != art.get_at((x, y))]
            assert not covered, f"zoom {zoom}: {len(covered)} pixels of the counter at {neighbour} are hidden"
    finally:
        game.close()


def test_power_codes_and_flags_as_the_game_writes_them(screen):
    assert mapstyle.power_code("ussr") == "USSR"
    assert mapstyle.power_code("USSR") == "USSR"
    assert mapstyle.power_code("usa") == "US"
    assert mapstyle.power_code("Commonwealth") == "CW"
    assert mapstyle.power_code("germany") == "GE"
    assert mapstyle.power_code("uzbekistan") == "UZ"
    ussr, usa = mapstyle.flag_surface("ussr"), mapstyle.flag_surface("usa")
    assert ussr.get_size() == usa.get_size() == (36, 24)
    assert pygame.image.tobytes(ussr, "RGB") != pygame.image.tobytes(usa, "RGB")
    from app.playforms import flag_surface

    assert pygame.image.tobytes(flag_surface("ussr"), "RGB") == pygame.image.tobytes(ussr, "RGB")


def test_size_marks_follow_the_unit_size():
    from plugins.scenarios.barbarossa import oob

    by_name = {u.name: u for u in oob.scenario_data().units}
    assert size_mark(by_name["3rd Mechanized Corps"]) == "XXX"
    assert size_mark(by_name["27th Army"]) == "XXXX"
    assert size_mark(by_name["Western Front"]) == "XXXXX"
    assert size_mark(by_name["I-16 (Baltic)"]) == ""
    division = by_name["27th Army"].model_copy(update={"size": "division", "name": "1st Division"})
    assert size_mark(division) == "XX"


def test_counter_picture_shows_factors_and_the_name_on_large_counters(tmp_path, screen):
    game = Game.new("lab", tmp_path / "p.wif", seed=1, options={"units": [
        unit("a", "ussr", QUIET, combat=3, move=3, name="8th Army"),
        unit("b", "ussr", QUIET, combat=5, move=4, name="8th Army"),
        unit("c", "ussr", QUIET, combat=3, move=3, name="11th Army"),
        unit("d", "ussr", QUIET, type_="arm", combat=3, move=3, name="8th Army"),
        unit("e", "ussr", QUIET, combat=3, move=3, name="8th Corps")]})
    try:
        units = game.state["units"].units
        small = [counter_picture(units[u], 28) for u in "abc"]
        large = [counter_picture(units[u], 44) for u in "abc"]
        assert small[0].get_size() == (28, 28) and large[0].get_size() == (44, 44)
        same = pygame.image.tobytes
        assert same(small[0], "RGB") != same(small[1], "RGB")  # the factors differ
        assert same(small[0], "RGB") == same(small[2], "RGB")  # no name at 28 px
        assert same(large[0], "RGB") != same(large[2], "RGB")  # the name at 44 px
        assert same(small[0], "RGB") != same(counter_picture(units["d"], 28), "RGB")  # armour's symbol
        assert same(small[0], "RGB") != same(counter_picture(units["e"], 28), "RGB")  # XXX, not XXXX
    finally:
        game.close()


def test_a_city_name_goes_above_its_counter_when_the_hexes_below_hold_counters(tmp_path, screen):
    grid = MapModel().grid
    below = [grid.neighbour(PETROZAVODSK, d) for d in (1, 2)]  # SE, SW
    units = [unit("city", "ussr", PETROZAVODSK)] + [unit(f"s{k}", "germany", h) for k, h in enumerate(below)]
    game, dmap = lab_map(tmp_path, units, 5, PETROZAVODSK)
    try:
        surface = drawn(dmap)
        side = dmap.geometry.counter
        for hex_ in below:  # the counters below are whole
            top = next(members[0] for h, members in dmap.stacks() if h == hex_)
            art = dmap.counters.surface(top, side)
            sx, sy = dmap.hex_to_screen(hex_)
            assert all(surface.get_at((sx - side // 2 + x, sy - side // 2 + y)) == art.get_at((x, y))
                       for x in range(side) for y in range(side)), hex_
        city = next(c for c in dmap._cities if c.name == "Petrozavodsk")
        text, dx, _ = city_label(city, dmap.geometry, 5)
        sx, sy = dmap.hex_to_screen(PETROZAVODSK)
        dy = -(side // 2) - text.get_height() - 1  # over the top counter (a single unit: no edges)
        plate = pygame.Surface(text.get_size())
        plate.fill(LABEL_PLATE)
        plate.blit(text, (0, 0))
        assert all(surface.get_at((sx + dx + x, sy + dy + y)) == plate.get_at((x, y))
                   for x in range(text.get_width()) for y in range(text.get_height()))
        # with the labels layer off no name is drawn over the map, plate or not
        bare = drawn(dmap, labels=False)
        assert bare.get_at((sx + dx, sy + dy)) != LABEL_PLATE
    finally:
        game.close()


def test_a_name_moved_above_its_counter_leaves_the_map_where_it_was_printed(tmp_path, screen):
    """Konigsberg with a corps in it (autoplay-mid-game-1024.png): the name went above the
    counter and a blank plate stayed where the map prints it, below the counter.  The place
    shows the map as drawn without names (no plate, no name twice)."""
    grid = MapModel().grid
    below = [grid.neighbour(PETROZAVODSK, d) for d in (1, 2)]  # SE, SW: the name goes above
    units = [unit("city", "ussr", PETROZAVODSK)] + [unit(f"s{k}", "germany", h) for k, h in enumerate(below)]
    game, dmap = lab_map(tmp_path, units, 5, PETROZAVODSK)
    try:
        surface = drawn(dmap)
        bare = drawn(dmap, labels=False)
        city = next(c for c in dmap._cities if c.name == "Petrozavodsk")
        text, dx, dy = city_label(city, dmap.geometry, 5)
        sx, sy = dmap.hex_to_screen(PETROZAVODSK)
        foot = sy - dmap.geometry.counter // 2 + dmap.geometry.counter  # below the city's counter
        printed = [(sx + dx - 1 + x, sy + dy + y) for x in range(text.get_width() + 2) for y in range(text.get_height())
                   if sy + dy + y >= foot]
        assert len(printed) > text.get_width()  # the printed name's place shows below the counter
        differ = [p for p in printed if surface.get_at(p) != bare.get_at(p)]
        assert not differ, f"{len(differ)} of {len(printed)} pixels differ from the map without names"
        # after the control of the hex changes (the map baked again there), still the map as it is now
        dmap.layers["labels"] = True
        dmap.invalidate_hexes([PETROZAVODSK])
        assert drawn(dmap).get_at(printed[0]) == drawn(dmap, labels=False).get_at(printed[0])
    finally:
        game.close()


def test_after_a_move_the_covered_names_are_those_a_fresh_drawing_places(tmp_path, screen):
    """A move places again only the names near the hexes whose stacks changed (app/stackdraw.py):
    what it draws is what a map drawn afresh draws, the name over the city's counter gone
    with the counter and back with it."""
    grid = MapModel().grid
    below = [grid.neighbour(PETROZAVODSK, d) for d in (1, 2)]
    units = [unit("city", "ussr", PETROZAVODSK), unit("far", "ussr", QUIET)] + \
        [unit(f"s{k}", "germany", h) for k, h in enumerate(below)]
    game = lab_game(tmp_path / "names.wif", options={"units": units})  # a game the rig may move units in
    dmap = DetailedMap(MapModel(game=game), VIEW, zoom=5, centre=PETROZAVODSK)
    try:
        def placed(layer):
            layer.sprites()
            return [[(x, y, [(s.get_size(), dx, dy) for s, dx, dy in parts]) for x, y, parts in found]
                    for found in (layer._erasers, layer._labels)]

        def fresh():
            return placed(DetailedMap(MapModel(game=game), VIEW, zoom=5, centre=PETROZAVODSK).units_layer)

        drawn(dmap)
        assert placed(dmap.units_layer) == fresh()
        assert placed(dmap.units_layer)[0]  # the city's own counter: its printed name blanked
        for to in (KAZAN, PETROZAVODSK, QUIET):
            event(game, "UnitMoved", unit="city", to_hex=list(to))
            drawn(dmap)
            assert placed(dmap.units_layer) == fresh(), to
        assert len(dmap.units_layer._placed) == len(dmap.units_layer._label_plan)
    finally:
        game.close()
