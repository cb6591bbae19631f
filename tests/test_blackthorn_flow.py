"""Council of Blackthorn through the real driver: the Whispers checks, typed questions rebuilt after
a correction, the correction fields, the table steps and how a game ends."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from referee.asks import Choice, TableStep
from referee.engine.driver import Driver
from referee.engine.facts import ruling_choices
from referee.errors import InvalidAdjustment, InvalidAnswer
from referee.games.blackthorn.game import GAME
from referee.games.blackthorn.state import FACTIONS

THREE = ["Ann", "Bo", "Cy"]
TWO = ["Ann", "Bo"]


def opening(players: list[str], rulings: dict[str, str] | None = None) -> list[str]:
    """Set-up answers with the first player on the ring, for any choice of rulings."""
    if (rulings or {}).get("starting-roll-total") == "table-decides":
        rolls = [players[0]]
    else:
        rolls = [str(12 - seat) for seat in range(len(players))]
    return [*rolls, *(["1"] * len(players))]


class Recorder:
    """Plays lines through a driver and keeps every question it was asked."""

    def __init__(self, players: list[str], rulings: dict[str, str] | None = None) -> None:
        self.driver = Driver(GAME, players, {"rulings": rulings} if rulings else {})
        self.asked: list[tuple[str, str]] = []
        self.note()

    def note(self) -> None:
        if self.driver.pending is not None:
            self.asked.append((self.driver.pending.section, self.driver.pending.prompt))

    def play(self, *lines: str) -> Recorder:
        for line in lines:
            if line.startswith("adjust "):
                change, _, reason = line.removeprefix("adjust ").partition(";")
                self.driver.adjust(change.strip(), reason.strip() or "position")
            else:
                self.driver.answer(line)
            self.note()
        return self

    def treason(self) -> list[int]:
        return [player.treason_cards for player in self.driver.state.players]


# --- Whispers ------------------------------------------------------------------------------------


def test_the_ghosts_whispers_makes_both_tied_live_players_draw_without_a_question() -> None:
    table = Recorder(TWO).play(
        *opening(TWO), "1 1 1 1", "adjust Ann noble =5", "adjust Bo noble =5", "no card", "no card"
    )
    asked_before = len(table.asked)
    table.play("whispers")  # the ghost's card: +1 on every track (Noble 0 -> 1), then the checks
    assert table.treason() == [4, 4]  # both tied leaders of Noble draw; the ghost leads the other three
    assert [section for section, _ in table.asked[asked_before:]] == ["round-dice"]  # nobody was asked
    assert table.driver.state.ghost is not None and table.driver.state.ghost.points("legion") == 1


WHISPERS_RULINGS = (
    "whispers-active-tied", "whispers-zero-buildings", "whispers-gain-capped", "ghost-in-comparisons",
    "ghost-whispers-treason",
)
"""The rulings that bear on a Whispers check: every combination of their choices is played."""


def every_ruling() -> Iterator[dict[str, str]]:
    """Every combination of the Whispers rulings; the other rulings take each of their choices in turn."""
    choices = ruling_choices(GAME.rulebook)
    others = [name for name in choices if name not in WHISPERS_RULINGS]
    for number, values in enumerate(itertools.product(*(choices[name] for name in WHISPERS_RULINGS))):
        rulings = dict(zip(WHISPERS_RULINGS, values, strict=True))
        rulings.update({name: choices[name][number % len(choices[name])] for name in others})
        yield rulings


RULINGS = list(every_ruling())


@pytest.mark.parametrize("rulings", RULINGS, ids=lambda rulings: "+".join(rulings.values()))
def test_a_player_on_0_never_draws_in_a_whispers_check(rulings: dict[str, str]) -> None:
    # Ann plays Whispers with every token on 0; her Building decides the building check for her.
    table = Recorder(THREE, rulings).play(
        *opening(THREE, rulings), "1 1 1 1", "adjust Ann construction +2", "whispers", "noble"
    )
    assert table.treason() == [3, 3, 3]
    assert table.asked[-1] == ("phase-play-card", "Bo plays which card?")  # no tie was asked either
    # The ghost's Whispers with both live players on 0 everywhere: only Ann's Building draws.
    ghost = Recorder(TWO, rulings).play(
        *opening(TWO, rulings), "1 1 1 1", "adjust Ann construction +2", "no card", "no card", "whispers"
    )
    assert ghost.treason() == [4, 3]


def test_the_whispers_checks_ask_their_ties_in_the_order_noble_legion_peasant_guild() -> None:
    tied = [f"adjust {name} {faction} =3" for name in ("Bo", "Cy") for faction in FACTIONS]
    table = Recorder(THREE).play(*opening(THREE), "1 1 1 1", *tied, "whispers")
    table.play("noble", "Bo", "Cy", "Bo", "Cy")  # Ann's level (1 Noble point), then the four picks
    ties = [prompt for section, prompt in table.asked if prompt.endswith("chooses who draws")]
    assert [prompt.split(":")[0] for prompt in ties] == [
        "Whispers, Noble", "Whispers, Legion", "Whispers, Peasant", "Whispers, Guild",
    ]
    assert table.treason() == [3, 5, 5]


def test_a_correction_at_a_whispers_tie_counts_in_the_later_checks() -> None:
    tied = ["adjust Bo noble =3", "adjust Cy noble =3", "adjust Bo legion =3", "adjust Cy legion =3"]
    table = Recorder(THREE).play(*opening(THREE), "1 1 1 1", *tied, "whispers", "noble")
    assert table.driver.pending is not None and table.driver.pending.prompt.startswith("Whispers, Noble")
    table.play("adjust Cy legion -1 ; a character ability", "Bo")  # Legion is no longer tied
    assert table.treason() == [3, 5, 3]  # Bo drew for Noble (picked) and for Legion (alone on top)


# --- questions, typed answers and corrections ----------------------------------------------------


def test_a_player_named_like_an_option_word_is_chosen_by_name() -> None:
    players = ["Ann", "No", "Cy"]
    table = Recorder(players).play(*opening(players), "0 1 1 1", "noble", "No")
    assert [player.treason_cards for player in table.driver.state.players] == [2, 4, 3]
    assert table.driver.entries[-1].answer == "No"


def test_the_card_question_is_rebuilt_when_a_correction_empties_the_hand() -> None:
    table = Recorder(THREE).play(*opening(THREE), "1 1 1 1", "adjust Ann hand =0 ; a card's text")
    pending = table.driver.pending
    assert isinstance(pending, Choice) and pending.options == ("no card",)
    with pytest.raises(InvalidAnswer):
        table.driver.answer("noble")
    table.play("no card")
    assert table.driver.state.players[0].hand == 5 and table.driver.state.active == "Bo"


def test_a_turn_with_no_card_in_hand_waits_for_the_action_before_control() -> None:
    table = Recorder(THREE).play(*opening(THREE), "1 1 1 1", "no card", "adjust Cy hand =0 ; a card's text")
    table.play("no card")  # Bo; Cy then starts her turn with an empty hand: nothing to ask about
    assert isinstance(table.driver.pending, TableStep) and table.driver.state.active == "Cy"
    table.play("adjust Cy noble =3 ; an action", "done")
    assert table.driver.state.players[2].influence == 3 + 2  # control saw the action's level


def test_corrections_hide_hidden_counts_and_refuse_a_bare_number() -> None:
    table = Recorder(THREE).play(*opening(THREE))
    table.driver.take_messages()
    table.play("adjust Ann influence +4 ; Minister of Coin", "adjust Bo treason -1 ; a card")
    said = table.driver.take_messages()
    assert said == [
        "Correction: Ann's influence changed (hidden) (Minister of Coin)",
        "Correction: Bo's treason changed (hidden) (a card)",
    ]
    assert (table.driver.state.players[0].influence, table.driver.state.players[1].treason_cards) == (7, 2)
    for bare in ("Ann noble 1", "Ann influence 3", "Ann building 4"):
        with pytest.raises(InvalidAdjustment, match=r"\+N \(add\), -N \(take away\) or =N \(set\)"):
            table.driver.adjust(bare, "bare number")
    with pytest.raises(InvalidAdjustment, match="starts with who it is about"):
        table.driver.adjust("Ghost noble +1", "x")  # three players: there is no ghost
    assert GAME.adjust_help().endswith("e.g. Ann noble +1 ; the King's text")


def test_the_ghost_and_the_dice_take_their_own_corrections() -> None:
    table = Recorder(TWO).play(*opening(TWO), "1 1 1 1", "adjust Ghost legion +2 ; a card", "adjust dice guild =3")
    state = table.driver.state
    assert state.ghost is not None and state.ghost.points("legion") == 2 and state.dice["guild"] == 3
    with pytest.raises(InvalidAdjustment, match="no field 'influence'"):
        table.driver.adjust("ghost influence +1", "x")
    with pytest.raises(InvalidAdjustment, match="face it shows"):
        table.driver.adjust("dice guild +1", "x")


def test_the_report_says_how_the_game_ended() -> None:
    table = Recorder(THREE).play(
        *opening(THREE), "1 1 1 1", "adjust Ann noble =13", "adjust Ann guild =13", "adjust Bo legion =13",
        "no card", "no card", "no card", "1", "2", "3",
    )
    report = table.driver.report
    assert report is not None and report.termination is not None
    assert report.termination.code == "factions-blocked"
    assert "end of Ann's turn in round 1" in report.termination.text


# --- the draw ------------------------------------------------------------------------------------


def test_the_draw_fills_a_hand_up_to_5_and_never_takes_cards_away() -> None:
    """#phase-draw: the active player draws until the hand holds 5; a hand already larger (an
    Action gave cards) keeps what it holds, less the card played."""
    table = Recorder(THREE).play(*opening(THREE), "1 1 1 1", "adjust Ann hand =7 ; a character Action")
    table.play("noble", "none", "ally", "done")  # Ann plays one card: 6 left, none drawn
    assert [player.hand for player in table.driver.state.players] == [6, 5, 5]
    table.play("adjust Bo hand =2 ; a card's text", "guild", "none", "ally", "done")
    assert table.driver.state.players[1].hand == 5  # 1 left after the play, 4 drawn


# --- a Whispers tie question rebuilt after a correction --------------------------------------------


def test_a_correction_that_ends_a_whispers_tie_turns_its_question_into_a_step_naming_who_draws() -> None:
    """#whispers: with one player alone on top there is no pick; a correction that ends the tie while
    its question is open leaves the table a step that says who draws, not the tie question."""
    table = Recorder(THREE).play(*opening(THREE), "1 1 1 1", "adjust Bo noble =3", "adjust Cy noble =3",
                                 "whispers", "legion")
    pending = table.driver.pending
    assert isinstance(pending, Choice) and pending.prompt.startswith("Whispers, Noble: tie for the most")
    table.play("adjust Cy noble -1 ; a character ability")
    pending = table.driver.pending
    assert isinstance(pending, TableStep), pending
    assert pending.prompt == "Whispers, Noble: no longer a tie, Bo draws a treason card; Enter to go on"
    table.play("adjust Cy noble +1 ; the ability undone")  # tied again: the pick is asked again
    assert isinstance(table.driver.pending, Choice) and table.driver.pending.options == ("Bo", "Cy")
    table.play("adjust Cy noble -1 ; a character ability", "done")
    assert table.treason() == [3, 4, 3]  # Bo, alone on top, drew for Noble; Ann leads Legion alone
    assert table.asked[-1] == ("phase-play-card", "Bo plays which card?")


def test_a_correction_that_leaves_nobody_on_top_says_nobody_draws() -> None:
    """#whispers: a player on 0 never draws, so a tie corrected down to 0 leaves no drawer."""
    table = Recorder(THREE).play(*opening(THREE), "1 1 1 1", "adjust Bo noble =1", "adjust Cy noble =1",
                                 "whispers", "legion", "adjust Bo noble =0 ; a card", "adjust Cy noble =0 ; a card")
    pending = table.driver.pending
    assert isinstance(pending, TableStep) and "nobody draws" in pending.prompt, pending
    table.play("done")
    assert table.treason() == [3, 3, 3]


# --- what runs out: the treason cards, the 13 level ------------------------------------------------


def test_no_more_treason_cards_are_drawn_than_the_96_that_exist() -> None:
    """#treason-cards: the Treason deck is reshuffled from its discards, but only 96 cards exist, so a
    draw with 95 held gives the last one only, and with all 96 held gives none."""
    table = Recorder(THREE).play(*opening(THREE), "3 1 1 1", "adjust Ann treason =89 ; drawn off the record")
    table.play("noble")  # a 3 on the Noble die: Ann draws 2 of the 1 left
    assert table.treason() == [90, 3, 3]
    assert any("Ann draws 1 treason cards" in message for message in table.driver.messages)
    table.play("noble")  # Bo on a 3 too: nothing is left to draw
    assert table.treason() == [90, 3, 3]


def test_a_token_stops_at_9_on_a_faction_someone_else_blocks() -> None:
    """#blocking: once a player holds a track's 13 level, everyone else stops at 9, the extra levels
    lost; the blocker keeps 13."""
    table = Recorder(THREE).play(*opening(THREE), "1 1 1 3", "adjust Cy peasant =13 ; position",
                                 "adjust Ann peasant =7 ; position", "peasant")
    state = table.driver.state
    assert [player.points("peasant") for player in state.players] == [9, 0, 13]
    assert any("(stopped at the top open level)" in message for message in table.driver.messages)
