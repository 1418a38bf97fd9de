"""A decision built step by step over HTTP (core/steps.py, what ``agon play`` does at the command line).

A decision of many variants (a Perikles commitment of forces: some 2,000 of them) is built one field at a time:
``GET /api/games/ID/steps?chosen=WORDS`` answers, for the seat that must decide, the next step's choices after the
steps already taken (``WORDS``: their values, separated by spaces), each with a label where it says more; or, once
the steps settle the decision, the decision told as the seat may read it. ``choice`` is always the steps taken as
``/act`` takes them (the decision's steps typed at once; the only decision legal, which no step asks, by its
number), so a page sends it when the decision is complete. A step
that can take one value only is taken without asking. Only the acting seat may build: the choices are its own.
"""

from __future__ import annotations

from typing import Any

from agon.core import entry, steps
from agon.core.engine import Decision, option_text
from agon.server.api import Call, HttpError, game_head, load, you

MAX_WORDS = 200
"""More steps than any decision has; a longer ``chosen`` is refused."""
MAX_CHOSEN = 4000
"""More characters than the steps of any decision take; a longer ``chosen`` is refused."""


def next_step(call: Call) -> Any:
    """The next step's choices of the caller's decision after the steps ``chosen``, or the finished decision."""
    line, seat = load(call)
    if seat is None:
        raise HttpError(401, "building a decision needs your seat's token")
    pending = line.pending
    if not isinstance(pending, Decision):
        raise HttpError(409, f"no decision is pending now ({line.status()})")
    if seat != pending.player:
        raise HttpError(403, f"{pending.player} decides now; only their seat builds the decision")
    text = call.query.get("chosen", "")
    if not isinstance(text, str):
        raise HttpError(400, "'chosen' is the steps taken so far, their values separated by spaces")
    if len(text) > MAX_CHOSEN:
        raise HttpError(400, f"'chosen' is {len(text):,} characters long; the steps of a decision take at most"
                             f" {MAX_CHOSEN:,}: read the steps again from the start")
    words = entry.tokens(text)
    if len(words) > MAX_WORDS:
        raise HttpError(400, f"'chosen' has {len(words)} steps; no decision has more than {MAX_WORDS}")
    rs, state = line.ruleset, line.state
    try:
        chosen, now = steps.walk(rs, state, words)
    except entry.EntryError as e:
        raise HttpError(400, f"{e}; read the steps again from the start") from None
    # a kind of decision is shown and sent back as the table says it ('pass'), which the steps read as its label
    said = {steps.tag_label(t): steps.kind_word(t, rs) for t in (steps.tag_of(e) for e in rs.legal(state))}
    out: dict[str, Any] = {**game_head(call.svc, line), **you(seat),
                           "chosen": [{"field": f, "value": said.get(v, v) if f == steps.TYPE else v, "shown": told}
                                      for (f, v), told in zip(chosen, steps.shown(rs, state, chosen), strict=True)],
                           "choice": steps.typed(rs, state, chosen, now)}
    if isinstance(now, steps.Question):
        kinds = {v for v in now.values if now.field_of(v) == steps.TYPE}
        out["complete"] = False
        out["question"] = {"field": now.field, "prompt": now.prompt, "may_end": steps.DONE in now.values,
                           "choices": [{"value": said.get(c.value, c.value), "label": "" if c.label == said.get(
                               c.value) else c.label} if c.value in kinds else {"value": c.value, "label": c.label}
                                       for c in now.choices]}
    else:
        out["complete"] = True
        out["decision"] = {"text": option_text(rs, state, now), "event": line.codec.to_obj(now)}
    return out
