"""The greedy bot at sea: where its task forces go, what its carriers strike, when it embarks
and invades.  Like the rest of the bot it decides only among what ``Game.choices`` offers and
learns the rest from previews (an invasion says ``"invasion"``, an embark its ``"land_units"``),
the objectives hook and the sea-box UI hook (``sea_boxes``: what is at sea, by side); the map's
sea areas and their adjacency come from the kernel's world map (data, not a rule).

How a player would play the war at sea, simplified (seeds, "Naval Movement", "Invasion",
"Naval Air Missions"): take task forces - every ship of a port together, so transports sail
escorted - towards the sea areas beside the objectives the side does not hold; carry land units
there and invade an enemy-held coastal hex, an objective first; fly to sea where enemy ships
are; fight with carrier air when it may.

A carrier whose planes were lost (or flew ashore) is worth little until a carrier plane boards
it, and the later carrier planes arrive ashore (Guadalcanal: the USA's at San Diego) and board
by rebasing onto a carrier "up to double its range" (Ships in Flames 8.5): such a carrier sails
alone for the waiting plane, into a port the plane reaches, and stays there.
"""

from __future__ import annotations

from collections import deque
from functools import cache

from kernel.choices import CommandChoice

from .uihooks import ask_game

SEA_MOVE = "MoveNavalGroup"
RETURN = "ReturnNavalToBase"
RETURN_PREVIEWS = 2  # the greedy bot previews this many of Return To Base's commands
MOVE_ORIGINS = 12  # the greedy bot looks at this many of a naval move's origins
INVADE = 4.0  # an invasion is worth more than any move
OBJECTIVE = 3.0  # ... and more still onto an objective
DEFENDED = 0.5  # ... less for each enemy land combat factor in the hex (a strong garrison: not at all)
EMBARK = 0.6  # loading land units is worth doing when there is an enemy objective to invade
PER_COMBAT = 0.05  # ... the strongest first: the invader is the captured objective's garrison
GARRISON = 2.0  # unloading a land unit onto an objective the side holds, threatened and short of defenders
IN_AREA = 0.5  # a task force at sea beside an objective
CARGO = 1.0  # ... and more with the land units it loaded, to invade with them
PER_SHIP = 0.05  # a bigger task force is a better one (escorts sail with what they escort)
INTO_PORT = -0.5  # going back to port gains nothing by itself
COMBAT_KIND = {"naval-air": 2.0, "surface": 1.0}  # carriers strike when they may
STAY_CONVOY = 1.0  # convoys keep their sea lanes: "convoys ... may remain at sea indefinitely"
STAY_NEAR = 0.2  # a warship stays at sea only beside an objective or enemy ships
STAY_ELSEWHERE = -0.3  # ... else it goes home (to reorganize, and out of harm's way)
PORT_ATTACK = "Port Attack"  # the air mission a port attack flies (its preview's "mission")
FERRY = 1.0  # an empty-decked carrier sailing alone towards a carrier plane waiting ashore, per sea area nearer
FERRY_REACH = 1.5  # ... and ending where that plane may board it (Ships in Flames 8.5: "up to double its range")
CARRIER_PLANE_TYPES = ("cvp", "carrier-air")  # the counter types of carrier air units (the scenarios' data)
CAP_OBJECTIVE = 0.8  # a carrier plane on Combat Air Patrol over an objective the side holds (the enemy threatens it)
CAP_PORT = 0.5  # ... over a port holding the side's ships, more for the ships there (PORT_TARGET)
CAP_PER_COMBAT = 0.05  # ... over the side's land units, per combat factor there (a ground strike disorganizes them)
ESCORT = 0.4  # a carrier plane escorting the side's bombers (fewer are shot down), more for a port attack's target
INTERCEPT = 0.4  # a carrier plane intercepting the enemy's bombers, more over what the side has there (cap_score)
PORT_TARGET = {"carriers": 0.6, "battleships": 0.4, "cruisers": 0.15, "transports": 0.1, "subs": 0.1,
               "convoy_points": 0.05}  # what the enemy ships in a port are worth bombing, by kind


@cache
def _world():
    from kernel.worldmap import WorldMap

    return WorldMap()


@cache
def coastal_areas(hex_: tuple[int, int]) -> frozenset[str]:
    """The sea areas with a sea hex beside ``hex_`` (ships there can reach it)."""
    m = _world()
    out = set()
    for n in [hex_, *m.grid.neighbours(hex_)]:
        code = m.sea_area_code(tuple(n)) if m.is_sea(tuple(n)) else None
        if code:
            out.add(code)
    return frozenset(out)


@cache
def _port_areas(hex_: tuple[int, int]) -> frozenset[str]:
    """The sea areas whose list of ports names the port at ``hex_`` (or that touch it)."""
    m = _world()
    port = m.port_at(hex_)
    named = {code for code, area in m.sea_areas.items() if port is not None and port.name in area.ports}
    return frozenset(named) or coastal_areas(hex_)


@cache
def _distances(targets: frozenset[str]) -> dict[str, int]:
    """Sea area -> how many areas away the nearest of ``targets`` is (through adjacent areas)."""
    areas = _world().sea_areas
    dist = {t: 0 for t in targets if t in areas}
    todo = deque(dist)
    while todo:
        a = todo.popleft()
        for b in areas[a].adjacent:
            if b in areas and b not in dist:
                dist[b] = dist[a] + 1
                todo.append(b)
    return dist


def _hex(key: str) -> tuple[int, int]:
    col, row = key.split(",")
    return int(col), int(row)


def place_areas(place: str) -> frozenset[str]:
    """A naval move's origin or destination as sea areas: "CS" or "CS:2" (at sea) or "col,row"
    (a port: the areas it opens on)."""
    if "," in place:
        return _port_areas(_hex(place))
    return frozenset([place.split(":")[0]])


class SeaSense:
    """What the greedy bot of one power knows about the sea at one moment of the game."""

    def __init__(self, game, power: str, objectives: list[tuple[int, int]], defended=(), cargo=(),
                 unit_hex=None, enemy_combat=None, combat=None, keep=(), needy=()):
        """``objectives``: what the side wants to take; ``defended``: what it holds and the enemy
        threatens (app/bot_land.py), whose sea areas its task forces hold too; ``cargo``: the
        transports the bot loaded (they sail for the objectives first); ``unit_hex``: where the
        counters in port are (the map's); ``enemy_combat``: the enemy's land combat factors by hex
        (an invasion lands where few defend); ``combat``: our land units' combat factors; ``keep``:
        the land units that stay where they are (the last on an objective: never embarked);
        ``needy``: the held objectives the enemy threatens that have too few defenders
        (app/bot_land.py: a landing there is a garrison)."""
        self.enemy_combat = enemy_combat or {}
        self.combat = combat or {}
        self.unit_hex = unit_hex or {}
        self.keep = set(keep)
        self.objectives = set(objectives)
        self.defended = {tuple(h) for h in defended}
        self.needy = {tuple(h) for h in needy}
        self.invade_areas = frozenset(a for h in objectives for a in coastal_areas(tuple(h)))
        self.target_areas = frozenset(a for h in [*objectives, *defended] for a in coastal_areas(tuple(h)))
        self.game = game
        self.power = power
        self.side = side = game.state.kernel.side_of(power) or power
        self._ferry: tuple | None = None  # (planes waiting ashore, empty-decked carriers): when first asked
        self.enemy_at_sea: dict[str, int] = {}
        self.own_at_sea: dict[str, dict] = {}  # unit id -> its sea-box row (area, section, kind)
        for box in ask_game(game, "sea_boxes", state=game.state) or []:
            enemies = [u for u in box["units"] if u["side"] != side and u["kind"] != "convoy"]
            if enemies:
                self.enemy_at_sea[box["area"]] = len(enemies)
            for u in box["units"]:
                if u["side"] == side:
                    self.own_at_sea[u["id"]] = {**u, "area": box["area"]}
        self._ports: dict[tuple[int, int], dict] | None = None
        self.cargo: set[str] = set()
        self.cargo_origins: set[str] = set()  # where a naval move of the cargo starts
        for ship in cargo:
            row = self.own_at_sea.get(ship)
            if row is not None and row.get("aboard"):
                self.cargo.add(ship)
                self.cargo_origins.add(f"{row['area']}:{row['section']}")
            elif row is None and (unit_hex or {}).get(ship) is not None:
                self.cargo.add(ship)
                self.cargo_origins.add("{},{}".format(*unit_hex[ship]))

    def distance(self, place: str) -> float:
        dist = _distances(self.target_areas | frozenset(self.enemy_at_sea))
        found = [dist[a] for a in place_areas(place) if a in dist]
        return float(min(found)) if found else 99.0

    # ------------------------------------------------------------ carriers with room, planes ashore
    def ferry(self) -> tuple[list, dict[str, str]]:
        """(this power's carrier planes waiting ashore as (hex, rebase reach), its carriers with
        nothing aboard: id -> the naval move origin they sail from), read off the map's
        counters, the sea boxes and the Naval Review's ports; no carriers when no plane waits."""
        if self._ferry is None:
            planes, empty = [], {}
            section = self.game.state.sections.get("units")
            for u in section.units.values() if section is not None else ():
                if u.power == self.power and u.branch == "air" and u.type in CARRIER_PLANE_TYPES \
                        and u.where == "map" and u.hex is not None:
                    planes.append((tuple(u.hex), 2 * int(u.factors.get("range", 0) or 0)))
            if planes:
                for uid, row in self.own_at_sea.items():
                    if row["kind"] == "carrier" and row["power"] == self.power and not row.get("aboard"):
                        empty[uid] = f"{row['area']}:{row['section']}"
                review = ask_game(self.game, "naval_review", state=self.game.state) or {}
                for loc in review.get("locations", []):
                    if loc["kind"] != "port" or not loc["sides"].get(self.side, {}).get("carriers"):
                        continue
                    details = ask_game(self.game, "naval_review_details", state=self.game.state, location=loc["id"])
                    for ship, *aboard in (details or {}).get("columns", {}).get("carriers", []):
                        if not aboard and details["units"].get(ship, {}).get("power") == self.power:
                            empty[ship] = loc["id"]
            self._ferry = (planes, empty)
        return self._ferry

    def ferrying(self, unit_ids) -> bool:
        """A naval move of empty-decked carriers alone, with a carrier plane waiting ashore."""
        empty = self.ferry()[1]
        return bool(unit_ids) and all(u in empty for u in unit_ids)

    def ferry_distance(self, place: str) -> float:
        """Sea areas from ``place`` to where a waiting plane may board a carrier: 0 in a port
        within its reach or at sea beside it (the rebase's own cost is the rule's to judge)."""
        planes = self.ferry()[0]
        if "," in place:
            port = _hex(place)
            grid = _world().grid
            if any(grid.distance(port, h) <= reach for h, reach in planes):
                return 0.0
        areas = frozenset(a for h, _reach in planes for a in coastal_areas(h))
        dist = _distances(areas)
        found = [dist[a] for a in place_areas(place) if a in dist]
        return float(min(found)) + ("," in place) if found else 99.0

    # ------------------------------------------------------------ scores
    def move_score(self, cmd: dict) -> float:
        """A naval move: how much nearer the task force comes to an objective's sea area or to
        enemy ships, bigger task forces first, at sea rather than back in port.  Empty-decked
        carriers sailing alone: how much nearer a carrier plane waiting ashore."""
        if self.ferrying(cmd.get("units")):
            before, after = self.ferry_distance(cmd["origin"]), self.ferry_distance(cmd["to"])
            into_port = 0.1 if "," in cmd["to"] else 0.0  # it waits there, not at sea where it must return
            return FERRY * (before - after) + (FERRY_REACH + into_port if after == 0 < before else 0.0)
        units = cmd.get("units") or []
        if units and self.invade_areas and all(u in self.cargo for u in units):
            # the loaded transports alone, for the objectives to invade (the fleet may be wanted elsewhere)
            before, after = self.cargo_distance(cmd["origin"]), self.cargo_distance(cmd["to"])
            if "," in cmd["to"]:
                return before - after + INTO_PORT
            return CARGO * (before - after) + (IN_AREA + CARGO if after == 0 < before else 0.0)
        if not self.target_areas and not self.enemy_at_sea:
            return 0.0
        before, after = self.distance(cmd["origin"]), self.distance(cmd["to"])
        score = before - after + PER_SHIP * len(cmd.get("units") or [])
        if "," in cmd["to"]:
            return score + INTO_PORT
        if after == 0:
            score += IN_AREA
        carrying = (cmd["origin"] in self.cargo_origins if "units" not in cmd
                    else bool(self.cargo.intersection(cmd["units"])))
        if carrying and (after < before or after == 0):
            score += CARGO
        return score

    def invade_score(self, hex_, unit: str | None = None) -> float:
        """``unit`` invading ``hex_``: an objective first, else as near one as may be; less for
        each enemy combat factor there, nothing at all where the defenders are more than twice
        the invader (it attacks them: "Invasion", a forced land attack; shore bombardment and
        ground support may add to it)."""
        hex_ = tuple(hex_)
        defence = self.enemy_combat.get(hex_, 0)
        if defence and unit is not None and 2 * self.combat.get(unit, 0) < defence:
            return 0.0
        defended = DEFENDED * defence
        if hex_ in self.objectives:
            return INVADE + OBJECTIVE - defended
        grid = _world().grid
        nearest = min((grid.distance(hex_, o) for o in self.objectives), default=20)
        return INVADE - min(nearest, 20) / 10 - defended

    def embark_score(self, preview: dict) -> float:
        cargo = preview.get("land_units") or []
        if self.keep.intersection(cargo):
            return 0.0
        if not cargo or not self.objectives:
            return 0.0
        return EMBARK + PER_COMBAT * sum(self.combat.get(c, 0) for c in cargo)

    def landing_score(self, hex_) -> float:
        """Unloading a land unit from a transport at sea (not an invasion) into ``hex_``: worth
        it onto a held objective the enemy threatens that is short of defenders (a captured
        one held by its lone invader is the enemy's to take back, Guadalcanal "Victory")."""
        return GARRISON if tuple(hex_) in self.needy else 0.0

    def cargo_distance(self, place: str) -> float:
        """Sea areas from ``place`` to one beside an objective to invade (the cargo's target)."""
        dist = _distances(self.invade_areas)
        found = [dist[a] for a in place_areas(place) if a in dist]
        return float(min(found)) if found else 99.0

    def stay_score(self, cmd: dict) -> float:
        """Stay At Sea: convoys stay (they hold the sea lanes the victory points count, and
        "convoys ... may remain at sea indefinitely"); a warship stays only where it is wanted."""
        score = 0.0
        for uid in cmd.get("units") or []:
            row = self.own_at_sea.get(uid)
            if row is None:
                continue
            if row["kind"] == "convoy":
                score += STAY_CONVOY
            elif self.ferrying([uid]) and self.ferry_distance(row["area"]) == 0:
                score += STAY_NEAR  # an empty deck beside a waiting plane: it boards in Air Rebase
            else:
                score += STAY_NEAR if self.distance(row["area"]) == 0 else STAY_ELSEWHERE
        return score

    def convoys(self, unit_ids) -> set[str]:
        """The convoys at sea among ``unit_ids``: the greedy bot leaves them on their lanes."""
        return {u for u in unit_ids if self.own_at_sea.get(u, {}).get("kind") == "convoy"}

    def _port_tally(self, hex_) -> dict:
        """The Naval Review's tally of the port at ``hex_``: side -> kind -> how many."""
        if self._ports is None:
            review = ask_game(self.game, "naval_review", state=self.game.state) or {}
            self._ports = {tuple(loc["hex"]): loc["sides"] for loc in review.get("locations", [])
                           if loc["kind"] == "port"}
        return self._ports.get(tuple(hex_), {})

    def port_attack_score(self, hex_) -> float:
        """A bomber's port attack on ``hex_``: worth flying by the enemy ships there (the
        Naval Review's tally of that port), carriers and battleships first."""
        value = sum(PORT_TARGET.get(k, 0) * n for side, tally in self._port_tally(hex_).items() if side != self.side
                    for k, n in tally.items())
        return 0.5 + value if value > 0 else 0.0

    def cap_score(self, hex_) -> float:
        """A carrier plane flying Combat Air Patrol over ``hex_`` (the game offers only hexes the
        enemy's bombers threaten this mission): worth it over an objective the side holds and
        the enemy threatens, over a port holding the side's ships (by what they are worth), over
        its land units (by their combat factors); elsewhere the plane stays aboard, organized for
        its own strikes ("flying CAP 'uses up' the fighter", seeds "Combat Air Patrol (CAP)")."""
        hex_ = tuple(hex_)
        score = CAP_OBJECTIVE if hex_ in self.defended or hex_ in self.needy else 0.0
        own = sum(PORT_TARGET.get(k, 0) * n for k, n in self._port_tally(hex_).get(self.side, {}).items())
        land = sum(self.combat.get(u, 0) for u, h in self.unit_hex.items() if h is not None and tuple(h) == hex_)
        return score + (CAP_PORT + own if own > 0 else 0.0) + CAP_PER_COMBAT * land

    def escort_intercept_score(self, preview: dict) -> float:
        """A carrier plane escorting the side's bombers or intercepting the enemy's (the game
        offers only hexes where they flew)."""
        if preview["role"] == "escort":
            return ESCORT + (self.port_attack_score(preview["hex"]) if preview.get("mission") == PORT_ATTACK else 0.0)
        return INTERCEPT + self.cap_score(preview["hex"])

    def fly_score(self, cmd: dict) -> float:
        """An aircraft flying to sea: worth it where enemy ships are."""
        return 1.0 + self.enemy_at_sea[cmd["area"]] / 10 if cmd.get("area") in self.enemy_at_sea else 0.0


def sea_score(sense: SeaSense, cmd: dict, preview: dict) -> float | None:
    """The greedy bot's score of a naval command from its preview, or None when ``cmd`` is not
    one the sea knows (the caller scores it as before)."""
    if cmd.get("type") == "StayAtSea":
        return sense.stay_score(cmd)
    if preview.get("mission") == PORT_ATTACK and preview.get("role") == "bomber":
        return sense.port_attack_score(preview["hex"])
    if preview.get("role") == "cap" and "lands_on" in preview:  # a carrier plane on Combat Air Patrol
        return sense.cap_score(preview["hex"])
    if preview.get("role") in ("escort", "interceptor") and "lands_on" in preview:  # a carrier plane from its carrier
        return sense.escort_intercept_score(preview)
    if preview.get("invasion"):
        return sense.invade_score(preview["hex"], cmd.get("unit"))
    if preview.get("land_moves") and "transport_disorganized" in preview:  # unloading at sea
        return sense.landing_score(preview["hex"])
    if "land_units" in preview:
        return sense.embark_score(preview)
    if preview.get("naval_moves"):
        return sense.move_score(cmd)
    if "range_used" in preview:  # back to port: the whole group at once, to the nearest port
        units = cmd.get("units") or []
        ferry = 0.1 if sense.ferrying(units) and sense.ferry_distance(str(cmd.get("to", ""))) == 0 else 0.0
        return PER_SHIP * len(units) + 0.01 / (1 + float(preview["range_used"])) + ferry
    if "range_to_sea" in preview:
        return sense.fly_score(cmd)
    if "surprise_cost" in preview and preview.get("kind") in COMBAT_KIND:
        return COMBAT_KIND[preview["kind"]] - preview["surprise_cost"] / 10
    if "chance" in preview and "need" in preview:  # an interception: worth a try when it may work
        return 2 * float(preview["chance"])
    if "sides" in preview and "area" in preview:  # a sea area where naval combat may be fought
        return 1.0
    return None


def sea_move_candidates(choice: CommandChoice, rng, sense: SeaSense, limit: int = 10) -> list[dict]:
    """A naval move's ``limit`` best candidates: the destinations of a few origins ranked by the
    map first (how much nearer the objectives' and the enemy's sea areas), and only the best
    pairs built out with the whole task force that may go (in the first section offered): a
    destination's sections and units are the costly part of the choice tree."""
    origins = list(choice.fields[0].all_options())
    empty = sense.ferry()[1]  # empty-decked carriers, when a carrier plane waits ashore
    wanted = sense.cargo_origins | set(empty.values())
    if len(origins) > MOVE_ORIGINS:  # the cargo's and the empty carriers' origins always, a few others at random
        first = [o for o in origins if o.value in wanted]
        rest = [o for o in origins if o.value not in wanted]
        origins = first + rng.sample(rest, max(0, min(len(rest), MOVE_ORIGINS - len(first))))
    pairs = [(sense.move_score({"origin": origin.value, "to": to.value}), n, origin, to)
             for origin in origins for dest_field in origin.next_fields()
             for n, to in enumerate(dest_field.all_options())]
    pairs.sort(key=lambda p: p[:2], reverse=True)
    out = []
    for _score, _n, origin, to in pairs:
        if len(out) >= 2 * limit:  # twice as many as kept: the size of each task force ranks them too
            break
        for section_field in to.next_fields():
            sections = section_field.all_options()
            if not sections:
                continue
            section = sections[0]
            units_field = next((f for f in section.next_fields() if f.kind == "units"), None)
            if units_field is None:
                continue
            held = sense.convoys(o.value for o in units_field.all_options()) | set(empty)
            values = [o.value for o in units_field.all_options() if o.value not in held]
            most = len(values) if units_field.max is None else min(units_field.max, len(values))
            if most < (units_field.min or 0) or most == 0:
                continue
            out.append({**choice.base(), "origin": origin.value, "to": to.value,
                        section_field.name: section.value, units_field.name: values[:most]})
    out.extend(_ferry_candidates(choice, sense, [o for o in origins if o.value in set(empty.values())]))
    out.extend(_alone_candidates(choice, [o for o in origins if o.value in sense.cargo_origins], sense.cargo,
                                 sense.cargo_distance))
    out.sort(key=sense.move_score, reverse=True)
    return out[:limit]


def _ferry_candidates(choice: CommandChoice, sense: SeaSense, origins, best: int = 3) -> list[dict]:
    """Naval moves of the empty-decked carriers alone, from ``origins``, to the ``best``
    destinations nearest a carrier plane waiting ashore."""
    return _alone_candidates(choice, origins, sense.ferry()[1], sense.ferry_distance, best)


def _alone_candidates(choice: CommandChoice, origins, alone, distance, best: int = 3) -> list[dict]:
    """Naval moves of the ships ``alone`` (those among them offered) without the rest of their
    task force, from ``origins`` to the ``best`` destinations by ``distance``."""
    empty = alone
    ranked = sorted(((distance(str(to.value)), n, origin, to) for origin in origins
                     for dest_field in origin.next_fields() for n, to in enumerate(dest_field.all_options())),
                    key=lambda r: r[:2])
    out = []
    for _far, _n, origin, to in ranked[:best]:
        for section_field in to.next_fields():
            sections = section_field.all_options()
            units_field = next((f for f in sections[0].next_fields() if f.kind == "units"), None) if sections else None
            values = [o.value for o in units_field.all_options() if o.value in empty] if units_field else []
            if values and len(values) >= (units_field.min or 0):
                most = len(values) if units_field.max is None else min(units_field.max, len(values))
                out.append({**choice.base(), "origin": origin.value, "to": to.value,
                            section_field.name: sections[0].value, units_field.name: values[:most]})
    return out


def return_candidates(choice: CommandChoice, limit: int = RETURN_PREVIEWS, sense: SeaSense | None = None) -> list[dict]:
    """Return To Base: each group whole to a port it may reach, the biggest groups first and
    then the ports nearest by the map (empty-decked carriers: the ports nearest a carrier plane
    waiting ashore); only these few are previewed (the preview checks every ship's reachable
    ports: the costliest preview of the greedy bot's game)."""
    ranked = []
    for origin in choice.fields[0].all_options():
        area = str(origin.value).split(":")[0]
        for to_field in origin.next_fields():
            for to in to_field.all_options():
                units_field = next((f for f in to.next_fields() if f.kind == "units"), None)
                values = [o.value for o in units_field.all_options()] if units_field else []
                if values:
                    far = _distances(place_areas(str(to.value))).get(area, 99)
                    if sense is not None and sense.ferrying(values):
                        far = sense.ferry_distance(str(to.value))
                    ranked.append(((-len(values), far, len(ranked)), {
                        **choice.base(), "origin": origin.value, to_field.name: to.value, units_field.name: values}))
    ranked.sort(key=lambda r: r[0])
    return [cmd for _rank, cmd in ranked[:limit]]
