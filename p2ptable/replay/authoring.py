"""Writing entries as a seat: what a seat holds in secret and how it signs.

The ledger checks entries; this module makes them.  A seat's secrets are its
Ed25519 key and its randomness chain.  Every function here reads the ledger only to
learn the next index, the previous hash and what is expected, so an entry made
here is exactly what :meth:`Ledger.append` accepts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from p2ptable.crypto.links import link_public
from p2ptable.crypto.signing import SigningKey, sha256
from p2ptable.engine.api import Action
from p2ptable.randomness.chain import DEFAULT_LENGTH, HashChain
from p2ptable.randomness.derive import derive_outcome
from p2ptable.replay.entries import (
    PROTOCOL,
    Entry,
    game_id_of,
    make_body,
    sign_body,
    signed_message,
)
from p2ptable.replay.ledger import Ledger


@dataclass
class SeatSecrets:
    """What one seat keeps to itself: its signing key, its randomness chain and
    its X25519 link key (for authenticating wire frames, crypto/links.py)."""

    key: SigningKey
    chain: HashChain
    link: bytes

    @property
    def link_public(self) -> bytes:
        return link_public(self.link)

    @classmethod
    def generate(cls, chain_len: int = DEFAULT_LENGTH) -> SeatSecrets:
        import secrets

        chain = HashChain(secrets.token_bytes(32), chain_len)
        return cls(SigningKey.generate(), chain, secrets.token_bytes(32))

    @classmethod
    def from_seed(cls, seed: bytes, seat: int, chain_len: int = DEFAULT_LENGTH) -> SeatSecrets:
        """Deterministic secrets for simulations and tests (never for real play)."""
        key = SigningKey(sha256(b"p2ptable/sim/key\x00", seed, bytes([seat])))
        chain = HashChain(sha256(b"p2ptable/sim/chain\x00", seed, bytes([seat])), chain_len)
        link = sha256(b"p2ptable/sim/link\x00", seed, bytes([seat]))
        return cls(key, chain, link)


def genesis_body(
    game: str,
    options: Mapping[str, str],
    names: Sequence[str],
    keys: Sequence[bytes],
    chain_heads: Sequence[bytes],
    links: Sequence[bytes],
    chain_len: int,
    nonce: bytes,
) -> bytes:
    seats = [
        {"name": name, "key": key, "chain": head, "link": link}
        for name, key, head, link in zip(names, keys, chain_heads, links, strict=True)
    ]
    return make_body(
        t="genesis",
        protocol=PROTOCOL,
        game=game,
        options=dict(options),
        seats=seats,
        chain_len=chain_len,
        nonce=nonce,
    )


def sign_genesis(body_bytes: bytes, secrets: SeatSecrets) -> bytes:
    """This seat's signature on a genesis body (after checking it, in a live game)."""
    return secrets.key.sign(signed_message(game_id_of(body_bytes), body_bytes))


def assemble_genesis(body_bytes: bytes, signatures: Sequence[bytes]) -> Entry:
    return Entry(body_bytes, tuple(enumerate(signatures)))


def action_entry(ledger: Ledger, seat: int, secrets: SeatSecrets, action: Action) -> Entry:
    body = make_body(
        t="action", i=ledger.next_index, prev=ledger.head, seat=seat, action=action.text
    )
    return sign_body(ledger.game_id, body, {seat: secrets.key})


def reveal(ledger: Ledger, seat: int, secrets: SeatSecrets) -> bytes:
    """This seat's next chain value, for the chance step the ledger expects."""
    expected = ledger.expected()
    if expected.kind != "chance" or expected.step_number is None:
        raise ValueError(f"no chance step is pending (expected {expected.kind})")
    return secrets.chain.preimage(expected.step_number)


def chance_entry(ledger: Ledger, preimages: Mapping[int, bytes]) -> Entry:
    """Bundle every seat's value into the chance entry (the same on every peer)."""
    expected = ledger.expected()
    assert expected.chance is not None and expected.step_number is not None
    pre = [preimages[s] for s in sorted(preimages)]
    outcome = derive_outcome(
        ledger.game_id, expected.step_number, expected.chance.purpose, pre, expected.chance.ranges
    )
    body = make_body(
        t="chance",
        i=ledger.next_index,
        prev=ledger.head,
        step=expected.step_number,
        purpose=expected.chance.purpose,
        pre=pre,
        outcome=list(outcome),
    )
    return Entry(body, ())


def result_body(ledger: Ledger) -> bytes:
    expected = ledger.expected()
    if expected.kind != "result" or expected.outcome is None:
        raise ValueError(f"the game is not over (expected {expected.kind})")
    return make_body(
        t="result",
        i=ledger.next_index,
        prev=ledger.head,
        scores=list(expected.outcome.scores),
        winners=list(expected.outcome.winners),
    )


def sign_result(ledger: Ledger, body_bytes: bytes, secrets: SeatSecrets) -> bytes:
    return secrets.key.sign(signed_message(ledger.game_id, body_bytes))
