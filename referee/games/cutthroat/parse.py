"""Readers of the free-form answers of a Cutthroat Kingdoms session (the Parsed questions).

Each reader takes the table's text and returns a value, or raises ValueError saying what is wrong;
the question's hint says what is allowed. They only read: the rules are applied by the flow.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from referee.games.cutthroat.gems import GEM_COLOURS
from referee.games.cutthroat.state import ALMS_COPPER, MAX_DEFENDERS, MERCENARY, SOLDIER, Kingdom, Player

STACK_WORDS = {"s": SOLDIER, "soldier": SOLDIER, "soldiers": SOLDIER, "m": MERCENARY, "merc": MERCENARY,
               "mercs": MERCENARY, "mercenary": MERCENARY, "mercenaries": MERCENARY}
NO_CARDS = ("none", "no", "nothing", "-")
RESERVED_WORDS = ("all", "none", "nobody", "everyone", "bank", "pay")
"""Words the answers and corrections use: no player or territory is named so ('pay' starts a payment)."""
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 '\-]{0,29}")


def military_cards(text: str) -> list[str]:
    """'soldier merc soldier', 's m s' or 'sms' as the kinds of card, in order."""
    words = text.lower().replace(",", " ").split()
    if len(words) == 1 and words[0] not in STACK_WORDS and set(words[0]) <= {"s", "m"}:
        words = list(words[0])
    if not words or any(word not in STACK_WORDS for word in words):
        raise ValueError("not a list of soldiers and mercenaries")
    return [STACK_WORDS[word] for word in words]


def check_hand(cards: list[str], soldiers: int, mercenaries: int) -> None:
    if cards.count(SOLDIER) > soldiers:
        raise ValueError(f"only {soldiers} soldier(s) in hand")
    if cards.count(MERCENARY) > mercenaries:
        raise ValueError(f"only {mercenaries} mercenary card(s) in hand")


def parse_stack(text: str, soldiers: int, mercenaries: int, optional: bool) -> list[str] | None:
    """Military cards placed under a territory, top first: between 1 and 4, no more of a kind than
    the hand holds; 'none' where placing is optional."""
    if optional and text.lower().strip() in NO_CARDS:
        return None
    stack = military_cards(text)
    if len(stack) > MAX_DEFENDERS:
        raise ValueError(f"at most {MAX_DEFENDERS} military cards go under a territory")
    check_hand(stack, soldiers, mercenaries)
    return stack


def stack_examples(soldiers: int, mercenaries: int, optional: bool) -> tuple[str, ...]:
    """A few stacks this hand can place (so a random player always finds a valid answer)."""
    examples = []
    for text in ("s", "m", "s s", "s m", "m s s", "s s s s", "m m m m", "s m s m"):
        words = text.split()
        if words.count("s") <= soldiers and words.count("m") <= mercenaries:
            examples.append(text)
    return (*examples, "none") if optional else tuple(examples)


def parse_discards(text: str, count: int, soldiers: int, mercenaries: int) -> list[str] | None:
    """Exactly `count` military cards from hand (Stonehold's price), or 'none': no attack after all."""
    if text.lower().strip() in NO_CARDS:
        return None
    cards = military_cards(text)
    if len(cards) != count:
        raise ValueError(f"{count} card(s) are discarded, not {len(cards)}")
    check_hand(cards, soldiers, mercenaries)
    return cards


def discard_examples(count: int, soldiers: int, mercenaries: int) -> tuple[str, ...]:
    examples = [" ".join(["s"] * used + ["m"] * (count - used)) for used in range(count + 1)
                if used <= soldiers and count - used <= mercenaries]
    return (*examples, "none")


def parse_territory_name(text: str, taken: set[str]) -> str:
    if not NAME.fullmatch(text):
        raise ValueError("not a territory name")
    if text.lower() in taken:
        raise ValueError("that name is already a territory or a player")
    if text.lower() in RESERVED_WORDS or text.split()[0].lower() == "pay":
        raise ValueError(f"that word is kept for answers and corrections ({', '.join(RESERVED_WORDS)})")
    return text


def parse_players(text: str, kingdom: Kingdom) -> list[Player]:
    """Player names separated by spaces or commas; 'all' or 'none'."""
    lowered = text.lower().strip()
    if lowered in ("none", "nobody", "no one", "-"):
        return []
    if lowered in ("all", "everyone"):
        return list(kingdom.players)
    parts = [part for part in re.split(r"\s*,\s*" if "," in text else r"\s+", text.strip()) if part]
    chosen: list[Player] = []
    for part in parts:
        try:
            player = kingdom.player(part)
        except KeyError:
            raise ValueError(f"no player {part!r}") from None
        if player in chosen:
            raise ValueError(f"{player.name} named twice")
        chosen.append(player)
    return chosen


def parse_dealers(text: str, kingdom: Kingdom) -> list[Player]:
    chosen = parse_players(text, kingdom)
    if len(chosen) == 1:
        raise ValueError("a deal takes two players, so one player alone cannot have made one")
    return chosen


def parse_alms(text: str, kingdom: Kingdom) -> dict[str, int]:
    """The winning share of the Alms of Lazarus: 'Ann 6 Bo 6' or 'Ann 6, Bo 6' (12 in all); 'tie'."""
    if text.lower().strip() in ("no decision", "tie", "none"):
        return {}
    if "," in text:
        pairs = [part.strip().rsplit(maxsplit=1) for part in text.split(",") if part.strip()]
    else:
        words = text.replace(":", " ").split()
        pairs = [words[index : index + 2] for index in range(0, len(words), 2)]
    if any(len(pair) != 2 for pair in pairs):
        raise ValueError("expected names each followed by a number of copper")
    shares: dict[str, int] = {}
    for name, amount in pairs:
        name = name.rstrip(":").strip()
        try:
            player = kingdom.player(name)
        except KeyError:
            raise ValueError(f"no player {name!r}") from None
        if not amount.isdecimal():
            raise ValueError(f"{amount!r} is not a number of copper")
        if player.name in shares:
            raise ValueError(f"{player.name} named twice")
        shares[player.name] = int(amount)
    if sum(shares.values()) != ALMS_COPPER:
        raise ValueError(f"the shares add up to {sum(shares.values())}, not {ALMS_COPPER}")
    return shares


def parse_gem_line(text: str, left: Mapping[str, int]) -> dict[str, int]:
    """A player's gems on one line, one count per colour in the order of GEM_COLOURS ('3 1 1 1 1 0');
    no colour beyond what is still unclaimed of it."""
    parts = [part for part in re.split(r"[\s,;/]+", text.strip()) if part]
    if len(parts) != len(GEM_COLOURS) or not all(re.fullmatch(r"[0-9]{1,2}", part) for part in parts):
        raise ValueError(f"expected {len(GEM_COLOURS)} whole numbers, one per colour")
    counts = dict(zip(GEM_COLOURS, (int(part) for part in parts), strict=True))
    for colour, count in counts.items():
        if count > left[colour]:
            raise ValueError(f"only {left[colour]} {colour} gem(s) are still unclaimed")
    return counts
