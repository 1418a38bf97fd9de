"""Commands that set games up: rulesets, cards, schema, new, games, where, links, demo."""

import json
import re
import shlex
import sys
import tomllib
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from agon.cli.common import (
    LIMIT,
    MAX_CARD_FILE,
    SEED,
    SEED_MAX,
    Fail,
    JsonOpt,
    NoStore,
    UsageFail,
    agon_line,
    bars_off,
    console,
    db_url,
    every_ruleset,
    examples,
    fit_columns,
    friendly,
    hint,
    input_file,
    named_as,
    not_a_folder,
    one_of,
    print_json,
    read_input,
    service,
    show_table,
    told,
    whole,
    write_file,
)
from agon.cli.render import scores_line, scores_text
from agon.core import registry
from agon.core.engine import Over
from agon.core.service import NewGame, ServiceError, judge_new_game
from agon.core.summary import score_unit, unit_of
from agon.core.words import counted, listed
from agon.events.store import without_password

app = typer.Typer()


def _ruleset(name: str):
    try:
        return registry.get(name)
    except registry.UnknownRuleset as e:
        raise ServiceError(str(e)) from None


@app.command(epilog=examples("agon rulesets", "agon rulesets --json"))
@friendly
def rulesets(as_json: JsonOpt = False) -> None:
    """List the rulesets, their player counts, bots, options and whether their card data is provisional."""
    from agon.core.bots import bots_of

    rows = []
    for rs in every_ruleset():
        rows.append({
            "name": rs.name, "title": rs.title, "version": rs.version, "min_players": rs.min_players,
            "max_players": rs.max_players, "provisional": rs.provisional, "bots": sorted(bots_of(rs)),
            "options": dict(rs.option_names),
        })
    if as_json:
        print_json(rows)
        return
    t = Table(title="Rulesets")
    for col in ("name", "title", "players", "card data", "bots", "options"):
        t.add_column(col)
    for r in rows:
        lo, hi = r["min_players"], r["max_players"]
        players = f"{lo}" if lo == hi else f"{lo}-{hi}"
        t.add_row(r["name"], r["title"], players, "provisional" if r["provisional"] else "exact",
                  ", ".join(r["bots"]), ", ".join(r["options"]) or "-")
    show_table(t)


def load_cards(path: Path) -> dict[str, Any]:
    hint = "; write one with `agon cards RULESET -o FILE`"
    data = read_input(input_file(path, "card file", hint), "card file", MAX_CARD_FILE, hint)
    try:
        cards = tomllib.loads(data.decode()) if path.suffix == ".toml" else json.loads(data)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError, UnicodeDecodeError, RecursionError) as e:
        raise Fail(f"card file {path} cannot be read ({e}); it must be TOML (.toml) or JSON") from None
    except ValueError:  # valid JSON or TOML Python will not read: a number of more digits than int() takes
        raise Fail(f"card file {path} holds a number of more than {sys.get_int_max_str_digits():,} digits, which no"
                   " card set needs") from None
    if not isinstance(cards, dict):
        raise Fail(f"card file {path} must hold a table/object at the top")
    return cards


@app.command(epilog=examples("agon cards peloponnes",
                             "agon cards peloponnes -o cards.toml  # to edit, then: new --cards FILE"))
@friendly
def cards(
    ruleset: Annotated[str, typer.Argument(help="The ruleset whose bundled card set to show or export.")],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write the card set to FILE (.toml or .json).")
    ] = None,
    export_old: Annotated[Path | None, typer.Option("--export", hidden=True)] = None,
    as_json: JsonOpt = False,
) -> None:
    """Show or export a ruleset's bundled card set, to correct it and play with `agon new --cards FILE`."""
    rs = _ruleset(ruleset)
    export = output or export_old
    data = rs.default_cards()
    if export is not None:
        # 'agon new --cards' reads a card set by its suffix, so a file it would misread is not written
        not_a_folder(export, ".toml")
        if export.suffix not in (".toml", ".json"):
            raise Fail(f"-o {export}: a card set is written as TOML (.toml) or JSON (.json); name the file"
                       f" {named_as(export, '.toml')} or {named_as(export, '.json')}")
        screen = told(export)  # asked before the file is written
        if export.suffix == ".toml":
            import tomli_w

            write_file(export, tomli_w.dumps(data))
        else:
            write_file(export, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        then = agon_line(f"new {rs.name} --cards {shlex.quote(str(export))} ...")
        screen.print(f"Wrote {rs.name}'s card set to {export}. Edit it, then: {then}", markup=False)
        return
    if as_json:
        print_json(data)
        return
    console.print(f"[bold]{escape(rs.title)}[/] card set ({'has provisional values' if rs.provisional else 'exact'}):",
                  markup=True)
    for key, value in data.items():
        size = len(value) if isinstance(value, list | dict) else value
        console.print(f"  {key}: {size}{' entries' if isinstance(value, list | dict) else ''}")
    console.print(f"Export it with: {hint(f'agon cards {rs.name} -o cards.toml')}")


@app.command(epilog=examples("agon schema peloponnes", "agon schema --file-format > agon-game.schema.json"))
@friendly
def schema(
    ruleset: Annotated[str | None, typer.Argument(help="The ruleset.")] = None,
    file_format: Annotated[bool, typer.Option(
        "--file-format", help="The schema of a line of the game file that `agon export` writes instead.")] = False,
) -> None:
    """Print the JSON Schema of a ruleset's events (what `agon act GAME JSON` accepts), or of the game file."""
    if file_format:
        if ruleset is not None:
            raise UsageFail("give a ruleset or --file-format, not both")
        from agon.core.document import json_schema

        print_json(json_schema())
        return
    if ruleset is None:
        raise Fail("name a ruleset (see `agon rulesets`), or give --file-format for the game file's schema")
    from agon.core.service import codec_for

    print_json(codec_for(_ruleset(ruleset)).json_schema())


def _parse_bot(spec: str) -> tuple[str, str]:
    name, sep, kind = spec.partition(":")
    if not name or not sep or not kind:
        raise typer.BadParameter(f"{spec!r}: write it as NAME:KIND, e.g. --bot Zeno:random", param_hint="'--bot'")
    return name, kind


def _parse_option(spec: str) -> tuple[str, Any]:
    key, sep, value = spec.partition("=")
    if not key or not sep:
        raise typer.BadParameter(f"{spec!r}: write it as KEY=VALUE, e.g. --option difficulty=hard",
                                 param_hint="'--option'")
    lowered = value.lower()
    if lowered in ("true", "yes", "on"):
        return key, True
    if lowered in ("false", "no", "off"):
        return key, False
    try:
        return key, int(value)
    except ValueError:
        return key, value


@app.command(epilog=examples("agon new peloponnes --player Ana --bot Bruno:greedy --bot Chloe:random",
                             "agon new adamastor --player Ana --option difficulty=hard --table"))
@friendly
def new(
    ruleset: Annotated[str, typer.Argument(help="The ruleset (see `agon rulesets`).")],
    player: Annotated[list[str] | None, typer.Option("--player", "-p", help="A person's seat (repeat).")] = None,
    bot: Annotated[list[str] | None, typer.Option("--bot", help="A bot's seat as NAME:KIND (repeat).")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for chance outcomes (default: a random one).",
                                             parser=SEED)] = None,
    cards_file: Annotated[Path | None, typer.Option("--cards", help="Play with this card set (TOML/JSON).")] = None,
    table: Annotated[bool, typer.Option("--table", help="Chance outcomes are entered by a person.")] = False,
    option: Annotated[list[str] | None, typer.Option("--option", help="A ruleset option KEY=VALUE (repeat).")] = None,
    title: Annotated[str, typer.Option(help="A title for the game.")] = "",
    as_json: JsonOpt = False,
) -> None:
    """Create a game and print its id. People's seats come first, then bots', in the order given."""
    spec = NewGame(
        ruleset=ruleset, players=player or [], bots=[_parse_bot(b) for b in bot or []], seed=seed,
        cards=load_cards(cards_file) if cards_file else None, table=table,
        options=dict(_parse_option(o) for o in option or []), title=title,
    )
    setup = judge_new_game(spec)  # a request the rules of setup refuse makes no store where there is none
    svc = service(starts=True)
    game_id = svc.new_game(setup)
    line = svc.load(game_id)
    if as_json:
        print_json({"id": game_id, "ruleset": line.ruleset.name, "title": line.game.title, "seed": line.created.seed,
                    "luck": line.branch.luck,
                    "players": [{"name": p.name, "bot": p.bot} for p in line.created.players],
                    "events": len(line.events), "status": line.status()})
        return
    console.print(game_id)
    # a seed agon drew comes with a secret luck (core.service NewSetup.luck): the seed alone would not replay the
    # game, so it is not shown as if it did (`agon export` keeps both)
    drawn = "seed and luck drawn by agon" if line.branch.luck else f"seed {line.created.seed}"
    titled = f' "{line.game.title}"' if line.game.title else ""  # the title as stored, for the person to check
    console.print(f"{line.ruleset.title}{titled} for {', '.join(line.created.names)} ({drawn}"
                  f"{', table game' if table else ''}); {counted(len(line.events), 'event')} so far; {line.status()}.")
    # a game of bots alone is played out as it is made: it has no options left, its log tells how it went
    nxt = "log" if isinstance(line.pending, Over) else "options"
    console.print(f"Next: {agon_line(f'{nxt} {game_id}')}", markup=False)


@app.command(epilog=examples("agon games --ruleset perikles --status over --order newest --limit 20",
                             "agon --db demo.db games --json"))
@friendly
def games(
    limit: Annotated[int | None, typer.Option("--limit", help="Show at most this many games.", parser=LIMIT)] = None,
    ruleset: Annotated[str | None, typer.Option("--ruleset", help="Only games of this ruleset.")] = None,
    status: Annotated[str | None, typer.Option(
        "--status", help="Only games that are 'over' or still 'playing'.", parser=one_of("over", "playing"))] = None,
    order: Annotated[str, typer.Option(
        "--order", help="oldest (the default), newest, longest or shortest (by events; a game whose line cannot"
        " be read comes last in either).",
        parser=one_of("oldest", "newest", "longest", "shortest"))] = "oldest",
    as_json: JsonOpt = False,
) -> None:
    """List the stored games: id, ruleset, title (if any), players, status, branches and current scores.

    Read from the game summaries (no game is replayed); a summary that is missing or stale is recomputed first,
    with a progress bar."""
    from agon.cli.summary_cmds import progress_bar
    from agon.core.summary import scores_shown, shared

    if ruleset is not None:
        ruleset = _ruleset(ruleset).name
    try:
        svc = service()
    except NoStore as e:
        if not e.default:
            raise
        # agon's first run on this machine: the default store is not made yet, and no game is in it; listed as
        # empty, as a store that is, without making one (a --db or AGON_DB that names no file is refused instead:
        # the likelier story there is a path typed wrong)
        svc = None
    listed = []
    if svc is not None:
        with progress_bar("summarising games", quiet=as_json) as bar:
            listed = svc.listing(ruleset=ruleset, over=None if status is None else status == "over", order=order,
                                 limit=limit, progress=bar)
    rows = []
    for g in listed:
        s = g.summary
        rows.append({"id": g.id, "ruleset": g.ruleset, "title": g.title, "players": list(g.players),
                     "created_at": g.created_at.isoformat(timespec="seconds"), "branch": g.current_branch,
                     # a line that cannot be read has no known length (never a 0): the events the store holds
                     # for its game are said beside it
                     "branches": g.branches, "events": s.events if g.stored_events is None else None,
                     **({} if g.stored_events is None else {"stored_events": g.stored_events}),
                     "status": s.status, "scores": dict(s.scores),
                     # where the players win or lose together (an Adamastor crew), their one score (else null)
                     "shared_score": shared(g.ruleset, s.scores),
                     # what --status filters on, and who won, for a script (as `agon branches --json` says them)
                     "over": s.over, "winners": list(s.winners) if s.over else None,
                     # a damaged game is listed and marked (by any of its branches); the others as usual
                     "damaged": g.damaged or not s.readable})
    if as_json:
        print_json(rows)
        return
    if not rows:
        if status or ruleset:
            console.print("No stored game matches.")
        else:
            # where it looked: a --db or AGON_DB typed wrong reads an empty store, not the one meant
            console.print(f"No games yet in {without_password(db_url())}. Create one:"
                          f" {agon_line('new RULESET --player NAME --bot NAME:random')}", markup=False)
        return
    t = Table(title=f"Games in {without_password(db_url())}")
    titled = any(r["title"] for r in rows)  # a column of titles only where some game has one (`agon new --title`)
    cols = ("id", "ruleset", *(("title",) if titled else ()), "players", "events", "status", "branches", "scores")
    for col in cols:
        t.add_column(col, no_wrap=col in ("id", "ruleset", "events"))
    for r in rows:
        damaged = "DAMAGED: " + agon_line("verify " + r["id"])
        r["status"] = damaged if r["damaged"] else r["status"]  # the whole story: --json
        t.add_row(r["id"], r["ruleset"], *((r["title"],) if titled else ()), ", ".join(r["players"]),
                  events_cell(r), r["status"], f"{r['branches']} (on {r['branch']})",
                  scores_text(scores_shown(r["ruleset"], r["scores"]), unit_of(r["ruleset"])))
    widths = fit_columns(t)
    if widths is not None and widths[cols.index("status")] >= min(STATUS, max(len(r["status"]) for r in rows)):
        console.print(t)
        return
    # narrower, a game is a few lines: its id first (to copy), then who plays and the scores, then its status
    console.print(t.title)
    for r in rows:
        branches = f"{counted(r['branches'], 'branch')} (on {r['branch']})"
        events = (counted(r["events"], "event") if r["events"] is not None
                  else f"events unknown ({r['stored_events']:,} stored)")
        title = f" \"{r['title']}\"" if r["title"] else ""
        console.print(f"{r['id']}  {r['ruleset']}{title}, {events}, {branches}", markup=False)
        shown = scores_shown(r["ruleset"], r["scores"])  # a crew's one score once: 'players: ...; scores: the crew'
        scores = scores_text(shown, unit_of(r["ruleset"]))
        console.print(f"  {scores}" if set(shown) == set(r["players"]) else
                      f"  players: {', '.join(r['players'])}; scores: {scores or '-'}", markup=False)
        console.print(f"  {r['status']}", markup=False)


def events_cell(row: dict[str, Any]) -> str:
    """A listed game's events in the table; where its line cannot be read, unknown, with the number of events the
    store holds for the game."""
    return str(row["events"]) if row["events"] is not None else f"? ({row['stored_events']:,} stored)"


STATUS = 40
"""How wide the status column of 'agon games' must be for the games to be listed as a table, a game a row;
narrower (below about 140 columns), each game is a few lines instead."""


@app.command(epilog=examples("agon where", "agon --db demo.db where"))
@friendly
def where(as_json: JsonOpt = False) -> None:
    """Print where the games are stored (the database URL, a PostgreSQL password hidden)."""
    if as_json:
        print_json({"db": without_password(db_url())})
    else:
        console.print(without_password(db_url()), markup=False)


def _base(value: str) -> str:
    """``links --base``: the address players open the server at (``http://HOST:PORT`` or ``https://...``)."""
    text = str(value).strip().rstrip("/")
    if not re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?", text):
        raise typer.BadParameter(f"{str(value)!r} is no address of a server; give the one players open, e.g."
                                 " http://192.168.1.20:8000 or https://games.example.org")
    return text


PLAYER_SEAT = "player:"
"""``links --seat player:NAME``: the player NAME's seat alone, never the host's (a player may be named 'host')."""


def _seat_named(line: Any, people: list[str], typed: str) -> str:
    """The seat ``links --seat`` names: ':host' the host's; 'host' the host's too, unless a person's seat is so
    named (then refused naming both spellings: either reading would replace a link nobody asked to replace);
    'player:NAME' or a name a person's seat."""
    from agon.core import seats
    from agon.core.names import player_named

    text = typed.strip()
    if text == seats.HOST:
        return seats.HOST
    if text.lower() == "host":
        named = player_named(text, people)
        if named is None:
            return seats.HOST
        raise Fail(f"'{text}' names both the host's link (the table's recorder) and player {named}'s; give --seat"
                   f" :host for the host's or --seat {PLAYER_SEAT}{named} for {named}'s")
    if text[:len(PLAYER_SEAT)].lower() == PLAYER_SEAT:
        text = text[len(PLAYER_SEAT):].strip()
    found = line.player(text)
    if found not in people:
        raise Fail(f"{found} is a bot's seat, which no link opens; give a person's seat"
                   f" ({', '.join(people) or 'this game has none'}) or 'host'")
    return found


@app.command(epilog=examples("agon links 2f21", "agon links 2f21 --seat Ana --base https://games.example.org"))
@friendly
def links(
    game: Annotated[str, typer.Argument(help="The game (id or unique prefix).")],
    seat: Annotated[list[str] | None, typer.Option("--seat", help="Only this seat: a player's name, or 'host'"
                                                   " (repeat); the others keep their links. Where a player is"
                                                   " named host: ':host' for the host's, 'player:host' for"
                                                   " theirs.")] = None,
    base: Annotated[str | None, typer.Option(help="The server's address as players open it, put before each"
                                             " link (default: the links are paths).", parser=_base)] = None,
    as_json: JsonOpt = False,
) -> None:
    """Give a game new seat links for `agon serve`: one per person's seat and one for the host. For a game made by
    `agon new` or `agon import`, which has none, or to replace a link that was lost or seen by someone else: a link
    given before for the same seat no longer opens it."""
    from agon.core import seats

    svc = service()
    svc.writable(game)
    line = svc.load(game)
    people = [p.name for p in line.created.players if not p.bot]
    only = None
    if seat:
        only = {_seat_named(line, people, name) for name in seat}
    tokens = seats.issue(svc, line.game.id, only)
    prefix = base or ""
    link = {s: f"{prefix}/games/{line.game.id}/seat#token={t}" for s, t in tokens.items()}
    host = link.pop(seats.HOST, None)  # apart from the players' links: a player may be named 'host'
    if as_json:  # as POST /api/games names them: 'seats' by player, 'host' the host's (null when not asked for)
        print_json({"game": line.game.id, "seats": link, "host": host,
                    "spectate": f"{prefix}/games/{line.game.id}/watch"})
        return
    before = "" if only is None else " (the other seats keep theirs)"
    console.print(f"New links for game {line.game.id} ({line.ruleset.title}; {line.status()}): a link given before"
                  f" for these seats no longer opens them{before}. Give each link to its player only:",
                  markup=False, soft_wrap=True)
    width = max((len(s) for s in link), default=0)
    for s, url in link.items():  # a player's row indented, so none reads as the host's line below
        console.print(f"  {s.ljust(width)}  {url}", markup=False, soft_wrap=True)
    if host is not None:
        console.print(f"Host (the table's recorder; keep it): {host}", markup=False, soft_wrap=True)
    console.print(f"Spectators: {prefix}/games/{line.game.id}/watch", markup=False, soft_wrap=True)
    if not base:
        console.print("Put the server's address before each (e.g. http://127.0.0.1:8000), or give it with --base.",
                      markup=False)


def _program() -> str:
    """How to type agon here: 'agon' when it is on the PATH, else the path it was started by."""
    import os
    import shutil
    import sys

    argv0 = os.path.abspath(sys.argv[0])
    found = shutil.which("agon")
    if found and os.path.abspath(found) == argv0:
        return "agon"
    if os.path.basename(argv0) == "agon":
        rel = os.path.relpath(argv0)
        return rel if not rel.startswith("..") else argv0
    return "agon"


BOT_NAMES = ("Ana", "Bruno", "Chloe", "Dario", "Eva", "Farid", "Greta", "Hugo")
DEMO_GAMES = 100_000  # a statistics run's worth (about a game a second for the slower rulesets)


@app.command(epilog=examples("agon demo", "agon demo perikles --players 4 --games 20   # then: agon stats perikles"))
@friendly
def demo(
    ruleset: Annotated[str, typer.Argument(help="The ruleset to play (default: pergamemnon).")] = "",
    players: Annotated[int | None, typer.Option(help="Number of bot players (default: 3, or the nearest"
                                                " count the ruleset allows, e.g. 2 for adamastor).",
                                                parser=whole(1, 99))] = None,
    seed: Annotated[int, typer.Option(help="Seed for chance and bots (game k of --games uses SEED+k).",
                                      parser=SEED)] = 7,
    count: Annotated[int, typer.Option("--games", help="How many games to record, with a progress bar.",
                                       parser=whole(1, DEMO_GAMES))] = 1,
    as_json: JsonOpt = False,
) -> None:
    """Record a whole game played by bots, then show how to look at it (the quickest way to see agon work).
    With --games N, record N games (seeds SEED, SEED+1, ...) for `agon stats` to count."""
    names = [n for n in registry.names() if n != "toy"] or registry.names()
    name = ruleset or ("pergamemnon" if "pergamemnon" in names else names[0])
    rs = _ruleset(name)
    n = players or max(rs.min_players, min(3, rs.max_players))
    if seed + count - 1 > SEED_MAX:
        raise Fail(f"--seed {seed} --games {count} would need seeds up to {seed + count - 1}, past the largest,"
                   f" {SEED_MAX}; choose --seed {SEED_MAX - count + 1} or less")
    if not rs.min_players <= n <= rs.max_players:
        span = f"{rs.min_players}" if rs.min_players == rs.max_players else f"{rs.min_players} to {rs.max_players}"
        allowed = listed([str(k) for k in range(rs.min_players, rs.max_players + 1)], "or")
        raise Fail(f"{rs.name} is played by {span} players, not {n}; choose --players {allowed}")
    from agon.core.bots import bots_of

    kinds = bots_of(rs)
    kind = next((k for k in ("greedy", "smart") if k in kinds), "random")
    seats = [(BOT_NAMES[i] if i < len(BOT_NAMES) else f"Bot{i + 1}", kind) for i in range(n)]
    # as `agon new`: a setup refused makes no store (the games after the first differ by seed only)
    first = judge_new_game(NewGame(ruleset=name, bots=seats, seed=seed, title=f"demo of {name}"))
    svc = service(starts=True)
    if count > 1:
        _demo_many(svc, rs, seats, seed, count, as_json)
        return
    game_id = svc.new_game(first)
    line = svc.load(game_id)
    if as_json:
        print_json({"id": game_id, "ruleset": name, "events": len(line.events), "status": line.status(),
                    "scores": rs.scores(line.state), "db": without_password(db_url())})
        return
    console.print(f"Recorded a game of {escape(rs.title)} by {counted(len(seats), f'{kind} bot')}: game"
                  f" [bold]{game_id}[/], {counted(len(line.events), 'event')}.", markup=True)
    console.print(f"Result: {line.status()}")
    if (scores := scores_line(line.pending, rs.scores(line.state), score_unit(rs), rs.name)) is not None:  # unless told
        console.print(scores)
    console.print(f"Stored in: {without_password(db_url())}")
    console.print("Look at it with:")
    agon = _program()
    last = line.head.depth  # positions the line has, however short the game
    for cmd in (f"log {game_id}", f"replay {game_id} --to {min(20, last)}", f"state {game_id} --at {min(10, last)}",
                f"branch {game_id} whatif --at {min(10, last)}", f"plot scores {game_id}", f"view {game_id}"):
        console.print(f"  {agon_line(cmd).replace('agon', agon, 1)}", markup=False)


def _demo_many(svc: Any, rs: Any, seats: list[tuple[str, str]], seed: int, count: int, as_json: bool) -> None:
    """``agon demo --games N``: N bot games with seeds seed..seed+N-1, a progress bar on stderr meanwhile."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from agon.cli.common import err

    rows = []
    with Progress(TextColumn(f"recording {rs.name} games"), BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=err, transient=True, disable=bars_off(as_json)) as bar:
        task = bar.add_task("games", total=count)
        for k in range(count):
            game_id = svc.new_game(NewGame(ruleset=rs.name, bots=seats, seed=seed + k,
                                           # the seed tells apart the games of two runs ('1 of 40' of each)
                                           title=f"demo of {rs.name}, seed {seed + k} ({k + 1} of {count})"))
            line = svc.load(game_id)
            rows.append({"id": game_id, "ruleset": rs.name, "seed": seed + k, "events": len(line.events),
                         "status": line.status(), "scores": rs.scores(line.state), "db": without_password(db_url())})
            bar.advance(task)
    if as_json:
        print_json(rows)
        return
    events = sum(r["events"] for r in rows)
    where = without_password(db_url())
    console.print(f"Recorded {counted(count, f'{rs.title} game')} by {counted(len(seats), f'{seats[0][1]} bot')}"
                  f" (seeds {seed} to"
                  f" {seed + count - 1}), {counted(events, 'event')} in all, in {where}.", soft_wrap=True)
    console.print(f"Count them with: {agon_line(f'stats {rs.name}').replace('agon', _program(), 1)}", markup=False)
