"""Rulebook Markdown for a terminal: wrapped, with headings and emphasis styled by ANSI codes.

A lookup must answer in well under a fifth of a second, process start included. Rich's Markdown
renderer pulls in a Markdown parser and a syntax highlighter (about 70 ms of imports), while the
rulebooks use only headings, paragraphs, lists and inline emphasis; so this small renderer, with
the standard library alone, does the terminal's part.
"""

from __future__ import annotations

import re
import textwrap

BOLD, DIM, ITALIC, UNDERLINE, CYAN, RESET = "\x1b[1m", "\x1b[2m", "\x1b[3m", "\x1b[4m", "\x1b[36m", "\x1b[0m"
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*(\{#[a-z0-9-]+\})?\s*$")
LIST_ITEM = re.compile(r"^(\s*)([-*+]|\d+[.)])\s+(.*)$")
META_LINE = re.compile(r"^(Referee|Covers|Settles|See also|Source):")
INLINE = (
    (re.compile(r"\*\*(.+?)\*\*"), "\x01"),
    (re.compile(r"(?<![*\w])\*(?!\s)(.+?)(?<!\s)\*(?![*\w])"), "\x02"),
    (re.compile(r"`([^`]+)`"), "\x03"),
)
STYLE_OF_MARK = {"\x01": BOLD, "\x02": ITALIC, "\x03": CYAN}
END_MARK = "\x04"
"""Emphasis is marked with one control character at each end before wrapping (so that an emphasis
broken across lines stays styled on both), and turned into ANSI codes line by line after."""


def mark_inline(text: str) -> str:
    for pattern, mark in INLINE:
        text = pattern.sub(mark + r"\1" + END_MARK, text)
    return text


def paint_marked(lines: list[str], color: bool) -> list[str]:
    painted, open_style = [], ""
    for line in lines:
        text = open_style if color else ""
        for char in line:
            if char in STYLE_OF_MARK:
                open_style = STYLE_OF_MARK[char]
                text += open_style if color else ""
            elif char == END_MARK:
                open_style = ""
                text += RESET if color else ""
            else:
                text += char
        painted.append(text + (RESET if color and open_style else ""))
    return painted


def style_inline(text: str, color: bool) -> str:
    return paint_marked([mark_inline(text)], color)[0]


def wrap(text: str, width: int, first: str = "", rest: str = "") -> list[str]:
    return textwrap.wrap(
        text, width, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False, break_long_words=False
    )


def paint(text: str, code: str, color: bool) -> str:
    return f"{code}{text}{RESET}" if color else text


def render(markdown: str, width: int = 80, color: bool = True) -> str:
    """The Markdown laid out for a terminal `width` columns wide."""
    width = max(30, width)
    out: list[str] = []
    paragraph: list[str] = []
    item: tuple[str, str, list[str]] | None = None  # indent, marker, words so far
    in_code = False

    def flush() -> None:
        nonlocal paragraph, item
        if paragraph:
            out.extend(paint_marked(wrap(mark_inline(" ".join(paragraph)), width), color))
            paragraph = []
        if item is not None:
            indent, marker, words = item
            bullet = "•" if marker in "-*+" else marker
            first = f"{indent}{bullet} "
            lines = wrap(mark_inline(" ".join(words)), width, first, " " * len(first)) or [first]
            out.extend(paint_marked(lines, color))
            item = None

    for raw in markdown.splitlines():
        line = raw.rstrip()
        if line.startswith("```"):
            flush()
            in_code = not in_code
            continue
        if in_code or line.startswith("|"):
            flush()
            out.append(paint(line, CYAN, color) if in_code else line)
            continue
        if not line.strip():
            flush()
            if out and out[-1] != "":
                out.append("")
            continue
        heading = HEADING.match(line)
        if heading:
            flush()
            level, title, anchor = len(heading[1]), style_inline(heading[2], False), heading[3]
            text = paint(title, BOLD + (UNDERLINE if level <= 2 else ""), color)
            out.append(text + (" " + paint(anchor[1:-1], DIM, color) if anchor else ""))
            continue
        if META_LINE.match(line):
            flush()
            out.extend(paint(part, DIM, color) for part in wrap(line, width))
            continue
        listed = LIST_ITEM.match(line)
        if listed:
            flush()
            item = (listed[1], listed[2], [listed[3].strip()])
        elif item is not None and raw.startswith(" "):
            item[2].append(line.strip())
        else:
            if item is not None:
                flush()
            paragraph.append(line.strip())
    flush()
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"
