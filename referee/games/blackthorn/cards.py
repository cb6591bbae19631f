"""The printed cards of Council of Blackthorn the table can name: the faction cards.

A faction card prints its faction, whether it is an Ally or a Building, a trigger (a faction and
a value, or none) and, on a Building, its value. The flow asks each of these with the questions
here, which are also what checks a card typed into the catalogue or imported into it: the bounds
of a printed field live in one place. The catalogue ships empty; a card is known once the table
has named it (engine/cards.py).

From the second version of the questions a new card's fields may be given in one line
(`CARD_LINE`), and a card also keeps what its text does for its player (`text`, an Ally's) and
what its Action does for its owner (`action`, a Building's), each as an effect line the table typed
once (parse.parse_effect). The turn's card question may name the player's Action first
(`ActionThenCard`: 'Guildhall, Moneylender').
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.asks import Number, Parsed, choice, clean, pick
from referee.engine.cards import Card, CardChoice, CardKind
from referee.errors import InvalidAnswer
from referee.games.blackthorn.parse import (
    EFFECT_HINT,
    TRIGGER_HINT,
    format_effect,
    parse_own_effect,
    parse_trigger,
)
from referee.games.blackthorn.state import FACTIONS

MAX_BUILDING_VALUE = 99
"""A guard against typos only: the rulebook gives no building values."""


def format_trigger(trigger: tuple[str, int] | None) -> str:
    """A trigger as the parser reads it back: 'guild 5', or 'none'."""
    return "none" if trigger is None else f"{trigger[0]} {trigger[1]}"


FACTION = choice("Which faction does the card show?", "phase-play-card", FACTIONS)
CLASS = pick("Is the card an Ally or a Building?", "buildings-vs-allies", [("ally", False), ("building", True)])
TRIGGER = Parsed(
    "Trigger printed on the card (faction and value, e.g. 'guild 5'), or 'none'",
    "trigger",
    parser=parse_trigger,
    hint=TRIGGER_HINT,
    examples=("noble 3", "guild 5", "legion 7", "peasant 4", "none"),
    formatter=format_trigger,
)
BUILDING_VALUE = Number("Building value printed on the card", "building-value", maximum=MAX_BUILDING_VALUE)
OWN_EFFECT_EXAMPLES = ("influence +1", "legion +1", "none")
"""Random play takes these: gains only, which never break what a game without corrections keeps."""
TEXT = Parsed(
    "What the card's text does for the player who plays it", "buildings-vs-allies", parser=parse_own_effect,
    hint=EFFECT_HINT, examples=OWN_EFFECT_EXAMPLES, formatter=format_effect,
)
ACTION = Parsed(
    "What the building's Action does for its owner ('none': it has no Action)", "phase-action",
    parser=parse_own_effect, hint=EFFECT_HINT, examples=OWN_EFFECT_EXAMPLES, formatter=format_effect,
)

FACTION_CARD = CardKind(
    "faction-card",
    "faction card",
    (("faction", FACTION), ("class", CLASS), ("trigger", TRIGGER), ("value", BUILDING_VALUE), ("text", TEXT),
     ("action", ACTION)),
)
"""Its fields in the order a play reads them; a card learns each the first time it is asked."""
KINDS = (FACTION_CARD,)

CARD_LINE_HINT = (
    "its faction, or its printed fields in one line: faction, class, trigger (or 'none') and a "
    "Building's value, e.g. 'guild ally peasant 4', 'noble building noble 5 5', 'legion ally none'"
)
CLASSES = ("ally", "building")


def parse_card_line(text: str) -> dict[str, str]:
    """A new card's printed fields in one line (see CARD_LINE_HINT), as the catalogue keeps them;
    its faction alone, by name or number, as the faction question takes it."""
    words = text.lower().replace(",", " ").split()
    if len(words) == 1 and words[0].isdecimal() and 1 <= int(words[0]) <= len(FACTIONS):
        words = [FACTIONS[int(words[0]) - 1]]
    fields: dict[str, str] = {"faction": words[0]}
    rest = words[1:]
    while rest:
        word = rest.pop(0)
        if "class" not in fields and any(name.startswith(word) for name in CLASSES):
            fields["class"] = next(name for name in CLASSES if name.startswith(word))
        elif "trigger" not in fields and word in ("none", "no", "-"):
            fields["trigger"] = "none"
        elif "trigger" not in fields and not word.isdecimal():
            pair = f"{word} {rest.pop(0)}" if word.isalpha() and rest and rest[0].isdecimal() else word
            fields["trigger"] = pair
        elif word.isdecimal() and "value" not in fields and fields.get("class") == "building":
            fields["value"] = word
        elif word.isdecimal():
            raise ValueError(f"{word!r}: only a Building prints a value (say 'building' before it)")
        else:
            raise ValueError(f"{word!r} does not fit: give faction, class, trigger, value in that order")
    checked = FACTION_CARD.check(fields)
    if "trigger" in checked:  # kept as the trigger question writes it back ('l3' -> 'legion 3')
        checked["trigger"] = format_trigger(parse_trigger(checked["trigger"]))
    return checked


def format_card_line(fields: dict[str, str]) -> str:
    return " ".join(fields[name] for name in ("faction", "class", "trigger", "value") if name in fields)


CARD_LINE = Parsed(
    FACTION.prompt, "phase-play-card", parser=parse_card_line, hint=CARD_LINE_HINT,
    examples=("noble", "guild ally peasant 4", "legion building legion 3 3"), formatter=format_card_line,
)
"""The first question about a new card: its faction, or all it prints at once (the help says how;
the prompt stays the faction question's)."""


@dataclass
class ActedCard(Card):
    """The card answer of a turn whose Action was named first: `action` is what gave it (a
    Building's name or the character)."""

    action: str = ""


@dataclass(frozen=True)
class ActionThenCard(CardChoice):
    """The turn's card question, where the player's Action may be named first, then a comma:
    'Guildhall, Moneylender' uses Guildhall's Action, then plays Moneylender. `actions` are what
    the player can take an Action from now: completed Buildings (`buildings`, offered when a name is
    completed) and the character (named in the help only: a character's name may begin like a
    command, 'Queen' like 'quit')."""

    buildings: tuple[str, ...] = ()
    character: str = ""

    @property
    def actions(self) -> tuple[str, ...]:
        return (*self.buildings, *([self.character] if self.character else []))

    def _parse(self, text: str) -> Card:
        source, comma, rest = text.partition(",")
        action = self._action(source.strip()) if comma and "{" not in source else None
        if action is None:
            return super()._parse(text)
        card_text = clean(rest)
        if not card_text:
            raise InvalidAnswer(text, f"no card after the Action of {action}", self.allowed())
        card = super()._parse(card_text)
        return ActedCard(card.kind, card.name, card.printed, card.learned, action=action)

    def _action(self, source: str) -> str | None:
        wanted = source.lower()
        exact = [name for name in self.actions if name.lower() == wanted]
        begun = [name for name in self.actions if name.lower().startswith(wanted)] if len(wanted) >= 3 else []
        found = exact or (begun if len(begun) == 1 else [])
        return found[0] if found else None

    def encode(self, value: Card) -> str:
        card = super().encode(value)
        return f"{value.action}, {card}" if isinstance(value, ActedCard) and value.action else card

    def allowed(self) -> str:
        card = super().allowed()
        if not self.actions:
            return card
        sources = ", ".join(self.actions)
        return f"{card}; an Action first, then a comma and the card: '{self.actions[0]}, CARD' ({sources})"

    def suggestions(self) -> list[str]:
        return [*super().suggestions(), *(f"{name}, " for name in self.buildings)]
