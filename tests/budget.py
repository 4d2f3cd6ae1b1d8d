"""How hard the randomized tests try: a share in the default run, all in a thorough one.

The default run (``pytest``, what .ci/run runs) stays under five minutes on a
two-core machine, so the costliest property tests, and the random playouts of
every game, do half their work there: each says so where it is defined, with
``examples(full)``, which is ``full`` in a thorough run and half of it (at least
one) otherwise.  A thorough run, every count in full and the slow tests too:

    .venv/bin/python -m pytest -m 'slow or not slow' --hypothesis-profile thorough

(The profile is registered by tests/conftest.py, before hypothesis reads the
option.)
"""

from __future__ import annotations

from hypothesis import settings

THOROUGH = "thorough"


def register() -> None:
    """The thorough profile: hypothesis's own defaults; the counts are examples()'s."""
    settings.register_profile(THOROUGH, settings.get_profile("default"))


def thorough() -> bool:
    """Whether this run was asked to try everything (--hypothesis-profile thorough)."""
    current = getattr(settings, "get_current_profile_name", None)
    name = current() if current is not None else getattr(settings, "_current_profile", None)
    return name == THOROUGH


def examples(full: int) -> int:
    """The examples a property test draws: ``full`` when thorough, else half."""
    return full if thorough() else max(1, full // 2)
