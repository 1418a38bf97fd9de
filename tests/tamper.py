"""Rewriting exported files as a hostile sender would: change the events, then recompute every hash after them so
the chain checks, and in a whole-game file every id that names them, the order of the events and the trailer's
digest. Used by the robustness tests and by scripts/reliability.py."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from agon.events.envelope import chain_hash


def _dump(obj: dict[str, Any], payload: bytes | None = None) -> bytes:
    if payload is None:
        return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()
    fields = {k: v for k, v in obj.items() if k != "payload"}
    return json.dumps(fields, separators=(",", ":"), ensure_ascii=False)[:-1].encode() + b',"payload":' + payload + b"}"


def is_event(obj: Any) -> bool:
    return isinstance(obj, dict) and "payload" in obj and "tag" in obj


def rewrite(data: bytes, change, raw_payloads: dict[int, bytes] | None = None, *, resign: bool = True) -> bytes:
    """``data`` (a whole-game file or a one-line export) with ``change(events)`` applied to its events (dicts in
    file order, changed in place; the list itself may be cut) and every hash recomputed. A payload given raw in
    ``raw_payloads`` by position is written as those bytes (JSON nested too deeply for json.dumps, say). Lines
    that are not events are kept, with the ids in them renamed; with ``resign`` a whole-game file's trailer
    (counts, heads, digest) is recomputed as its writer would, so only a signature can tell."""
    raws = [r for r in data.splitlines() if r.strip()]
    objs = [json.loads(r) for r in raws]
    events = [o for o in objs if is_event(o)]
    change(events)
    raw_payloads = raw_payloads or {}
    renamed: dict[str, str] = {}
    new_events = []
    for i, ev in enumerate(events):
        payload = raw_payloads.get(i) or json.dumps(ev["payload"], separators=(",", ":")).encode()
        parent = renamed.get(ev["parent"], ev["parent"]) if ev["parent"] is not None else None
        new_id = chain_hash(parent, ev["tag"], ev["version"], ev["actor"], payload)
        renamed[ev["id"]] = new_id
        new_events.append((ev | {"id": new_id, "parent": parent}, payload))
    if objs and isinstance(objs[0], dict) and "kind" in objs[0]:
        new_events.sort(key=lambda ep: (ep[0]["n"], ep[0]["id"]))

    def rename(v: Any) -> Any:
        return renamed.get(v, v) if isinstance(v, str) else v

    out: list[bytes] = []
    placed = False
    for obj in objs:
        if is_event(obj):
            if not placed:
                out += [_dump(ev, payload) for ev, payload in new_events]
                placed = True
            continue
        if isinstance(obj, dict) and obj.get("kind") == "end" and resign:
            body = b"".join(line + b"\n" for line in out)
            obj = obj | {"events": len(new_events), "sha256": hashlib.sha256(body).hexdigest()}
            if "heads" in obj:  # a whole game
                obj["heads"] = {k: rename(v) for k, v in obj["heads"].items()}
            else:  # one line
                obj["head"] = new_events[-1][0]["id"] if new_events else ""
        elif isinstance(obj, dict) and obj.get("kind") in ("branch", "move", "note"):
            obj = {k: rename(v) if k in ("head", "fork", "to", "from", "event") else v for k, v in obj.items()}
        elif isinstance(obj, dict) and obj.get("kind") == "end":
            obj = obj | ({"heads": {k: rename(v) for k, v in obj["heads"].items()}} if "heads" in obj
                         else {"head": rename(obj["head"])})
        out.append(_dump(obj))
    if not placed:
        out += [_dump(ev, payload) for ev, payload in new_events]
    return b"\n".join(out) + b"\n"
