"""Teacher's Pet's options: the rulings players may choose, each a game option.

How it works
------------
Where the rulebook's words settle a question, the default is its plain reading;
where they do not, or where an older p2ptable read them otherwise, the choice is
an option (``--option NAME=VALUE``) recorded in the genesis.  Every option names
its ``before`` value, the ruling p2ptable played before the option existed: a
genesis written then does not list the option and is read with that value
(``replay/genesis.py``), so every older replay still verifies under the rules it
was played with.  RULES.md quotes the rulebook next to each one.

``Rulings`` is the same choices as one frozen value, kept in the state so the
pure rules read ``s.rulings.late`` and never a dictionary.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from p2ptable.engine.api import OptionSpec

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "nurse-catch",
        ("free", "detention"),
        "free",
        "a sneak into the Nurse's Office that fails: caught there, which costs nothing "
        "(free), or a Detention (detention, as before this option)",
        before="detention",
    ),
    OptionSpec(
        "study",
        ("always", "with-cards"),
        "always",
        "Study is always on offer, drawing what is left (always), or only while the "
        "Play Deck or its discard pile holds a card (with-cards, as before this option)",
        before="with-cards",
    ),
    OptionSpec(
        "late",
        ("total", "per-card"),
        "total",
        "the late plays after Day 5: the total of the cards played late is halved once, "
        "rounded down (total), or each card and set on its own (per-card, as before)",
        before="per-card",
    ),
    OptionSpec(
        "tie",
        ("shared", "fewer-detentions"),
        "shared",
        "players tied on the most Pet Points share the victory (shared), or the one "
        "with fewer Detentions wins (fewer-detentions, as before this option)",
        before="fewer-detentions",
    ),
    OptionSpec(
        "floor",
        ("none", "zero"),
        "none",
        "a Detention may take Pet Points below 0 (none), or they stop at 0 (zero, as "
        "before this option)",
        before="zero",
    ),
    OptionSpec(
        "tattle",
        ("anyone", "outside"),
        "anyone",
        "Tattle may accuse any player but one in the Nurse's Office, and fails against "
        "one in the expected room (anyone), or only one outside it (outside, as before)",
        before="outside",
    ),
    OptionSpec(
        "cafeteria",
        ("succeeds", "no-roll"),
        "succeeds",
        "a Move from the Cafeteria always succeeds, into the Hall Monitor's room too "
        "(succeeds), or needs no roll but is caught there (no-roll, as before)",
        before="no-roll",
    ),
)


@dataclass(frozen=True)
class Rulings:
    """The options of one game (the defaults unless the genesis says otherwise)."""

    nurse_catch: str = "free"
    study: str = "always"
    late: str = "total"
    tie: str = "shared"
    floor: str = "none"
    tattle: str = "anyone"
    cafeteria: str = "succeeds"

    @classmethod
    def of(cls, options: Mapping[str, str]) -> Rulings:
        """The rulings of normalized ``options`` (every option named)."""
        return cls(**{spec.name.replace("-", "_"): options[spec.name] for spec in OPTIONS})

    def options(self) -> dict[str, str]:
        return {spec.name: getattr(self, spec.name.replace("-", "_")) for spec in OPTIONS}


#: the rulings of a genesis written before the options existed
BEFORE = Rulings.of({spec.name: spec.before for spec in OPTIONS if spec.before})

assert Rulings() == Rulings.of({spec.name: spec.default for spec in OPTIONS})
