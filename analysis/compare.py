"""Two lines of one game side by side: where they part, and how scores and outcome differ.

The events after the fork are told in full by default (an analyst's store: every hidden draw named, so two
different shuffles read differently), or as one player may read them (``viewer``), naming nothing that player may
not see. Told to a viewer, the lines part where they first read differently to them, and two events that read alike
to them are told as reading alike, never as the same nor as differing in what they may not see: either would tell
them whether a face-down choice made again on a what-if line was the same."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agon.analysis.timeline import line_timeline, outcome_of
from agon.core.engine import PUBLIC
from agon.core.summary import score_unit, shared_name


def fork_point(a: Any, b: Any) -> int:
    """The last event the two lines share (event ids are chain hashes, so equal ids mean an equal past)."""
    shared = 0
    for x, y in zip(a.envelopes, b.envelopes):
        if x.id != y.id:
            break
        shared = x.depth
    return shared


def told(line: Any, viewer: str | None) -> list[str]:
    """Every event of ``line`` in a sentence as ``viewer`` may read it (None: everything, every hidden draw named;
    a player's name: only what that player may see, as their own record tells it)."""
    from agon.core.engine import narrate_as

    out = []
    for st in line.steps():
        state = st.before if st.before is not None else st.after
        out.append(narrate_as(line.ruleset, state, st.event, viewer))
    return out


def compare_lines(a: Any, b: Any, *, show: int = 3, viewer: str | None = None) -> dict[str, Any]:
    """A plain summary of two lines of the same game, told as ``viewer`` may read it (None: in full;
    ``PUBLIC``: as every player may).

    ``fork``: the last shared event (told to a viewer: the last up to which the lines read alike to them,
    ``_read_alike_to``); ``after_fork``: the first ``show`` events of each line after it, narrated,
    each with ``same`` (the two events are equal, hidden parts included; None told to a viewer, as are
    ``reads_differently`` and ``hidden_difference``), ``reads_differently`` (they are equal
    but do not read alike: the same decision or draw made in another position, by another player or to another
    effect, as a bid that ends an auction with other bids standing), ``reads_alike`` (they differ, but their
    sentences read alike: told in full, another copy of the same card, say), ``reordered`` (they are the same chance
    outcome in another order within a group the rules read in no order: a hand drawn from the seed and the same
    cards typed at a table) and ``hidden_difference`` (False: kept for readers of the JSON; it told a viewer
    that two events reading alike to them differ in what they may not see);
    ``players``: each player's final score on both lines and the difference (b − a), or, while a line is still
    being played, their scores after ``scored_at``, the last event both lines reach (a line's score at #57 against
    the other's at its end would read as what the other move changed; None, and the heads' scores with no
    difference, when one line holds the other: ``holds``), in ``score_unit`` (``core.summary.score_unit``: ""
    for points); ``a``/``b``: each line's length, status and winners; ``same_luck``: whether chance after the
    fork is drawn alike; ``outcome_changed``: whether the winners differ; ``together``: a co-operative ruleset's
    words for a line won and a line lost (``_together``), in which the what-if tells each line's outcome."""
    import msgspec

    if a.game.id != b.game.id:
        raise ValueError("lines of two different games cannot be compared")
    if viewer not in (None, PUBLIC) and viewer not in a.created.names:
        raise ValueError(f"no player {viewer!r} in this game; its players: {', '.join(a.created.names)}")
    rows_a, rows_b = line_timeline(a), line_timeline(b)
    text_a, text_b = told(a, viewer), told(b, viewer)
    fork = fork_point(a, b)
    if viewer is not None:  # told as a player: the lines part where they first read differently to that player
        fork = _read_alike_to(viewer, a, b, fork, (text_a, text_b), (rows_a, rows_b))
    after = []
    for k in range(1, show + 1):
        n = fork + k
        ta = text_a[n] if n < len(text_a) else None
        tb = text_b[n] if n < len(text_b) else None
        if ta is None and tb is None:
            break
        same = (ta is not None and tb is not None
                and msgspec.json.encode(a.events[n]) == msgspec.json.encode(b.events[n]))
        if viewer is not None:
            same = False  # whether they are the same event is not told to one who may not read all of it
        # said only to a reader told the whole draw: to one who may not see it, that it is the same on both lines
        # would tell something of what they may not see (it stays a difference in what they may not see)
        order = (not same and ta is not None and tb is not None and _reordered(a, b, n)
                 and (viewer is None or (_told_whole(a, n, viewer) and _told_whole(b, n, viewer))))
        alike = not same and not order and ta is not None and ta == tb
        after.append({"n": n, "a": ta, "b": tb, "same": None if viewer is not None else same,
                      "reads_differently": None if viewer is not None else same and ta != tb,
                      "reads_alike": alike, "reordered": order,
                      # said of no event any more: to a player, "differs in what you may not see" told what they
                      # may not see (as "same" did); two events that read alike to them are told as reading alike
                      "hidden_difference": None if viewer is not None else False})
    out_a, out_b = outcome_of(a), outcome_of(b)
    scored_at = None if out_a["over"] and out_b["over"] else min(a.head.depth, b.head.depth)
    holds = scored_at is not None and scored_at <= fork and a.head.depth != b.head.depth
    if scored_at is not None and scored_at <= fork:
        scored_at = None  # one line holds the other: each head's scores, and no difference (see below)
    if scored_at is None:
        end_a, end_b = rows_a[-1]["scores"], rows_b[-1]["scores"]
    else:
        end_a, end_b = _scores_at(rows_a, scored_at), _scores_at(rows_b, scored_at)
    players = []
    for p in _names(a.created.names, end_a, end_b):
        sa, sb = end_a.get(p), end_b.get(p)
        # one line holding the other (a branch with no moves of its own) has the same scores after every event
        # both reach: its head's score against the other's later one (its final, say) is no difference a move made
        players.append({"player": p, "a": sa, "b": sb,
                        "diff": None if sa is None or sb is None or holds else sb - sa,
                        "at_fork": rows_a[fork]["scores"].get(p)})
    first = after[0] if after and after[0]["a"] is not None and after[0]["b"] is not None else None
    actors = (a.envelopes[first["n"]].actor, b.envelopes[first["n"]].actor) if first else None
    return {
        "game": a.game.id,
        "viewer": viewer or None,  # as `agon state --json`'s "as": None for everything and for what all see
        "public": viewer == PUBLIC,
        "fork": fork,
        "fork_text": text_a[fork],
        "after_fork": after,
        "players": players,
        "score_unit": score_unit(a.ruleset),
        "scored_at": scored_at,
        "holds": holds,  # one line holds all of the other: the scores are each head's, with no difference
        "together": _together(a.ruleset.name),
        "shared_by": shared_name(a.ruleset.name),  # who holds a co-op's one score ("crew"), told once as theirs
        "a": _side(a, out_a),
        "b": _side(b, out_b),
        "same_luck": a.branch.luck == b.branch.luck,
        "outcome_changed": (out_a["over"], sorted(out_a["winners"])) != (out_b["over"], sorted(out_b["winners"])),
        "parting": None if first is None or actors is None else {
            "n": first["n"], "a": first["a"], "b": first["b"], "actor": actors[0] if actors[0] == actors[1] else None,
            "reordered": first["reordered"],
            "luck": actors[0] == actors[1] == "chance"},
    }


def _read_alike_to(viewer: str, a: Any, b: Any, fork: int, texts: tuple[list[str], list[str]],
                   rows: tuple[list[dict[str, Any]], list[dict[str, Any]]]) -> int:
    """The last event up to which the two lines read alike to ``viewer`` (a player's name, or ``PUBLIC``): from the
    last event they share, on while each event is told alike, by the same actor, to the same scores and the same
    state as ``viewer`` sees it. Where they truly part is not theirs to know: a face-down commitment made again on a
    what-if line, the same or another, would part the lines there or not, telling them whether it was the same."""
    ra, rb = a.ruleset, b.ruleset
    steps_a, steps_b = a.steps(), b.steps()
    n = fork + 1
    while n < min(len(texts[0]), len(texts[1])):
        sa, sb = steps_a[n], steps_b[n]
        if (texts[0][n] != texts[1][n] or sa.actor != sb.actor or rows[0][n]["scores"] != rows[1][n]["scores"]
                or _seen(ra, sa.after, viewer) != _seen(rb, sb.after, viewer)):
            break
        fork = n
        n += 1
    return fork


def _seen(ruleset: Any, state: Any, viewer: str) -> bytes:
    import msgspec

    return msgspec.json.encode(ruleset.view(state, viewer), enc_hook=str)


def _reordered(a: Any, b: Any, n: int) -> bool:
    """Whether event ``n`` of the two lines is the same chance outcome held in another order (``core.chance``)."""
    from agon.core.chance import reordered
    from agon.core.engine import Chance

    if a.envelopes[n].actor != "chance" or b.envelopes[n].actor != "chance":
        return False
    steps = a.steps(n, n)
    pending = a.ruleset.pending(steps[0].before) if steps and steps[0].before is not None else None
    return isinstance(pending, Chance) and reordered(pending, a.events[n], b.events[n])


def _told_whole(line: Any, n: int, viewer: str) -> bool:
    """Whether ``viewer`` is told event ``n`` of ``line`` as it is told in full (nothing of it hidden from them)."""
    from agon.core.engine import narrate_as

    st = line.steps(n, n)[0]
    state = st.before if st.before is not None else st.after
    return narrate_as(line.ruleset, state, st.event, viewer) == narrate_as(line.ruleset, state, st.event, None)


def what_if(c: dict[str, Any]) -> str:
    """The comparison in a sentence or two, answering "what if she had bid 5 instead of 3?": what was done
    differently where the lines part, and how each player's final score and the outcome came out on each."""
    na, nb = c["a"]["branch"], c["b"]["branch"]
    part = c["parting"]
    reader = "every player" if c.get("public") else c.get("viewer")
    if part is None and reader:
        return f"{nb} and {na} do not part as {reader} may read them: one reads as all of the other does."
    if part is None:
        return f"{nb} and {na} do not part: one line holds all of the other."
    a_text, b_text = part["a"].rstrip("."), part["b"].rstrip(".")
    if part.get("reordered"):
        head = (f"At #{part['n']} the same luck falls in another order, which the rules do not read: {b_text} on"
                f" {nb}, where {na} has: {a_text}.")
    elif a_text == b_text:
        head = f"At #{part['n']} the lines part in what is not told here: {b_text} on both."
    elif part["luck"]:
        head = f"At #{part['n']} luck falls differently: {b_text} on {nb}, where {na} has: {a_text}."
    else:
        head = f"At #{part['n']} on {nb}: {b_text}, instead of (on {na}): {a_text}."
    ends = []
    unit = c.get("score_unit", "")  # an Adamastor score is the voyage's progress: "66.7% of the voyage sailed"
    rows = [r for r in c["players"] if r["a"] is not None and r["b"] is not None]
    if c.get("shared_by") and len(rows) > 1 and len({(r["a"], r["b"]) for r in rows}) == 1:
        # a crew's one score, told once as the crew's (as 'agon games' and 'agon state' tell it), not per player
        rows = [{**rows[0], "player": f"the {c['shared_by']}"}]
    for r in rows:
        if r["diff"]:
            ends.append(f"{r['player']} {_num(r['b'])}{unit} instead of {_num(r['a'])}")
        else:
            ends.append(f"{r['player']} {_num(r['b'])}{unit} as before")
    oa, ob = c["a"], c["b"]
    ends_words = c.get("together")  # won or lost together: told in the co-op's words, never as 'nobody wins'
    if oa["over"] and ob["over"] and ends_words:
        ea, eb = (ends_words[0] if side["winners"] else ends_words[1] for side in (oa, ob))
        result = f"{eb} on both lines" if ea == eb else f"{eb} on {nb}; on {na}, {ea}"
        tail = f" Played on, {result}; final scores on {nb}: {', '.join(ends)}." if ends else f" {result}."
    elif oa["over"] and ob["over"]:
        wa, wb = " and ".join(oa["winners"]) or "nobody", " and ".join(ob["winners"]) or "nobody"
        verb = "win" if len(ob["winners"]) > 1 else "wins"
        result = (f"{wb} {verb} on both lines" if sorted(oa["winners"]) == sorted(ob["winners"])
                  else f"{wb} {verb} on {nb}, where {wa} {'win' if len(oa['winners']) > 1 else 'wins'} on {na}")
        tail = f" Played on, {result}; final scores on {nb}: {', '.join(ends)}." if ends else f" {result}."
    else:
        tail = (f" Scores after #{c['scored_at']} on {nb}, the last event both lines reach: {', '.join(ends)}; the"
                f" outcome is not known yet, since"
                f" {'neither line is' if not oa['over'] and not ob['over'] else 'one line is not'} over.")
    return head + tail


def _together(ruleset: str) -> list[str] | None:
    """A co-operative ruleset's words for a line won and a line lost (its figure module's ``ENDS``, as Adamastor's
    'the voyage is won' and 'the voyage is lost'), or None where players win or lose on their own."""
    from agon.analysis.games import module_for

    if shared_name(ruleset) is None:
        return None
    return list(getattr(module_for(ruleset), "ENDS", ("the players win", "the players lose")))


def _scores_at(rows: list[dict[str, Any]], n: int) -> dict[str, float]:
    """The scores after event ``n`` (the rows of ``line_timeline``, one an event from #0)."""
    for row in reversed(rows):
        if row["n"] <= n:
            return row["scores"]
    return rows[0]["scores"]


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _side(line: Any, outcome: dict[str, Any]) -> dict[str, Any]:
    return {"branch": line.branch.name, "events": len(line.events), "last": line.head.depth, **outcome}


def _names(seats: Sequence[str], *scores: dict[str, float]) -> list[str]:
    names = list(seats)
    for s in scores:
        names += [p for p in s if p not in names]
    return names
