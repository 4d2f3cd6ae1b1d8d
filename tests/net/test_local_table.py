"""The bot peers started beside a person (net/local_table.py) run our own
p2ptable, whatever folder the person is in."""

from __future__ import annotations

import time

from p2ptable.net.local_table import BotProcesses


def test_a_folder_called_p2ptable_where_the_person_stands_is_not_imported(tmp_path, monkeypatch):
    # Found by hand: `host --bots 1` typed in a folder holding a folder named
    # p2ptable (here the data folder, XDG_DATA_HOME=.) started bots that imported
    # it ("cannot import name '__version__' from 'p2ptable'") and never came:
    # `python -m` puts the working folder first on the path.
    shadow = tmp_path / "here" / "p2ptable"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ImportError('the wrong p2ptable')\n")
    monkeypatch.chdir(shadow.parent)
    bots = BotProcesses(workdir=tmp_path / "bots")
    try:
        bots.start("127.0.0.1:9", "QXW7-KP3M-ZT9R", 1, "random")
        (proc,) = bots.procs
        end = time.monotonic() + 4.0
        while proc.poll() is None and time.monotonic() < end:
            time.sleep(0.1)
        log = (tmp_path / "bots" / "Bea.log").read_text(errors="replace")
        assert "the wrong p2ptable" not in log and "Traceback" not in log
        assert proc.poll() is None  # knocking at the (absent) host, as a bot does
    finally:
        bots.stop(grace=0.0)
    assert all(p.poll() is not None for p in bots.procs)
