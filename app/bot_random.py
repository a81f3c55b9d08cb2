"""The random bot's light biases (app/bots.py's ``random`` policy): chains of choices it
started are mostly finished (an invasion needs land units embarked, their transport sailed out,
a Land or Combined action and the Invade command, which uniform picks seldom line up), and its
convoys mostly keep their sea lanes.  Still random: what it picks within them."""

from __future__ import annotations

from kernel.choices import CommandChoice

from .bot_sea import SEA_MOVE, SeaSense, coastal_areas
from .uihooks import ask_game

CHAIN_BIAS = 0.8  # the random bot finishes a chain it started (embark, sail, invade) this often
LANDING_ACTIONS = ("land", "combined")  # the actions whose impulse has Invasion (seeds, "Invasion")
# the random bot leaves its convoys on their sea lanes this often: keeps them at sea in Stay At
# Sea, leaves them out of a naval move (a convoy sailed home stays there: 0.8 a decision still
# lost random Japan most Guadalcanal games on convoy points, tools/naval_tally.py seeds 1-6)
CONVOY_BIAS = 0.95
# a random bot with warships at sea picks, this often, a land attack on a hex they lie off (seeds
# "Attacking Shore Bombardment": only a declared combat off a sea area its warships are in may be
# bombarded; uniform picks among Barbarossa's many inland hexes never lined them up: 64 attacks
# in 6 random games, none offered bombardment)
COAST_BIAS = 0.5


class RandomChains:
    """The random policy's picks beyond a uniform sample (mixed into app/bots.py's Bot, whose
    ``rng``, ``_step_key`` and ``_embarked`` they use)."""

    def _sample(self, game, choice: CommandChoice) -> dict | None:
        """A random command of ``choice``; a naval move leaves the convoys on their sea lanes
        CONVOY_BIAS of the time (None: only convoys to move, the caller picks again)."""
        if choice.type != SEA_MOVE or self.rng.random() >= CONVOY_BIAS:
            return choice.sample(self.rng)
        convoys = SeaSense(game, choice.actor, []).convoys
        cmd = choice.sample(self.rng, pick=lambda f, options: self._leave_convoys(f, options, convoys))
        return None if cmd is not None and convoys(cmd.get("units") or []) else cmd

    def _leave_convoys(self, f, options, convoys):
        """Pick for a naval move: a random few of the units offered other than convoys (None:
        pick at random)."""
        if f.kind != "units":
            return None
        rest = [o.value for o in options if o.value not in convoys(o.value for o in options)]
        hi = len(rest) if f.max is None else min(f.max, len(rest))
        lo = f.min or 0
        return self.rng.sample(rest, self.rng.randint(lo, hi)) if rest and lo <= hi else None

    # ------------------------------------------------------------ random: chains of choices
    def _chain(self, game, others: list[CommandChoice]) -> dict | None:
        """A light bias of the random policy so that a chain it started can end: an invasion
        needs land units embarked, their transport sailed out of port, a Land or Combined
        action and the Invade command itself, which uniform picks seldom line up ("Embark/Debark
        Units", "Naval Movement", "Invasion").  Still random: where it sails, which hex, what
        else moves."""
        if self.rng.random() >= CHAIN_BIAS:
            return None
        by_type = {c.type: c for c in others}
        if "Invade" in by_type:
            return by_type["Invade"].sample(self.rng)
        if self._embarked and self._embarked[0] == self._step_key and SEA_MOVE in by_type:
            ship = self._embarked[1]
            cmd = by_type[SEA_MOVE].sample(self.rng, pick=lambda f, options: self._sail(f, options, ship))
            if cmd is not None and ship in (cmd.get("units") or []):
                self._embarked = None
                return cmd
        if "ChooseAction" in by_type and self._cargo_at_sea(game, by_type["ChooseAction"].actor):
            return by_type["ChooseAction"].sample(self.rng, pick=self._landing_action)
        if "DeclareAttack" in by_type and self.rng.random() < COAST_BIAS:
            areas = self._warships_at_sea(game, by_type["DeclareAttack"].actor)
            cmd = by_type["DeclareAttack"].sample(self.rng, pick=lambda f, options: self._coast(f, options, areas))
            if areas and cmd is not None and _off(cmd.get("hex"), areas):
                return cmd
        return None

    def _coast(self, f, options, areas):
        """Pick for a land attack: a hex off one of the sea ``areas`` (None: pick at random)."""
        if f.name != "hex":
            return None
        off = [o for o in options if _off(o.value, areas)]
        return self.rng.choice(off) if off else None

    @staticmethod
    def _warships_at_sea(game, power: str) -> frozenset[str]:
        """The sea areas where ``power`` has warships at sea (the sea-box UI hook)."""
        return frozenset(box["area"] for box in ask_game(game, "sea_boxes", state=game.state) or []
                         for u in box["units"] if u["power"] == power and u["kind"] in ("surface", "carrier"))

    def _keep_convoys(self, f, options, convoys):
        """Pick for Stay At Sea: every convoy offered stays on its lane ("convoys ... may remain
        at sea indefinitely"; Guadalcanal's Allies score the Japanese convoy points not at sea),
        with a random few of the other units offered (None: no convoy offered, pick at random)."""
        if f.kind != "units":
            return None
        values = [o.value for o in options]
        held = convoys(values)
        if not held:
            return None
        rest = [v for v in values if v not in held]
        most = len(values) if f.max is None else min(f.max, len(values))
        kept = sorted(held)[:most]
        return kept + self.rng.sample(rest, self.rng.randint(0, max(0, min(len(rest), most - len(kept)))))

    def _sail(self, f, options, ship: str):
        """Pick for a naval move that takes ``ship`` out to sea (None: pick at random)."""
        if f.name == "origin":
            found = [o for o in options if _offers_unit(o, ship)]
            return self.rng.choice(found) if found else None
        if f.name == "to":
            at_sea = [o for o in options if "," not in str(o.value)]
            return self.rng.choice(at_sea) if at_sea else None
        if f.kind == "units":
            values = [o.value for o in options]
            if ship not in values:
                return None
            most = len(values) if f.max is None else min(f.max, len(values))
            rest = [v for v in values if v != ship]
            return [ship] + self.rng.sample(rest, self.rng.randint(0, max(0, most - 1)))
        return None

    def _landing_action(self, f, options):
        landing = [o for o in options if o.value in LANDING_ACTIONS]
        return self.rng.choice(landing) if f.name == "action" and landing else None

    @staticmethod
    def _cargo_at_sea(game, power: str) -> bool:
        """``power`` has a transport at sea with units aboard (the sea-box UI hook)."""
        return any(u["power"] == power and u["kind"] == "transport" and u["aboard"]
                   for box in ask_game(game, "sea_boxes", state=game.state) or [] for u in box["units"])


def _offers_unit(origin, unit: str, destinations: int = 4) -> bool:
    """Whether a naval move's ``origin`` option offers ``unit`` under one of its first few
    destinations (choices are built lazily: only these are built)."""
    for to_field in origin.next_fields():
        for to in to_field.all_options()[:destinations]:
            for section_field in to.next_fields():
                for section in section_field.all_options():
                    if any(f.kind == "units" and any(o.value == unit for o in f.all_options())
                           for f in section.next_fields()):
                        return True
    return False


def _off(hex_, areas) -> bool:
    """Whether ``hex_`` (a "col,row" or a pair) lies off one of the sea ``areas``."""
    if isinstance(hex_, str) and "," in hex_:
        hex_ = hex_.split(",")
    return isinstance(hex_, (list, tuple)) and len(hex_) == 2 and bool(coastal_areas(tuple(map(int, hex_))) & areas)
