"""The join code: what a code may be, which ones a host may choose, and the PAKE
that proves both sides know it.

A join code is short (6 characters, about 30 bits), so it must never be
checkable offline: anyone who could test guesses against a recorded handshake,
or against the answer to one knock, would try every code in a day.  The
handshake is therefore a PAKE, SPAKE2 (the ``spake2`` package, as Magic Wormhole
uses it for its short codes): each side sends one group element blinded by the
code, and both derive one key from the two elements and the code.  Someone who
does not know the code learns nothing it can test guesses against; a stranger
who runs the exchange with one guessed code learns only whether that one guess
was right.  So a code can only be guessed online, one try per knock, and the
host's knock limits (net/knocks.py) bound the tries.

The SPAKE2 key is then bound to the table id and both signing keys
(:func:`confirmation_key`), so the proofs made with it also say who talks to whom:
a man in the middle without the code cannot splice two handshakes together.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets as pysecrets

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from spake2 import SPAKE2_A, SPAKE2_B, SPAKEError
from spake2.ed25519_basic import NotOnCurve

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # generated codes avoid 0/O, 1/I/L
CODE_LENGTH = 6  # generated: 31^6 codes, about 29.7 bits
MIN_CODE = 6
MAX_CODE = 32
MIN_DISTINCT = 4  # a host-chosen code has at least this many different characters
# Stretches of these, forwards or backwards, are the codes people pick first.
RUNS = (
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "01234567890",
    "QWERTYUIOP",
    "QWERTZUIOP",
    "AZERTYUIOP",
    "ASDFGHJKL",
    "QSDFGHJKLM",
    "ZXCVBNM",
    "YXCVBNM",
    "WXCVBN",
)
JOIN_DOMAIN = b"p2ptable/join/v2"
SIDE_JOINER = JOIN_DOMAIN + b"/joiner"  # SPAKE2 identities: this protocol, this role
SIDE_HOST = JOIN_DOMAIN + b"/host"
ELEMENT = 32  # bytes of a SPAKE2 message (an Ed25519 group element)

GOOD_CODES = (
    f"{MIN_CODE}-{MAX_CODE} letters and digits with at least {MIN_DISTINCT} different ones, "
    "not a repeated pattern or a run like ABCDEF or QWERTY"
)


class CodeError(ValueError):
    """Not a usable join code (the user's input)."""


class PakeError(ValueError):
    """The other side's SPAKE2 message is not a usable group element."""


def normalize_code(code: str) -> str:
    """The code as both sides use it: ``-`` and spaces removed, upper case; it
    must then be 6 to 32 ASCII letters and digits."""
    cleaned = code.replace("-", "").replace(" ", "").upper()
    bad = sorted({c for c in cleaned if not (c.isascii() and c.isalnum())})
    if not MIN_CODE <= len(cleaned) <= MAX_CODE or bad:
        if bad:
            why = f"it contains {', '.join(repr(c) for c in bad)}; "
        else:
            why = "too short; " if len(cleaned) < MIN_CODE else "too long; "
        raise CodeError(
            f"not a join code: {code!r} ({why}"
            f"codes are {MIN_CODE} to {MAX_CODE} letters and digits, e.g. 7KQ-M2X)"
        )
    return cleaned


def weakness(code: str) -> str | None:
    """Why a (normalized) code is too easy to guess online, or None if it is not."""
    distinct = len(set(code))
    if distinct < MIN_DISTINCT:
        return f"it has only {distinct} different character{'s' * (distinct != 1)}"
    for size in range(1, len(code) // 2 + 1):
        if len(code) % size == 0 and code[:size] * (len(code) // size) == code:
            return f"it repeats {code[:size]!r}"
    for run in RUNS:
        if code in run or code in run[::-1]:
            return "it is a run along the alphabet, the digits or a keyboard row"
    return None


def check_host_code(code: str) -> str:
    """The normalized code, if a host may open a table with it; CodeError if not."""
    cleaned = normalize_code(code)
    why = weakness(cleaned)
    if why is not None:
        raise CodeError(
            f"weak join code {code!r}: {why}. A code you choose needs {GOOD_CODES}; "
            "or leave the code out for a random one like 7KQ-M2X"
        )
    return cleaned


def new_code() -> str:
    """A random code, shown as ``XXX-XXX``; the rare draw that is weak is drawn again."""
    while True:
        raw = "".join(pysecrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if weakness(raw) is None:
            return f"{raw[:3]}-{raw[3:]}"


class CodeExchange:
    """One side's SPAKE2 run over the normalized code: :attr:`message` to send,
    :meth:`finish` with the other side's message.  Used once, for one handshake."""

    def __init__(self, code: str, host: bool) -> None:
        side = SPAKE2_B if host else SPAKE2_A
        self._host = host
        self._spake = side(normalize_code(code).encode(), idA=SIDE_JOINER, idB=SIDE_HOST)
        self.message = self._spake.start()[1:]  # without python-spake2's side byte

    def finish(self, theirs: object) -> bytes:
        """The SPAKE2 key (32 bytes); PakeError if ``theirs`` is not a usable element."""
        if not (isinstance(theirs, bytes) and len(theirs) == ELEMENT):
            raise PakeError(f"a SPAKE2 message is {ELEMENT} bytes")
        try:
            return self._spake.finish((b"A" if self._host else b"B") + theirs)
        except (ValueError, NotOnCurve, SPAKEError) as exc:
            raise PakeError(f"not a usable SPAKE2 element ({exc})") from None


def confirmation_key(spake_key: bytes, table: bytes, key_h: bytes, key_j: bytes) -> bytes:
    """The key both proofs are made with: the SPAKE2 key bound to this table and
    to the host's and the joiner's signing keys."""
    info = JOIN_DOMAIN + b"\x00" + table + key_h + key_j
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(spake_key)


def proof(key: bytes, role: bytes) -> bytes:
    return hmac.new(key, role, hashlib.sha256).digest()


def proof_matches(given: object, key: bytes, role: bytes) -> bool:
    return isinstance(given, bytes) and hmac.compare_digest(given, proof(key, role))
