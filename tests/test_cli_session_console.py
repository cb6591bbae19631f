"""A session's console writes plain lines itself (its first screen before rich is loaded): byte
for byte what rich writes, in every terminal; and whatever it cannot write like rich, rich writes."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.errors import MissingStyle

from referee.cli.render import make_console, print_marked, show_header
from referee.cli.session_console import SessionConsole, escape_code
from referee.cli.styled import StyledLine, styled
from referee.engine.game import Header


class FakeTerminal(io.StringIO):
    """What a session console writes to, taken for a terminal of UTF-8 (as rich would take it)."""

    encoding = "utf-8"

    def isatty(self) -> bool:
        return True


@pytest.fixture
def plain_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """A colour terminal 60 columns wide, with none of the settings that change rich's output."""
    for name in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "COLORTERM", "JUPYTER_COLUMNS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.setenv("COLUMNS", "60")


def both(steps: list[tuple[str, tuple[object, ...], dict[str, object]]]) -> tuple[str, str, bool]:
    """What a session console and rich's own console write for the same calls, and whether the
    session console wrote them all itself (rich never loaded)."""
    session_out, rich_out = FakeTerminal(), FakeTerminal()
    session, rich = SessionConsole(session_out), make_console(file=rich_out)
    for method, arguments, options in steps:
        getattr(session, method)(*arguments, **options)
        getattr(rich, method)(*arguments, **options)
    return session_out.getvalue(), rich_out.getvalue(), session._rich is None


ONCE = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
"""`plain_terminal` sets the environment once for all the examples of a test, as is meant."""
STYLES = ["", "bold", "dim", "cyan", "yellow", "red", "bold red", "bold green", "green", "italic dim",
          "bright_green", "magenta underline"]
TEXT = st.text(st.sampled_from("abc XYZ 019 .,:;'!?()[]/\\-_~ ›Δ·→"), max_size=40)
PIECES = st.lists(st.tuples(TEXT, st.sampled_from(STYLES)), min_size=1, max_size=4)


@settings(max_examples=150, deadline=None, suppress_health_check=ONCE)
@given(pieces=PIECES, soft_wrap=st.booleans())
def test_a_styled_line_is_written_as_rich_writes_it(plain_terminal: None, pieces: list[tuple[str, str]],
                                                    soft_wrap: bool) -> None:
    written, by_rich, direct = both([("print", (styled(*pieces),), {"soft_wrap": soft_wrap})])
    assert written == by_rich
    if soft_wrap or sum(len(text) for text, _style in pieces) <= 60:
        assert direct  # it fits, or need not: no rich


@settings(max_examples=100, deadline=None, suppress_health_check=ONCE)
@given(text=TEXT, style=st.sampled_from(STYLES + ["bold red green", "#ff0000", "no such style"]))
def test_a_string_in_a_style_is_written_as_rich_writes_it(plain_terminal: None, text: str, style: str) -> None:
    try:
        written, by_rich, direct = both([("print", (text,), {"style": style})])
    except MissingStyle:  # rich refuses a style it does not know, even for an empty line
        assert style == "no such style"
        return
    assert written == by_rich
    assert direct == (not style or escape_code(style) is not None)


@settings(max_examples=60, deadline=None, suppress_health_check=ONCE)
@given(title=st.text(st.sampled_from("abcdefghij ·0123"), min_size=1, max_size=70))
def test_the_rule_over_each_step_is_written_as_rich_writes_it(plain_terminal: None, title: str) -> None:
    written, by_rich, direct = both([("rule", (styled((title, "bold")),), {"align": "left"})])
    assert written == by_rich
    assert direct == (len(title) + 2 <= 60)


def test_what_needs_rich_goes_through_rich_and_every_line_keeps_its_place(plain_terminal: None) -> None:
    long_line = "word " * 20  # wider than the terminal: rich wraps it
    steps: list[tuple[str, tuple[object, ...], dict[str, object]]] = [
        ("print", (styled(("Round 1", "bold"), " · Ann's turn"),), {}),
        ("print", ("a control character \x1b[2J and markup [bold]x[/bold]",), {}),
        ("print", (), {}),
        ("print", (long_line,), {}),
        ("print", ("short again",), {"style": "dim"}),
    ]
    written, by_rich, direct = both(steps)
    assert written == by_rich and not direct
    assert "\x1b[2J" not in written and "\\x1b[2J" in written  # shown, never obeyed
    assert written.index("short again") > written.index("word word")  # in the order printed


def test_the_first_screen_of_a_session_is_written_as_rich_writes_it(plain_terminal: None) -> None:
    session_out, rich_out = FakeTerminal(), FakeTerminal()
    for console in (SessionConsole(session_out), make_console(file=rich_out)):
        console.print(styled(("blackwood", "bold"), " session ", ("20261201-blackwood-0a1b", "bold"), ": Ann, Bo"))
        print_marked(console, ("  ›", "cyan"), "Setup for 2 witches: 3 forest rows of 5 cards, and 8 coins and "
                     "3 puppets for each witch; forest rows are lettered from the round marker.")
        show_header(console, Header(round=1, active="Ann", phase="setup", progress="Deck 53"))
    assert session_out.getvalue() == rich_out.getvalue()
    assert "\x1b[36m  ›\x1b[0m Setup" in session_out.getvalue()


@pytest.mark.parametrize("setting", [("NO_COLOR", "1"), ("FORCE_COLOR", ""), ("TERM", "dumb"),
                                     ("TTY_COMPATIBLE", "0")])
def test_a_terminal_rich_treats_its_own_way_is_left_to_rich(plain_terminal: None, monkeypatch: pytest.MonkeyPatch,
                                                           setting: tuple[str, str]) -> None:
    monkeypatch.setenv(*setting)
    written, by_rich, direct = both([("print", (styled(("bold", "bold"), " plain"),), {}),
                                     ("print", ("refused", ), {"style": "red"})])
    assert written == by_rich and not direct


def test_output_that_is_not_a_terminal_is_left_to_rich(plain_terminal: None) -> None:
    out = io.StringIO()
    console = SessionConsole(out)
    console.print(styled(("bold", "bold"), " plain"))
    assert out.getvalue() == "bold plain\n" and console._rich is not None  # no escape codes


def test_the_width_is_the_terminal_width_rich_finds(plain_terminal: None, monkeypatch: pytest.MonkeyPatch) -> None:
    assert SessionConsole(FakeTerminal()).width == make_console(file=FakeTerminal()).width == 60
    monkeypatch.delenv("COLUMNS")
    assert SessionConsole(FakeTerminal()).width == make_console(file=FakeTerminal()).width


def test_a_styled_line_is_still_a_rich_renderable() -> None:
    out = io.StringIO()
    console = make_console(file=out, width=40)
    line = styled(("Ann", "bold"), " [red]won[/red] ", ("\x07", "dim"))
    console.print(line)
    console.rule(line, align="left")
    assert isinstance(line, StyledLine) and str(line) == "Ann [red]won[/red] \\x07"
    assert out.getvalue().splitlines()[0] == "Ann [red]won[/red] \\x07"


def test_the_first_screen_is_drawn_without_loading_rich() -> None:
    """In a fresh process: the session's first lines, then a table (which loads rich)."""
    script = """
import io, sys
class FakeTerminal(io.StringIO):
    encoding = "utf-8"
    def isatty(self): return True
from referee.cli.render import show_header, show_public, styled
from referee.cli.session_console import SessionConsole
from referee.engine.game import Header, PublicView
out = FakeTerminal()
console = SessionConsole(out)
console.print(styled(("council-of-blackthorn", "bold"), " session x: Ann, Bo"))
show_header(console, Header(round=1, phase="setup", progress="no faction blocked"))
before = sorted(name for name in sys.modules if name.split(".")[0] == "rich")
show_public(console, PublicView(columns=["Player", "Guild"], rows=[["Ann", "3"]]))
after = "rich.table" in sys.modules
print(before, after, "Ann" in out.getvalue().splitlines()[-2])
"""
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env={"TERM": "xterm-256color", "COLUMNS": "60", "PATH": "/usr/bin:/bin"})
    assert run.stdout.split() == ["[]", "True", "True"], run.stderr
