"""Win chances over a game: rows and the chart of an analysis made by ``core.analyse`` (``agon analyse``).

Rows are plain dicts (JSON-able). ``position_rows``: one per event, ``{"n", "actor", "text", "chances": {player:
share 0..1}, "scores": {player: expected final score}, "rollouts", "over"}``. ``decision_rows``: one per judged
decision, with its alternatives, the best one, the win chance lost and the ``agon branch`` command that plays
the better move. ``figure``: the chart, lichess-style (each player's win chance over the game in the player's
marks: colour, marker and dash; marked decisions annotated). ``for_line`` gives the rows and the chart of a line
from the cache alone (no rollouts), for pages that show an analysis where one exists.

An analysis sees everything: its rollouts start from the full state, and alternatives read as the acting player
sees them. Show it after the game, not to a player in the middle of one.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping, Sequence
from statistics import fmean
from typing import Any

from agon.analysis.figures import shared_score
from agon.analysis.palette import marked_points, player_marks, sparse_markers
from agon.core.analyse import (
    MARK_ROLLOUTS,
    SURE_LOSS,
    Analysis,
    Judged,
    Position,
    rollouts_to_judge,
    standard_error,
)
from agon.core.names import MAX_ROLLOUTS
from agon.core.summary import score_unit
from agon.core.words import counted

OBSERVER = ("the bots that play these games on see every hidden card and the order of every deck, like an observer"
            " who sees everything: show this after the game, not to a player during it")

SPAN = 3
"""A turning point compares the mean of the ``SPAN`` positions before an event with that of the ``SPAN`` from it
on: a move that lasts, not one estimate's noise (each position's chance comes from its own games)."""

SURE = 3.0
"""A move is named as a turning point only when it is larger than this many standard errors of itself."""


UNSURE = "#767676"
"""The grey of a decision not marked because its loss is within the figures' noise (4.5:1 on white)."""


def pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def margin(rollouts: int) -> int:
    """How far, in percentage points, an estimate from ``rollouts`` games may be off (95%, at its widest: an even
    chance), whole: 100 games give 10."""
    return max(1, round(100 * 1.96 * standard_error(0.5, rollouts)))


def what(a: Analysis) -> str:
    """What the chances are chances of: the voyage's success in a co-operative game, else a win."""
    return "chance the voyage succeeds" if len(a.players) == 1 or shared_score(a.line.ruleset.name) else "win chance"


def seconds_text(s: float) -> str:
    """A duration as a person reads it: ``0.4 s``, ``31 s``, ``4 min 27 s``."""
    if s < 10:
        return f"{s:.1f} s"
    whole = round(s)
    return f"{whole} s" if whole < 60 else f"{whole // 60} min {whole % 60} s"


def readable(a: Analysis, text: str) -> str:
    """``text`` with the identifiers a ruleset's sentences use (Adamastor's ``c17``, Perikles' ``megara-2``) by the
    names its ``label`` gives them (analysis/games); only what the text already names is named."""
    from agon.analysis.games import labeller

    label = labeller(a.line.ruleset.name)
    if label is None:
        return text
    cards = a.line.created.cards

    def name(m: re.Match[str]) -> str:
        return label(m.group(0), cards) or m.group(0)

    return re.sub(r"[A-Za-z0-9][A-Za-z0-9_-]*", name, text)


def threshold_pct(x: float) -> str:
    """A threshold as given, as a percentage: whole when it is (10%), else as typed (12.5%, 0.1%); a win chance
    is an estimate and is shown whole (``pct``), a threshold is the user's own number."""
    p = round(100 * x, 6)
    return f"{p:g}%"


def branch_command(a: Analysis, d: Judged, nodes: Mapping[str, Sequence[str]] | None = None) -> str:
    """The commands that play the better move on a new line from just before decision ``d``.

    ``nodes``: the game's branches, each with its event ids by number. A branch that already plays the better move
    from that position (made by these very commands, say) is compared instead (``agon compare GAME main
    better-57``), and a new branch takes a name no branch has (``better-57-2``): the commands printed again after a
    second run of ``agon analyse`` would otherwise be refused, the name being taken."""
    from agon.core.names import derived_branch, name_key

    game = a.line.game.id
    # named after the line it leaves, so the better moves found on two lines are two branches, not one name twice
    source = a.line.branch.name
    assert d.best is not None
    for other, ids in (nodes or {}).items():
        if other != source and len(ids) > d.n and ids[d.n] == d.best.node_id:
            return f"agon compare {game} {shlex.quote(source)} {shlex.quote(other)}"
    taken = {name_key(n) for n in nodes or {}}
    base = f"better-{d.n}" if source == "main" else derived_branch(source, f"better-{d.n}")
    name, k = base, 2
    while name_key(name) in taken:
        name = base + f"-{k}" if source == "main" else derived_branch(source, f"better-{d.n}-{k}")
        k += 1
    choice = d.best.choice if d.best.choice.isdigit() else "'" + d.best.choice.replace("'", "'\\''") + "'"
    return (f"agon branch {game} {shlex.quote(name)} --at {d.n - 1} -b {shlex.quote(source)}"
            f" && agon act {game} {choice}")


def marked_text(d: Judged) -> str:
    """``#41 Ana bids 3 on the Harbour: 34% (best: bid 5 on the Harbour, 58%)``."""
    assert d.best is not None
    best = d.best_checked if d.best_checked is not None else d.best.chance
    return f"#{d.n} {d.text.rstrip('.')}: {pct(d.chance)} (best: {d.best.text.rstrip('.')}, {pct(best)})"


def same_analysis(a: Analysis, rollouts: int | None = None) -> str:
    """The options that make a command (``agon plot chances``, ``agon analyse``) read analysis ``a`` rather than
    play another with the defaults: each setting of ``a`` that is not its default (with ``rollouts``: the same
    analysis with that many rollouts)."""
    from agon.core.bots import judging_bot

    s = a.settings
    rollouts = s.rollouts if rollouts is None else rollouts
    told = [(rollouts != 100, f"--rollouts {rollouts}"), (s.bot != judging_bot(a.line.ruleset), f"--bot {s.bot}"),
            (s.seed != 0, f"--seed {s.seed}"), (s.judge_all, "--all"),
            (s.threshold != 0.10, f"--threshold {s.threshold:g}"),
            (s.max_alternatives != 12, f"--alternatives {s.max_alternatives}")]
    return "".join(f" {flag}" for differs, flag in told if differs)


def below_mark(a: Analysis, d: Judged) -> bool:
    """Whether ``d`` went unmarked only for the games a position (fewer than ``MARK_ROLLOUTS``): its loss stands out
    from the figures' noise by the standard-error test, which so few games cannot be trusted with."""
    return a.settings.rollouts < MARK_ROLLOUTS and d.loss > SURE_LOSS * d.noise


def why_unmarked(a: Analysis) -> str:
    """Why the ``uncertain`` decisions are not marked, in the words `agon analyse`, the chart and the study page
    share: within the figures' noise, or from fewer games a position than a mark needs."""
    games = counted(a.settings.rollouts, "game")
    if any(below_mark(a, d) for d in a.uncertain):
        return (f"from {games} a position, fewer than the {MARK_ROLLOUTS} a mark needs (from so few, any figure can be"
                " the games' luck)")
    return f"but by less than their own uncertainty (from {games} a position, that much can be the games' luck)"


def too_few(a: Analysis, cite: Any = None, branch: str | None = None) -> str:
    """That the games a position were too few to judge a loss of the threshold, and the run that plays enough
    (``rollouts_to_judge``), or that none does: what `agon analyse` says after the decisions it did not mark for
    it, and the study page under its chart. ``cite`` turns ``analyse ...`` into the command as written
    (```agon analyse ...``` by default); ``branch``: the branch's flag (`` -b NAME`` by default, always)."""
    s, line = a.settings, a.line
    limit, need = threshold_pct(s.threshold), rollouts_to_judge(s.threshold)
    sure = f"{s.rollouts:,} a position, each chance good to about ±{margin(s.rollouts)} points"
    if need > MAX_ROLLOUTS:
        return (f"Too few games to judge a loss of {limit} ({sure}), and a loss that small cannot be told from luck"
                f" with the most games a position allowed ({MAX_ROLLOUTS:,}); judge a larger --threshold.")
    flag = f" -b {shlex.quote(line.branch.name)}" if branch is None else branch
    rest = f"analyse {line.game.id}{flag}{same_analysis(a, need)}"
    return (f"Too few games to judge a loss of {limit} ({sure}); {need:,} are enough:"
            f" {cite(rest) if cite is not None else f'`agon {rest}`'} (slower).")


def position_rows(a: Analysis) -> list[dict[str, Any]]:
    return [{"n": p.n, "id": p.node_id, "actor": p.actor, "text": p.text, "chances": p.chances, "scores": p.scores,
             "rollouts": p.rollouts, "over": p.over} for p in a.positions]


def decision_rows(a: Analysis, nodes: Mapping[str, Sequence[str]] | None = None) -> list[dict[str, Any]]:
    """``nodes``: as ``branch_command`` takes them."""
    out = []
    for d in a.decisions:
        out.append({
            "n": d.n, "player": d.player, "text": d.text, "chance": d.chance, "legal": d.legal,
            "judged": len(d.alternatives), "sampled": d.sampled, "loss": d.loss, "marked": d.marked,
            "uncertain": d.uncertain, "noise": d.noise, "glyph": d.glyph,
            "summary": marked_text(d) if d.best is not None else d.text,
            "best": None if d.best is None else {"text": d.best.text, "chance": d.best.chance,
                                                 "checked": d.best_checked, "made": d.best.made},
            "branch_command": branch_command(a, d, nodes) if d.marked else None,
            "alternatives": [{"text": x.text, "chance": x.chance, "score": x.score, "made": x.made, "bot": x.bot,
                              "choice": x.choice} for x in d.alternatives],
        })
    return out


def summary(a: Analysis) -> dict[str, Any]:
    s = a.settings
    return {
        "game": a.line.game.id, "branch": a.line.branch.name, "ruleset": a.line.ruleset.name,
        "ruleset_version": a.line.ruleset.version, "players": list(a.players),
        "score_unit": score_unit(a.line.ruleset),  # what an expected final score is, where it is no points
        "rollouts": s.rollouts, "bot": s.bot, "seed": s.seed, "threshold": s.threshold,
        "max_alternatives": s.max_alternatives, "judge_all": s.judge_all, "observer": OBSERVER,
        "rollouts_played": a.computed, "rollout_events": a.rollout_events, "positions_cached": a.cached,
        "seconds": round(a.seconds, 3), "rollouts_to_judge": rollouts_to_judge(s.threshold),
        "rollouts_to_mark": MARK_ROLLOUTS,
    }


def to_json(a: Analysis, nodes: Mapping[str, Sequence[str]] | None = None) -> dict[str, Any]:
    """Every row ``agon analyse`` tells, for a script: ``turned`` is its "Where the game turned" (``swings``), the
    event told as there."""
    turned = [{**r, "text": readable(a, r["text"])} for r in swings(a)]
    return {**summary(a), "positions": position_rows(a), "turned": turned, "decisions": decision_rows(a, nodes),
            "marked": [marked_text(d) for d in a.marked], "uncertain": [marked_text(d) for d in a.uncertain]}


def _variance(p: Position, player: str, chance: float | None = None) -> float:
    """The variance of a position's estimated chance (none for a finished game: its outcome is known), for the true
    chance ``chance`` (default: the estimate itself)."""
    if not p.rollouts or p.over:
        return 0.0
    return standard_error(p.chances[player] if chance is None else chance, p.rollouts) ** 2


def swings(a: Analysis, top: int = 5, span: int = SPAN, sure: float = SURE) -> list[dict[str, Any]]:
    """The events where some player's chance moved most and stayed moved (where the game was decided), at most
    ``top``, in the order they happened. At each event, the mean chance of the ``span`` positions before it is set
    against that of the ``span`` from it on, so that one noisy estimate makes no turning point; a move is kept only
    when it is more than ``sure`` standard errors of itself (the errors the estimates would have if the chance had not
    moved: their pooled mean), and where neighbouring events share one move, only the largest is named.

    Each row: ``n``, ``text``, ``actor`` (``chance`` for luck), ``luck``, ``player``, ``before`` and ``after`` (the
    two means), ``delta``."""
    ps = a.positions
    found = []
    for i in range(1, len(ps)):
        before, after = ps[max(0, i - span):i], ps[i:i + span]
        best: tuple[str, float, float] | None = None
        for name in a.players:
            b, f = fmean(x.chances[name] for x in before), fmean(x.chances[name] for x in after)
            # The noise of the move if nothing moved: every estimate in the two windows drawn from one chance, their
            # mean. Each estimate's own share would call a lone 4-of-4 certain (a window cut short by the line's end
            # holds one estimate), so one noisy estimate would make a turning point after all.
            guessed = [x.chances[name] for x in (*before, *after) if x.rollouts and not x.over]
            pooled = fmean(guessed) if guessed else 0.0
            noise = (sum(_variance(x, name, pooled) for x in before) / len(before) ** 2
                     + sum(_variance(x, name, pooled) for x in after) / len(after) ** 2) ** 0.5
            delta = f - b
            if abs(delta) < 1e-9 or abs(delta) <= sure * noise:
                continue
            if best is None or abs(delta) > abs(best[2] - best[1]):
                best = (name, b, f)
        if best is not None:
            name, b, f = best
            cur = ps[i]
            found.append({"n": cur.n, "text": cur.text, "actor": cur.actor, "luck": cur.actor == "chance",
                          "player": name, "before": b, "after": f, "delta": f - b})
    found.sort(key=lambda r: (-abs(r["delta"]), r["n"]))
    out: list[dict[str, Any]] = []
    for r in found:
        if len(out) == top:
            break
        if all(abs(r["n"] - o["n"]) >= span for o in out):  # one move, seen from its neighbours too
            out.append(r)
    return sorted(out, key=lambda r: r["n"])


def figure(a: Analysis) -> Any:
    """Each player's win chance after every event, in the player's marks (colour, marker and dash, as in every plot
    of the game) and named at its end, the marked decisions annotated."""
    import plotly.graph_objects as go

    from agon.analysis.figures import CREW_MARK, EndLabels, style

    marks = player_marks(a.players)
    colors = {name: m.color for name, m in marks.items()}
    xs = [p.n for p in a.positions]
    fig = go.Figure()
    crew = shared_score(a.line.ruleset.name)
    unit = score_unit(a.line.ruleset)  # an Adamastor score is the voyage's progress, not points
    # A co-operative game is won or lost together: its players' chances are one chance, drawn once for the crew.
    drawn = [(crew, a.players[0], CREW_MARK)] if crew else [(name, name, marks[name]) for name in a.players]
    for seat, (label, name, mark) in enumerate(drawn):
        ys = [100 * p.chances[name] for p in a.positions]
        colour = mark.color
        fig.add_trace(go.Scatter(
            x=xs, y=ys, mode="lines+markers", name=label, line=mark.line(shape="hv"), marker=mark.marker(),
            **sparse_markers(marked_points(ys, phase=seat / len(drawn))), cliponaxis=False,
            fill="tozeroy" if len(drawn) <= 2 else None, fillcolor=_alpha(colour, 0.12),
            hovertext=[f"{_lines(f'#{p.n} {readable(a, p.text)}')}<br>{label}: {pct(p.chances[name])}, expected"
                       f" final score {p.scores[name]:.1f}{unit}" for p in a.positions],
            hoverinfo="text", meta={"player": label},
        ))
    if len(drawn) > 1:
        fig.add_hline(y=100 / len(a.players), line={"color": "#999", "dash": "dot", "width": 1},
                      annotation_text="an even share", annotation_position="top right",
                      annotation_font={"size": 10, "color": "#888"})
    last = a.positions[-1] if a.positions else None
    labels = EndLabels(fig, [(mark.color, xs[-1], 100 * last.chances[name], f"{label} {pct(last.chances[name])}")
                             for label, name, mark in drawn] if last else [],
                       (xs[0], max(xs[-1], xs[0] + 1)) if xs else (0, 1), (0, 100), height=700)
    for k, d in enumerate(a.marked):
        best = d.best_checked if d.best_checked is not None else (d.best.chance if d.best else d.chance)
        text = f"#{d.n}{d.glyph} {d.player}: {pct(d.chance)} (best {pct(best)})"
        dx, dy = labels.arrowed(d.n, 100 * d.chance, text, 11, up_first=k % 2 == 0)
        fig.add_annotation(
            x=d.n, y=100 * d.chance, text=text, showarrow=True, arrowhead=2, ax=dx, ay=dy,
            font={"color": colors[d.player], "size": 11}, bgcolor="rgba(255,255,255,0.85)",
            bordercolor=colors[d.player], hovertext=_lines(readable(a, marked_text(d))), name="marked",
        )
    if a.uncertain:  # lost more than the threshold by less than the figures' noise: grey, dotted, not marked
        tell = too_few(a)
        for k, d in enumerate(a.uncertain, len(a.marked)):
            best = d.best_checked if d.best_checked is not None else (d.best.chance if d.best else d.chance)
            few = below_mark(a, d)
            why = "too few games" if few else "within the noise"
            text = f"#{d.n} {d.player}: {pct(d.chance)} (best {pct(best)}), {why}"
            dx, dy = labels.arrowed(d.n, 100 * d.chance, text, 11, up_first=k % 2 == 0)
            fig.add_annotation(
                x=d.n, y=100 * d.chance, text=f"<i>{text}</i>", showarrow=True, arrowhead=0, arrowcolor=UNSURE,
                ax=dx, ay=dy, font={"color": UNSURE, "size": 11}, bgcolor="rgba(255,255,255,0.85)",
                bordercolor=UNSURE, borderpad=2, name="uncertain",
                hovertext=_lines(f"Not marked: {readable(a, marked_text(d))}, a loss "
                                 + (f"from fewer games a position than the {MARK_ROLLOUTS} a mark needs" if few
                                    else "within the figures' own noise") + f". {tell}"))
    s = a.settings
    chance = what(a)
    marked = len(a.marked)
    games = counted(s.rollouts, "game")
    sub = (f"game {a.line.game.id}, branch {a.line.branch.name}: each point from {games} played on by"
           f" {s.bot} bots that see every hidden card (seed {s.seed}), good to about ±{margin(s.rollouts)} points;"
           f" {marked} decision{'' if marked == 1 else 's'} marked"
           + (f", {len(a.uncertain)} more "
              + ("from too few games to mark" if any(below_mark(a, d) for d in a.uncertain)
                 else "within the figures' noise") if a.uncertain else ""))
    style(fig, f"{a.line.ruleset.title}: {chance} after every event", "event number", f"{chance} (%)", subtitle=sub)
    labels.frame_layout(fig)
    # in words for the study page (under the chart): the marked decisions, then those not marked for the noise
    fig.update_layout(meta={"players": list(a.players), "game": a.line.game.id, "kind": "chances",
                            "marked": [f"{d.glyph} {readable(a, marked_text(d))}" for d in a.marked],
                            "uncertain": [readable(a, marked_text(d)) for d in a.uncertain],
                            "unmarked_why": why_unmarked(a) if a.uncertain else "",
                            "threshold": threshold_pct(s.threshold), "what": chance,
                            "too_few": too_few(a) if a.uncertain else ""})
    return fig


def _lines(text: str, width: int = 80) -> str:
    """``text`` broken at spaces into lines of about ``width`` characters for a hover box (plotly breaks none)."""
    import textwrap

    return "<br>".join(textwrap.wrap(text, width)) or text


def _alpha(hex_color: str, alpha: float) -> str:
    h = hex_color.lstrip("#")
    r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
    return f"rgba({r},{g},{b},{alpha})"


def for_line(svc: Any, line: Any) -> dict[str, Any] | None:
    """The newest cached analysis of ``line`` as ``{"rows": ..., "decisions": ..., "figure": ...}``, or None when
    none exists. Reads the cache only: it never plays a rollout."""
    from agon.core.analyse import cached

    a = cached(svc, line)
    if a is None:
        return None
    return {"rows": position_rows(a), "decisions": decision_rows(a), "summary": summary(a), "figure": figure(a)}


def at_parting(svc: Any, a: Any, b: Any, n: int) -> dict[str, Any] | None:
    """Each player's chance right after event ``n`` on line ``a`` and on line ``b`` (where two lines part), from
    the newest cached analysis that holds both positions, or None. Reads the cache only: it never plays a game.
    ``agon analyse`` keeps the position of every alternative it judged, so an analysed line answers for a what-if
    branch that took one of them, with the re-checked figure where it re-checked one (the one it printed)."""
    from agon.core.analyse import cache_version, exact
    from agon.core.engine import Over
    from agon.core.rollout import Tally
    from agon.events import analysis_cache as cache

    if n >= len(a.envelopes) or n >= len(b.envelopes):
        return None
    version, names = cache_version(a.ruleset), a.created.names
    known: dict[int, Tally] = {}  # a line whose game ends at ``n``: its outcome is known, and never cached
    for k, line in enumerate((a, b)):
        over = line.ruleset.pending(line.state) if n == len(line.envelopes) - 1 else None
        if isinstance(over, Over):
            known[k] = exact(line.ruleset, line.state, over, names)
    for bot, rollouts, seed in cache.available(svc.store, a.envelopes[0].id, version):
        keys = [cache.Key(line.envelopes[n].id, version, bot, rollouts, seed) for line in (a, b)]
        # an alternative that looked best was played on again by a second batch (starting at index ``rollouts``):
        # that batch's figure is the one `agon analyse` gives for it (the first is biased upwards: it was picked
        # as the best of several), so the comparison it points to gives the same
        checks = [cache.Key(key.node_id, version, bot, rollouts, seed, rollouts) for key in keys]
        got = cache.get(svc.store, [key for k, pair in enumerate(zip(keys, checks)) if k not in known
                                    for key in pair])
        keys = [check if check in got else key for key, check in zip(keys, checks)]
        if all(k in known or key in got for k, key in enumerate(keys)):
            ta, tb = (known[k] if k in known else Tally.from_json(got[key]) for k, key in enumerate(keys))
            return {"n": n, "bot": bot, "rollouts": rollouts, "seed": seed, "margin": margin(rollouts),
                    "a": {p: ta.chance(p) for p in a.created.names}, "b": {p: tb.chance(p) for p in a.created.names}}
    return None
