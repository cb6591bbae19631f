"""What the table carries out by hand in a turn, from the second version of the questions: a
triggered Ally's text and the Action named with the card, each told in one effect line.

The card question of a turn may name the player's Action first ('Guildhall, Moneylender'). A
Building's Action and a named Ally's text are asked once, as what they change for their player
(parse.parse_effect), kept in the card catalogue, and carried out by the referee from then on; a
line that also changes another player is carried out, not kept (the next play may name someone
else). A character's Action is printed on its placard: the table carries it out every time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from referee.asks import CONFIRMATIONS, Builder, Choice, Parsed, ask, clean, pick
from referee.engine.cards import Card, Remember
from referee.engine.game import Say, Steps
from referee.errors import InvalidAnswer
from referee.games.blackthorn import rules
from referee.games.blackthorn.cards import FACTION_CARD, OWN_EFFECT_EXAMPLES, ActionThenCard
from referee.games.blackthorn.parse import (
    EFFECT_FIELDS,
    EFFECT_HINT,
    Effect,
    format_effect,
    parse_effect,
    parse_own_effect,
)
from referee.games.blackthorn.state import FACTIONS, Player, Table

WHISPERS = "whispers"
"""The value of a played Whispers card; a faction card's value is its faction, no card is None."""


@dataclass(frozen=True)
class EffectStep(Parsed[Effect | None]):
    """A table step that also takes what was done as one effect line: Enter (or 'done') confirms
    it after corrections, an effect line is carried out, and any other line confirms the step and
    answers the next question, as at every table step. A line that begins as a change would (a
    field or a player, then more) is read here, so that a mistyped change is refused as one."""

    names: tuple[str, ...] = ()

    def passes_on(self, raw: str) -> bool:
        try:
            text = clean(raw).lower()
        except InvalidAnswer:  # no question takes it: refused here
            return False
        if text in (*CONFIRMATIONS, "") or any(mark in text for mark in "+-"):
            return False
        words = text.split()
        begins_as_change = len(words) > 1 and (
            words[0] in EFFECT_FIELDS or any(text.startswith(name.lower() + " ") for name in self.names))
        if begins_as_change:
            return False
        try:
            self.parse(raw)
        except ValueError:
            return True
        return False


def card_question(player: Player) -> Callable[[], Choice[str | None]]:
    """Which card is played; with no card left in hand (a correction may take the last), only none."""

    def build() -> Choice[str | None]:
        cards: list[tuple[str, str | None]] = [(faction, faction) for faction in FACTIONS]
        cards.append(("whispers", WHISPERS))
        return pick(
            f"{player.name} plays which card?",
            "phase-play-card",
            [*(cards if player.hand > 0 else []), ("no card", None)],
        )

    return build


def resolve_text(table: Table, player: Player, printed: Card, say: Say) -> Steps:
    """A triggered Ally's text. Known to the catalogue, the referee carries it out and says so;
    otherwise the table does, and tells the referee what changed in one line (learned for a named
    card when it changes only the player's own holdings) or with corrections and Enter."""
    known = printed.printed.get("text")
    if known is not None:
        told = rules.apply_effect(table, player, parse_own_effect(known))
        say(f"{printed.name}'s text, as known: {'; '.join(told) or 'nothing the referee tracks'}.")
        return
    what = f"{printed.name}'s" if printed.name else "the ally's"
    effect = yield from ask(effect_question(
        table, player, f"Resolve {what} text now, then discard it", "buildings-vs-allies", learned=bool(printed.name)))
    if effect is None:
        return
    told = rules.apply_effect(table, player, effect)
    say(f"{printed.name or 'The ally'}'s text: {'; '.join(told) or 'no change'}.")
    if printed.name and all(not who for who, _, _ in effect):
        printed.printed["text"] = format_effect(effect)
        printed.learned = True


def effect_question(table: Table, owner: Player, doing: str, section: str, learned: bool) -> Builder[Effect | None]:
    """A table step that also takes what was done as one effect line (see parse.parse_effect);
    Enter (or 'done') after corrections, as at any table step. `learned`: a line that changes only
    the owner's holdings is kept as what the card does."""

    def build() -> EffectStep:
        keep = " (kept for next time unless it names another player)" if learned else ""
        other = next(player.name for player in table.players if player is not owner)
        return EffectStep(
            f"{doing}: its changes in one line (e.g. 'influence +2', '{other} peasant -1'){keep}, or "
            "corrections, then Enter",
            section, "done", parser=lambda text: read_effect(table, owner, text),
            hint=f"Enter (or 'done') once the table has done it, corrections first with 'adjust'; or {EFFECT_HINT}; "
            "a change to another player begins with the name",
            examples=("done", *OWN_EFFECT_EXAMPLES), formatter=lambda effect: "done" if effect is None else
            format_effect(effect), names=tuple(player.name for player in table.competitors),
        )

    return build


def read_effect(table: Table, owner: Player, text: str) -> Effect | None:
    """An effect line as the table stands: the ghost has only faction levels."""
    if text.lower() in CONFIRMATIONS:
        return None
    effect = parse_effect(text, tuple(player.name for player in table.competitors), owner.name)
    for who, field, _ in effect:
        if who and table.player(who).is_ghost and field not in FACTIONS:
            raise ValueError(f"the ghost has only faction levels, not {field}")
    return effect


def action_buildings(player: Player) -> tuple[str, ...]:
    """The completed Buildings the player may take an Action from by name: those the table named
    that are not known to have none."""
    buildings = [building.name for building in player.buildings
                 if building.complete and building.name and building.action != "none"]
    return tuple(dict.fromkeys(buildings))


def action_then_card_question(player: Player) -> Builder[Card]:
    """The turn's card question, where the player's Action may come first ('Guildhall, Moneylender')."""

    def build() -> ActionThenCard:
        inner = card_question(player)()
        buildings = action_buildings(player)
        # The prompt names a Building's Action only: every player has a character, and the help says so
        first = f" (an Action first: '{buildings[0]}, CARD')" if buildings else ""
        return ActionThenCard(f"{inner.prompt}{first}", inner.section, inner.default, options=inner.options,
                              numbers=inner.numbers, kind=FACTION_CARD, first="faction", inner=inner,
                              buildings=buildings, character=player.character or "")

    return build


def use_action(table: Table, player: Player, source: str, say: Say) -> Steps:
    """The Action named before the card: a Building's, carried out by the referee once known
    (asked the first time and learned), or the character's, carried out by the table."""
    if source == player.character:
        effect = yield from ask(effect_question(table, player, f"Use {source}'s Action", "phase-action", False))
        if effect is not None:
            say(f"{source}'s Action: {'; '.join(rules.apply_effect(table, player, effect)) or 'no change'}.")
        return
    known = next(building.action for building in player.buildings if building.name == source)
    if known is not None:
        say(f"{source}'s Action, as known: {'; '.join(rules.apply_effect(table, player, parse_own_effect(known)))}.")
        return
    effect = yield from ask(effect_question(table, player, f"Use {source}'s Action", "phase-action", True))
    if effect is None:
        return
    say(f"{source}'s Action: {'; '.join(rules.apply_effect(table, player, effect)) or 'no change'}.")
    if all(not who for who, _, _ in effect):
        text = format_effect(effect)
        for building in (building for someone in table.players for building in someone.buildings):
            if building.name == source:
                building.action = text
        yield Remember(FACTION_CARD.id, source, {"action": text})
