"""What every command module shares: the consoles, the store from ``--db``/``AGON_DB``, JSON output, and the
rule that a person sees one line saying what went wrong and what to do, never a traceback."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from sqlalchemy.exc import SQLAlchemyError

from agon.core.service import Service, ServiceError
from agon.events.store import Store, StoreError

console = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)

JsonOpt = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]
BranchOpt = Annotated[str | None, typer.Option("--branch", "-b", help="A branch (default: the game's current one).")]

_db_url: str | None = None
_service: Service | None = None


def default_db_path() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("agon", appauthor=False)) / "agon.db"


def db_url() -> str:
    """The store URL: ``--db``, else ``AGON_DB``, else the SQLite file in the user's data directory.

    A value without ``://`` is a path to a SQLite file."""
    raw = _db_url or os.environ.get("AGON_DB") or ""
    if not raw:
        path = default_db_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{path}"
    if "://" not in raw:
        return f"sqlite:///{Path(raw).expanduser().resolve()}"
    return raw


def set_db(url: str | None) -> None:
    global _db_url, _service
    _db_url = url
    _service = None


def service() -> Service:
    global _service
    if _service is None:
        url = db_url()
        if url.startswith("sqlite:///"):
            parent = Path(url.removeprefix("sqlite:///")).parent
            if not parent.is_dir():
                raise StoreError(f"cannot open database {url}: folder {parent} does not exist; create it or"
                                 " choose another --db")
        _service = Service(Store(url))
    return _service


class Fail(Exception):
    """A one-line error from the CLI itself (bad arguments it checks)."""


F = TypeVar("F", bound=Callable[..., Any])


def friendly(fn: F) -> F:
    """Turn the errors a person can act on into one line on stderr and exit status 1."""

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except (ServiceError, StoreError, Fail) as e:
            err.print(f"[bold red]error:[/] {e}", soft_wrap=True)
            raise typer.Exit(1) from None
        except OSError as e:
            err.print(f"[bold red]error:[/] {e.strerror or e}: {e.filename or ''}".rstrip(": "), soft_wrap=True)
            raise typer.Exit(1) from None
        except SQLAlchemyError as e:
            detail = str(getattr(e, "orig", None) or e).splitlines()[0]
            err.print(f"[bold red]error:[/] the store at {db_url()} failed: {detail}; nothing was recorded"
                      " (check --db, or 'agon verify' the game)", soft_wrap=True, markup=True)
            raise typer.Exit(1) from None

    return wrapper  # type: ignore[return-value]


def print_json(data: Any) -> None:
    import msgspec

    console.print_json(msgspec.json.encode(data).decode(), highlight=False)


def dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, default=str)
