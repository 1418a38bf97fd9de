"""A game's card set named by its hash: sealing a set for a new game, and filling it back in when a game is read.

A new game's first event carries ``card_set`` (the sha256 of the set's JSON bytes) and no ``cards``; the set is
stored once per store (events/card_sets.py) and carried once per exported file. ``expand`` gives the first event
as the rules read it (``cards`` filled in) after checking the bytes against the hash the event names: the hash is
in the game's chain, so a card set changed anywhere is refused like any edited event. A game recorded before
(its set embedded in its first event) is returned as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import msgspec

from agon.events.base import GameCreated
from agon.events.card_sets import digest

__all__ = ["CardSetProblem", "digest", "encode_created", "expand", "seal_cards", "wanted"]

_NO_SET = b',"card_set":""}'



class CardSetProblem(ValueError):
    """A game's card set that is missing or does not match the hash its first event names."""


def seal_cards(cards: Mapping[str, Any]) -> tuple[str, bytes]:
    """A card set as (hash, JSON bytes): what a new game's first event names and what the store keeps."""
    body = msgspec.json.encode(cards)
    return digest(body), body


def encode_created(created: GameCreated, encode: Callable[[GameCreated], bytes]) -> bytes:
    """A game's first event as its payload (``encode``: the codec's). A game that names no stored set (a ruleset
    without cards) is encoded without the ``card_set`` field, byte for byte as before sets were stored by hash,
    so its first event's id, and so every id and every seeded draw after it, stay what they were."""
    payload = encode(created)
    if not created.card_set and payload.endswith(_NO_SET):  # card_set is the event's last field
        return payload[: -len(_NO_SET)] + b"}"
    if not created.card_set and created.salt:  # the salt follows it: card_set is left out just the same
        return payload.replace(_NO_SET[:-1] + b',"salt":', b',"salt":', 1)
    return payload


def wanted(created: GameCreated) -> str | None:
    """The hash of the stored card set a game's first event names, or None when the event embeds its set."""
    return created.card_set or None


def expand(created: GameCreated, lookup: Callable[[str], bytes | None], missing: str = "is not stored"
           ) -> GameCreated:
    """``created`` with its card set filled in from ``lookup(hash)`` (bytes, or None when there is none), checked
    against the hash. Raises ``CardSetProblem`` (one sentence) when the set is missing or was changed."""
    h = created.card_set
    if not h:
        return created
    if created.cards:
        raise CardSetProblem("its first event both names a stored card set and embeds one")
    body = lookup(h)
    if body is None:
        raise CardSetProblem(f"its card set {h[:12]} {missing}")
    if digest(body) != h:
        raise CardSetProblem(f"its card set {h[:12]} does not match its hash: it was changed after it was recorded")
    try:
        cards = msgspec.json.decode(body)
    except (msgspec.DecodeError, RecursionError):
        raise CardSetProblem(f"its card set {h[:12]} is not readable JSON") from None
    if not isinstance(cards, dict):
        raise CardSetProblem(f"its card set {h[:12]} is not a JSON object")
    return msgspec.structs.replace(created, cards=cards)
