"""Signing keys and the canonical encoding every signature and hash is taken over."""
