"""The full-screen table: the board, the players, your hand, the events and the
choice in panes, drawn with Textual.

How it fits
-----------
The line mode (``ui/terminal.py``) and this are two frontends of one seat
(``net/frontend.py``): both are told what happened and asked what the seat
does, and both draw from the seat's view (never the state) through the game's
screens (``ui/screens.py``: ``panes``, the menu's describer and arranger).

* ``snapshot.py``: what one redraw shows, a frozen value built on the peer's
  side from the session's view, its legal actions and the event lines.
* ``link.py``: the peer's side (:class:`~p2ptable.ui.tui.link.FullScreenFrontend`),
  and running the loop beside the app; ``channel.py``, the one place the two
  threads meet: the latest snapshot, handed over without waiting, and the
  person's choices, handed back through a queue and a pipe the peer loop polls
  with its sockets.
* ``app.py``: the Textual app, run in the main thread (Textual needs it for its
  signals) while the peer loop runs in a thread of its own: drawing can never
  stall the peer, whatever the terminal does.  ``panes.py``: what its panes say;
  ``dialogs.py``: the help and the question before leaving; ``typing.py``: the
  typing line (talk, ``break``, the lobby's commands), whose line the peer's
  side reads as the line mode reads one (``ui/typed_line.py``).  ``replay.py``: ``show``'s
  stepping through a replay, the same app.
"""
