"""How the session words amounts in what it tells the table."""

from __future__ import annotations


def coins(amount: int) -> str:
    return f"{amount} coin" if amount == 1 else f"{amount} coins"


def supply_note(paid: int, owed: int) -> str:
    """What a limited supply could not pay (ruling coin-supply); nothing when it paid in full."""
    if paid == owed:
        return ""
    return f" The supply held only {paid} of the {owed} coins (ruling coin-supply)."
