"""A table of honest seats driven in one process, recording every sealed operation.

Each method is what the seats of a live game would do together: the acting seat
makes its message, the message goes through its bytes (as it would over the
network), and the state moves on with the ``apply_*`` function everyone runs.
"""

from __future__ import annotations

import p2ptable.sealed as sd

GAME_ID = bytes(range(32))


class Table:
    def __init__(self, seats: int = 3, seed: bytes = b"seed", game_id: bytes = GAME_ID) -> None:
        self.rand = sd.SeededRandom(seed)
        self.game_id = game_id
        self.secrets = [sd.new_secret(self.rand) for _ in range(seats)]
        self.keys = [sd.make_key(game_id, s, x, self.rand) for s, x in enumerate(self.secrets)]
        self.table = sd.make_table(game_id, self.keys)
        self.state = sd.new_state(self.table)
        self.ops: list[sd.Op] = []

    @property
    def seats(self) -> int:
        return len(self.secrets)

    def apply(self, op: sd.Op) -> tuple:
        self.state, faces = sd.apply_op(self.state, op)
        self.ops.append(op)
        return faces

    def wire(self, msg):
        """The message as another peer receives it."""
        return sd.decode_message(msg.encode(), msg.seat)

    def add(self, cards) -> None:
        self.apply(sd.AddCards(tuple(cards)))

    def shuffle(self, seat: int, **kwargs) -> None:
        msg = sd.make_shuffle(self.state, seat, self.rand, **kwargs)
        self.apply(sd.Shuffle(self.wire(msg)))

    def shuffle_all(self) -> None:
        for seat in range(self.seats):
            self.shuffle(seat)

    def shares(self, to) -> list[sd.SharesMessage]:
        return [
            sd.make_shares(self.state, s, x, tuple(to), self.rand)
            for s, x in enumerate(self.secrets)
        ]

    def open(self, to) -> tuple:
        msgs = tuple(self.wire(m) for m in self.shares(to))
        return self.apply(sd.Open(tuple(to), msgs))

    def deal(self, per_seat: int) -> None:
        self.open([s for _ in range(per_seat) for s in range(self.seats)])

    def hand(self, seat: int) -> tuple[int, ...]:
        return sd.read_hand(self.state, seat, self.secrets[seat])

    def reveal(self, seat: int, index: int) -> int:
        msg = sd.make_reveal(self.state, seat, self.secrets[seat], index, self.rand)
        (card,) = self.apply(sd.Reveal(self.wire(msg)))
        return card

    def transfer(self, seat: int, index: int, to: int) -> None:
        msg = sd.make_transfer(self.state, seat, self.secrets[seat], index, to, self.rand)
        self.apply(sd.Transfer(self.wire(msg)))

    def audit(self) -> sd.AuditReport:
        secrets = [sd.SecretMessage(s, x) for s, x in enumerate(self.secrets)]
        return sd.audit(self.game_id, self.keys, secrets, self.ops)


def ready_table(seats: int = 3, cards: int = 12, seed: bytes = b"seed") -> Table:
    """Cards added and shuffled by every seat: ready to deal."""
    t = Table(seats, seed)
    t.add(range(cards))
    t.shuffle_all()
    return t
