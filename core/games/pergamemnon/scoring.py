"""The end of the game and the final scoring.

Follows ../shared/rules/pergamemnon-rulebook.pt.txt, 'Final do Jogo', 'Vencedor' and 'Nações' (Gregos, Persas):

- The game ends at once when fewer creatures lie face up than there are players, or when a nation has fewer
  cards to fight with (hand, deck and discard pile) than its hand size (3; Persia 4 while Xerxes is free). After a
  battle that ends it, the winner still places the captured cards (that changes the score), and the loser is not
  asked to discard (``ENDS_BEFORE_DISCARD``).
- Each player adds the points printed on the hand, deck and discard pile, the Secured points under the city and
  the creatures kept under the city as charisma; captured army cards under the city do not count.
- The Greeks, while Agamemnon is free, score half a point more per card that is worth points.
- A tie is won by the player with the most powerful creature (the most points, then the highest cost).
"""

from __future__ import annotations

from agon.core.engine import Outcome
from agon.core.games.pergamemnon.state import PlayerState, State, card, effects, hand_size, playable
from agon.core.words import counted

ENDS_BEFORE_DISCARD = 5
"""The ruleset version from which a battle that ends the game asks its loser nothing more: the end is checked once
the winner has placed the captured cards, before the loser's discard ('Final do Jogo': "o jogo termina
imediatamente"; "O jogo também termina quando uma Nação já não tem Cartas de Exército suficientes"). The discard
('O que acontece depois de uma batalha?': "Então, o defensor pode descartar qualquer número das suas Cartas de Mão")
only readies the hand for the draw that follows a battle, which an ended game never makes, and it moves cards from
the hand to the discard pile, which count alike for the end, the score and the tie. Until then the loser was asked
to discard first, and a game recorded then is folded so (RULES.md, 'Ruleset versions')."""


def end_checked(s: State) -> tuple[str, ...]:
    """The phases in which the end is checked: between turns (and from ``ENDS_BEFORE_DISCARD`` before the loser of
    a battle discards)."""
    return ("turn", "refill", "discard") if s.version >= ENDS_BEFORE_DISCARD else ("turn", "refill")


def game_over(s: State) -> str:
    """Why the game has ended ("" while it goes on). Checked between turns, once every decision that can change
    the score is taken (``end_checked``)."""
    if s.phase not in end_checked(s) or s.reveal:
        return ""
    if len(s.creatures) < len(s.players):
        lie = "lies" if len(s.creatures) == 1 else "lie"
        return f"only {counted(len(s.creatures), 'creature')} {lie} face up for {len(s.players)} players"
    for p in s.players:
        if playable(p) < hand_size(s, p):
            return (f"{p.name} has only {counted(playable(p), 'card')} left to fight with, fewer than a hand of"
                    f" {hand_size(s, p)}")
    return ""


def counted_cards(s: State, p: PlayerState) -> list[str]:
    held = list(p.hand + p.deck + p.discard + p.secured)
    held += [c for c in p.under if card(s, c).creature]
    b = s.battle
    if b is not None and not b.result:
        held += b.attacker_cards if b.attacker == p.name else b.defender_cards if b.defender == p.name else ()
    return held


def score_of(s: State, p: PlayerState) -> float:
    cards = [card(s, c) for c in counted_cards(s, p)]
    total = float(sum(c.points for c in cards))
    if effects(s, p).half_points:
        total += 0.5 * sum(1 for c in cards if c.points > 0)
    return total


def scores(s: State) -> dict[str, float]:
    return {p.name: score_of(s, p) for p in s.players}


def best_creature(s: State, p: PlayerState) -> tuple[int, int]:
    creatures = [card(s, c) for c in counted_cards(s, p) if card(s, c).creature]
    return max(((c.points, c.cost) for c in creatures), default=(-1, -1))


def outcome(s: State, why: str) -> Outcome:
    table = scores(s)
    best = max(table.values())
    leaders = [p for p in s.players if table[p.name] == best]
    tie_note = ""
    if len(leaders) > 1:
        top = max(best_creature(s, p) for p in leaders)
        winners = [p for p in leaders if best_creature(s, p) == top]
        if len(winners) < len(leaders) and top[0] >= 0:
            tie_note = ", the tie going to the most powerful creature"
        leaders = winners
    names = tuple(p.name for p in leaders)
    verb = "wins" if len(names) == 1 else "share the win"
    summary = f"{' and '.join(names)} {verb} with {best:g} points{tie_note}; the game ended because {why}"
    return Outcome(winners=names, scores=table, summary=summary)
