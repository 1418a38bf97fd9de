"""Moving games between stores: a whole game as a document (core/document.py), or one line as before.

Import is idempotent: a game is recognised by its first event's id (a hash of its creation, so the same game
wherever it was played). A file of a game already stored adds only what the store lacks, when the file's head
history continues the stored one, switches aside (``_moves_after``); a file whose history disagrees with the stored
game's is refused. Every line of the file's tree is replayed against the rules before anything is written, and
everything is written in one transaction: a refused file imports nothing.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC
from itertools import chain

from agon.core import card_sets as card_sets_mod
from agon.core import document, registry
from agon.core.document import Branch, Document, DocumentError, GameHead, Move, Note
from agon.core.names import MAX_LUCK, branch_problem, note_problem, title_problem
from agon.core.service import Line, Service, ServiceError, codec_for, default_card_set, replay_problem, seats_problem
from agon.core.words import counted
from agon.events.base import Event, GameCreated
from agon.events.codec import DecodeError
from agon.events.envelope import Envelope, ImportError_, lf_endings, read_line_file
from agon.events.hints import again
from agon.events.store import BranchInfo, GameInfo, HeadMove, NoteInfo, StoreError, now


@dataclass(frozen=True)
class ImportReport:
    """What an import did: ``outcome`` is "new" (a game this store did not have), "unchanged" (already stored:
    nothing added) or "extended" (already stored: what the file had more was added)."""

    game_id: str
    outcome: str
    events: int = 0
    branches: int = 0
    moves: int = 0
    notes: int = 0
    branch: str = ""
    """The branch a one-line file's line is on once imported (the one it extended, or made); empty for a whole
    game, which brings its own current branch."""
    passed: int = 0
    """Switches between branches the file holds and the store lacks that were not added (``_moves_after``)."""

    def sentence(self) -> str:
        added = _counted(self.events, "event") + _counted(self.branches, "branch") + _counted(
            self.moves, "head move") + _counted(self.notes, "note")
        if self.outcome == "new":
            return f"Imported game {self.game_id}: {', '.join(added) or 'nothing'}"
        switches = counted(self.passed, "switch")
        if self.outcome == "unchanged" and self.passed:
            return (f"Game {self.game_id} is already stored (the same first event); the file is newer only by"
                    f" {switches} between branches, passed over (which branch is current is each store's own),"
                    " so nothing was imported")
        if self.outcome == "unchanged":
            return (f"Game {self.game_id} is already stored (the same first event); the file holds nothing new,"
                    " so nothing was imported")
        aside = f"; passed over its {switches} between branches" if self.passed else ""
        return f"Game {self.game_id} was already stored; added {', '.join(added)}{aside}"


def _counted(n: int, noun: str) -> list[str]:
    return [counted(n, noun)] if n else []


def _fail(message: str | Exception) -> Exception:
    """The import's refusal of ``message`` (or of an exception's, a step it names kept: events/hints.py). The store's
    own refusal (``events.store.unavailable``) says already whether anything was recorded: that is not said twice."""
    if not isinstance(message, Exception):
        return ServiceError(f"cannot import: {message}; nothing was imported")
    said = _RECORDED.search(str(message)) is not None
    return again(message, ServiceError, "cannot import: ", "" if said else "; nothing was imported")


_RECORDED = re.compile(r"nothing was (?:recorded|imported)|may have been recorded")
"""How a store's refusal says whether what it refused was written."""


# -- export ------------------------------------------------------------------------------------------------------

def build_document(svc: Service, game_ref: str) -> Document:
    """Everything stored of a game, as a document."""
    try:
        game = svc.store.game(game_ref)
    except StoreError as e:
        raise again(e, ServiceError) from None
    svc.check_intact(game.id)  # a damaged game is refused, not written as a file no import would take
    store = svc.store
    head = GameHead(game.id, game.ruleset, game.title, list(game.players), game.created_at, game.current_branch)
    branches = [Branch(b.name, b.head_id, b.luck, b.parent_branch, b.fork_id, b.created_at)
                for b in store.branches(game.id)]
    moves = [Move(m.branch, m.from_id, m.to_id, m.reason, m.at) for m in store.head_moves(game.id)]
    notes = [Note(n.event_id, n.text, n.glyph, n.at) for n in store.notes(game.id)]
    events = store.all_events(game.id)
    # the card set the first event names (checked: check_intact above reports a missing or changed one)
    return Document(head, events, branches, moves, notes, svc.card_sets_of(svc.created(game)))


def export_game(svc: Service, game_ref: str) -> bytes:
    """The whole game as the file 'agon export' writes."""
    return document.write(build_document(svc, game_ref))


def export_every(svc: Service, games: Sequence[GameInfo] | None = None
                 ) -> Iterator[tuple[str, Document | ServiceError]]:
    """Every game of the store (or ``games``, as ``Service.games`` listed them: oldest first, as ``agon games``
    lists them), each as its document (what ``export_game`` writes, events counted), or the refusal of a game that
    is damaged: a club's whole history, one game at a time, so that it is never held whole in memory."""
    for game in svc.games() if games is None else games:
        try:
            yield game.id, build_document(svc, game.id)
        except ServiceError as e:
            yield game.id, e


# -- import ------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ExportFile:
    """A file ``agon export`` wrote, as ``read_export`` read and judged it: a whole game (``doc``), or one line (the
    rest)."""

    doc: Document | None
    envs: tuple[Envelope, ...] = ()
    lucks: tuple[int, ...] = ()
    card_sets: Mapping[str, bytes] = field(default_factory=dict)
    """The card sets a line file carries (a document's are ``doc.card_sets``); once judged, the file's with the one
    its first event names wherever it was found (the file, agon's bundled sets, the store)."""
    luck: int | None = None
    signed_by: str | None = None
    """The public key (hex) whose signature of the file checked, if it is signed."""
    decoded: Mapping[str, Event] = field(default_factory=dict)
    """Every event decoded, by id (the first with its card set filled in), every line of the file replayed against
    the rules; empty while the card set is left for the store to give (``stored_set``)."""
    stored_set: str = ""
    """The hash of the card set the first event names when neither the file carries it nor agon bundles it: only
    a store that holds it can give it, so the lines are replayed once the store is open (empty: judged whole)."""

    @property
    def events(self) -> list[Envelope]:
        return self.doc.events if self.doc is not None else list(self.envs)


BOM = "\ufeff".encode()
"""The UTF-8 byte-order mark, which an editor may put before the first line of a file it saves."""


def read_export(data: bytes, trust: str | None = None, no_store: bool = False) -> ExportFile:
    """Read a file written by ``agon export`` (UTF-8 text, a signature that checks, a document or a line file) and
    judge it as far as no store is needed: every line replayed against the rules, every name and luck checked, the
    card set its first event names found in the file or among agon's bundled sets. Raises the import's refusal.
    Pure (no store is asked): a face reads the file here before it opens a store, so that importing a file that
    is refused makes no store where there is none. A card set found in neither is left for the store
    (``ExportFile.stored_set``); with ``no_store`` (the file goes where no store is yet: a new one would hold no set)
    it is refused here, in the words the store's refusal would use.

    A signed file's signature must check (core/signing.py); with ``trust`` (a public key, hex) the file must be
    signed by that key.

    A UTF-8 byte-order mark before the first line (some Windows editors save one) is no part of the file: agon never
    writes one, so the digest in the trailer and a signature are over the bytes after it, as exported. So are a
    file's CRLF line endings, which an editor on Windows may save it with (``lf_endings``, which see: a file of
    mixed endings, or of CR alone, is refused)."""
    from agon.core import signing

    data = data.removeprefix(BOM)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise _fail(f"the file is not UTF-8 text (byte {e.start} cannot be read): it is not an agon export") from None
    try:
        data = lf_endings(data)  # saved again on Windows: read as the LF file it was exported as (signature too)
    except ImportError_ as e:
        raise _fail(e) from None
    try:
        signed = signing.check(data, trust)
    except signing.SignatureError as e:
        raise _fail(e) from None
    data = signed.body
    if document.is_document(data):
        try:
            file = ExportFile(document.read(data))
        except DocumentError as e:
            raise _fail(e) from None
    else:
        try:
            envs, trailer, card_sets = read_line_file(data)
        except ImportError_ as e:
            raise _fail(e) from None
        file = ExportFile(None, tuple(envs), tuple(trailer.lucks), card_sets, trailer.luck)
    return _judged(replace(file, signed_by=signed.key), {} if no_store else None)


def import_data(svc: Service, data: bytes, trust: str | None = None) -> ImportReport:
    """Import a file written by ``agon export``: a whole game (a document) or one line (``--branch``), read by
    ``read_export`` (which see)."""
    svc.writable()
    return import_file(svc, read_export(data, trust))


def import_file(svc: Service, file: ExportFile) -> ImportReport:
    """Import a file ``read_export`` read (a face that read and judged it before opening the store)."""
    svc.writable()
    if file.stored_set:  # the one check that needs the store: the card set only it can give
        file = _judged(file, svc.store.card_sets([file.stored_set]))
    if file.doc is not None:
        return import_document(svc, file)
    return _import_line(svc, file)


def _judged(file: ExportFile, stored: Mapping[str, bytes] | None) -> ExportFile:
    """``file`` judged (see ``read_export``): ``stored``, the card sets a store gave; None while no store is asked
    (a card set found neither in the file nor among the bundled ones is then left for the store)."""
    events = file.events
    rs = _ruleset_of(events[0])
    if file.doc is not None:
        if file.doc.game.ruleset != rs.name:
            raise _fail(f"the header names ruleset {file.doc.game.ruleset!r}, the first event {rs.name!r}")
        problem = _names_problem(file.doc)
        if problem:  # what 'agon new', 'branch' and 'note' refuse, a file may not bring in
            raise _fail(f"the file's {problem}")
        heads, lucks = file.doc.heads(), [b.luck for b in file.doc.branches]
    else:
        problem = next((p for p in map(_luck_problem, [*file.lucks, file.luck or 0]) if p), None)
        if problem:
            raise _fail(f"the file's {problem}")
        heads, lucks = None, list(file.lucks)
    decoded = _decoded(rs, events)
    root = decoded[events[0].id]
    sets = dict(file.doc.card_sets if file.doc is not None else file.card_sets)
    if isinstance(root, GameCreated):
        h = card_sets_mod.wanted(root)
        other = next((x for x in sorted(sets) if x != h), None)
        if other is not None:  # an export carries only the set its game names: this one was changed or added
            named = f"names card set {h[:12]}" if h else "embeds its card set"
            raise _fail(f"the file carries card set {other[:12]}, but its first event {named}: the set was changed"
                        " or added after the export; export the game again")
        if h and h not in sets:
            bundled = default_card_set(rs)
            if bundled[0] == h:  # the ruleset's own set: agon has it, whatever the file or the store holds
                sets[h] = bundled[1]
            elif stored is None:
                return replace(file, stored_set=h)
            elif h in stored:
                sets[h] = stored[h]
        try:
            decoded[events[0].id] = card_sets_mod.expand(root, sets.get, _NOT_FOUND)
        except card_sets_mod.CardSetProblem as e:
            raise _fail(str(e)) from None
    _replay(rs, events, decoded, heads, lucks)  # what 'agon new' would refuse of the first event is said first
    problem = _header_problem(file.doc.game, root) if file.doc is not None and isinstance(root, GameCreated) else None
    if problem:
        raise _fail(f"the file's {problem}")
    return replace(file, card_sets=sets, decoded=decoded, stored_set="")


_NOT_FOUND = ("is neither in the file nor bundled with agon nor in this store; export the game again from a store"
              " that holds it (its file then carries the set)")


def _decoded(rs, events: list[Envelope]) -> dict[str, Event]:
    codec = codec_for(rs)
    current = {t: codec.version_of(t) for t in codec.by_tag}
    decoded = {}
    for env in events:
        try:
            decoded[env.id] = codec.decode(env.payload, None if current.get(env.tag) == env.version else env.version)
        except DecodeError as e:
            raise _fail(f"event #{env.depth} cannot be read: {e}") from None
    return decoded


def _ruleset_of(root: Envelope):
    if root.tag != "game.created":
        raise _fail("the first event must be the game's creation (game.created)")
    try:
        head = json.loads(root.payload)
    except (ValueError, RecursionError):
        raise _fail("the game's creation (its first event) is not readable JSON") from None
    if not isinstance(head, dict):
        raise _fail(f"the game's creation (its first event) is not a JSON object but {type(head).__name__}")
    try:
        return registry.recorded(str(head.get("ruleset", "")))
    except registry.UnknownRuleset as e:
        raise _fail(e) from None


def _replay(rs, events: list[Envelope], decoded: Mapping[str, Event], heads: dict[str, str] | None,
            lucks: list[int]) -> None:
    """Replay every line of a tree of events (each path from the first event to a node without children) against
    the rules (a pure fold); raises the import's refusal on the first problem, naming its line by the branch whose
    head ends it (``heads``: name -> head; None: a file of one line, named by none)."""
    by_id = {e.id: e for e in events}
    parents = {e.parent for e in events}
    names = {v: k for k, v in (heads or {}).items()}
    game = GameInfo("import", rs.name, "", (), now(), "main")
    for leaf in (e for e in events if e.id not in parents):
        chain = _chain(by_id, leaf.id)
        branch = BranchInfo(names.get(leaf.id, "main"), leaf.id, 0, None, None, now())
        problem = replay_problem(Line(game, branch, rs, chain, [decoded[e.id] for e in chain]), lucks)
        if problem:
            if heads is None:  # a file of one line
                raise _fail(problem)
            which = f"branch {names[leaf.id]}" if leaf.id in names else f"the line ending at event #{leaf.depth}"
            raise _fail(f"{which}: {problem}")


def _chain(by_id: dict[str, Envelope], head: str) -> list[Envelope]:
    chain = []
    node: Envelope | None = by_id[head]
    while node is not None:
        chain.append(node)
        node = by_id.get(node.parent) if node.parent is not None else None
    chain.reverse()
    return chain


def _summaries(rs, game: GameInfo, branches: list[BranchInfo], events: list[Envelope], decoded: dict) -> list:
    """The game summary rows of these branches (events/summary.py), written with the import."""
    by_id = {e.id: e for e in events}
    out = []
    for b in branches:
        chain = _chain(by_id, b.head_id)
        out.append(Line(game, b, rs, chain, [decoded[e.id] for e in chain]).summary)
    return out


def _free_id(svc: Service, wanted: str) -> str:
    try:
        svc.store.game(wanted)
    except StoreError:
        if wanted and all(c in "0123456789abcdef" for c in wanted):
            # a prefix of another game's id would make that game's short id ambiguous
            if not any(g.id.startswith(wanted) or wanted.startswith(g.id) for g in svc.store.games()):
                return wanted
    return secrets.token_hex(4)


def import_document(svc: Service, file: ExportFile) -> ImportReport:
    """A whole game ``read_export`` read and judged (``file.doc``): a new game, or what a stored one lacks."""
    doc, decoded = file.doc, file.decoded
    assert doc is not None and decoded
    rs = _ruleset_of(doc.root)
    branches = [BranchInfo(b.name, b.head, b.luck, b.parent, b.fork, b.created_at) for b in doc.branches]
    moves = [HeadMove(m.branch, m.from_id, m.to_id, m.reason, m.at) for m in doc.moves]
    notes = [NoteInfo(n.event, n.text, n.glyph, n.at) for n in doc.notes]
    stored = svc.store.game_by_root(doc.root.id)
    try:
        if stored is None:
            g = doc.game
            game_id = _free_id(svc, g.id)
            info = GameInfo(game_id, rs.name, g.title, tuple(g.players), g.created_at, g.current_branch)
            svc.store.write_game(info, doc.root.id, doc.events, branches, moves, notes,
                                 _summaries(rs, info, branches, doc.events, decoded),
                                 _used_sets(decoded[doc.root.id], file.card_sets))
            return ImportReport(game_id, "new", len(doc.events), len(branches), len(moves), len(notes))
        return _extend(svc, stored, doc, branches, moves, notes, decoded)
    except StoreError as e:
        raise _fail(e) from None


def _holder(svc: Service, game: GameInfo, branches: list[BranchInfo], node: str) -> BranchInfo | None:
    """A stored branch whose line holds ``node`` (the game's current one first), or None."""
    for b in sorted(branches, key=lambda b: b.name != game.current_branch):
        if svc._holds(svc.load(game.id, b.name), node):
            return b
    return None


def _names_problem(doc: Document) -> str | None:
    """The first title, player name, branch name, luck or note of ``doc`` that the service would refuse."""
    problems = chain([title_problem(doc.game.title), seats_problem(list(doc.game.players))],
                     (branch_problem(b.name) or _luck_problem(b.luck) for b in doc.branches),
                     (note_problem(n.text) for n in doc.notes))
    return next((p for p in problems if p), None)


def _header_problem(game: GameHead, root: GameCreated) -> str | None:
    """Where the header of a whole-game file says of its game other than the game's first event does (its title,
    its players), or None. The header is outside the hash chain: the game imported takes its title and players from
    it, so one edited (and the trailer's digest recomputed) would list the game under a title or names its log never
    had, and pass them on in every export of it."""
    if game.title != root.title:
        return (f"header names the title {game.title!r}, but its first event {root.title!r}: the header was edited"
                " after the export; export the game again")
    if tuple(game.players) != root.names:
        return (f"header names the players {', '.join(game.players)}, but its first event {', '.join(root.names)}:"
                " the header was edited after the export; export the game again")
    return None


def _luck_problem(luck: int) -> str | None:
    return None if 0 <= luck <= MAX_LUCK else f"branch luck {luck} is outside 0 to {MAX_LUCK}"


def _used_sets(created: GameCreated, given: Mapping[str, bytes]) -> dict[str, bytes]:
    """The card set a game's first event names, when the file carries it (else the store has it already)."""
    h = card_sets_mod.wanted(created)
    return {h: given[h]} if h and h in given else {}


def _continues(stored: list, given: list, what: str, game_id: str) -> list:
    """What ``given`` adds after ``stored`` when one continues the other; else the import is refused."""
    n = min(len(stored), len(given))
    for i in range(n):
        if stored[i] != given[i]:
            raise _fail(f"the file contradicts stored game {game_id}: its {what} #{i + 1} differs from the stored"
                        " one (the file is of another history of this game)")
    return given[len(stored):]


def _moves_after(stored: list[HeadMove], given: list[HeadMove], game_id: str,
                 depths: Callable[[], tuple[Mapping[str, int], Mapping[str, int]]] = lambda: ({}, {}),
                 ) -> tuple[list[HeadMove], int]:
    """What the file's head history ``given`` adds to the stored one, and how many of its switches the store
    lacks and does not take. Switches are left out of the comparison: a switch moves no head, it only changes
    which branch is current, so each store may have switched on its own. Their other moves must agree as far as
    both go, else the import is refused; when the file has more of them, everything after the part both share is
    added, its switches with it (so a store that only ever received holds the sender's game exactly); a file
    newer only by switches adds nothing, and says it passed them over. ``depths``: (the stored game's, the
    file's) event numbers by event id, asked for only to tell a refusal where each move led."""
    mine = [m for m in stored if m.reason != "switch"]
    theirs = [(i, m) for i, m in enumerate(given) if m.reason != "switch"]
    for (i, m), s in zip(theirs, mine, strict=False):
        if m != s:
            at_stored, at_file = depths()
            raise _fail(f"the file contradicts stored game {game_id}: its head move #{i + 1} ({_told(m, at_file)})"
                        f" differs from the stored one ({_told(s, at_stored)}), switches between branches aside:"
                        " the two went on"
                        " apart, so the file is of another history of this game; import it into another store"
                        " (--db) to keep both")
    held = set(stored)  # a switch the store already took from an earlier file of the sender's
    start = len(given) if len(theirs) <= len(mine) else theirs[len(mine) - 1][0] + 1 if mine else 0
    passed = sum(m.reason == "switch" and m not in held for m in given[:start])
    return [m for m in given[start:] if m.reason != "switch" or m not in held], passed


def _told(m: HeadMove, depths: Mapping[str, int]) -> str:
    """A head move in words, for a refusal: "an undo on branch 'main', 2026-01-02 10:11:12 UTC, to event #7
    (3f2a1b4c)": where it led (``depths``: event numbers by event id), so that two moves made in the same second
    on the same branch, one decision here and another there, do not read alike."""
    what = f"the start of branch {m.branch!r}" if m.reason == "branch" else (
        f"{_MOVES.get(m.reason, repr(m.reason))} on branch {m.branch!r}")
    depth = depths.get(m.to_id)
    to = f"event #{depth} ({m.to_id[:8]})" if depth is not None else f"event {m.to_id[:8]}"
    return f"{what}, {m.at.astimezone(UTC):%Y-%m-%d %H:%M:%S} UTC, to {to}"


_MOVES = {"create": "the creation", "act": "an act", "reenter": "undone moves played again", "undo": "an undo",
          "redo": "a redo", "import": "an import"}


def _extend(svc: Service, stored: GameInfo, doc: Document, branches: list[BranchInfo], moves: list[HeadMove],
            notes: list[NoteInfo], decoded: dict) -> ImportReport:
    store = svc.store
    gid = stored.id
    s_moves = store.head_moves(gid)
    first = s_moves[0] if s_moves else None
    if first is not None and moves and first != moves[0] and first.reason == "import" and first.from_id is None:
        # a game a one-line file made starts its head history there: no whole game's history continues it
        raise _fail(f"stored game {gid} was made from a file of one line (an export with --branch), so its head"
                    " history is not the whole game's, which cannot be added to it; import the whole file into"
                    " another store (--db), or each branch's one-line file into this one")
    new_moves, passed = _moves_after(s_moves, moves, gid, lambda: (
        {node: depth for node, (_, depth) in store.nodes(gid).items()}, {e.id: e.depth for e in doc.events}))
    new_notes = _continues(store.notes(gid), notes, "note", gid)
    s_branches = {b.name: b for b in store.branches(gid)}
    for b in branches:
        s = s_branches.get(b.name)
        if s is not None and (s.luck, s.parent_branch, s.fork_id, s.created_at) != (
                b.luck, b.parent_branch, b.fork_id, b.created_at):
            raise _fail(f"the file contradicts stored game {gid}: its branch {b.name!r} starts elsewhere or"
                        " with other luck")
    known = store.event_ids(gid)
    new_events = [e for e in doc.events if e.id not in known]
    new_branches, heads = [], {}
    if new_moves:  # the file is ahead: its branch heads are the newer ones
        for b in branches:
            s = s_branches.get(b.name)
            if s is None:
                new_branches.append(b)
            elif s.head_id != b.head_id:
                heads[b.name] = (s.head_id, b.head_id)
    elif any(b.name not in s_branches for b in branches):
        raise _fail(f"the file contradicts stored game {gid}: it has a branch the stored history never made")
    if not (new_events or new_moves or new_notes):
        return ImportReport(gid, "unchanged", passed=passed)
    changed = [b for b in branches if b.name in heads or b in new_branches]
    store.extend_game(gid, new_events, new_branches, heads, new_moves, len(s_moves), new_notes,
                      doc.game.current_branch if new_moves else None,
                      _summaries(_ruleset_of(doc.root), stored, changed, doc.events, decoded))
    return ImportReport(gid, "extended", len(new_events), len(new_branches), len(new_moves), len(new_notes),
                        passed=passed)


def _import_line(svc: Service, file: ExportFile) -> ImportReport:
    """One exported line ``read_export`` read and judged: a new game, or, for a stored game, the events it lacks
    (on the branch whose head they follow, else on a new branch ``imported-N``)."""
    store = svc.store
    envs, decoded, luck = list(file.envs), file.decoded, file.luck
    stored = store.game_by_root(envs[0].id)
    if stored is None:
        rs = _ruleset_of(envs[0])
        created = decoded[envs[0].id]
        assert isinstance(created, GameCreated)
        game_id = secrets.token_hex(4)
        line = Line(GameInfo(game_id, rs.name, created.title, created.names, now(), "main"),
                    BranchInfo("main", envs[-1].id, luck or 0, None, None, now()), rs, envs,
                    [decoded[e.id] for e in envs])
        try:
            # drawn on with the luck of the line exported (a game whose seed agon drew has a luck of its own)
            store.import_game(game_id, rs.name, created.title, created.names, envs, [line.summary],
                              _used_sets(created, file.card_sets) or None, luck=luck or 0)
        except StoreError as e:
            raise _fail(e) from None
        return ImportReport(game_id, "new", len(envs), 1, 1, branch="main")
    try:
        known = store.event_ids(stored.id)
        k = next((i for i, e in enumerate(envs) if e.id not in known), None)
        branches = store.branches(stored.id)
        if k is None:
            at = next((b.name for b in branches if b.head_id == envs[-1].id and b.name == stored.current_branch),
                      next((b.name for b in branches if b.head_id == envs[-1].id), ""))
            return ImportReport(stored.id, "unchanged", branch=at)
        follows = envs[k - 1].id
        target = next((b for b in branches if b.head_id == follows and b.name == stored.current_branch),
                      next((b for b in branches if b.head_id == follows), None))
        made = 0
        if target is None:
            names = {b.name for b in branches}
            n = 1
            while f"imported-{n}" in names:
                n += 1
            # The new line forks from a stored one where the file's events leave it, and draws with the luck of
            # the branch it was exported from (a file without it: the luck of the line it forks from).
            parent = _holder(svc, stored, branches, follows)
            own = luck if luck is not None else parent.luck if parent is not None else 0
            store.create_branch(stored.id, f"imported-{n}", follows, own, parent.name if parent else None,
                                switch=False)
            target = store.branch(stored.id, f"imported-{n}")
            made = 1
        store.append(stored.id, target.name, follows, envs[k:], reason="import")
        return ImportReport(stored.id, "extended", len(envs) - k, made, 1 + made, branch=target.name)
    except StoreError as e:
        raise _fail(e) from None
