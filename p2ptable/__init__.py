"""p2ptable: serverless, cheat-proof tabletop games between peers on a LAN."""

__version__ = "0.1.0"
