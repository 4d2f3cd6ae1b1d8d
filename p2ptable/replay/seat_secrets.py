"""What one seat keeps to itself (:class:`SeatSecrets`): made once per game,
kept in ``REPLAY.secrets`` (net/persistence.py), handed to everything that signs,
reveals or decrypts for the seat.  A module of its own so that the log's parts
that need the type (replay/choices.py's salt) do not import the authoring of
entries, which imports the ledger."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from p2ptable.crypto.links import link_public
from p2ptable.crypto.signing import SigningKey, sha256
from p2ptable.randomness.chain import DEFAULT_LENGTH, HashChain
from p2ptable.replay.sealed_book import make_deck_key, sealed_rand
from p2ptable.sealed.group import N as _ORDER


@dataclass
class SeatSecrets:
    """What one seat keeps to itself: its signing key, its randomness chain, its
    X25519 link key (for authenticating wire frames, crypto/links.py) and its deck
    secret (a secp256k1 scalar for sealed decks, replay/sealed_book.py)."""

    key: SigningKey
    chain: HashChain
    link: bytes
    deck: int

    def deck_key(self, nonce: bytes) -> dict[str, Any]:
        """The genesis ``deck`` field for this seat at the table with ``nonce``."""
        rand = sealed_rand(self.deck, nonce, self.key.public, "deck-key")
        return make_deck_key(nonce, self.key.public, self.deck, rand)

    @property
    def link_public(self) -> bytes:
        return link_public(self.link)

    @classmethod
    def generate(cls, chain_len: int = DEFAULT_LENGTH) -> SeatSecrets:
        import secrets

        chain = HashChain(secrets.token_bytes(32), chain_len)
        deck = 1 + secrets.randbelow(_ORDER - 1)
        return cls(SigningKey.generate(), chain, secrets.token_bytes(32), deck)

    @classmethod
    def from_seed(cls, seed: bytes, seat: int, chain_len: int = DEFAULT_LENGTH) -> SeatSecrets:
        """Deterministic secrets for simulations and tests (never for real play)."""
        key = SigningKey(sha256(b"p2ptable/sim/key\x00", seed, bytes([seat])))
        chain = HashChain(sha256(b"p2ptable/sim/chain\x00", seed, bytes([seat])), chain_len)
        link = sha256(b"p2ptable/sim/link\x00", seed, bytes([seat]))
        deck = 1 + int.from_bytes(sha256(b"p2ptable/sim/deck\x00", seed, bytes([seat])), "big") % (
            _ORDER - 1
        )
        return cls(key, chain, link, deck)
