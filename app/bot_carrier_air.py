"""The greedy bot's carrier planes (app/bot_sea.py's ``SeaSense`` inherits these): which
carriers sail for a carrier plane waiting ashore, and what a carrier plane's flight from its
carrier is worth: a port attack, Combat Air Patrol, an escort or an interception.  Like the rest
of the bot it reads only previews, the map's counters and the Naval Review's UI hooks.  A carrier
plane flying as the bomber of a ground strike, ground support or a bombing is scored from its
preview's factor and targets (``bomber_score``).

Seeds and Ships in Flames 8.5 ("Flying Missions"): a face-up carrier plane "can fly a mission
(except naval air), an escort, or an interception from a CV"; it boards a carrier by rebasing
"up to double its range".
"""

from __future__ import annotations

from .bot_seamap import _distances, _hex, _world, coastal_areas, place_areas
from .uihooks import ask_game

PORT_ATTACK = "Port Attack"  # the air mission a port attack flies (its preview's "mission")
GROUND_SUPPORT = "Ground Support"  # ... and the one that adds bombers to the impulse's land combats
FERRY = 1.0  # an empty-decked carrier sailing alone towards a carrier plane waiting ashore, per sea area nearer
FERRY_REACH = 1.5  # ... and ending where that plane may board it (Ships in Flames 8.5: "up to double its range")
CARRIER_PLANE_TYPES = ("cvp", "carrier-air")  # the counter types of carrier air units (the scenarios' data)
CAP_OBJECTIVE = 0.8  # a carrier plane on Combat Air Patrol over an objective the side holds (the enemy threatens it)
CAP_PORT = 0.5  # ... over a port holding the side's ships, more for the ships there (PORT_TARGET)
CAP_PER_COMBAT = 0.05  # ... over the side's land units, per combat factor there (a ground strike disorganizes them)
ESCORT = 0.4  # a carrier plane escorting the side's bombers (fewer are shot down), more for a port attack's target
INTERCEPT = 0.4  # a carrier plane intercepting the enemy's bombers, more over what the side has there (cap_score)
STRIKE_PER_FACTOR = 0.1  # a carrier plane's ground strike: per enemy combat factor it is expected to disorganize
STRIKE_FACE_DOWN = 0.1  # ... less the plane face down afterwards (no later strike, CAP or port attack this turn)
ATTACK_HEX = 0.3  # ... only on enemy units beside the side's own (a hex it may attack in Land Combat) or an objective
SUPPORT = 0.3  # a carrier plane's ground support of a land combat (where the side attacks or defends), more per factor
BOMBING = 0.2  # a carrier plane's strategic or carpet bombing (the game offers only the targets the kind allows)
PER_FACTOR = 0.1  # ... per tactical or strategic factor it adds
PORT_TARGET = {"carriers": 0.6, "battleships": 0.4, "cruisers": 0.15, "transports": 0.1, "subs": 0.1,
               "convoy_points": 0.05}  # what the enemy ships in a port are worth bombing, by kind


class CarrierAirSense:
    """The carrier-plane half of the greedy bot's ``SeaSense`` (it sets ``game``, ``power``,
    ``side``, ``own_at_sea``, ``enemy_at_sea``, ``defended``, ``needy``, ``combat``,
    ``unit_hex``, ``_ferry`` and ``_ports``)."""

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

    # ------------------------------------------------------------ carrier planes' flights
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
        return score + (CAP_PORT + own if own > 0 else 0.0) + CAP_PER_COMBAT * self.own_combat(hex_)

    def own_combat(self, hex_) -> float:
        """The combat factors of the side's land units in ``hex_``."""
        hex_ = tuple(hex_)
        return sum(self.combat.get(u, 0) for u, h in self.unit_hex.items() if h is not None and tuple(h) == hex_)

    def escort_intercept_score(self, preview: dict) -> float:
        """A carrier plane escorting the side's bombers or intercepting the enemy's (the game
        offers only hexes where they flew)."""
        if preview["role"] == "escort":
            return ESCORT + (self.port_attack_score(preview["hex"]) if preview.get("mission") == PORT_ATTACK else 0.0)
        return INTERCEPT + self.cap_score(preview["hex"])

    def port_attack_reserve(self, area: str) -> float:
        """What a carrier plane in ``area`` is worth kept face up for a port attack (the naval
        stage, where the port attack is, comes before the air missions; a plane that bombs
        lands face down): the best port holding enemy ships on that sea area's coast, else 0."""
        self._port_tally(())  # the Naval Review's ports, read once
        return max((self.port_attack_score(h) for h in self._ports if area in coastal_areas(h)), default=0.0)

    def bomber_score(self, preview: dict) -> float:
        """A carrier plane flying as the bomber of a ground strike, ground support or a bombing
        (``bombing_score``, by the factor its preview names), less what it is worth kept for a
        port attack (``port_attack_reserve``)."""
        score = self.bombing_score(preview, float(preview.get(preview.get("factor") or "", 0) or 0))
        return score - self.port_attack_reserve(preview["area"]) if score > 0 else score

    def bombing_score(self, preview: dict, factor: float) -> float:
        """A bomber's flight, from its carrier or from an airfield (app/bot_air.py), with the
        ``factor`` it bombs with: a ground strike (the enemy's combat factors in the hex, times
        the chance its tactical factor disorganizes them, less the bomber face down afterwards;
        only on enemy units beside the side's own, where it may attack them in Land Combat, or
        on an objective: elsewhere the strike is not worth the bomber),
        ground support (its factor added where the side attacks or defends), a strategic or
        carpet bombing (its strategic factor on a target the game offers)."""
        hex_ = tuple(preview["hex"])
        if "targets" in preview:  # a ground strike
            if not preview["targets"]:
                return 0.0
            if not self.strike_worth(hex_):
                return 0.0  # a hex the side will not attack: the strike only turns the bomber face down
            expected = min(1.0, factor / 10) * self.enemy_combat.get(hex_, 0)
            return STRIKE_PER_FACTOR * expected + ATTACK_HEX - STRIKE_FACE_DOWN
        if preview.get("mission") == GROUND_SUPPORT:
            return SUPPORT + PER_FACTOR * factor
        return BOMBING + PER_FACTOR * factor if factor > 0 else 0.0

    def strike_worth(self, hex_) -> bool:
        """Enemy land units in ``hex_`` beside the side's own (a hex it may attack in Land
        Combat) or on an objective: where a ground strike is worth a bomber."""
        hex_ = tuple(hex_)
        if not self.enemy_combat.get(hex_):
            return False
        if hex_ in self.objectives or hex_ in self.defended:
            return True
        grid = _world().grid
        return any(h is not None and grid.distance(tuple(h), hex_) <= 1 for u, h in self.unit_hex.items()
                   if u in self.combat)

    def fly_score(self, cmd: dict) -> float:
        """An aircraft flying to sea: worth it where enemy ships are."""
        return 1.0 + self.enemy_at_sea[cmd["area"]] / 10 if cmd.get("area") in self.enemy_at_sea else 0.0


def carrier_air_score(sense: CarrierAirSense, preview: dict) -> float | None:
    """The greedy bot's score of a carrier plane's flight (or a port attack's bomber) from its
    preview, or None when the preview is not one."""
    if preview.get("mission") == PORT_ATTACK and preview.get("role") == "bomber":
        return sense.port_attack_score(preview["hex"])
    if preview.get("role") == "cap" and "lands_on" in preview:  # a carrier plane on Combat Air Patrol
        return sense.cap_score(preview["hex"])
    if preview.get("role") == "bomber" and "lands_on" in preview:  # a carrier plane bombing from its carrier
        return sense.bomber_score(preview)
    if preview.get("role") in ("escort", "interceptor") and "lands_on" in preview:  # a carrier plane from its carrier
        return sense.escort_intercept_score(preview)
    return None
