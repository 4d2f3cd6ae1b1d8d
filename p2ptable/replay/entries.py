"""Log entries: small frozen values, their canonical bytes and their signatures.

How it works
------------
An entry is ``[body, sigs]`` encoded with canonical msgpack (protocol/replay.md):

* ``body`` is itself the canonical msgpack encoding of a map (kept as bytes, so a
  signature is checked over exactly the bytes that were signed);
* ``sigs`` is a list of ``[seat, signature]`` pairs.

The entry's hash is SHA-256 of its full encoding, and every entry after the genesis
carries the previous entry's hash in ``prev``, so the log is a hash chain.

Signatures are over ``SIG_DOMAIN || game_id || body`` (genesis, actions, shuffles,
results, aborts, and the ``part`` bodies that travel on the wire but are bundled
into ``open`` and ``secrets`` entries, see replay/sealed_book.py).  A chance entry
carries no signature: it holds every seat's next hash-chain value, and a value
that hashes to the seat's previous one could only have come from that seat (its
chain head is in the signed genesis), so the chain, not a signature,
authenticates it.  The game id is
``SHA-256(GAME_ID_DOMAIN || genesis body)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from p2ptable.crypto.encoding import EncodingError, pack, unpack_canonical
from p2ptable.crypto.signing import SigningKey, sha256

PROTOCOL = "p2ptable/1"
SIG_DOMAIN = b"p2ptable/sig/v1\x00"
GAME_ID_DOMAIN = b"p2ptable/game-id/v1\x00"

KINDS = ("genesis", "action", "chance", "shuffle", "open", "secrets", "result", "abort")
ABORT_REASONS = ("equivocation", "cheated", "withheld", "abandoned")


class MalformedEntry(ValueError):
    """The bytes do not decode to an entry of a known kind and shape."""


@dataclass(frozen=True)
class Entry:
    """One signed log entry.  ``body`` is the decoded map, ``body_bytes`` its encoding."""

    body_bytes: bytes
    sigs: tuple[tuple[int, bytes], ...]

    @cached_property
    def body(self) -> dict[str, Any]:
        """The decoded body; MalformedEntry if it is not a body of a known kind."""
        try:
            body = unpack_canonical(self.body_bytes)
        except EncodingError as exc:
            raise MalformedEntry(f"body: {exc}") from None
        check_body_shape(body)
        return body

    @property
    def kind(self) -> str:
        return self.body["t"]

    def encode(self) -> bytes:
        return self.encoded

    @cached_property
    def encoded(self) -> bytes:
        return pack([self.body_bytes, [[seat, sig] for seat, sig in self.sigs]])

    @cached_property
    def hash(self) -> bytes:
        return sha256(self.encoded)

    @classmethod
    def decode(cls, data: bytes) -> Entry:
        try:
            outer = unpack_canonical(data)
        except EncodingError as exc:
            raise MalformedEntry(str(exc)) from None
        if not (isinstance(outer, list) and len(outer) == 2 and isinstance(outer[0], bytes)):
            raise MalformedEntry("an entry is [body bytes, signatures]")
        body_bytes, sig_list = outer
        if not isinstance(sig_list, list):
            raise MalformedEntry("signatures must be a list")
        sigs = []
        for item in sig_list:
            if not (
                isinstance(item, list)
                and len(item) == 2
                and isinstance(item[0], int)
                and not isinstance(item[0], bool)
                and isinstance(item[1], bytes)
            ):
                raise MalformedEntry("a signature is [seat, bytes]")
            sigs.append((item[0], item[1]))
        entry = cls(body_bytes, tuple(sigs))
        entry.body  # noqa: B018 - decode and shape-check now, so decode() fails early
        entry.__dict__["encoded"] = data  # canonical, so identical to a re-encoding
        return entry


# Field name -> python type, per kind.  ``bytes32`` means bytes of length 32.
_SHAPES: dict[str, dict[str, Any]] = {
    "genesis": {
        "t": str,
        "protocol": str,
        "game": str,
        "options": dict,
        "seats": list,
        "chain_len": int,
        "nonce": bytes,
    },
    "action": {"t": str, "i": int, "prev": bytes, "seat": int, "action": str},
    "shuffle": {"t": str, "i": int, "prev": bytes, "seat": int, "msg": dict},
    "open": {"t": str, "i": int, "prev": bytes, "parts": list},
    "secrets": {"t": str, "i": int, "prev": bytes, "parts": list},
    "part": {"t": str, "i": int, "prev": bytes, "seat": int, "msg": dict},
    "chance": {
        "t": str,
        "i": int,
        "prev": bytes,
        "step": int,
        "purpose": str,
        "pre": list,
        "outcome": list,
    },
    "result": {"t": str, "i": int, "prev": bytes, "scores": list, "winners": list},
    "abort": {
        "t": str,
        "i": int,
        "prev": bytes,
        "reason": str,
        "culprit": int,
        "detail": str,
        "evidence": list,
    },
}


# Fields a kind may carry or leave out (absent rather than empty, so old logs stay
# byte-identical): the proof that a played hand card is the one claimed.
_OPTIONAL: dict[str, dict[str, Any]] = {"action": {"reveal": dict, "transfer": dict}}


def check_body_shape(body: Any) -> None:
    """Raise MalformedEntry unless ``body`` has exactly the fields of its kind."""
    if not isinstance(body, dict) or body.get("t") not in _SHAPES:
        raise MalformedEntry(
            f"unknown entry kind {body.get('t') if isinstance(body, dict) else body!r}"
        )
    optional = {k: v for k, v in _OPTIONAL.get(body["t"], {}).items() if k in body}
    shape = {**_SHAPES[body["t"]], **optional}
    if set(body) != set(shape):
        missing = sorted(set(shape) - set(body))
        extra = sorted(set(body) - set(shape))
        raise MalformedEntry(f"{body['t']} entry fields: missing {missing}, unexpected {extra}")
    for name, typ in shape.items():
        value = body[name]
        if not isinstance(value, typ) or (typ is int and isinstance(value, bool)):
            raise MalformedEntry(f"{body['t']}.{name} must be {typ.__name__}")
    if "prev" in body and len(body["prev"]) != 32:
        raise MalformedEntry("prev must be a 32-byte hash")


def bundled_parts(bundle: dict[str, Any]) -> list[Entry]:
    """The signed ``part`` entries an ``open`` or ``secrets`` body bundles, rebuilt
    from its ``parts`` (each ``[msg, signature]``, in seat order); the signatures
    are not checked here."""
    out = []
    for seat, item in enumerate(bundle["parts"]):
        if not (
            isinstance(item, list)
            and len(item) == 2
            and isinstance(item[0], dict)
            and isinstance(item[1], bytes)
        ):
            raise MalformedEntry("a bundled part is [message map, signature]")
        body = make_body(t="part", i=bundle["i"], prev=bundle["prev"], seat=seat, msg=item[0])
        out.append(Entry(body, ((seat, item[1]),)))
    return out


def game_id_of(genesis_body_bytes: bytes) -> bytes:
    return sha256(GAME_ID_DOMAIN, genesis_body_bytes)


def signed_message(game_id: bytes, body_bytes: bytes) -> bytes:
    return SIG_DOMAIN + game_id + body_bytes


def make_body(**fields: Any) -> bytes:
    """Encode a body map; checks its shape so we never write what we would reject."""
    check_body_shape(fields)
    return pack(fields)


def sign_body(game_id: bytes, body_bytes: bytes, signers: dict[int, SigningKey]) -> Entry:
    """An entry over ``body_bytes`` signed by every seat in ``signers`` (seat order)."""
    message = signed_message(game_id, body_bytes)
    sigs = tuple((seat, signers[seat].sign(message)) for seat in sorted(signers))
    return Entry(body_bytes, sigs)
