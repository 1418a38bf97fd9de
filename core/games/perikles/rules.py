"""Perikles: the ruleset object (who acts, what is legal, validation, the fold).

Follows ../shared/rules/perikles-game-help.pt.txt as a whole (a turn: location tiles and influence display dealt,
influence phase, nominations and elections, commitments, battles, end of turn; three turns) with the component
data of perikles-data-facts.md. The phases live in influence.py, commit.py and battle.py; readings in RULES.md.
"""

from __future__ import annotations

from collections import Counter as Multiset
from collections.abc import Mapping, Sequence
from typing import Any, assert_never

from agon.core.engine import Chance, Decision, Outcome, Over, Pending, recorded_version
from agon.core.games.perikles import battle, commit, influence, sample, scoring, view
from agon.core.games.perikles.data import default_cards, parse, parse_cached
from agon.core.games.perikles.state import (
    BATTLE,
    COMMIT,
    DEAL_LOCATIONS,
    DEAL_SPECIALS,
    DISPLAY,
    INFLUENCE,
    NOBODY,
    NOMINATE,
    OVER,
    SETUP,
    State,
    replace,
)
from agon.core.words import counted
from agon.events.base import Event, GameCreated
from agon.events.perikles import (
    EVENTS,
    AlkibiadesPlayed,
    BattleDiceRolled,
    BattleTileKept,
    BattleTilePlayed,
    CandidateNominated,
    DisplayRefilled,
    ForcesCommitted,
    InfluenceDisplayed,
    InfluenceTileTaken,
    LocationsDealt,
    NominationPassed,
    PeriklesEvent,
    PeriklesPlayed,
    PermissionGiven,
    PlaguePlayed,
    SlaveRevoltPlayed,
    SlaveRevoltStruck,
    SpecialTilesDealt,
    StartingCubePlaced,
)

CHANCE_TYPES = (SpecialTilesDealt, LocationsDealt, InfluenceDisplayed, DisplayRefilled, BattleDiceRolled,
                SlaveRevoltStruck)
PHASE_DECISIONS: dict[str, tuple[type[Event], ...]] = {
    SETUP: (StartingCubePlaced,),
    INFLUENCE: (InfluenceTileTaken, PeriklesPlayed, AlkibiadesPlayed, PlaguePlayed),
    NOMINATE: (CandidateNominated, NominationPassed),
    COMMIT: (ForcesCommitted, SlaveRevoltPlayed, PermissionGiven),
    BATTLE: (BattleTilePlayed, BattleTileKept),
}

EVENT_WORDS: dict[type[Event], str] = {
    SpecialTilesDealt: "dealing the special tiles",
    LocationsDealt: "dealing the location tiles",
    InfluenceDisplayed: "laying out the influence display",
    DisplayRefilled: "refilling the influence display",
    BattleDiceRolled: "rolling the battle dice",
    SlaveRevoltStruck: "drawing the hoplite the Slave Revolt removes",
    StartingCubePlaced: "placing a starting cube",
    InfluenceTileTaken: "taking an influence tile",
    PeriklesPlayed: "playing the Perikles tile",
    AlkibiadesPlayed: "playing the Alkibiades tile",
    PlaguePlayed: "playing the Plague tile",
    CandidateNominated: "nominating a candidate",
    NominationPassed: "passing a nomination",
    ForcesCommitted: "committing forces",
    SlaveRevoltPlayed: "playing the Slave Revolt tile",
    PermissionGiven: "giving a permission",
    BattleTilePlayed: "playing a special tile before a battle",
    BattleTileKept: "keeping a special tile before a battle",
}
"""Each event as the table says it, for a refusal that names an event out of its place (never a class name)."""

PHASE_WORDS = {SETUP: "the setup (starting cubes)", INFLUENCE: "the influence phase", NOMINATE: "the nominations",
               COMMIT: "the commitment of forces", BATTLE: "the battles"}


def event_words(e: Event) -> str:
    return EVENT_WORDS.get(type(e), "this event")


def _out_of_place(s: State, pend: Decision, e: Event) -> str:
    """Why an event of another phase, or a chance outcome, cannot be recorded at this decision: what is asked now,
    and where the event belongs, in the table's words."""
    what = event_words(e)
    if isinstance(e, CHANCE_TYPES):
        return f"{pend.player} must {pend.prompt} now: a decision, not a chance outcome ({what})"
    home = [PHASE_WORDS[ph] for ph, kinds in PHASE_DECISIONS.items() if type(e) in kinds]
    if not home:
        return f"{pend.player} must {pend.prompt} now; {what} is no Perikles decision"
    now = PHASE_WORDS.get(s.phase, s.phase)
    return f"{pend.player} must {pend.prompt} now; {what} belongs to {home[0]}, not to {now}"


TURN_ORDER = {
    SETUP: "Setup (game help, 1st paragraph: one cube a round, 'a começar pelo primeiro jogador')",
    INFLUENCE: "Influence tiles (game help, 2nd paragraph: 'começamos pelo primeiro jogador', one tile each in"
               " turn; 4th: the first player is Athens' previous leader)",
    NOMINATE: "Nominations (game help, 5th paragraph: 'a começar pelo primeiro jogador')",
    COMMIT: "Commitments (game help, 7th paragraph: 'A começar pelo líder de Sparta', 2-cube tiles first)",
    BATTLE: "Special tiles (RULES.md, 'Holders are asked in turn order from the first player')",
}
"""The rule that says who acts now, by phase: every refusal of a decision out of turn names it."""


def turn_rule(s: State) -> str:
    """The rule text section that says who must act now (a permission is answered by the leader asked)."""
    if s.phase == COMMIT and s.request is not None:
        return commit.R_PERMISSION
    return TURN_ORDER.get(s.phase, "Turn order (game help)")


def _multiset_error(label: str, drawn: Sequence[str], pool: Sequence[str], count: int) -> str | None:
    if len(drawn) != count:
        return f"{label}: {counted(count, 'tile')} {'is' if count == 1 else 'are'} dealt here, not {len(drawn)}"
    missing = Multiset(drawn) - Multiset(pool)
    if missing:
        return f"{label}: {', '.join(sorted(missing))} cannot be dealt now (not in what is left to deal)"
    return None


def drawn_tiles(s: State) -> tuple[tuple[str, str, str], ...]:
    """The influence tiles no copy of which is left in the deck a refill draws from, each with where it went: every
    tile drawn was shown on the display, so every seat knows (core.engine ``Chance.gone``)."""
    out = []
    for tile in dict.fromkeys(s.data.deck):
        if tile in s.deck:
            continue
        copies = s.data.deck.count(tile)
        where = "; one is on the display" if tile in s.display and copies > 1 else (
            " (it is on the display)" if tile in s.display else "")
        out.append((tile, "", f"has already been drawn{f', all {copies} of them' if copies > 1 else ''}{where}"))
    return tuple(out)


class Perikles:
    name = "perikles"
    title = "Perikles"
    version = "6"
    min_players = 3
    max_players = 5
    provisional = False
    events: tuple[type[Event], ...] = EVENTS
    upcasters: Mapping[tuple[str, int], Any] = {}
    option_names: Mapping[str, str] = {}
    field_prompts: Mapping[str, str] = {
        # the game help's terms: influence tiles, candidates A and B, assassins, the special tiles (Alkibiades,
        # the Plague, the Slave Revolt, the battle tiles), military counters and sacrificed cubes
        "perikles.starting_cube_placed.city": "which city to place a starting cube in",
        "perikles.influence_tile_taken.tile": "which influence tile to take",
        "perikles.influence_tile_taken.city": "which city the cube goes to",
        "perikles.influence_tile_taken.nominee": "which player to nominate",
        "perikles.influence_tile_taken.nominee_city": "in which city to nominate",
        "perikles.influence_tile_taken.slot": "as candidate A or B",
        "perikles.influence_tile_taken.target_city": "in which city to assassinate a candidate",
        "perikles.influence_tile_taken.target_slot": "which candidate to assassinate (A or B)",
        "perikles.candidate_nominated.city": "in which city to nominate",
        "perikles.candidate_nominated.nominee": "which player to nominate",
        "perikles.candidate_nominated.slot": "as candidate A or B",
        "perikles.forces_committed.tile": "which influence tile to spend",
        "perikles.forces_committed.placements": "which counters go where",
        "perikles.forces_committed.cube": "the city whose cube is sacrificed",
        "perikles.permission_given.granted": "give the permission asked for",
        "perikles.alkibiades_played.moves": "which two cubes Alkibiades moves (as owner:from:to+owner:from:to)",
        "perikles.plague_played.city": "which city the Plague strikes",
        "perikles.slave_revolt_played.place": "where the Slave Revolt strikes the Spartan hoplites ('sparta': at"
                                              " home)",
        "perikles.battle_tile_played.tile": "which special tile to play before this battle",
    }
    """Each step's question in the table's words (core.steps), for every field of every decision."""
    kind_words: Mapping[str, str] = {
        # the game help's influence tiles, nominations, the special tiles and commitments
        "perikles.starting_cube_placed": "place-cube", "perikles.influence_tile_taken": "take-tile",
        "perikles.candidate_nominated": "nominate", "perikles.nomination_passed": "pass",
        "perikles.forces_committed": "commit", "perikles.permission_given": "permit",
        "perikles.perikles_played": "perikles", "perikles.alkibiades_played": "alkibiades",
        "perikles.plague_played": "plague", "perikles.slave_revolt_played": "slave-revolt",
        "perikles.battle_tile_played": "play-tile", "perikles.battle_tile_kept": "keep-tile",
    }
    """Each kind of decision (its event's tag) as the table says it (core.steps ``kind_word``): the verb its options
    and step prompts use, one word that may be typed for it, as its label may."""
    passes = frozenset({"perikles.battle_tile_kept", "perikles.nomination_passed"})
    """Decisions every player asked may always take, whatever they hold (core.steps.passes_in_turn): keeping one's
    special tile before a battle (RULES.md, 'Special tiles': keeping is always allowed, and from version 4 every
    holder of an unused tile is asked) and passing on nominating (legal_nomination offers it every turn)."""

    # -- setup ------------------------------------------------------------------------------------------------

    def default_cards(self) -> dict[str, Any]:
        return default_cards()

    def check_setup(self, players: Sequence[str], options: Mapping[str, Any], cards: Mapping[str, Any]) -> None:
        if not self.min_players <= len(players) <= self.max_players:
            raise ValueError(f"it is played by 3 to 5 players, not {len(players)}")
        if len(set(players)) != len(players):
            raise ValueError("every player needs a different name")
        if options:
            raise ValueError(f"it has no options (got {', '.join(sorted(options))})")
        data = parse(cards)
        if len(players) > len(data.specials):
            raise ValueError("the card set has fewer special tiles than players")
        if len(players) not in dict(data.tiles_per_player):
            raise ValueError(f"the card set says nothing of how many tiles {len(players)} players take")

    def initial_state(self, created: GameCreated) -> State:
        data = parse_cached(created.cards)
        n = len(created.players)
        return State(
            data=data,
            players=created.names,
            version=recorded_version(created, self.version),
            cubes=tuple((data.starting_cubes,) * n for _ in data.cities),
            candidates=tuple((NOBODY, NOBODY) for _ in data.cities),
            leaders=tuple(NOBODY for _ in data.cities),
            statues=tuple((0,) * len(data.cities) for _ in range(n)),
            defeats=(0,) * len(data.cities),
            specials=("",) * n,
            used=(False,) * n,
            hands=tuple(() for _ in range(n)),
            taken=(0,) * n,
            won=tuple(() for _ in range(n)),
        )

    # -- who acts ---------------------------------------------------------------------------------------------

    def pending(self, s: State) -> Pending:
        d = s.data
        if s.phase == OVER:
            return Over(self.outcome(s))
        if s.phase == DEAL_SPECIALS:
            return Chance("draw", "special tiles, one per player in seat order",
                          lambda out: SpecialTilesDealt(tiles=tuple(out)), count=len(s.players), items=d.specials)
        if s.phase == DEAL_LOCATIONS:
            left = tuple(loc.name for loc in d.locations if loc.name not in s.dealt)
            return Chance("draw", f"turn {s.turn + 1} location tiles", lambda out: LocationsDealt(locations=tuple(out)),
                          count=min(d.locations_per_turn, len(left)), items=left,
                          gone=tuple((loc, "", "was dealt in an earlier turn") for loc in dict.fromkeys(s.dealt)))
        if s.phase == DISPLAY:
            return Chance("draw", "influence tiles displayed from the shuffled deck",
                          lambda out: InfluenceDisplayed(tiles=tuple(out)), count=min(d.display_size, len(d.deck)),
                          items=d.deck, unordered=(min(d.display_size, len(d.deck)),))
        if s.phase == INFLUENCE and s.refill:
            return Chance("draw", "influence tile refilling the display", lambda out: DisplayRefilled(tile=out[0]),
                          items=s.deck, gone=drawn_tiles(s))
        if s.phase == COMMIT and s.revolt_place:
            return Chance("draw", f"Spartan hoplite struck by the revolt at {s.revolt_place}",
                          lambda out: SlaveRevoltStruck(counter=out[0]), items=commit.revolt_victims(s), blind=True)
        if s.phase == COMMIT and s.request is not None:
            r = s.request
            return Decision(s.players[r.leader],
                            f"allow {s.players[r.player]} to be main defender at {r.location}, or refuse")
        if s.phase == BATTLE:
            assert s.battle is not None
            location, kind = battle.current(s)
            if s.battle.stage == "tiles":
                return Decision(s.players[battle.tile_chooser(s)], f"play or keep a special tile before {location}")
            return Chance("dice", f"battle dice at {location} (attacker 2d6, then defender 2d6)",
                          lambda out: BattleDiceRolled(attacker=(out[0], out[1]), defender=(out[2], out[3])),
                          count=4, unordered=(2, 2))
        prompts = {SETUP: "place a starting cube", INFLUENCE: "take an influence tile",
                   NOMINATE: "nominate a candidate or pass", COMMIT: "spend an influence tile to commit forces"}
        return Decision(s.players[s.actor], prompts[s.phase])

    def legal(self, s: State) -> list[Event]:
        pend = self.pending(s)
        if not isinstance(pend, Decision):
            return []
        if s.phase == SETUP:
            return list(influence.legal_setup(s))
        if s.phase == INFLUENCE:
            return [*influence.legal_take(s), *influence.legal_influence_special(s)]
        if s.phase == NOMINATE:
            return list(influence.legal_nomination(s))
        if s.phase == COMMIT:
            if s.request is not None:
                return list(commit.legal_permission(s))
            return [*commit.legal_commitments(s), *commit.legal_revolt(s)]
        p = battle.tile_chooser(s)
        keep = BattleTileKept(player=s.players[p])
        # From version 4 a holder whose tile cannot serve here is asked too, and may only keep it (RULES.md).
        return [BattleTilePlayed(player=s.players[p], tile=s.specials[p]), keep] if battle.tile_usable(s, p) else [keep]

    def decision_steps(self, s: State, tag: str, chosen: tuple[tuple[str, str], ...]) -> Any:
        """A commitment built step by step (core.steps), reaching every legal one, not only those ``legal`` lists."""
        if tag == "perikles.alkibiades_played":
            from agon.core.games.perikles.steps import alkibiades_steps

            return alkibiades_steps(s, chosen, self.field_prompts[f"{tag}.moves"])
        if tag != "perikles.forces_committed":
            return None
        from agon.core.games.perikles.steps import commitment_steps

        return commitment_steps(s, chosen)

    def barred_values(self, s: State, tag: str, chosen: tuple[tuple[str, str], ...], field: str) -> Any:
        """The cities, positions and nominees a nomination or an assassin may not take, each with why (steps.py)."""
        from agon.core.games.perikles.steps import barred_values

        return barred_values(s, tag, chosen, field)

    def step_words(self, s: State, tag: str, chosen: tuple[tuple[str, str], ...], field: str) -> Any:
        """A candidate's or an assassin's step naming the city chosen and who stands there (steps.py)."""
        from agon.core.games.perikles.steps import step_words

        return step_words(s, tag, chosen, field)

    def sample_legal(self, s: State, rng: Any) -> Event:
        """One decision of ``legal(s)``, each as likely, without listing every commitment (sample.py)."""
        return sample.sample_legal(self, s, rng)

    # -- validation -------------------------------------------------------------------------------------------

    def turn_rule(self, s: State) -> str:
        return turn_rule(s)

    def validate(self, s: State, e: Event) -> str | None:
        pend = self.pending(s)
        if isinstance(pend, Over):
            return "the game is over: no event can follow its end"
        if isinstance(pend, Chance):
            return self._validate_chance(s, e, pend)
        if isinstance(e, CHANCE_TYPES) or type(e) not in PHASE_DECISIONS.get(s.phase, ()):
            return _out_of_place(s, pend, e)
        player = getattr(e, "player", None)
        if player != pend.player:
            return f"{turn_rule(s)}: {pend.player} must act now ({pend.prompt}), not {player}"
        match e:
            case StartingCubePlaced():
                return influence.validate_setup(s, e)
            case InfluenceTileTaken():
                return influence.validate_take(s, e)
            case PeriklesPlayed() | AlkibiadesPlayed() | PlaguePlayed():
                return influence.validate_influence_special(s, e)
            case CandidateNominated():
                return influence.validate_nomination(s, e)
            case NominationPassed():
                return None
            case ForcesCommitted():
                if s.request is not None:
                    return f"{pend.player} must first answer the request for permission"
                return commit.commitment_error(s, e)[0]
            case SlaveRevoltPlayed():
                return commit.validate_revolt(s, e)
            case PermissionGiven():
                if s.request is None:
                    return "Permission (game help): nobody is asking for permission now"
                return None
            case BattleTilePlayed() | BattleTileKept():
                return battle.validate_tile(s, e)
        return f"{event_words(e)} is not a Perikles decision"

    def _validate_chance(self, s: State, e: Event, pend: Chance) -> str | None:
        expected = {DEAL_SPECIALS: SpecialTilesDealt, DEAL_LOCATIONS: LocationsDealt, DISPLAY: InfluenceDisplayed,
                    INFLUENCE: DisplayRefilled, COMMIT: SlaveRevoltStruck, BATTLE: BattleDiceRolled}[s.phase]
        if type(e) is not expected:
            return f"a chance outcome is needed now ({pend.describe()}), not {event_words(e)}"
        match e:
            case SpecialTilesDealt(tiles=tiles):
                if len(set(tiles)) != len(tiles):
                    return "Special tiles (data facts): each of the eight tiles exists once"
                return _multiset_error("Special tiles", tiles, pend.items, pend.count)
            case LocationsDealt(locations=locs):
                if len(set(locs)) != len(locs):
                    return "Location tiles (data facts): each location tile exists once"
                return _multiset_error("Location tiles", locs, pend.items, pend.count)
            case InfluenceDisplayed(tiles=tiles):
                return _multiset_error("Influence display", tiles, pend.items, pend.count)
            case DisplayRefilled(tile=tile):
                return _multiset_error("Influence display refill", (tile,), pend.items, 1)
            case SlaveRevoltStruck():
                return commit.validate_struck(s, e)
            case BattleDiceRolled():
                return battle.validate_dice(s, e)
        return f"a chance outcome is needed now ({pend.describe()})"

    # -- the fold ---------------------------------------------------------------------------------------------

    def apply(self, s: State, e: Event) -> State:
        ev: PeriklesEvent = e  # type: ignore[assignment]
        match ev:
            case SpecialTilesDealt(tiles=tiles):
                s = replace(s, specials=tuple(tiles), used=(False,) * len(s.players), phase=SETUP, actor=s.first)
                return s if s.data.setup_placements else replace(s, phase=DEAL_LOCATIONS)
            case StartingCubePlaced():
                return influence.apply_setup(s, ev)
            case LocationsDealt(locations=locs):
                return replace(s, locations=tuple(locs), dealt=s.dealt + tuple(locs), turn=s.turn + 1,
                               phase=DISPLAY)
            case InfluenceDisplayed(tiles=tiles):
                deck = list(s.data.deck)
                for t in tiles:
                    deck.remove(t)
                return influence.start_influence(replace(s, display=tuple(tiles), deck=tuple(deck)))
            case DisplayRefilled(tile=tile):
                deck = list(s.deck)
                deck.remove(tile)
                return replace(s, display=s.display + (tile,), deck=tuple(deck), refill=False)
            case InfluenceTileTaken():
                return influence.settle_nominations(influence.apply_take(s, ev))
            case PeriklesPlayed() | AlkibiadesPlayed() | PlaguePlayed():
                return influence.apply_influence_special(s, ev)
            case CandidateNominated() | NominationPassed():
                return influence.apply_nomination(s, ev)
            case ForcesCommitted():
                return battle.settle(commit.apply_commitment(s, ev))
            case PermissionGiven():
                return battle.settle(commit.apply_permission(s, ev))
            case SlaveRevoltPlayed():
                return commit.apply_revolt(s, ev)
            case SlaveRevoltStruck():
                return commit.apply_struck(s, ev)
            case BattleTilePlayed() | BattleTileKept():
                return battle.apply_tile(s, ev)
            case BattleDiceRolled():
                return battle.apply_dice(s, ev)
            case _:
                assert_never(ev)

    # -- reading the state ------------------------------------------------------------------------------------

    def scores(self, s: State) -> dict[str, float]:
        return scoring.scores(s)

    def outcome(self, s: State) -> Outcome:
        return scoring.outcome(s)

    round_word = "turn"  # RULES.md 'End of turn': three turns, fewer when Athens or Sparta suffers a fourth defeat

    def round(self, s: State) -> int:
        return max(1, s.turn)

    def view(self, s: State, player: str | None) -> dict[str, Any]:
        p = self.pending(s)
        return view.view(s, player, p.player if isinstance(p, Decision) else None)

    def narrate(self, s: State, e: Event) -> str:
        return view.narrate(s, e, self.apply)

    def narrate_as(self, s: State, e: Event, viewer: str | None) -> str:
        return view.narrate(s, e, self.apply, viewer)

    def secrets(self, s: State, e: Event) -> list[tuple[tuple[str | int, ...], str]]:
        return view.secrets(s, e)

    def option_text(self, s: State, e: Event) -> str:
        return view.option_text(s, e)

    @property
    def bots(self) -> Mapping[str, Any]:
        from agon.core.games.perikles.bots import BOTS

        return BOTS

    @property
    def projections(self) -> Mapping[str, Any]:
        from agon.core.games.perikles.projections import PROJECTIONS

        return PROJECTIONS


RULESET = Perikles()
