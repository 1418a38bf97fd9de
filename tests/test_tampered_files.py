"""Files rewritten by a hostile sender, every hash recomputed: dice changed, the seed changed, lines cut off. In a
seeded game every chance outcome follows from the seed, so import and verify recompute them; a trailer refuses a cut
file; an Ed25519 signature refuses any rewrite when the receiver knows the sender's key."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from agon.core.transfer import import_data
from tests.tamper import rewrite

REPLAY = Path(__file__).parent.parent / "replays" / "perikles-4p.jsonl"


def _dice_66(events):
    ev = next(e for e in events if e["tag"] == "perikles.battle_dice_rolled" and e["payload"]["attacker"] != [6, 6])
    ev["payload"]["attacker"] = [6, 6]


def _seed(events):
    events[0]["payload"]["seed"] += 1


def _files(agon, tmp_path) -> dict[str, bytes]:
    """The Perikles replay as one line (as shipped) and as a whole game (imported, then exported)."""
    gid = agon("import", str(REPLAY)).stdout.splitlines()[0]
    whole = tmp_path / "whole.jsonl"
    agon("export", gid, "-o", str(whole))
    return {"line": REPLAY.read_bytes(), "whole": whole.read_bytes()}


def _refused(agon, tmp_path, data: bytes, *extra: str) -> str:
    path = tmp_path / "tampered.jsonl"
    path.write_bytes(data)
    r = agon("import", str(path), *extra, ok=False)
    assert r.exit_code == 1, (r.stdout, r.stderr, r.exception)
    line = r.stderr.strip()
    assert "\n" not in line and "cannot import" in line, line
    return line


@pytest.mark.parametrize("kind", ["line", "whole"])
@pytest.mark.parametrize("change, says", [
    (_dice_66, "is not the outcome the game's seed draws there"),
    (_seed, "is not the outcome the game's seed draws there"),
])
def test_rewritten_chance_is_refused(agon, tmp_path, kind, change, says):
    data = _files(agon, tmp_path)[kind]
    games = len(json.loads(agon("games", "--json").stdout))
    assert says in _refused(agon, tmp_path, rewrite(data, change))
    assert len(json.loads(agon("games", "--json").stdout)) == games


@pytest.mark.parametrize("kind", ["line", "whole"])
@pytest.mark.parametrize("keep", [lambda n: n - 30, lambda n: 1, lambda n: n - 1])
def test_a_file_cut_at_a_line_boundary_is_refused(agon, tmp_path, kind, keep):
    data = _files(agon, tmp_path)[kind]
    lines = data.splitlines(keepends=True)
    cut = b"".join(lines[:keep(len(lines))])
    says = _refused(agon, tmp_path, cut)
    assert "trailer" in says or "truncated" in says or "cut" in says


def test_verify_recomputes_chance_in_a_store_rewritten_behind_agons_back(sqlite_svc):
    """A store edited directly, the chain resealed after the changed die: verify names the event."""
    from agon.events.envelope import seal

    svc = sqlite_svc
    gid = import_data(svc, REPLAY.read_bytes()).game_id
    envs = svc.load(gid).envelopes
    k = next(i for i, e in enumerate(envs) if e.tag == "perikles.battle_dice_rolled")
    payload = json.loads(envs[k].payload)
    payload["attacker"] = [6, 6] if payload["attacker"] != [6, 6] else [1, 1]
    out = envs[:k]
    for env in envs[k:k + 1]:
        out.append(seal(out[-1], env.tag, env.version, env.actor, json.dumps(payload, separators=(",", ":")).encode(),
                        env.recorded_at))
    svc.store.import_game("forged01", "perikles", "", ["Ana", "Bruno", "Chloe", "Dario"], out)
    problems = svc.verify("forged01")
    assert any(f"event #{k}" in p and "is not the outcome the game's seed draws" in p for p in problems), problems
    assert svc.verify(gid) == []


def test_a_person_cannot_type_a_chance_outcome_in_a_seeded_game(agon):
    gid = agon("new", "toy", "--player", "ann", "--bot", "bob:random", "--seed", "3").stdout.splitlines()[0]
    agon("act", gid, "1")
    agon("undo", gid, "--to", "2")  # chance is due here (a branch made here draws it)
    r = agon("act", gid, "6", ok=False)
    assert r.exit_code == 1 and "draws every chance outcome from its seed" in r.stderr
    agon("act", gid, "seed")
    assert "OK:" in agon("verify", gid).stdout


def test_signed_exports_refuse_any_rewrite_for_a_receiver_with_the_key(agon, tmp_path):
    out = agon("keygen", str(tmp_path / "keys" / "ana")).stdout
    assert "ana.pub" in out
    agon("keygen", str(tmp_path / "bob"))
    gid = agon("import", str(REPLAY)).stdout.splitlines()[0]
    for args in ([], ["-b", "main"]):
        signed = tmp_path / "signed.jsonl"
        agon("export", gid, *args, "--sign", str(tmp_path / "keys" / "ana"), "-o", str(signed))
        data = signed.read_bytes()
        assert data.splitlines()[-1].startswith(b'{"kind":"signature"')
        ok = agon("import", str(signed), "--trust", str(tmp_path / "keys" / "ana.pub"))
        assert "Signed by the trusted key" in ok.stdout
        # the same file, rewritten below the signature (hashes, trailer and digest recomputed)
        forged = rewrite(data, _dice_66)
        assert "signature does not match" in _refused(agon, tmp_path, forged)
        # ... or with its signature line dropped
        unsigned = b"".join(data.splitlines(keepends=True)[:-1])
        assert "not signed" in _refused(agon, tmp_path, unsigned, "--trust", str(tmp_path / "keys" / "ana.pub"))
        # ... or signed by another key
        assert "not by the trusted key" in _refused(agon, tmp_path, data, "--trust", str(tmp_path / "bob.pub"))
    r = agon("keygen", str(tmp_path / "bob"), ok=False)
    assert r.exit_code == 1 and "exists" in r.stderr
    r = agon("import", str(REPLAY), "--trust", str(tmp_path / "nope.pub"), ok=False)
    assert r.exit_code == 1 and "does not exist" in r.stderr


def test_a_signed_file_imported_without_trust_says_which_key_signed_it_and_what_that_proves(agon, tmp_path):
    agon("keygen", str(tmp_path / "ana"))
    gid = agon("import", str(REPLAY)).stdout.splitlines()[0]
    signed = tmp_path / "signed.jsonl"
    agon("export", gid, "--sign", str(tmp_path / "ana"), "-o", str(signed))
    key = json.loads(signed.read_text().splitlines()[-1])["key"]
    other = str(tmp_path / "other.db")
    out = agon("--db", other, "import", str(signed)).stdout
    assert f"Signed by key {key[:16]}..., which no --trust names" in out and "unchanged since" in out
    data = json.loads(agon("--db", other, "import", str(signed), "--json").stdout)
    assert data["signed_by"] == key and data["trusted"] is False
    plain = tmp_path / "plain.jsonl"
    agon("export", gid, "-o", str(plain))
    out = agon("--db", str(tmp_path / "third.db"), "import", str(plain)).stdout
    assert "Signed" not in out
    assert json.loads(agon("--db", other, "import", str(plain), "--json").stdout)["signed_by"] is None


@pytest.mark.skipif(not hasattr(os, "mkfifo") or not Path("/dev/zero").exists(), reason="needs pipes, /dev/zero")
def test_a_key_is_read_from_a_pipe_and_a_stream_that_never_ends_is_refused_in_its_own_words(agon, tmp_path):
    """A key file that was no regular file was said not to exist (and, to sign with, nested in a second sentence:
    'is not a private key agon can sign with (key file ... does not exist ...)'); a pipe now gives its key."""
    agon("keygen", str(tmp_path / "k"))
    gid = agon("new", "toy", "--player", "ann", "--bot", "bob:random", "--seed", "3").stdout.split()[0]
    r = agon("export", gid, "--sign", "/dev/zero", ok=False)
    assert r.exit_code == 1
    assert r.stderr.strip() == ("error: key file /dev/zero holds more than 64 KiB, which no key does; `agon keygen"
                                " FILE` writes a key pair")
    agon("export", gid, "--sign", str(tmp_path / "k"), "-o", str(tmp_path / "g.jsonl"))
    pipe = tmp_path / "pub"
    os.mkfifo(pipe)
    writer = threading.Thread(target=lambda: pipe.write_bytes((tmp_path / "k.pub").read_bytes()), daemon=True)
    writer.start()
    r = agon("--db", str(tmp_path / "other.db"), "import", str(tmp_path / "g.jsonl"), "--trust", str(pipe))
    writer.join(10)
    assert "Signed by the trusted key" in r.stdout
