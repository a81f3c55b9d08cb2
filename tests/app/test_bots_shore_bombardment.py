"""The bots and shore bombardment (app/bots.py, app/bot_sea.py): seeds "Attacking Shore
Bombardment" (000 L10749-10751: the phasing side's major powers "are given the opportunity" to
bombard attacked hexes) and "Defending Shore Bombardment" (L10732-10743).  A lab game: a German
battleship at sea in the Baltic Sea off a Soviet coastal hex, German land units beside it; the
bots decide only from ``Game.choices``, previews and the sea-box hook."""

from __future__ import annotations

from helpers import finish, go_to, lab_game, ok, place, rig, ship, unit

from app.bot_seamap import coastal_areas
from app.bots import Bot, Tally, play_pending
from plugins.rules.core import world_map
from plugins.rules.naval.naval_transport import coastal_hexes

M = world_map()
INLAND = {tuple(n) for h in coastal_hexes("BA") for n in M.grid.neighbours(h)
          if M.is_land(n) and M.country_code(n) == "SU" and tuple(n) not in coastal_hexes("BA")}
SOVIET_COAST = min(h for h in coastal_hexes("BA") if M.country_code(h) == "SU" and M.city_at(h) is None
                   and INLAND.intersection(map(tuple, M.grid.neighbours(h))))
BESIDE = min(INLAND.intersection(map(tuple, M.grid.neighbours(SOVIET_COAST))))  # off the coast: no ship bombards it
COMBAT = f"{SOVIET_COAST[0]},{SOVIET_COAST[1]}"
BOMBARD_STEP = "turn.impulse.land.combat.attacking-shore-bombardment"


def _baltic_game(tmp_path, name: str, attack: int, fleet: bool = True, soviet_cruiser: bool = False):
    """Germany's land impulse at Land Combat Declaration: land units of ``attack`` combat factors
    beside SOVIET_COAST (2 Soviet factors there), and (``fleet``) the Tirpitz (6) and a heavy
    cruiser (4) at sea in the Baltic Sea; (``soviet_cruiser``) the Kirov (4) at sea there too, with
    the optional rule Shore bombardment (Defending Shore Bombardment) on."""
    g = lab_game(tmp_path / f"{name}.wif", options={
        "units": [unit("ge-inf", hex_=BESIDE, combat=attack), unit("su-def", power="ussr", hex_=SOVIET_COAST, combat=2),
                  ship("ge-bb", type_="bb", attack=6, defense=7), ship("ge-ca", type_="ca", attack=4, defense=4),
                  ship("su-kirov", power="ussr", type_="ca", attack=4, defense=4, hex_=M.port("Leningrad").hex)],
        "actions": {"germany": "land"}, "start_at": "turn.impulse.naval.naval-movement",
        "optional_rules": ["shore-bombardment"] if soviet_cruiser else []}, extra_plugins=["naval"])
    if fleet:
        rig(g, "RigShipsAtSea", units=["ge-bb", "ge-ca"], area="BA", section=1, actor="germany")
    if soviet_cruiser:
        rig(g, "RigShipsAtSea", units=["su-kirov"], area="BA", section=1, actor="ussr")
    go_to(g, "turn.impulse.land.combat.land-combat-declaration")
    return g


def _play_until_bombardment_is_over(g, policy: str, seed: int = 0) -> Tally:
    bots = {side: Bot(policy, seed + i) for i, side in enumerate(sorted(g.state.kernel.sides))}
    tally = Tally()
    start = g.state.kernel.seq
    while tally.decisions < 60 and play_pending(g, bots, tally):
        if any(r.type in ("DecisionFinished", "StepSkipped") and str(r.data.get("step", "")).endswith(BOMBARD_STEP)
               for r in g.history(start)):
            break
    return tally


def _bombarded(g) -> list:
    return [(r.data["combat"], r.data["side"], r.data["factors"]) for r in g.history(1)
            if r.type == "GroundSupportAdded" and "shore-bombardment" in (r.step or "")]


def _declared(g) -> list:
    return [tuple(r.data["hex"]) for r in g.history(1) if r.type == "AttackDeclared"]


def test_attacking_shore_bombardment_greedy_bombards_a_declared_attack_with_every_warship_off_it(tmp_path):
    """12 German factors declared on the coast, the Tirpitz (6) and a cruiser (4) off it, a
    Soviet cruiser (4) there too: in Defending Shore Bombardment the greedy USSR bombards in
    defence; in Attacking Shore Bombardment greedy Germany bombards with both its ships (10,
    under the 12 land factors the rule lets support add), the battleship first; every offer was
    accepted."""
    g = _baltic_game(tmp_path, "declared", attack=12, soviet_cruiser=True)
    try:
        ok(g, type="DeclareAttack", actor="germany", hex=list(SOVIET_COAST), units=["ge-inf"])
        finish(g, "germany")
        tally = _play_until_bombardment_is_over(g, "greedy")
        assert tally.refused == []
        assert _bombarded(g) == [(COMBAT, "defender", 4.0), (COMBAT, "attacker", 6.0), (COMBAT, "attacker", 4.0)]
        assert not g.state["units"].units["ge-bb"].face_up and not g.state["units"].units["ge-ca"].face_up
    finally:
        g.close()


def test_attacking_shore_bombardment_greedy_attacks_the_coast_where_its_fleet_waits(tmp_path):
    """3 German factors against 2 (1.5:1, below the greedy bot's 2:1) beside the coast: with the
    fleet in port the greedy bot declares nothing; with it at sea off the hex it declares the
    attack and bombards it with the Tirpitz only (6: already more than the attack's 3 land
    factors, the most support counts)."""
    g = _baltic_game(tmp_path, "port", attack=3, fleet=False)
    try:
        tally = _play_until_bombardment_is_over(g, "greedy")
        assert tally.refused == [] and _declared(g) == []
    finally:
        g.close()
    g = _baltic_game(tmp_path, "sea", attack=3)
    try:
        tally = _play_until_bombardment_is_over(g, "greedy")
        assert tally.refused == []
        assert _declared(g) == [SOVIET_COAST]
        assert _bombarded(g) == [(COMBAT, "attacker", 6.0)]
        assert g.state["units"].units["ge-ca"].face_up
    finally:
        g.close()


def test_attacking_shore_bombardment_random_bot_attacks_where_its_warships_lie_off_the_coast(tmp_path):
    """Two Soviet hexes beside the German corps, one on the coast with the German fleet off it,
    one inland: from Land Combat Declaration through Attacking Shore Bombardment the random bot
    bombards in most bot seeds (uniform picks: the inland hex or no attack as often as not; in 6
    random Barbarossa games none of 64 attacks was off a German or Soviet warship at sea)."""
    inland = min(tuple(n) for n in M.grid.neighbours(BESIDE) if M.is_land(n) and not coastal_areas(tuple(n)))
    bombarded = 0
    for seed in range(8):
        g = _baltic_game(tmp_path, f"coast{seed}", attack=12)
        try:
            place(g, unit("su-inland", power="ussr", hex_=inland, combat=2))
            tally = _play_until_bombardment_is_over(g, "random", 10 * seed)
            assert tally.refused == []
            bombarded += bool(_bombarded(g))
        finally:
            g.close()
    assert bombarded >= 5, bombarded


def test_attacking_shore_bombardment_random_bot_reaches_it(tmp_path):
    """The random bot, offered Shore Bombardment (an attack declared on the coast, the fleet off
    it), bombards for most bot seeds (it finishes a step 3 times in 10)."""
    bombarded = 0
    for seed in range(4):
        g = _baltic_game(tmp_path, f"random{seed}", attack=12)
        try:
            ok(g, type="DeclareAttack", actor="germany", hex=list(SOVIET_COAST), units=["ge-inf"])
            finish(g, "germany")
            tally = _play_until_bombardment_is_over(g, "random", 10 * seed)
            assert tally.refused == []
            bombarded += bool(_bombarded(g))
        finally:
            g.close()
    assert bombarded >= 2, bombarded


def test_invasion_greedy_counts_the_invaders_strength_and_the_fleet_off_the_coast(tmp_path):
    """Seeds, "Invasion" (a forced land attack) then "Attacking Shore Bombardment": a corps of 3
    aboard a transport is an invader of 3 (the bot read 0 for a unit aboard, so it invaded only
    empty hexes), too weak alone for 8 defenders; with the Tirpitz and a cruiser off the hex
    (their 10, of which the rule counts up to the invader's 3) it invades."""
    from app.bot_land import LandSense
    from app.bot_sea import SeaSense

    for fleet in (False, True):
        g = _baltic_game(tmp_path, f"invade{fleet}", attack=3, fleet=fleet)
        try:
            place(g, ship("ge-trs", type_="trs", attack=0, defense=1, aa=0),
                  unit("ge-landers", hex_=M.port("Konigsberg").hex, combat=3, size="corps"))
            rig(g, "RigAboard", actor="germany", ship="ge-trs", units=["ge-landers"])
            land = LandSense(g, "germany", [SOVIET_COAST])
            assert land.combat["ge-landers"] == 3.0
            sense = SeaSense(g, "germany", [SOVIET_COAST], enemy_combat={SOVIET_COAST: 8.0}, combat=land.combat)
            assert (sense.invade_score(SOVIET_COAST, "ge-landers") > 0) is fleet
        finally:
            g.close()
