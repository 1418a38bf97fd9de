"""The bundled card set against CARD-DATA.md and the rulebook: every value no text states is marked provisional on
its card ('Card data': "marked provisional card by card in the data")."""

from __future__ import annotations

from agon.core.games.peloponnes import RULESET as RS

# 'Edifícios Especiais' names these buildings and what they do, not the era each belongs to.
SPECIAL_BUILDINGS = {"Harbour", "Temple of Apollo", "Lion Gate", "Market", "Agora", "Barracks", "Palisade",
                     "Cyclopean Wall", "Treasury of Atreus", "Well", "Aqueduct", "Acrocorinth", "Workshop of Phidias",
                     "Stoa"}


def marked(card: dict, field: str) -> bool:
    flag = card.get("provisional", False)
    return flag is True or (isinstance(flag, list) and field in flag)


def test_a_special_buildings_era_is_marked_provisional_since_the_text_names_the_building_not_its_era():
    specials = [c for c in RS.default_cards()["power"] if c["name"] in SPECIAL_BUILDINGS]
    assert {c["name"] for c in specials} == SPECIAL_BUILDINGS and all(c["kind"] == "building" for c in specials)
    assert [c["id"] for c in specials if not marked(c, "era")] == []


def test_every_name_but_the_special_buildings_is_marked_provisional_the_supply_lands_included():
    # CARD-DATA.md: the supply symbol sits once on a B card and once on a C card ('Edifícios Especiais': lands), but
    # no text names those lands, nor any card beyond the special buildings
    cards = RS.default_cards()["power"]
    unnamed = [c for c in cards if c["name"] not in SPECIAL_BUILDINGS]
    assert len(unnamed) == 48 - 14 and {c["id"] for c in unnamed if c["supply"]} == {"B09", "C09"}
    assert [c["id"] for c in unnamed if not marked(c, "name")] == []
