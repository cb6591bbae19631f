"""The garbage collector during a session at the terminal: off while the session starts, and back
on just before the first prompt, with what start-up made frozen out of its passes.

Start-up makes only objects that last the whole game (modules, the game, the store), so the
collector's passes over them are wasted time before the first question. Every prompt then leaves a
few thousand objects in reference cycles behind it; left to the collector, they reach its oldest
generation, and every few questions a full pass over everything the program holds stalls the next
prompt by tens of milliseconds. So they are collected after each prompt while they are young,
which is cheap.
"""

from __future__ import annotations

import gc

_settled = False


def hold_while_starting() -> None:
    """No collection until the first prompt (an interactive `referee play`)."""
    gc.disable()


def settle_before_prompts() -> None:
    """Once, before the first prompt: freeze what start-up made, and collect again from there on."""
    global _settled
    if not _settled:
        gc.freeze()  # (no collection first: that would delay the first question)
        gc.enable()
        _settled = True


def collect_after_prompt() -> None:
    """The prompt's own objects, freed while they are young."""
    gc.collect(1)
