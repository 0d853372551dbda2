"""Example harnesses: small, complete models for a team writing its own (docs/HARNESSES.md)."""
