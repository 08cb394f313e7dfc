"""Shared pytest configuration: the `rule` marker names the rulebook section a test checks."""
