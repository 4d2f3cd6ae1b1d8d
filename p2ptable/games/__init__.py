"""The games p2ptable can play, one package each (rules, scoring, view, bots, notes)."""
