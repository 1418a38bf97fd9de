"""Commands for files and integrity: export, import, verify."""

import json
import shlex
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from agon.cli.common import (
    MAX_GAME_FILE,
    Fail,
    JsonOpt,
    branch_name,
    cited,
    console,
    err,
    examples,
    friendly,
    input_file,
    no_store_yet,
    not_a_folder,
    print_json,
    read_input,
    service,
    told,
    write_file,
)
from agon.core.service import ServiceError
from agon.core.words import counted
from agon.events.store import StoreError

app = typer.Typer()


@app.command(epilog=examples("agon export 3f2a -o game.jsonl",
                             "agon export -o club/   # every game of the store, one file each"))
@friendly
def export(
    game: Annotated[str | None, typer.Argument(
        help="Game id (or a unique prefix); without one, every game of the store, each to a file of its own in the"
        " folder -o names.")] = None,
    branch: Annotated[str | None, typer.Option(
        "--branch", "-b", help="Write only this line, one event per line (default: the whole game).",
        parser=branch_name)] = None,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="File to write (default: stdout); without GAME, the folder to write every game's"
        " file in.")] = None,
    sign: Annotated[Path | None, typer.Option(
        "--sign", help="Sign the file with this Ed25519 private key (`agon keygen FILE` writes one), so a receiver"
        " with the public key can refuse a rewritten file (`agon import --trust KEY.pub`).")] = None,
) -> None:
    """Write the whole game as JSON Lines: a header naming the format and its version, every event of every line,
    every branch, the head history (undo, redo, branch, switch), the notes, and a trailer with the counts and a
    digest, so `agon import` gives the same game back. `agon schema --file-format` describes the lines.

    With --branch, one line only: one event per line with its envelope (id, parent, tag, version, actor).

    Without GAME, every game of the store, each whole to its own file, ID.jsonl, in the folder -o names (made if
    missing): a club's history, which `agon import FOLDER/*.jsonl` takes into another store."""
    if game is None:
        _export_every(branch, output, sign)
        return
    if output is not None:
        not_a_folder(output, ".jsonl")  # before the game is read and written out, with a file name suggested
    if sign is not None:
        input_file(sign, "key file", "; `agon keygen FILE` writes a key pair")
    svc = service()
    left_out = ""
    if branch is not None:
        from agon.core.notes import on_line

        data = svc.export(game, branch)
        events = json.loads(data.splitlines()[-1])["events"]  # as its trailer says
        count = f"{counted(events, 'event')} of branch {branch}"
        line = svc.load(game, branch)
        notes = len(on_line(svc, line))
        if notes:  # a line's file holds its events only: say so rather than lose the notes without a word
            left_out = (f"The {counted(notes, 'note')} on this line {'is' if notes == 1 else 'are'} not in a one-line"
                        f" file; {cited(f'export {line.game.id} -o FILE')} writes the whole game with its notes.")
    else:
        from agon.core import document
        from agon.core.transfer import build_document

        doc = build_document(svc, game)
        data = document.write(doc)
        count = (f"the whole game: {counted(len(doc.events), 'event')}, {counted(len(doc.branches), 'branch')},"
                 f" {counted(len(doc.moves), 'head move')}, {counted(len(doc.notes), 'note')}")
    if sign is not None:
        from agon.core import signing

        try:
            data = signing.sign(data, sign)
        except signing.SignatureError as e:
            raise Fail(str(e)) from None
        count += ", signed"
    if output is None:
        typer.echo(data.decode(), nl=False)
        if left_out:
            err.print(left_out)
        return
    screen = told(output)  # asked before the file is written
    write_file(output, data)  # whole or not at all, missing folders created, as view, plot and cards do
    screen.print(f"Wrote {count} to {output}", markup=False)
    if left_out:
        screen.print(left_out, markup=False)


def _export_every(branch: str | None, folder: Path | None, sign: Path | None) -> None:
    """``agon export -o FOLDER``: every game whole, to FOLDER/ID.jsonl; a damaged game is named and left out."""
    if branch is not None:
        raise Fail("--branch names a line of one game: give the GAME too, or leave --branch out to write every game"
                   f" whole ({cited('export -o FOLDER')})")
    if folder is None:
        raise Fail("give a GAME to export, or -o FOLDER to write every game of the store, each to a file of its own"
                   f" ({cited('export -o club/')})")
    if folder.exists() and not folder.is_dir():
        raise Fail(f"{folder} is a file; without a GAME, -o names the folder to write every game's file in, e.g."
                   f" {folder.with_suffix('')}-games/")
    if not folder.exists() and folder.suffix == ".jsonl":  # a game's file named, its GAME left out: no such folder
        raise Fail(f"give the GAME to write to {folder} ({cited('games')} lists them); without a GAME, -o names a"
                   f" folder to write every game's file in, e.g. {folder.with_suffix('')}/")
    if sign is not None:
        input_file(sign, "key file", "; `agon keygen FILE` writes a key pair")
    from agon.cli.summary_cmds import progress_bar
    from agon.core import document
    from agon.core.transfer import export_every

    svc = service()
    games = svc.games()
    written, events, damaged = 0, 0, []
    with progress_bar("exporting games") as bar:
        step = bar(len(games))
        for gid, doc in export_every(svc, games):
            if isinstance(doc, Exception):
                damaged.append(f"{gid}: {doc}")
            else:
                data = document.write(doc)
                if sign is not None:
                    from agon.core import signing

                    try:
                        data = signing.sign(data, sign)
                    except signing.SignatureError as e:
                        raise Fail(str(e)) from None
                write_file(folder / f"{gid}.jsonl", data)
                written += 1
                events += len(doc.events)
            step()
    where = shlex.quote(str(folder).rstrip("/") or "/")
    signed = ", each signed" if sign is not None and written else ""
    said = f"Wrote {counted(written, 'game')} ({counted(events, 'event')} in all{signed}) to {folder}, one file each"
    if written:
        said += f"; `agon --db OTHER import {where}/*.jsonl` takes them into another store"
    console.print(f"{said}.", markup=False)
    for line in damaged:
        console.print(f"damaged, not written: {line}", markup=False)
    if damaged:
        raise Fail(f"{counted(len(damaged), 'damaged game')} not written ({cited('verify')} says what is broken)")


@app.command("import", epilog=examples("agon import game.jsonl",
                                       "agon --db club.db import club/*.jsonl --json   # every file of a folder"))
@friendly
def import_(
    files: Annotated[list[Path], typer.Argument(
        help="Files written by `agon export`, one game each (-: read one from standard input).")],
    trust: Annotated[Path | None, typer.Option(
        "--trust", help="A public key file (.pub from `agon keygen`): refuse the file unless that key signed it.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Import games written by `agon export` (each file a whole game, or one line). A game already stored (the same
    first event) is not duplicated: only what the file has more is added. A file that is truncated, reordered,
    edited, does not replay cleanly or contradicts the stored game is refused whole; of several files, each is
    judged before any is imported, so one that is refused imports none."""
    hint = "; give a file written by `agon export GAME -o FILE`"
    if len(files) > 1 and any(str(f) == "-" for f in files):
        raise Fail("standard input (-) is read alone; give it as the only FILE, or give files only")
    for file in files:
        if str(file) != "-":
            # a folder 'agon export -o FOLDER' wrote: its files are what to give
            base = str(file).rstrip("/")
            folder = f" (every game in it: {cited('import ' + (shlex.quote(base) if base else '') + '/*.jsonl')})"
            input_file(file, "game file", hint + (folder if file.is_dir() else ""))
    if trust is not None:
        input_file(trust, "public key file", "; `agon keygen FILE` writes FILE.pub")
    from agon.core import signing

    try:
        trusted = signing.public_hex(trust) if trust is not None else None
    except signing.SignatureError as e:
        raise Fail(str(e)) from None
    if len(files) == 1:
        reported = [_import_one(files[0], trusted)]
    else:
        for file in files:  # judged before the store opens and before any is imported; read again to import, so
            _judged(file, trusted)  # that a club's history of hundreds of games is never held whole in memory
        reported = []
        for done, file in enumerate(files):
            try:
                reported.append(_import_one(file, trusted))
            except (Fail, ServiceError, StoreError) as e:
                before = f"; the {counted(done, 'file')} before it {'was' if done == 1 else 'were'} imported"
                raise _named(e, file, before + " (importing them again adds nothing)" if done else "") from None
    sentences = [report.pop("said") for report in reported]
    if as_json:
        print_json(reported[0] if len(files) == 1 else reported)
        return
    untrusted = ("the signature proves only that the file is unchanged since that key signed it; --trust SENDER.pub"
                 " requires your sender's key.")
    if len(files) == 1:  # the id alone first: what a script takes (`agon import FILE | head -1`)
        report, said = reported[0], sentences[0]
        console.print(report["id"])
        console.print(said, markup=False)
        if report["trusted"]:
            console.print(f"Signed by the trusted key {trusted[:16]}...")
        elif report["signed_by"]:
            console.print(f"Signed by key {report['signed_by'][:16]}..., which no --trust names: {untrusted}")
        return
    # several files (a club's folder of hundreds): one line a file, its game id in it, then the count
    for report, said in zip(reported, sentences, strict=True):
        if report["trusted"]:
            said += f". Signed by the trusted key {trusted[:16]}..."
        elif report["signed_by"]:
            said += f". Signed by key {report['signed_by'][:16]}..., which no --trust names."
        else:
            said += "."
        console.print(said, markup=False)
    if any(r["signed_by"] and not r["trusted"] for r in reported):
        console.print(f"Of a file signed by a key no --trust names, {untrusted}", markup=False)
    outcomes = [r["outcome"] for r in reported]
    parts = {"new": counted(outcomes.count("new"), "new game"),
             "extended": f"{counted(outcomes.count('extended'), 'game')} added to",
             "unchanged": f"{outcomes.count('unchanged')} with nothing new"}
    said = ", ".join(v for k, v in parts.items() if k in outcomes)
    if set(outcomes) == {"unchanged"}:  # a sync run again: none was imported, which 'N files imported' hid
        said = "every game is stored already, with nothing new; nothing was imported"
        console.print(f"{counted(len(files), 'file')} read: {said}.")
    else:
        console.print(f"{counted(len(files), 'file')} imported: {said}.")


def _named(e: Exception, file: Path, then: str = "") -> Exception:
    """The import's refusal ``e`` naming ``file`` (of several given, which one was refused), ``then`` added: an
    exception of the same kind, so that its hints are given this command's --db as before."""
    said = str(e)
    return type(e)(f"cannot import {file}: {said.removeprefix('cannot import: ')}{then}")


def _read(file: Path) -> bytes:
    stdin = str(file) == "-"
    data = read_input(None if stdin else file, "game file", MAX_GAME_FILE,
                      "; give a file written by `agon export GAME -o FILE`")
    if not data:
        raise Fail(f"{'standard input' if stdin else f'game file {file}'} is empty; give what `agon export GAME`"
                   " wrote")
    return data


def _judged(file: Path, trusted: str | None):
    """``file`` read and judged as far as no store is needed (``read_export``), naming the file when refused."""
    from agon.core.transfer import read_export

    try:
        return read_export(_read(file), trust=trusted, no_store=no_store_yet())
    except (Fail, ServiceError, StoreError) as e:
        raise _named(e, file) from None


def _import_one(file: Path, trusted: str | None) -> dict:
    """Import ``file``: what the command prints of it (``--json``'s object, and the sentence as ``said``)."""
    from agon.core.transfer import import_file, read_export

    # judged before the store opens: a refused file makes no store where there is none
    exported = read_export(_read(file), trust=trusted, no_store=no_store_yet())
    svc = service(starts=True)
    report = import_file(svc, exported)
    signer = trusted or exported.signed_by  # checked by the read already: the key it names, if any
    line = svc.load(report.game_id, report.branch or None)  # a line's file: the branch its events are on
    return {"id": report.game_id, "outcome": report.outcome, "added": {
        "events": report.events, "branches": report.branches, "moves": report.moves, "notes": report.notes},
        "passed_switches": report.passed, "ruleset": line.ruleset.name, "branch": line.branch.name,
        "events": svc.store.event_count(report.game_id),
        "status": line.status(), "signed_by": signer, "trusted": bool(trusted),
        "said": f"{report.sentence()}. {line.ruleset.title}, branch {line.branch.name}: {line.status()}"}


@app.command(epilog=examples("agon keygen ~/.agon/key   # writes key and key.pub",
                             "agon keygen ana.key   # then: agon export 3f2a --sign ana.key"))
@friendly
def keygen(file: Annotated[Path, typer.Argument(help="Where to write the private key (the public key goes to"
                                                " FILE.pub).")]) -> None:
    """Write a new Ed25519 key pair for signing exports: keep FILE private, give FILE.pub to whoever imports."""
    from agon.core import signing

    not_a_folder(file, ".key")
    pub = file.with_name(file.name + ".pub")  # where signing.keygen writes the public key
    for path in (file, pub):
        if path.exists() or path.is_symlink():
            raise Fail(f"{path} exists; choose another FILE (a key is never overwritten, nor its .pub)")
    public = signing.keygen(file)
    console.print(f"Wrote the private key to {file} and the public key to {public}.", markup=False)
    sign = cited(f"export GAME --sign {shlex.quote(str(file))}")
    trust = cited(f"import FILE --trust {shlex.quote(str(public))}")
    console.print(f"Sign with: {sign}; import with: {trust}", markup=False)


@app.command(epilog=examples("agon verify 3f2a --json", "agon verify   # every game of the store"))
@friendly
def verify(game: Annotated[str | None, typer.Argument(
               help="Game id (or a unique prefix); without one, every game of the store.")] = None,
           as_json: JsonOpt = False) -> None:
    """Recompute the hash chain of every event and replay every branch; report tampering or non-determinism.

    Without a game, check every game (with a progress bar) and print one line per damaged game and a count. A
    damaged game is marked in its summaries, so `agon games` shows it as DAMAGED (not on a read-only store, which
    keeps no mark)."""
    svc = service()
    if game is None:
        _verify_all(svc, as_json)
        return
    problems = svc.verify(game)
    g = svc.game(game)
    n = svc.store.event_count(g.id)
    b = len(svc.store.branches(g.id))
    if as_json:
        print_json({"game": g.id, "events": n, "branches": b, "ok": not problems, "problems": problems})
    elif problems:
        for p in problems:
            console.print(f"[red]problem:[/] {escape(p)}", markup=True)
    else:
        console.print(f"OK: {counted(n, 'event')}, {counted(b, 'branch')}; every hash matches and every line replays"
                      " the same.")
    if problems:
        raise typer.Exit(1)


def _verify_all(svc, as_json: bool) -> None:
    from agon.cli.summary_cmds import checked_line, progress_bar

    with progress_bar("verifying games", quiet=as_json) as bar:
        n, damaged = svc.verify_all(bar)
    if as_json:
        data = {"games": n, "ok": not damaged, "damaged": [{"game": g, "problems": p} for g, p in damaged.items()]}
        if damaged:  # whether the damaged games were marked in the store (a read-only one keeps no mark)
            data["marked"] = not svc.store.read_only
        print_json(data)
    else:
        for g, problems in damaged.items():
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            console.print(f"[red]damaged:[/] {g}: {escape(problems[0])}{more}", markup=True)
        console.print(checked_line(n, damaged, marked=not svc.store.read_only), markup=False)
    if damaged:
        raise typer.Exit(1)
