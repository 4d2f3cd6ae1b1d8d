"""Lobby frames after the handshake, bound to it: a key from SPAKE2, a counter, an address.

Every lobby frame is signed by its sender's key (lobby_frames.py), but a
signature says only who made a frame, not when nor for which handshake: anyone
who saw a seated joiner's ``here`` could send it again every two seconds after
the joiner died and so keep its dead seat (the table filled and hung), and a
departed spectator's ``feed`` sent again kept its place in the gallery and had
the host send its answers, hundreds of times the request's size, to that
spectator's machine.  So every frame after the handshake is bound to it.

Both sides of a handshake that succeeded hold its confirmation key ``C``
(join_code.py), which only they can compute.  From it each side has a key for
the frames it sends, ``K_side = HMAC-SHA256(C, BIND_DOMAIN || side)`` with
``side`` ``host`` or ``joiner`` (a spectator is a joiner), and each such frame's
data carries two more fields:

    n    int    the sender's counter in this handshake: 1 for its first bound
                frame, one more for each next one
    tag  bin16  HMAC-SHA256(K_side, BIND_DOMAIN || side || 0x00 || X ||
                n as 8 bytes big-endian || pack([kind, data without n and tag]))[:16]

where ``X`` is the joiner's SPAKE2 message, which names the handshake.  A
receiver takes a frame only if its tag checks with the other side's key (so it
was made for this handshake, by that side, and says what it says), its ``n`` is
above the last one taken (a replay has an old one; a gap is a frame lost), and,
at the host, it comes from the address the knock came from (so a frame cannot
be sent on from elsewhere: nothing a stranger sends makes the host answer
another machine).  Anything else is refused, counted by why, and not acted on.

:class:`Binding` is one side's state of one handshake: its keys, its own counter
and the other side's last.  Sans-IO: it takes and returns plain values.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field

from p2ptable.crypto.encoding import pack

BIND_DOMAIN = b"p2ptable/lobby/bind/v1\x00"
BIND_VERSION = 1  # `bind` in challenge, join and watch: frames after them are bound
TAG = 16
MAX_COUNTER = 2**63 - 1
HOST, JOINER = b"host", b"joiner"
# Why a frame is refused (the keys the host counts them under).
UNBOUND, BAD_TAG, REPLAYED, ELSEWHERE = "unbound", "bad tag", "replayed", "another address"


class Unbound(ValueError):
    """A frame that is not bound to our handshake: never acted on."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


def _key(confirm: bytes, side: bytes) -> bytes:
    return hmac.new(confirm, BIND_DOMAIN + side, hashlib.sha256).digest()


def _tag(key: bytes, side: bytes, handshake: bytes, n: int, kind: str, data: dict) -> bytes:
    body = pack([kind, {k: v for k, v in data.items() if k not in ("n", "tag")}])
    message = BIND_DOMAIN + side + b"\x00" + handshake + n.to_bytes(8, "big") + body
    return hmac.new(key, message, hashlib.sha256).digest()[:TAG]


@dataclass
class Binding:
    """One side's binding of one handshake.  ``ours`` is HOST or JOINER;
    ``address`` (the host's side only) is where the joiner's knock came from,
    and so where its later frames must come from."""

    confirm: bytes
    handshake: bytes  # the joiner's SPAKE2 message X
    ours: bytes
    address: str | None = None
    sent: int = 0  # our counter: the n of the last frame we bound
    taken: int = 0  # theirs: the n of the last frame we took
    _keys: tuple[bytes, bytes] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        theirs = JOINER if self.ours == HOST else HOST
        self._keys = (_key(self.confirm, self.ours), _key(self.confirm, theirs))

    @property
    def _theirs(self) -> bytes:
        return JOINER if self.ours == HOST else HOST

    def bind(self, kind: str, data: dict) -> dict:
        """``data`` with our next counter and its tag, to be signed and sent."""
        self.sent += 1
        tag = _tag(self._keys[0], self.ours, self.handshake, self.sent, kind, data)
        return {**data, "n": self.sent, "tag": tag}

    def check(self, kind: str, data: dict, address: str | None = None) -> None:
        """Take a frame of the other side's (its counter is noted); Unbound if it
        is not bound to this handshake, is a replay, or (with ``address``, at
        the host) comes from another address than the knock."""
        n, tag = data.get("n"), data.get("tag")
        if type(n) is not int or not isinstance(tag, bytes):
            raise Unbound(UNBOUND)
        if not 0 < n <= MAX_COUNTER:
            raise Unbound(BAD_TAG)
        expected = _tag(self._keys[1], self._theirs, self.handshake, n, kind, data)
        if not hmac.compare_digest(tag, expected):
            raise Unbound(BAD_TAG)
        if n <= self.taken:
            raise Unbound(REPLAYED)
        if self.address is not None and address is not None and address != self.address:
            raise Unbound(ELSEWHERE)
        self.taken = n
