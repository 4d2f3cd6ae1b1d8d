"""Commit-reveal randomness from per-seat hash chains (see protocol/randomness.md)."""
