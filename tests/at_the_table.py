"""One ordinary turn of each game, taken from its scenarios, and typed at a real terminal."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from e2e.terminal import Terminal

from referee.engine.driver import Driver
from referee.engine.lines import read_line
from referee.games.registry import load_game
from referee.scenarios import Scenario, load_scenario
from referee.summary import play_has_begun

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
ONE_TURN = {
    "council-of-blackthorn": "two-player-ghost",
    "council-of-serpents": "war-hire-assassin",
    "blackwood": "buy-then-brew",
    "cutthroat-kingdoms": "straight-combat",
    "got-lcg-1e": "joust-three-rounds",
}
"""A scenario per game whose first turn is an ordinary one."""
PROMPT_STARTS, PROMPT_ENDS = "\x1b[?2004h", "\x1b[?2004l"
"""prompt_toolkit turns bracketed paste on as a prompt starts and off as it ends."""


def first_turn(game: str, name: str | None = None) -> tuple[Scenario, int]:
    """The scenario and how many of its answers bring the game to the end of its first turn (the
    first player's turn once play has begun)."""
    scenario = load_scenario(SCENARIOS / game / f"{name or ONE_TURN[game]}.toml")
    rules = load_game(scenario.game)
    driver = Driver(rules, scenario.players, scenario.options)
    first = None
    for count, (_, text) in enumerate(scenario.answers):
        header = rules.header(driver.state)
        if play_has_begun(header) and header.active:
            if first is None:
                first = header.active
            elif header.active != first:
                return scenario, count
        line = read_line(text, driver.pending, rules.correction_verbs)
        if line.kind == "adjust":
            driver.adjust(line.text, line.reason)
        elif line.kind == "answer":
            driver.answer(text)
    return scenario, len(scenario.answers)


def play_lines(terminal: Terminal, answers: Sequence[tuple[int, str]]) -> None:
    """Type each answer at the next prompt, waiting for the prompt to start and to end."""
    for _, text in answers:
        terminal.child.expect_exact(PROMPT_STARTS)
        terminal.type(text)
        terminal.child.expect_exact(PROMPT_ENDS)
    terminal.child.expect_exact(PROMPT_STARTS)


def set_up_blackthorn_for_two(terminal: Terminal) -> None:
    """Council of Blackthorn for Ann and Bo, at a real terminal, up to the first round's dice."""
    terminal.answer("Ann: roll the four faction dice", "9")
    terminal.answer("Bo: roll the four faction dice", "5")
    terminal.expect_text("Ann takes the Right Hand of the King")
    terminal.press("Ann chooses a character", "1")  # Queen
    terminal.press("Bo chooses a character", "1")  # Lord of War: the Queen is taken
    terminal.expect_text("Two players: the ghost")  # (short enough not to be wrapped at 60 columns)
