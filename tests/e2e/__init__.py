"""Helpers for driving the `referee` command in a real pseudo-terminal, as a person at the table would."""
