"""Where the map opens and what it shows first: the deciding power's front (issue 11 item 6:
"the map follows the action"), as the scenario names it, else worked out from the units or
the set-up areas.  A mixin of ``app.play.GameWindow``."""

from __future__ import annotations

FRONT_DISTANCE = 3  # hexes from an enemy unit within which a unit is on the front


class FrontView:
    """The front part of the game window."""

    def _default_centre(self):
        """Where a detailed map opens: the deciding power's front (issue 11 item 6), else its
        first map view."""
        front = self.front_centre() if self.game is not None else None
        if front is not None:
            return front
        views = self.views.views(self.power()) if self.game is not None else []
        if views:
            return (views[0].col, views[0].row)
        return (205, 52)

    def front_in_view(self) -> None:
        """Move the front from the map's middle to the middle of the part of the map the
        forms over it (the Play form, the Setup Tray) leave uncovered."""
        panel, dmap = self.panels.get("detailed"), self.primary
        if panel is None or dmap is None or self.front_centre() is None:
            return
        body = panel.body
        covering = [self.play.form_rect("play")] + ([self.play.form_rect("setup_tray")] if self.play.tray.active() else [])
        free = body.copy()
        for r in covering:
            if not r.colliderect(free):
                continue
            if r.x > free.centerx:
                free.width = r.x - free.x
            elif r.right < free.centerx:
                free.width, free.x = free.right - r.right, r.right
            elif r.y > free.centery:
                free.height = r.y - free.y
        if free.width > 100 and free.height > 100:
            dmap.scroll_pixels(body.centerx - free.centerx, body.centery - free.centery)

    def front_centre(self) -> tuple[int, int] | None:
        """The middle of the deciding power's front: where the scenario says it is (the
        ``scenario_front`` hook); else its land units within FRONT_DISTANCE
        hexes of an enemy unit; else the middle of all its units on the map; else (before
        they are set up) of its set-up areas (the Setup Tray's hook); None when it has none."""
        from .render import centre_of
        from .uihooks import ask_game

        power, k = self.power(), self.game.state.kernel
        named = ask_game(self.game, "scenario_front", state=self.game.state, power=power) if self.game.host else None
        if named:  # the scenario says where its front is (Guadalcanal: the Solomons and New Guinea)
            return centre_of([tuple(h) for h in named], self.model.grid.cols)
        side = k.side_of(power)
        units = self.model.units()
        placed = [u for u in units.units.values() if u.hex is not None] if units is not None else []
        ours = [tuple(u.hex) for u in placed if u.power == power and u.branch == "land"]
        enemies = {tuple(u.hex) for u in placed if k.side_of(u.power) not in (None, side)}
        grid = self.model.grid
        front = [h for h in ours if any(grid.distance(h, e) <= FRONT_DISTANCE for e in enemies
                                        if abs(e[1] - h[1]) <= FRONT_DISTANCE)]
        if front or ours:
            return centre_of(front or ours, grid.cols)
        areas = ask_game(self.game, "setup_areas", state=self.game.state, power=power) if self.game.host else None
        # the set-up hexes next to the enemy's (his border), else each area's middle counted
        # once per unit set up there (a big, nearly empty reserve area does not pull the view)
        hexes = {tuple(h) for area in areas or [] for h in area.get("hexes", [])}
        enemy = {p for p in k.powers() if k.side_of(p) not in (None, side)}
        border = [h for h in hexes if any(self.model.controller(n) in enemy for n in grid.neighbours(h)
                                          if tuple(n) not in hexes)]
        if border:
            return centre_of(sorted(border), grid.cols)
        middles = [centre_of([tuple(h) for h in area["hexes"]], grid.cols) for area in areas or [] if area.get("hexes")
                   for _ in area.get("units") or [None]]
        return centre_of(middles, grid.cols) if middles else None
