"""Which table `join` and `watch` go to, and with which code: the address typed
or a table picked from those heard on the LAN, and the join code, asked for
(and asked again after a typo) when it was not given."""

from __future__ import annotations

import click

from p2ptable.cli.live_options import USER_ERRORS, _call
from p2ptable.cli.tables import pick_table


def _table_and_code(
    address: str | None,
    code: str | None,
    wait: float,
    interfaces,
    watching: bool,  # noqa: ANN001
) -> tuple[str, str, str]:
    """The address typed, or the table picked from those heard on the LAN (open
    ones for `join`, watchable ones for `watch`), the code, and the picked
    table's id ("" for an address typed): a typed code is checked before
    anything listens; one not given is asked for, after the pick or once the
    address typed is known to be one."""
    from p2ptable.net.addresses import split_address
    from p2ptable.net.lobby import normalize_code

    if code is not None:
        _call(normalize_code, code)
    listed = ""
    if address is None:
        picked = pick_table(wait, interfaces, watching=watching)
        address, listed = picked.where, picked.announcement.table_id
    else:
        _call(split_address, address)  # a typo in it is said before the code is asked
    if code is None:
        code = ask_code()
    return address, code, listed


# A wrong code typed at the question is asked again this many times in all: each
# try is a knock the host counts (five a minute from one address, wire.md 3.3).
CODE_TRIES = 3


def ask_code() -> str:
    """The join code, asked for until one is well formed (a typo is said, and asked
    again, instead of ending the command)."""
    from p2ptable.net.lobby import normalize_code

    def checked(typed: str) -> str:
        try:
            normalize_code(typed)
        except USER_ERRORS as exc:
            raise click.UsageError(str(exc)) from None
        return typed.strip()

    return click.prompt("Join code (as the host printed it)", value_proc=checked)
