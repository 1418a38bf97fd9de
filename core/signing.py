"""Signed exports: an Ed25519 signature over a whole exported file, so a file rewritten with every hash recomputed
is refused by a receiver who knows the sender's public key.

The signature is one more line at the end of the file, after the trailer, for both kinds of export (a whole game or
one line):

    {"kind":"signature","alg":"ed25519","key":"<public key, hex>","sig":"<signature, hex>"}

It signs the sha256 of every byte before it. Keys are the usual PEM files (``agon keygen`` writes a pair; OpenSSL's
``openssl genpkey -algorithm ed25519`` makes the same private key). The ``cryptography`` library does the
signing: a well-kept binding of OpenSSL, not code of our own.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path


class SignatureError(ValueError):
    """A key that cannot be read, or a signature that does not check."""


@dataclass(frozen=True)
class Signed:
    """A file split into what was signed and who signed it (``key`` is None for an unsigned file)."""

    body: bytes
    key: str | None


def _crypto():
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ed25519

    return serialization, ed25519


def keygen(private_path: Path) -> Path:
    """Write a new Ed25519 private key to ``private_path`` (PEM, readable only by its owner) and its public key
    beside it (``.pub``); returns the public key's path."""
    serialization, ed25519 = _crypto()
    key = ed25519.Ed25519PrivateKey.generate()
    private_path.parent.mkdir(parents=True, exist_ok=True)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    public_path = private_path.with_name(private_path.name + ".pub")
    public = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    made: list[Path] = []
    try:  # each file made new (never over an existing one) and the private one unreadable to others from the start
        for path, body, mode in ((private_path, pem, 0o600), (public_path, public, 0o644)):
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
            made.append(path)
            with os.fdopen(fd, "wb") as f:
                f.write(body)
    except OSError:
        for path in made:  # not half a key pair
            path.unlink(missing_ok=True)
        raise
    return public_path


MAX_KEY_FILE = 64 * 1024
"""The most read of a key file: a PEM key is a few hundred bytes, and a device or a pipe (``/dev/zero``) may not
end."""


def _read(path: Path, what: str) -> bytes:
    """A key file's bytes; a pipe (``--trust <(...)``) is read as a file is, a folder or a missing file refused."""
    if path.is_dir() or not path.exists():
        raise SignatureError(f"{what} {path} does not exist; `agon keygen FILE` writes a key pair")
    with path.open("rb") as f:
        data = f.read(MAX_KEY_FILE + 1)
    if len(data) > MAX_KEY_FILE:
        raise SignatureError(f"{what} {path} holds more than {MAX_KEY_FILE // 1024} KiB, which no key does;"
                             " `agon keygen FILE` writes a key pair")
    return data


def load_private(path: Path):
    serialization, ed25519 = _crypto()
    data = _read(path, "key file")
    if b"-----BEGIN PUBLIC KEY-----" in data:  # the two files of a pair, swapped
        private = (f"the private key {path.with_suffix('')} (`agon keygen` wrote both)" if path.suffix == ".pub"
                   else "the private key `agon keygen FILE` wrote as FILE (the public one is FILE.pub)")
        raise SignatureError(f"{path} is a public key, which only checks signatures: sign with {private}")
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError) as e:
        raise SignatureError(f"{path} is not a private key agon can sign with ({_reason(e)}); `agon keygen FILE`"
                             " writes one") from None
    if not isinstance(key, ed25519.Ed25519PrivateKey):
        raise SignatureError(f"{path} is not an Ed25519 private key; `agon keygen FILE` writes one")
    return key


def public_hex(path: Path) -> str:
    """The public key in ``path`` (a PEM public key, or a hex string as a signature line shows it), as hex."""
    serialization, ed25519 = _crypto()
    raw = _read(path, "public key file").strip()
    if b"PRIVATE KEY-----" in raw:  # the two files of a pair, swapped
        raise SignatureError(f"{path} is a private key, which stays with whoever signs: give its public key"
                             f" ({path}.pub, written beside it by `agon keygen`)")
    try:
        if raw.startswith(b"-----"):
            key = serialization.load_pem_public_key(raw)
            if not isinstance(key, ed25519.Ed25519PublicKey):
                raise SignatureError(f"{path} is not an Ed25519 public key")
            return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw).hex()
        ed25519.Ed25519PublicKey.from_public_bytes(bytes.fromhex(raw.decode()))
        return raw.decode().lower()
    except (ValueError, UnicodeDecodeError) as e:
        why = "neither PEM nor hex digits" if isinstance(e, UnicodeDecodeError) or "fromhex" in str(e) else _reason(e)
        raise SignatureError(f"{path} is not a public key ({why}); give the .pub file `agon keygen` wrote") from None


def _reason(e: Exception) -> str:
    """The cryptography library's reason in a few words: its first sentence, without the address of its FAQ."""
    return str(e).split(". See http")[0].split("\n")[0].rstrip(".") or type(e).__name__


def sign(data: bytes, key_path: Path) -> bytes:
    """``data`` (an export) with a signature line appended."""
    serialization, _ = _crypto()
    key = load_private(key_path)
    public = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw).hex()
    sig = key.sign(hashlib.sha256(data).digest()).hex()
    line = json.dumps({"kind": "signature", "alg": "ed25519", "key": public, "sig": sig}, separators=(",", ":"))
    return data + line.encode() + b"\n"


def split(data: bytes) -> Signed:
    """The file without its signature line, and the key that signed it; the signature is checked against that
    key (a signed file whose signature does not check raises ``SignatureError``)."""
    stripped = data.rstrip(b"\n")
    body, _, last = stripped.rpartition(b"\n")
    if b'"kind":"signature"' not in last:
        return Signed(data, None)
    try:
        obj = json.loads(last)
        assert isinstance(obj, dict) and obj.get("kind") == "signature" and obj.get("alg") == "ed25519"
        key, sig = bytes.fromhex(obj["key"]), bytes.fromhex(obj["sig"])
    except (ValueError, AssertionError, KeyError, TypeError):
        raise SignatureError("the file's signature line cannot be read") from None
    body = body + b"\n" if body else b""
    _, ed25519 = _crypto()
    from cryptography.exceptions import InvalidSignature

    try:
        ed25519.Ed25519PublicKey.from_public_bytes(key).verify(sig, hashlib.sha256(body).digest())
    except (InvalidSignature, ValueError):
        raise SignatureError("the file's signature does not match its contents: it was changed after it was"
                             " signed") from None
    return Signed(body, key.hex())


def check(data: bytes, trusted: str | None) -> Signed:
    """``split``, and with ``trusted`` (a public key, hex) refuse a file not signed by that key."""
    signed = split(data)
    if trusted is not None:
        if signed.key is None:
            raise SignatureError("the file is not signed, and --trust asks for a file signed by that key")
        if signed.key != trusted:
            raise SignatureError(f"the file is signed by key {signed.key[:16]}..., not by the trusted key"
                                 f" {trusted[:16]}...")
    return signed
