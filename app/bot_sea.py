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

from kernel.choices import CommandChoice

from .bot_carrier_air import CARRIER_PLANE_TYPES, FERRY, FERRY_REACH, PORT_ATTACK, CarrierAirSense, carrier_air_score  # noqa: F401 (re-exported)
from .bot_seamap import _distances, _hex, _world, coastal_areas, place_areas  # noqa: F401 (re-exported)
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
# Shore bombardment (seeds "Attacking Shore Bombardment" / "Defending Shore Bombardment"): a
# warship at sea adds its attack factor to a declared land combat off its sea area and turns face
# down.  The greedy bot bombards (nothing else is offered in the step), its biggest guns first,
# an objective's combat first, and spreads its ships over the combats: a combat takes no more once
# its bombardment reaches the land factors of the attack the bot declared there (the rule caps
# support at the land factors: more is wasted), else BOMBARD_ENOUGH (a combat it defends: the bot
# does not see the defence's factors at that step)
BOMBARD = 1.0
BOMBARD_PER_FACTOR = 0.05
BOMBARD_OBJECTIVE = 0.5
BOMBARD_ENOUGH = 12.0


class SeaSense(CarrierAirSense):
    """What the greedy bot of one power knows about the sea at one moment of the game."""

    def __init__(self, game, power: str, objectives: list[tuple[int, int]], defended=(), cargo=(),
                 unit_hex=None, enemy_combat=None, combat=None, keep=(), needy=(), impulse=None):
        """``objectives``: what the side wants to take; ``defended``: what it holds and the enemy
        threatens (app/bot_land.py), whose sea areas its task forces hold too; ``cargo``: the
        transports the bot loaded (they sail for the objectives first); ``unit_hex``: where the
        counters in port are (the map's); ``enemy_combat``: the enemy's land combat factors by hex
        (an invasion lands where few defend); ``combat``: our land units' combat factors; ``keep``:
        the land units that stay where they are (the last on an objective: never embarked);
        ``needy``: the held objectives the enemy threatens that have too few defenders
        (app/bot_land.py: a landing there is a garrison); ``impulse``: by combat hex key, the
        factors the bot's ships ``"bombarded"`` each combat with this impulse, and the land
        factors of the ``"attack"`` it declared there."""
        self.bombarded = (impulse or {}).get("bombarded", {})
        self.declared_attack = (impulse or {}).get("attack", {})
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
        the invader with the side's warships off the hex (it attacks them: "Invasion", a forced
        land attack; "Attacking Shore Bombardment" adds the warships' attack factors, at most the
        invader's own)."""
        hex_ = tuple(hex_)
        defence = self.enemy_combat.get(hex_, 0)
        if defence and unit is not None:
            invader = self.combat.get(unit, 0)
            if 2 * (invader + min(invader, self.bombard_support(hex_))) < defence:
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

    def bombard_score(self, cmd: dict, preview: dict) -> float:
        """Shore bombardment of the combat ``cmd["combat"]`` by ``cmd["ship"]`` (its preview tells
        the ``factors`` it adds): worth it, the more the bigger the guns and on an objective, till
        combat has as many factors from the sea as the attack's land factors (BOMBARD_ENOUGH
        where the bot did not declare it)."""
        combat = str(cmd.get("combat", ""))
        already = self.bombarded.get(combat, 0.0)
        if already >= self.declared_attack.get(combat, BOMBARD_ENOUGH):
            return 0.0
        on_objective = "," in combat and _hex(combat) in self.objectives
        return (BOMBARD + BOMBARD_PER_FACTOR * float(preview.get("factors") or 0)
                + (BOMBARD_OBJECTIVE if on_objective else 0.0) - BOMBARD_PER_FACTOR * already)

    def bombard_support(self, hex_) -> float:
        """The attack factors of this power's organized warships at sea in a sea area beside
        ``hex_`` (read off the sea boxes and the counters as the map shows them): what may
        bombard its land attack there in Attacking Shore Bombardment (an ally's ships bombard
        only a combat its own units attack in), at most BOMBARD_ENOUGH."""
        areas = coastal_areas(tuple(hex_))
        if not areas:
            return 0.0
        counters = self.game.state.sections.get("units")
        total = 0.0
        for uid, row in self.own_at_sea.items():
            if row["power"] != self.power or row["area"] not in areas:
                continue
            if row["kind"] not in ("surface", "carrier"):
                continue
            u = counters.units.get(uid) if counters is not None else None
            if u is None or not u.face_up:
                continue
            attack = float(u.factors.get("attack", 0) or 0)
            total += attack / 2 if row.get("damaged") else attack
        return min(total, BOMBARD_ENOUGH)

    def convoys(self, unit_ids) -> set[str]:
        """The convoys at sea among ``unit_ids``: the greedy bot leaves them on their lanes."""
        return {u for u in unit_ids if self.own_at_sea.get(u, {}).get("kind") == "convoy"}


def sea_score(sense: SeaSense, cmd: dict, preview: dict) -> float | None:
    """The greedy bot's score of a naval command from its preview, or None when ``cmd`` is not
    one the sea knows (the caller scores it as before)."""
    if cmd.get("type") == "StayAtSea":
        return sense.stay_score(cmd)
    if preview.get("ship_disorganized") and "factors" in preview:  # shore bombardment
        return sense.bombard_score(cmd, preview)
    flight = carrier_air_score(sense, preview)
    if flight is not None:
        return flight
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
