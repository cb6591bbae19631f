"""Reading rulebook text into sections: the project's own format, and a user's plain copy.

The project's format is described in `rulebooks/README.md`. A user's copy (a .txt or .md they own)
has no such markup, so it is cut at whatever looks like a heading, or else into paragraphs.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from referee.rules.model import GlossaryEntry, Rulebook, RulesError, Section

HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*(?:\{#([A-Za-z0-9_-]+)\})?\s*#*\s*$")
REFEREE_LINE = re.compile(r"^referee:\s*(\S.*?)\s*$", re.IGNORECASE)
COVERS_LINE = re.compile(r"^covers:\s*(.*?)\s*$", re.IGNORECASE)
SEE_ALSO_LINE = re.compile(r"^see also:\s*(.*?)\s*$", re.IGNORECASE)
SETTLES_LINE = re.compile(r"^settles:\s*(.*?)\s*$", re.IGNORECASE)
SECTION_REF = re.compile(r"#([a-z0-9][a-z0-9_-]*)")
GLOSSARY_ITEM = re.compile(r"^[-*]\s+\*\*(.+?)\*\*\s*[:\u2014-]?\s*(.*)$")
REFEREE_MODES = ("automates", "asks", "table")
LONGEST_PIECE = 220
"""Words in one piece of an imported copy; longer parts are split at paragraphs so a hit stays short."""


def slug(text: str) -> str:
    """A lower-case kebab-case id made from a title."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


def _unique(wanted: str, taken: set[str]) -> str:
    candidate, number = wanted, 2
    while candidate in taken:
        candidate = f"{wanted}-{number}"
        number += 1
    taken.add(candidate)
    return candidate


class Body(NamedTuple):
    """A section's lines read apart: its meta lines and its text."""

    referee: str
    covers: tuple[str, ...]
    see_also: tuple[str, ...]
    settles: tuple[str, ...]
    text: str


def _body_lines(lines: list[str]) -> Body:
    """Split a section's lines into its meta lines (referee mode, covers, settles, see also) and text."""
    referee = ""
    covers: tuple[str, ...] = ()
    see_also: tuple[str, ...] = ()
    settles: tuple[str, ...] = ()
    text_lines: list[str] = []
    for line in lines:
        stripped = line.strip()
        if not referee and not text_lines and (match := REFEREE_LINE.match(stripped)):
            referee = match.group(1).lower()
            continue
        if not covers and not text_lines and (match := COVERS_LINE.match(stripped)):
            covers = tuple(part.strip() for part in match.group(1).split(";") if part.strip())
            continue
        if not settles and not text_lines and (match := SETTLES_LINE.match(stripped)):
            settles = tuple(SECTION_REF.findall(match.group(1).lower()))
            continue
        if match := SEE_ALSO_LINE.match(stripped):
            see_also = tuple(SECTION_REF.findall(match.group(1).lower()))
            continue
        text_lines.append(line.rstrip())
    text = "\n".join(text_lines).strip("\n")
    return Body(referee, covers, see_also, settles, text)


def parse_rulebook(markdown: str, game: str, source: str) -> Rulebook:
    """A rulebook in the project's format: `## Title {#id}` sections and a `## Glossary` section."""
    title = game
    sections: list[Section] = []
    taken: set[str] = set()
    current: tuple[int, str, str] | None = None
    parent_title = ""
    lines: list[str] = []
    in_fence = False

    def close() -> None:
        if current is None:
            return
        level, heading, section_id = current
        referee, covers, see_also, settles, text = _body_lines(lines)
        if referee and referee not in REFEREE_MODES:
            raise RulesError(
                f"{source}: section #{section_id} has 'Referee: {referee}'; "
                f"allowed: {', '.join(REFEREE_MODES)}"
            )
        sections.append(Section(
            game=game, id=section_id, title=heading, level=level, referee=referee, covers=covers,
            see_also=see_also, text=text, source=source,
            parent=parent_title if level > 2 else "", settles=settles,
        ))

    for line in markdown.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
        match = None if in_fence else HEADING.match(line)
        if match is None:
            lines.append(line)
            continue
        level = len(match.group(1))
        heading = match.group(2).strip()
        if level == 1:
            close()
            current, lines = None, []
            title = heading
            continue
        close()
        section_id = _unique((match.group(3) or slug(heading)).lower(), taken)
        current, lines = (level, heading, section_id), []
        if level == 2:
            parent_title = heading
    close()
    if not sections:
        raise RulesError(f"{source}: no `## Title {{#id}}` sections found")
    return Rulebook(game=game, title=title, sections=tuple(sections),
                    glossary=_glossary(sections), source=source)


def _glossary(sections: list[Section]) -> tuple[GlossaryEntry, ...]:
    entries: list[GlossaryEntry] = []
    for section in sections:
        if section.id != "glossary" and not section.id.startswith("glossary-"):
            continue
        for line in section.text.splitlines():
            match = GLOSSARY_ITEM.match(line.strip())
            if match:
                meaning = match.group(2).strip()
                entries.append(GlossaryEntry(match.group(1).strip(), meaning,
                                             tuple(dict.fromkeys(SECTION_REF.findall(meaning)))))
    return tuple(entries)


def _looks_like_heading(line: str, before_blank: bool, after_blank: bool) -> bool:
    """A plain-text heading: a short line standing alone that does not read like a sentence."""
    text = line.strip()
    if not text or not before_blank or len(text) > 80 or text[0] in "•*-–(\"'":
        return False
    if text.endswith((".", ",", ";", ":", "!", "?")) and not re.match(r"^\d+\.$", text.split()[0]):
        return False
    if len(text.split()) > 10:
        return False
    first = text.lstrip("0123456789. ")
    return bool(first) and (first[0].isupper() or first[0].isdigit()) and after_blank


def parse_copy(text: str, game: str, source: str, markdown: bool) -> Rulebook:
    """A user's own copy of a rulebook, cut into sections at its headings, or else into paragraphs."""
    pieces: list[tuple[str, list[str]]] = []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    title = ""
    heading = ""
    body: list[str] = []
    for number, line in enumerate(lines):
        stripped = line.strip()
        is_heading = False
        if markdown:
            match = HEADING.match(stripped)
            if match:
                is_heading, stripped = True, match.group(2).strip()
        else:
            before = number == 0 or not lines[number - 1].strip()
            after = number + 1 >= len(lines) or not lines[number + 1].strip()
            is_heading = _looks_like_heading(stripped, before, after)
        if is_heading:
            if heading or any(part.strip() for part in body):
                pieces.append((heading, body))
            elif not title:
                title = stripped
            heading, body = stripped, []
        else:
            body.append(line.rstrip())
    pieces.append((heading, body))

    sections: list[Section] = []
    taken: set[str] = set()
    for heading, body in pieces:
        paragraphs = [part.strip() for part in "\n".join(body).split("\n\n") if part.strip()]
        if not paragraphs:
            continue
        for part_number, chunk in enumerate(_chunks(paragraphs)):
            chunk_title = heading or _opening_words(chunk)
            if heading and part_number:
                chunk_title = f"{heading} ({part_number + 1})"
            sections.append(Section(
                game=game, id=_unique(slug(chunk_title)[:48].strip("-"), taken), title=chunk_title,
                level=2, referee="", covers=(), see_also=(), text=chunk, source=source,
            ))
    if not sections:
        raise RulesError(f"{source}: no text found to index")
    return Rulebook(game=game, title=title or game, sections=tuple(sections), source=source)


def _chunks(paragraphs: list[str]) -> list[str]:
    """Paragraphs grouped into pieces of at most LONGEST_PIECE words (a longer paragraph stands alone)."""
    chunks: list[str] = []
    current: list[str] = []
    count = 0
    for paragraph in paragraphs:
        size = len(paragraph.split())
        if current and count + size > LONGEST_PIECE:
            chunks.append("\n\n".join(current))
            current, count = [], 0
        current.append(paragraph)
        count += size
    if current:
        chunks.append("\n\n".join(current))
    return chunks


def _opening_words(text: str) -> str:
    opening = " ".join(text.split()[:8])
    return opening if len(text.split()) <= 8 else opening + " ..."
