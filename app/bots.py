"""Bots: players that decide only from ``Game.choices`` and ``Game.preview``.

A bot never reads a rule from raw state: whatever it submits was offered by the game, so a
refusal is a broken choices contract and is counted as such.  Two policies:

- ``random``: any offered command, filled in at random; finishes a step now and then; mostly
  finishes a chain it started (an invasion) and keeps its convoys on their sea lanes
  (app/bot_random.py).
- ``greedy``: scores what it may do through previews (the best odds for an attack, the move
  that comes closest to an objective the game names, the action that gives the most
  activities; on land app/bot_land.py: hold the side's objectives the enemy threatens, take
  back lost ones first; at sea app/bot_sea.py: task forces towards objectives, threatened
  ones and enemy ships, embarking, invading, carrier strikes, shore bombardment; in the air
  app/bot_air.py: ground strikes beside its army, ground support, CAP and interceptions over
  what it holds) and does the best thing that scores above nothing, else finishes the step.
  Land moves, naval moves and returns to base are ranked by the map first and only the best
  few previewed (previews are most of its time); so are the aircraft's flights.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from kernel.choices import CommandChoice, Decision
from kernel.errors import WifError

from .bot_air import FLIGHTS as AIR_FLIGHTS, ROLES as AIR_ROLES, air_candidates, land_air_score
from .bot_land import LandSense
from .bot_random import CONVOY_BIAS, RandomChains
from .bot_sea import PORT_ATTACK, RETURN, SEA_MOVE, SeaSense, return_candidates, sea_move_candidates, sea_score

POLICIES = ("random", "greedy")
MAX_PER_STEP = {"random": 12, "greedy": 40}  # commands in one step before a bot prefers to finish it
ATTACK_ODDS = 2.0  # the greedy bot attacks at these odds or better
PREVIEWS_PER_DECISION = 30
FIRST_OPTIONS = 6  # the greedy bot looks below this many of a long first field's options
PER_CHOICE = 40
LAND_PREVIEWS = 8  # the greedy bot previews this many land moves, the best by the map
STAY = "StayAtSea"
BOMBARD = "ShoreBombard"
DECLARE = "DeclareAttack"


@dataclass
class Tally:
    """What a bot run did, for the report and the tests."""

    commands: int = 0
    refused: list[str] = field(default_factory=list)  # broken contract: an offered command refused
    by_type: dict[str, int] = field(default_factory=dict)
    decisions: int = 0
    seconds: float = 0.0

    def count(self, type_: str) -> None:
        self.commands += 1
        self.by_type[type_] = self.by_type.get(type_, 0) + 1


class Bot(RandomChains):
    def __init__(self, policy: str = "random", seed: int = 0):
        if policy not in POLICIES:
            raise WifError(f"unknown bot policy {policy!r}; policies: {', '.join(POLICIES)}")
        self.policy = policy
        self.rng = random.Random(f"bot:{policy}:{seed}")
        self._step_key = None
        self._in_step = 0
        self._objectives = None
        self._sea = None  # (state seq, power, SeaSense): built when a naval command is scored
        self._land = None  # (state seq, power, LandSense): built when a land move or attack is scored
        self._cargo: set[str] = set()  # the transports the greedy bot loaded (it sails them to invade)
        self._embarked: tuple | None = None  # (step key, transport): the random bot's chain to sail
        # ((turn, impulse), {"bombarded": combat -> the factors its ships bombarded it with,
        #                    "attack": combat -> the land factors of the attack it declared there})
        self._impulse: tuple = (None, {"bombarded": {}, "attack": {}})

    # ------------------------------------------------------------ one decision
    def choose(self, game, decision: Decision, player: str | None) -> dict | None:
        """The command this bot submits for ``decision``, or None if nothing is offered."""
        key = (game.state.kernel.sequence.current, decision.decider, game.state.kernel.impulse, game.state.kernel.turn)
        if key != self._step_key:
            self._step_key, self._in_step = key, 0
        self._in_step += 1
        playable = [c for c in decision.commands if c.source == "rules"]
        finish = [c for c in playable if c.type == "FinishStep"]
        others = [c for c in playable if c.type != "FinishStep"]
        if not others:
            return finish[0].base() if finish else None
        if finish and self._in_step > MAX_PER_STEP[self.policy]:
            return finish[0].base()
        if self.policy == "greedy":
            cmd = self._greedy(game, others, finish, player)
            if cmd is not None and cmd["type"] == "EmbarkUnits":
                self._cargo.add(cmd["ship"])
            if cmd is not None and cmd["type"] in (BOMBARD, DECLARE):
                self._note_combat(game, cmd, player)
            return cmd
        stay = next((c for c in others if c.type == STAY), None)
        if stay is not None and self.rng.random() < CONVOY_BIAS:
            convoys = SeaSense(game, stay.actor, []).convoys
            cmd = stay.sample(self.rng, pick=lambda f, options: self._keep_convoys(f, options, convoys))
            if cmd is not None and convoys(cmd.get("units") or []):
                return cmd
        chained = self._chain(game, others)
        if chained is not None:
            return chained
        if finish and self.rng.random() < 0.3:
            return finish[0].base()
        for _ in range(4):
            cmd = self._sample(game, self.rng.choice(others))
            if cmd is not None:
                if cmd["type"] == "EmbarkUnits":
                    self._embarked = (self._step_key, cmd["ship"])
                return cmd
        return finish[0].base() if finish else None

    # ------------------------------------------------------------ greedy
    def _greedy(self, game, others: list[CommandChoice], finish, player) -> dict | None:
        candidates: list[dict] = []
        ranked: list[dict] = []  # naval moves and returns, best first by the map: previewed before the rest
        for choice in others:
            if choice.type == SEA_MOVE and choice.fields:
                ranked.extend(sea_move_candidates(choice, self.rng, self._sea_sense(game, choice.actor),
                                                  PREVIEWS_PER_DECISION // 3))
            elif choice.type in AIR_FLIGHTS and choice.fields:  # ranked by the map (app/bot_air.py)
                ranked.extend(air_candidates(choice, self._sea_sense(game, choice.actor)))
            elif choice.type == RETURN and choice.fields:
                ranked.extend(return_candidates(choice, sense=self._sea_sense(game, choice.actor)))
            else:
                candidates.extend(self._candidates(choice))
        self.rng.shuffle(candidates)
        on_land, rest = [], []
        for cmd in candidates:
            by_map = self._land_move_score(game, cmd)
            if by_map is None:
                rest.append(cmd)
            elif by_map > 0:  # a land move scoring nothing by the map scores nothing previewed
                on_land.append((by_map, cmd))
        on_land.sort(key=lambda pair: pair[0], reverse=True)
        best, best_score = None, 0.0
        for cmd in (ranked + [cmd for _score, cmd in on_land[:LAND_PREVIEWS]] + rest)[:PREVIEWS_PER_DECISION]:
            score = self._score(game, cmd, player)
            if score > best_score:
                best, best_score = cmd, score
        if best is not None:
            return best
        if finish:
            return finish[0].base()
        return candidates[0] if candidates else None

    def _this_impulse(self, game) -> dict[str, dict[str, float]]:
        """What this bot did to this impulse's land combats (see ``_impulse``)."""
        k = game.state.kernel
        if self._impulse[0] != (k.turn, k.impulse):
            self._impulse = ((k.turn, k.impulse), {"bombarded": {}, "attack": {}})
        return self._impulse[1]

    def _note_combat(self, game, cmd: dict, player) -> None:
        """Remember a shore bombardment's factors, or a declared attack's land factors (a
        combat takes shore bombardment up to those: SeaSense.bombard_score), from its preview."""
        preview = game.preview(cmd, player=player)
        done = self._this_impulse(game)
        if cmd["type"] == BOMBARD:
            bombarded = done["bombarded"]
            bombarded[cmd["combat"]] = bombarded.get(cmd["combat"], 0.0) + float(preview.get("factors") or 0)
        elif preview.get("attack") is not None and cmd.get("hex") is not None:
            done["attack"]["{},{}".format(*cmd["hex"])] = float(preview["attack"])

    def _candidates(self, choice: CommandChoice) -> list[dict]:
        """A handful of full commands of ``choice``: every one where the tree is small, else
        those below a few of the first field's options (each unit's destinations are built
        only for the units looked at)."""
        if not choice.fields:
            return [choice.base()]
        first = choice.fields[0]
        options = first.all_options()
        if first.kind in ("unit", "hex", "option") and len(options) > FIRST_OPTIONS:
            picked = self.rng.sample(options, FIRST_OPTIONS)
            narrowed = CommandChoice(choice.type, choice.actor, [type(first)(first.name, first.kind, picked)]
                                     + choice.fields[1:], choice.source, choice.plugin)
            return narrowed.commands(limit=PER_CHOICE)
        return choice.commands(limit=PER_CHOICE)

    def _score(self, game, cmd: dict, player) -> float:
        """What a command is worth to the greedy bot; 0 or less: not worth doing."""
        preview = game.preview(cmd, player=player)
        if not preview.get("legal", True):
            return -1.0
        at_sea = sea_score(self._sea_sense(game, cmd["actor"]), cmd, preview) if _naval(cmd, preview) else None
        if at_sea is not None:
            return at_sea
        if preview.get("role") in AIR_ROLES:  # a land-based aircraft's flight (app/bot_air.py)
            flight = land_air_score(self._sea_sense(game, cmd["actor"]), preview)
            if flight is not None:
                return flight
        if preview.get("odds") is not None:
            return (self._odds_with_ships(game, cmd, preview) - ATTACK_ODDS + 0.01
                    + self._land_sense(game, cmd["actor"]).attack_bonus(cmd.get("hex")))
        path = preview.get("path")
        # a path of hexes (a land move: the hexes it enters); a naval move's path names sea areas
        if path and "unit" in cmd and isinstance(path[-1], (list, tuple)) and len(path[-1]) == 2:
            return self._land_sense(game, cmd["actor"]).move_score(cmd["unit"], path[-1])
        if preview.get("boards") and preview.get("ashore"):  # a carrier plane ashore boards a carrier
            return 1.0
        activities = preview.get("activities")
        if "action" in cmd and isinstance(activities, dict):  # an action choice: the most to do
            return 0.5 + sum(v for v in activities.values() if isinstance(v, (int, float))) / 100
        return 0.0  # nothing tells the options apart: not worth holding the step for

    def _odds_with_ships(self, game, cmd: dict, preview: dict) -> float:
        """An attack's odds as its preview gives them, raised by what the side's warships at sea
        off the hex may add in Attacking Shore Bombardment (their attack factors on the attack's,
        at most as many as the land units bring: the rule's cap on support), so that the bot
        attacks the coast where its fleet waits."""
        odds = float(preview["odds"])
        attack = float(preview.get("attack") or 0)
        hex_ = cmd.get("hex")
        if preview.get("automatic") or attack <= 0 or hex_ is None:
            return odds
        ships = self._sea_sense(game, cmd["actor"]).bombard_support(hex_)
        return odds * (attack + min(ships, attack)) / attack

    def _land_move_score(self, game, cmd: dict) -> float | None:
        """A land move's score read off the map before any preview (where it ends: the end of
        the path its preview would give), or None for any other command."""
        to = cmd.get("to")
        if "unit" in cmd and isinstance(to, (list, tuple)) and len(to) == 2 and all(isinstance(c, int) for c in to):
            return self._land_sense(game, cmd["actor"]).move_score(cmd["unit"], to)
        return None

    def _sea_sense(self, game, power: str) -> SeaSense:
        key = (game.state.kernel.seq, power)
        if self._sea is None or self._sea[0] != key:
            land = self._land_sense(game, power)
            self._sea = (key, SeaSense(game, power, self._objective_hexes(game, power), land.defended(),
                                       self._cargo, land.unit_hex, land.enemy_combat, land.combat,
                                       land.last_guards, land.needy, self._this_impulse(game)))
            self._cargo &= self._sea[1].cargo  # unloaded at sea, or gone: no longer cargo
        return self._sea[1]

    def _land_sense(self, game, power: str) -> LandSense:
        key = (game.state.kernel.seq, power)
        if self._land is None or self._land[0] != key:
            self._land = (key, LandSense(game, power, self._objective_hexes(game, power)))
        return self._land[1]

    def _objective_hexes(self, game, power: str) -> list:
        key = (game.state.kernel.seq, power)
        if self._objectives is None or self._objectives[0] != key:
            found = game.host.pm.hook.objective_hexes(state=game.state, power=power)
            self._objectives = (key, [tuple(h) for hexes in found if hexes for h in hexes])
        return self._objectives[1]


NAVAL_PREVIEW_KEYS = ("invasion", "land_units", "naval_moves", "range_to_sea", "surprise_cost", "need", "sides",
                      "range_used", "transport_disorganized", "lands_on",  # lands_on: a carrier plane's flight
                      "ship_disorganized")  # a shore bombardment


def _naval(cmd: dict, preview: dict) -> bool:
    """A command or preview only the war at sea gives (app/bot_sea.py scores it)."""
    return (cmd.get("type") == "StayAtSea" or preview.get("mission") == PORT_ATTACK
            or any(k in preview for k in NAVAL_PREVIEW_KEYS))


# ---------------------------------------------------------------- playing
def controller_of(game, decider: str) -> str:
    k = game.state.kernel
    power = k.sides[decider][0] if decider in k.sides else decider
    return k.controllers.get(power, "solo")


def side_of_decider(game, decider: str) -> str:
    k = game.state.kernel
    return decider if decider in k.sides else (k.side_of(decider) or decider)


def play_pending(game, bots: dict[str, Bot], tally: Tally, limit: int = 1) -> bool:
    """Let the bot of the first pending decider make one decision.  False when nothing
    could be decided (the game is over, or waits for a decider with no bot)."""
    k = game.state.kernel
    if k.sequence.finished or not k.sequence.pending:
        return False
    found = game.choices(None)
    for decision in found.decisions:
        if not decision.pending:
            continue  # any-time commands (a re-roll demand, an optional rule switched): bots leave them
        bot = bots.get(side_of_decider(game, decision.decider)) or bots.get(decision.decider)
        if bot is None:
            continue
        player = controller_of(game, decision.decider)
        cmd = bot.choose(game, decision, player)
        if cmd is None:
            raise WifError(f"{decision.decider} has nothing it may do in {decision.title!r} "
                           f"and may not finish it (choices offered: {', '.join(c.type for c in decision.commands) or 'none'})")
        tally.decisions += 1
        out = game.submit(cmd, player=player)
        if out.accepted:
            tally.count(cmd["type"])
        else:
            tally.refused.append(f"{cmd}: {out.reason}")
            fallback = [c for c in decision.commands if c.type == "FinishStep"]
            if fallback and game.submit(fallback[0].base(), player=player).accepted:
                tally.count("FinishStep")
            elif len(tally.refused) > 50:
                raise WifError(f"the bots are stuck in {decision.title!r}: {out.reason}")
        return True
    return False


def autoplay(game, policies: dict[str, str], seed: int = 0, limit: int = 200000, progress=None) -> Tally:
    """Play ``game`` to its end, each side by the bot policy ``policies[side]``."""
    bots = {side: Bot(policy, seed * 31 + i) for i, (side, policy) in enumerate(sorted(policies.items()))}
    tally = Tally()
    started = time.perf_counter()
    while tally.decisions < limit and play_pending(game, bots, tally):
        if progress and tally.decisions % 200 == 0:
            progress(game, tally)
    tally.seconds = time.perf_counter() - started
    return tally
