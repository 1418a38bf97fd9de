"""The bundled card data (../shared/rules/CARD-DATA.md; rulebook 'Componentes' and 'Nações')."""

from __future__ import annotations

from statistics import mean

from agon.core.games.pergamemnon.cards import build_table
from tests.pergamemnon.helpers import rs

ROSTERS = {
    "rome": ("Caesar", {"Centurion": 1, "Praetorian": 1, "Spearman": 2, "Ballista": 2, "Horseman": 2, "Bowman": 2}),
    "egypt": ("Nefertiti", {"Mummy": 3, "Guard": 1, "Chariot": 2, "Swordsman": 2, "Camel Rider": 1, "Bowman": 1}),
    "greece": ("Agamemnon", {"Hercules": 1, "Guard": 1, "Chariot": 3, "Spearman": 2, "Bowman": 2, "Horseman": 1}),
    "carthage": ("Hannibal", {"Elephant": 2, "Elite": 2, "Spearman": 2, "Slinger": 3, "Horseman": 1}),
    "persia": ("Xerxes", {"War Rhino": 1, "Guard": 1, "Horseman": 1, "Chariot": 2, "Spearman": 2, "Bowman": 3}),
}
CITIES = {"rome": "Rome", "egypt": "Thebes", "greece": "Athens", "carthage": "Carthage", "persia": "Babylon"}

DATA = rs.default_cards()
TABLE = build_table(DATA)


def army(nation):
    return [TABLE.cards[c] for c in TABLE.nations[nation].army]


def avg(nation, field):
    return mean(getattr(c, field) for c in army(nation))


def overall(field):
    return mean(getattr(c, field) for n in TABLE.nations for c in army(n))


def test_component_counts_and_rosters():
    assert sum(len(n.army) for n in TABLE.nations.values()) == 55
    assert len(TABLE.creatures) == 24 and TABLE.charisma_cards == 21 and TABLE.start_charisma == 1
    for nid, (leader, troops) in ROSTERS.items():
        cards = army(nid)
        assert len(cards) == 11 and cards[0].name == leader and cards[0].leader
        counts: dict[str, int] = {}
        for c in cards[1:]:
            counts[c.name] = counts.get(c.name, 0) + 1
        assert counts == troops
        assert TABLE.nations[nid].city == CITIES[nid]


def test_values_stated_by_the_texts_are_exact_and_not_provisional():
    assert TABLE.cards["greece.agamemnon"].charisma == 5
    assert TABLE.cards["creature.centaur"].cost == 6
    agamemnon = DATA["nations"]["greece"]["army"][0]
    assert "charisma" not in agamemnon["provisional"]
    centaur = next(c for c in DATA["creatures"] if c["name"] == "Centaur")
    assert "cost" not in centaur["provisional"]
    names = {TABLE.cards[c].name for c in TABLE.creatures}
    assert {"Centaur", "Minotaur", "Cyclops", "Dryad", "Orthos", "Sphinx"} <= names
    assert TABLE.nations["rome"].start_charisma == 5
    assert TABLE.nations["persia"].free.hand_size == 4 and TABLE.nations["persia"].captured.hand_size == 3
    assert TABLE.nations["carthage"].free.recruit == 1 and TABLE.nations["carthage"].captured.attack == -1
    assert TABLE.nations["greece"].free.half_points and TABLE.nations["greece"].captured.recruit == -1
    assert TABLE.nations["rome"].captured.defence == -1
    assert TABLE.nations["egypt"].free.captures_flee and TABLE.nations["egypt"].captured.loses_flee


def test_every_other_value_is_marked_provisional_card_by_card():
    specs = [c for n in DATA["nations"].values() for c in n["army"]] + DATA["creatures"]
    assert all(c.get("provisional") for c in specs)
    assert rs.provisional is True


def test_each_nations_stated_strengths_and_weaknesses_hold():
    nations = list(TABLE.nations)
    # Persians: the highest attack values; weak helmets.
    assert max(nations, key=lambda n: avg(n, "attack")) == "persia"
    assert min(nations, key=lambda n: avg(n, "helmet")) == "persia"
    # Egyptians: strong in defence, weak armour and attack; Nefertiti's charisma is the highest.
    total_defence = {n: avg(n, "helmet") + avg(n, "armour") + avg(n, "shield") for n in nations}
    assert max(total_defence, key=total_defence.get) == "egypt"
    assert avg("egypt", "armour") < overall("armour") and min(nations, key=lambda n: avg(n, "attack")) == "egypt"
    nefertiti = TABLE.cards["egypt.nefertiti"].charisma
    assert all(c.charisma < nefertiti for n in nations for c in army(n) if c.id != "egypt.nefertiti")
    # Greeks: strong attackers, Hercules the strongest; weak armour; low charisma.
    assert avg("greece", "attack") > overall("attack")
    assert TABLE.cards["greece.hercules"].attack == max(c.attack for c in army("greece"))
    assert avg("greece", "armour") < overall("armour")
    assert min(nations, key=lambda n: avg(n, "charisma")) == "greece"
    # Carthaginians: weak shields.
    assert min(nations, key=lambda n: avg(n, "shield")) == "carthage"


def test_creatures_grow_stronger_with_their_cost():
    creatures = sorted((TABLE.cards[c] for c in TABLE.creatures), key=lambda c: c.cost)
    assert [c.points for c in creatures] == sorted(c.points for c in creatures)
    assert 3 <= creatures[0].cost and creatures[-1].cost <= 11


def test_provisional_lists_name_real_fields_and_never_one_a_text_states():
    # CARD-DATA.md: "Every number a rule text or a facts file states is used exactly"; the rosters, the leader,
    # Agamemnon's charisma 5 and the Centaur's cost 6 are stated ('Nações'; the recruiting example).
    fields = {"cost", "points", "weapon", "attack", "helmet", "armour", "shield", "charisma", "flee", "secured"}
    stated = {("Agamemnon", "charisma"), ("Centaur", "cost")}
    specs = [c for n in DATA["nations"].values() for c in n["army"]] + DATA["creatures"]
    lists = [c for c in specs if isinstance(c["provisional"], list)]
    assert {c["name"] for c in lists} == {"Agamemnon", "Centaur", "Minotaur", "Cyclops", "Dryad", "Orthos", "Sphinx"}
    for c in lists:
        assert set(c["provisional"]) <= fields, c["name"]
        assert not {(c["name"], f) for f in c["provisional"]} & stated, c["name"]
        # Every field a text does not state is still named (cost only for creatures).
        expected = {f for f in fields if (c["name"], f) not in stated and (f != "cost" or "cost" in c)}
        assert set(c["provisional"]) == expected, c["name"]
