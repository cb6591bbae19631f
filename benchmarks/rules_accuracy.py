"""How often the rules lookup puts the right section first, and in the top three.

    python benchmarks/rules_accuracy.py [--misses] [--show-held-out]

Three question sets, each run game by game against the project's own rulebooks:

    old          tests/rules_questions.toml                     93 questions, mostly in the rulebook's words
    players      tests/rules_questions_players.toml             100 questions in the words players use at a table
    independent  benchmarks/rules_questions_independent.toml    100 questions written from the rulebooks alone,
                                                                by someone who never saw the lookup, 20 a game

A question marked `held_out` is never used to tune the ranking, so its figures are reported apart
and its misses are hidden unless --show-held-out asks for them (look at them only to report).
The index is built in a temporary data directory, never in the player's own.
"""

from __future__ import annotations

import os
import sys
import tempfile
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parent.parent
QUESTION_SETS = {
    "old": REPO / "tests" / "rules_questions.toml",
    "players": REPO / "tests" / "rules_questions_players.toml",
    "independent": REPO / "benchmarks" / "rules_questions_independent.toml",
}


class Question(NamedTuple):
    game: str
    text: str
    sections: tuple[str, ...]
    """Every section that counts as a right answer; the first is the best one."""
    held_out: bool


class Tally(NamedTuple):
    questions: int
    top1: int
    top3: int

    def line(self) -> str:
        if not self.questions:
            return "no questions"
        return (f"{self.questions:3d} questions  top-1 {self.top1 / self.questions:4.0%} ({self.top1})"
                f"  top-3 {self.top3 / self.questions:4.0%} ({self.top3})")


def load(path: Path) -> list[Question]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return [Question(game, item["q"], tuple(item["sections"]), bool(item.get("held_out", False)))
            for game, items in data.items() for item in items]


def ranked(question: Question) -> list[str]:
    from referee.rules import search

    return [result.section for result in search(question.text, question.game, 3)]


def tally(questions: Sequence[Question]) -> tuple[Tally, list[str]]:
    """The counts over the questions, and one line for each miss of the top three."""
    top1 = top3 = 0
    misses = []
    for question in questions:
        found = ranked(question)
        top1 += bool(found) and found[0] in question.sections
        if set(found) & set(question.sections):
            top3 += 1
        else:
            misses.append(f"{question.game}: {question.text!r} wanted {question.sections[0]}, got {found}")
    return Tally(len(questions), top1, top3), misses


def first_misses(questions: Sequence[Question]) -> list[str]:
    """Questions whose right section is in the top three but not first."""
    lines = []
    for question in questions:
        found = ranked(question)
        if found and found[0] not in question.sections and set(found) & set(question.sections):
            lines.append(f"{question.game}: {question.text!r} wanted {question.sections[0]}, got {found}")
    return lines


def report(show_misses: bool, show_held_out: bool) -> dict[str, dict[str, Tally]]:
    figures: dict[str, dict[str, Tally]] = {}
    for name, path in QUESTION_SETS.items():
        questions = load(path)
        parts = {"all": questions,
                 "tuned": [q for q in questions if not q.held_out],
                 "held out": [q for q in questions if q.held_out]}
        figures[name] = {}
        print(f"[{name}] {path.relative_to(REPO)}")
        for part, chosen in parts.items():
            counts, misses = tally(chosen)
            figures[name][part] = counts
            print(f"  {part:<9} {counts.line()}")
            if show_misses and part == "tuned" or show_held_out and part == "held out":
                for miss in misses:
                    print(f"      miss: {miss}")
                for miss in first_misses(chosen):
                    print(f"      not first: {miss}")
    return figures


def main(argv: Sequence[str]) -> int:
    with tempfile.TemporaryDirectory() as home:
        os.environ["REFEREE_HOME"] = home
        os.environ.setdefault("REFEREE_RULEBOOKS", str(REPO / "rulebooks"))
        report("--misses" in argv, "--show-held-out" in argv)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    sys.exit(main(sys.argv[1:]))
