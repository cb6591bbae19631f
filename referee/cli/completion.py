"""Tab completion at a question: the options, the commands, the players and the correction fields.

What may be completed is gathered by the session loop (`Completions`); `candidates` works out the
completions of a line typed so far, and `completer` wraps it for prompt_toolkit (imported only
when a person is at the terminal).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

ARGUMENT_COMMANDS = ("secret", "adjust", "rules", "undo", "redo", "edit")
"""Commands that take something after them: completed with a space, ready for it."""


@dataclass(frozen=True)
class Completions:
    """What a line may be completed with.

    `phrases` complete the whole line (the options, a known card's name, a command word);
    `players` follow 'secret'; `targets` and `fields` follow 'adjust' or a correction verb."""

    phrases: tuple[str, ...] = ()
    players: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()
    fields: tuple[str, ...] = ()
    verbs: tuple[str, ...] = field(default=())
    """The game's own correction verbs (e.g. 'pay'), read like 'adjust'."""
    prefix: str = ""
    """Read before what is typed: 'adjust ' where the question asks for a correction alone."""


def gather(
    suggestions: Iterable[str],
    commands: Iterable[str],
    players: Iterable[str],
    targets: Iterable[str],
    fields: Iterable[str],
    verbs: Iterable[str] = (),
) -> Completions:
    words = [f"{command} " if command in ARGUMENT_COMMANDS else command for command in commands if command != "?"]
    verbs = tuple(verbs)
    phrases = unique([*suggestions, *words, *(f"{verb} " for verb in verbs)])
    return Completions(phrases, unique(players), unique(targets), unique(fields), verbs)


def unique(texts: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(text for text in texts if text.strip()))


def candidates(typed: str, offer: Completions) -> list[tuple[str, int]]:
    """The completions of `typed` (the line up to the cursor): each is the text that replaces the
    last `-position` characters, as prompt_toolkit takes it. Case is ignored."""
    typed = offer.prefix + typed
    lowered = typed.lower()
    whole = [(phrase, -len(typed)) for phrase in offer.phrases if phrase.lower().startswith(lowered)]
    if offer.prefix:
        whole = []
    first, space, rest = typed.partition(" ")
    if not space:
        return whole
    command = first.lower()
    if command == "secret":
        pool: Sequence[str] = offer.players
    elif command == "adjust" or command in offer.verbs:
        pool = (*offer.targets, *offer.fields)
    else:
        return whole
    word = rest.rsplit(" ", 1)[-1]
    found = [(f"{name} ", -len(word)) for name in pool if name.lower().startswith(word.lower())]
    return whole + found


def completer(offer: Completions) -> Any:
    """A prompt_toolkit Completer over `offer`."""
    from prompt_toolkit.completion import CompleteEvent, Completer, Completion
    from prompt_toolkit.document import Document

    class Offered(Completer):
        def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
            for text, position in candidates(document.text_before_cursor, offer):
                yield Completion(text, start_position=position, display=text.strip())

    return Offered()
