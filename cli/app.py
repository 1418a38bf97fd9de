"""The ``agon`` application: the global ``--db`` option and the command modules joined together."""

import contextlib
import inspect
import os
import re
import sys
from collections.abc import Sequence
from typing import Annotated, Any, NoReturn

import typer
from typer.core import TyperGroup

from agon.cli import (
    analyse_cmds,
    file_cmds,
    history_cmds,
    note_cmds,
    play_cmds,
    plot_cmds,
    serve_cmds,
    setup_cmds,
    summary_cmds,
    tree_cmds,
)
from agon.cli.common import (
    INTERRUPTED,
    close_store,
    error_line,
    examples,
    hint,
    set_db,
    unkept_notice,
    with_db_quoted,
)


def _flags_show_no_type() -> None:
    """Typer's help gives every option a type column, a flag's too ('--json <bool>'), which reads as if the flag
    took a value ('--json true' is refused): a flag shows none."""
    from typer.core import TyperOption

    shown = getattr(TyperOption, "display_type_rich", None)
    if shown is None or getattr(shown, "agon_flags", False):
        return

    def display_type_rich(self: Any, ctx: Any) -> str | None:
        return None if getattr(self, "is_flag", False) else shown(self, ctx)

    display_type_rich.agon_flags = True  # type: ignore[attr-defined]
    TyperOption.display_type_rich = display_type_rich


_flags_show_no_type()


def _options_given_once() -> None:
    """An option that takes one value, given twice ('agon act G 1 --as Ana --as Bo', '--db a --db b'), is a usage
    error naming it, for every command and agon's own options: Click keeps the last value silently, so a slip in a
    long line would act for a player, or on a store, the person did not mean. Options meant to repeat (``--player``,
    ``--bot``: ``multiple``) and counted ones repeat as before, and so does a flag (``--json --json`` says the same
    thing twice; a pair such as ``--x/--no-x`` is refused). Each command's arguments are first read as Click reads
    them, to count how often each option came; anything else wrong with them is left to Click to report."""
    from typer.core import TyperCommand

    # Click's classes as Typer uses them (it vendors Click in recent versions: no import names them portably)
    usage_error = sys.modules[TyperCommand.__mro__[1].__module__].UsageError
    for cls in (TyperCommand, TyperGroup):
        parse = cls.parse_args
        if getattr(parse, "agon_once", False):
            continue

        def parse_args(self: Any, ctx: Any, args: list[str], parse: Any = parse) -> list[str]:
            try:
                _, _, order = self.make_parser(ctx).parse_args(args=list(args))
            except Exception:  # noqa: BLE001 - Click reports it below, as it would have
                order = []
            counts: dict[Any, int] = {}
            for param in order:
                if param.param_type_name == "option" and not (param.multiple or param.count or param.is_eager or (
                        param.is_flag and not param.secondary_opts)):  # '--json --json' says one thing twice
                    counts[param] = counts.get(param, 0) + 1
            for param, n in counts.items():
                if n > 1:
                    name = "/".join(param.opts + param.secondary_opts)
                    times = "twice" if n == 2 else f"{n} times"
                    raise usage_error(f"{name} is given {times}; give it once", ctx)
            return parse(self, ctx, args)

        parse_args.agon_once = True  # type: ignore[attr-defined]
        cls.parse_args = parse_args  # type: ignore[method-assign]


_options_given_once()


class AgonGroup(TyperGroup):
    """The top command, and the last guard of the rule that an error is one line on stderr.

    A usage error (a missing argument, a bad number, an unknown option) is one line naming what was wrong and the
    help to read, with Click's exit status (2); with ``--json`` anywhere on the line it is ``{"error": ...}`` like
    every other error. Typer's own report is a box of five or six lines, so Click runs here without its standalone
    mode and agon reports what it raises.

    An exception no command expected becomes one line saying an internal error happened and how to report it, with
    exit status 2; with ``AGON_DEBUG=1`` the traceback is shown instead. A reader that closes the output early
    (``agon log GAME | head -1``) ends the command quietly."""

    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        try:
            return self._main(args, prog_name, complete_var, standalone_mode, **extra)
        finally:
            close_store()  # whatever the command did or raised: what it recorded is in the store's file

    def _main(self, args: Any, prog_name: str | None, complete_var: str | None, standalone_mode: bool,
              **extra: Any) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        _join_lines(self)
        if not standalone_mode:
            return super().main(argv, prog_name, complete_var, False, **extra)
        as_json = "--json" in argv
        try:
            code = super().main(argv, prog_name, complete_var, False, **extra)
        except BrokenPipeError:  # Typer ends most of these itself, as quietly and with the same status
            _stdout_gone()
        except typer.Abort:
            error_line("aborted", as_json)
            sys.exit(1)
        except Exception as e:
            # Click's errors (Typer vendors Click in recent versions, so no import names them portably)
            if hasattr(e, "format_message") and isinstance(getattr(e, "exit_code", None), int):
                if type(e).__name__ != "NoArgsIsHelpError":  # 'agon' alone: the help is printed already
                    error_line(usage_message(e, argv, self), as_json)
                sys.exit(e.exit_code)
            if os.environ.get("AGON_DEBUG") == "1":
                raise
            error_line(f"internal error ({type(e).__name__}): agon did not expect this, and it is a bug. What was"
                       " recorded before it stays recorded. Run the same command with AGON_DEBUG=1 to see the"
                       " traceback, and report it with the command you ran", as_json=as_json)
            sys.exit(2)
        if code == INTERRUPTED:  # Typer ends a command stopped by Ctrl-C with 130 and not a word
            error_line("stopped (Ctrl-C); what was recorded before it stays recorded", as_json)
        if code in (None, 0):  # a command that failed said so in one line: nothing more
            unkept_notice(as_json)
        sys.exit(code if isinstance(code, int) else 0)


def _join_lines(group: Any) -> None:
    """Each paragraph of every command's help as one line for the help to wrap: Typer keeps a docstring's line
    breaks, which then cut the help's lines short at random ('recomputed first,' / 'with a progress bar')."""
    for command in group.commands.values():
        if hasattr(command, "commands"):
            _join_lines(command)
        if not getattr(command, "computed_help", False) and command.help:  # a computed help is not read here
            paragraphs = inspect.cleandoc(command.help).split("\n\n")
            command.help = "\n\n".join(" ".join(line.strip() for line in p.splitlines()) for p in paragraphs)


def usage_message(e: Any, argv: Sequence[str] = (), group: Any = None) -> str:
    """One line for a Click error: its message in agon's voice (lower case, no full stop), what to do about a value
    that begins with '-' where an argument was meant or an option given on the wrong side of the command, and the
    help to read."""
    message = " ".join(e.format_message().split()).rstrip(".")
    message = (message[:1].lower() + message[1:]).replace(". Did you mean", "; did you mean")
    name = getattr(e, "option_name", None)
    ctx = getattr(e, "ctx", None)
    path = ctx.command_path if ctx is not None else "agon"
    if ctx is None and group is not None:
        # Click's parser says 'option --player requires an argument' without the command it was reading: the
        # command named on the line is the one whose help to read
        path = " ".join(["agon", *_commands_named(group, argv)])
    if name and type(e).__name__ == "NoSuchOption" and re.fullmatch(r"-[0-9.]+", name):
        # 'agon note GAME -1 hi': Click reads -1 as an option before any command sees it
        message = f"no such option: {name}; to give {name} as a value, not an option, put -- before it"
    if name == "--db" and type(e).__name__ == "NoSuchOption" and " " in path:
        # 'agon games --db club.db': the store is agon's own option, named before the command (or AGON_DB)
        top, _, rest = path.partition(" ")
        command = hint(f"{top} --db FILE {rest} ...")
        return f"--db goes before the command: `{command}` (or set AGON_DB); see `{top} --help`"
    unknown = re.match(r"no such command '([^']+)'", message)
    flags = {o for p in ctx.command.get_params(ctx) if getattr(p, "is_flag", False) for o in p.opts} if ctx else set()
    if unknown and f"--{unknown[1]}" in flags:
        # 'agon version', 'agon help': an option of agon's, typed as a command (Click's guess would be 'verify')
        return f"no such command '{unknown[1]}': it is an option, `{path} --{unknown[1]}`"
    commands = getattr(ctx.command, "commands", {}) if ctx is not None else {}
    command = next((a for a in argv if a in commands), None)
    option = (name or "").split("=")[0]
    if type(e).__name__ == "NoSuchOption" and command is not None and any(
            option in p.opts for p in commands[command].params):
        # 'agon --json games': an option of the command, given before it (where only agon's own options go)
        return (f"{option} is an option of `{path} {command}`: put it after the command (`{path} {command}"
                f" {option} ...`); see `{path} {command} --help`")
    if ctx is not None and message.startswith("got unexpected extra argument"):
        message += _one_value_each(ctx, argv, message)
    if type(e).__name__ == "MissingParameter" and getattr(getattr(e, "param", None), "name", None) == "ruleset":
        message += _rulesets_to_give(ctx)
    elif type(e).__name__ == "MissingParameter" and ctx is not None:
        message = _missing_said(ctx, getattr(getattr(e, "param", None), "name", None)) or message
    has_help = ctx.command.get_help_option(ctx) is not None if ctx is not None else group is not None
    if has_help:
        message += f"; see `{path} --help`"
    return message


MISSING: dict[tuple[str, str], str] = {
    ("compare", "branch_a"): ("missing argument BRANCH_A: compare needs two branches of the game:"
                             " `agon compare {game} BRANCH_A BRANCH_B`; `agon branches {game}` lists them"),
    ("compare", "branch_b"): "missing argument BRANCH_B: compare needs two branches of the game, and one was given:"
                             " `agon compare {game} {a} BRANCH_B`; `agon branches {game}` lists them",
    ("note", "n"): "missing argument N: the event to note, `agon note {game} N TEXT`, N its number as `agon log {game}`"
                   " shows it",
    ("act", "choice"): "missing argument CHOICE: the decision to record, `agon act {game} CHOICE`, CHOICE a number"
                       " from `agon options {game}`",
    ("branch", "name"): "missing argument NAME: the new branch's name, `agon branch {game} NAME`",
    ("switch", "name"): "missing argument NAME: the branch to switch to, `agon switch {game} NAME`; `agon branches"
                        " {game}` lists them",
    ("import", "files"): "missing argument FILES: the files to import, as `agon export GAME -o FILE` wrote them (-"
                         " reads standard input)",
    ("keygen", "file"): "missing argument FILE: where to write the private key (the public key goes to FILE.pub)",
}
"""What a command says when an argument is missing whose name in the code ('branch_b', 'n') would tell a person
nothing: what the command needs, as its usage writes it, and what lists the values to give. ``{game}`` is the game
the line named (else GAME), ``{a}`` the branch given first."""


def _missing_said(ctx: Any, param: str | None) -> str | None:
    """A missing argument ``param`` of the command ``ctx`` reads, said as ``MISSING`` says it; a missing game id says
    what lists the games. None where Click's own words serve."""
    if param == "game":
        return with_db_quoted("missing argument GAME: the game id (any unique prefix of it); `agon games` lists the"
                              " games")
    said = MISSING.get((ctx.command.name, param or ""))
    if said is None:
        return None
    given = {k: v for k, v in ctx.params.items() if isinstance(v, str) and v and re.fullmatch(r"[\w.:-]+", v)}
    text = said.format(game=given.get("game", "GAME"), a=given.get("branch_a", "BRANCH_A"))
    text = with_db_quoted(text)  # a command copied from it reads the store this line named
    for command in re.findall(r"`([^`]+)`", text):
        hint(command)
    return text


def _rulesets_to_give(ctx: Any) -> str:
    """What to add when a command's ruleset is missing ('agon stats'): the rulesets it takes. A command that reads
    stored games (``stats``, ``plot stats``) names those with games in the store first, from one query; a store it
    cannot read (none yet, the database away) leaves the list as the registry's."""
    from agon.core import registry

    known = registry.names()
    stored: list[str] = []
    if ctx is not None and ctx.command.name == "stats":
        from agon.cli.common import service

        with contextlib.suppress(Exception):  # the list is a help, never a second failure
            kept = set(service().store.rulesets())
            stored = [r for r in known if r in kept]
    if not stored:
        return f": give one of {', '.join(known)}"
    rest = [r for r in known if r not in stored]
    return f": give one of {', '.join(stored)} (games stored)" + (f" or {', '.join(rest)} (none stored yet)"
                                                                   if rest else "")


def _one_value_each(ctx: Any, argv: Sequence[str], message: str) -> str:
    """What to add when the extra arguments (named in Click's ``message``) follow the value of an option that
    repeats ('--player Ana Bo Cy'): each value needs the option before it. Empty when they follow anything else."""
    first = message.rpartition("(")[2].rstrip(")").split(" ")[0]
    repeated = {o for p in ctx.command.params if getattr(p, "multiple", False) for o in p.opts}
    for at in range(2, len(argv)):
        if argv[at] == first and argv[at - 2] in repeated:
            option = argv[at - 2]
            return f": {option} takes one value, so give it before each (`{option} {argv[at - 1]} {option} {first}`)"
    return ""


def _commands_named(group: Any, argv: Sequence[str]) -> list[str]:
    """The (sub)commands ``argv`` names, outermost first (``plot scores``), skipping agon's own options before them."""
    names: list[str] = []
    for arg in argv:
        commands = getattr(group, "commands", None)
        if not commands:
            break
        if arg in commands:
            names.append(arg)
            group = commands[arg]
    return names


def _stdout_gone() -> NoReturn:
    """The reader of standard output has closed it (``| head``): stop without a word, as Python's documentation
    advises. Whatever is still buffered for stdout would fail again at exit and print a traceback, so stdout is
    pointed at the null device first. The exit status is 1, as Python's and Click's own: the output is cut."""
    with contextlib.suppress(OSError, ValueError):  # ValueError: a stream without a file descriptor (tests)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    sys.exit(1)


app = typer.Typer(
    name="agon",
    cls=AgonGroup,
    help="Record, replay, branch and plot tabletop games. Every decision and every chance outcome is an event.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    # help is rich markup, not Markdown: a command named between backticks in the help prints as typed, backticks
    # and all, with or without colour (Markdown would drop them), and ``examples`` escapes the brackets it prints
    rich_markup_mode="rich",
    epilog=examples("agon demo", "agon --db demo.db games"),
    # '-h' as well, which a newcomer types first; every command inherits it
    context_settings={"help_option_names": ["--help", "-h"]},
)


def _version(value: bool) -> None:
    if value:
        from agon import __version__
        from agon.events.store import SCHEMA_VERSION

        typer.echo(f"agon {__version__} (store layout {SCHEMA_VERSION})")
        raise typer.Exit()


@app.callback()
def _root(
    ctx: typer.Context,
    db: Annotated[str | None, typer.Option("--db", envvar="AGON_DB", help="Store: a SQLite file path or a"
                                           " PostgreSQL URL (default: agon.db in your data directory).")] = None,
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print agon's version and its store layout version, then exit.")]
    = False,
) -> None:
    source = ctx.get_parameter_source("db")
    set_db(db, typed=getattr(source, "name", None) == "COMMANDLINE")  # not AGON_DB: see common.agon_line


for module in (setup_cmds, play_cmds, history_cmds, tree_cmds, note_cmds, file_cmds, plot_cmds, analyse_cmds,
               serve_cmds, summary_cmds):
    app.add_typer(module.app)


def main() -> None:
    """The ``agon`` command. Ctrl-C at any moment ends it with status 130 and at most one line: before this runs (the
    imports) and after the command ended, as agon/__init__.py takes it; while the command runs, as Typer and
    ``AgonGroup`` report it; and between the two (Typer building the commands, the store closing), here."""
    import agon

    agon.command_starts()
    try:
        app()
    except SystemExit as e:
        serving = sys.modules.get("agon.cli.serve_cmds")
        if e.code in (0, None) and serving is not None and serving.stopped:  # its store closed, its line said
            agon.command_ended()
            serving.leave(0)
        raise
    except KeyboardInterrupt:
        error_line("stopped (Ctrl-C); what was recorded before it stays recorded", "--json" in sys.argv[1:])
        sys.exit(INTERRUPTED)
    finally:
        agon.command_ended()


if __name__ == "__main__":
    main()
