"""``python -m p2ptable`` runs the command line."""

from p2ptable.cli import main

main()
