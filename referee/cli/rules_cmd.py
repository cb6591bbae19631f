"""`referee rules`: look up a rule, list a game's sections, import or forget a user's own copy.

    referee rules GAME QUERY...      the best matching sections, best first
    referee rules QUERY...           the same over every game (when the first word is not a game)
    referee rules GAME               the game's sections
    referee rules GAME --section ID  one section
    referee rules import GAME FILE [QUESTIONS]
                                     index the user's own copy of a rulebook (.txt or .md), with
                                     the players' questions its sections answer if given
    referee rules forget GAME        remove that copy
    referee rules learned [GAME]     the phrasings the table taught, numbered
    referee rules unlearn N... | all remove learned phrasings

The answer comes first: the best section's text, then "see also" with the two sections a player
reads next (the ruling of a rule, the phase of a term) and the other matches by title. At a
terminal the table may then say which result answered it; that phrasing is kept for the section
(see referee.rules.learned).

A lookup happens at the table in a hurry, so `fast_path` runs it without building the Typer
command tree (which imports pydantic): the main entry point can hand it the arguments first.
A terminal gets the text wrapped and styled by a small renderer of our own, through a pager when
it is longer than the screen (see referee.rules.pager); piped output is the plain Markdown, which
is what scripts want. Scores are for scripts (`--json`) only. A question that nothing answers
well gets "did you mean" instead: the nearest words and section titles.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NamedTuple, TextIO

import typer  # the main app imports it anyway; Typer reads the annotations below at run time

if TYPE_CHECKING:
    from referee.rules.model import Result, Rulebook

DEFAULT_LIMIT = 3
"""Sections shown for a question about one game. Across every game the default is each game's
own best answer, for every game that answers it well."""
LARGEST_LIMIT = 50
SUGGESTIONS = 3
USAGE = ("usage: referee rules [GAME] QUERY... | referee rules GAME [--section ID] "
         "| referee rules import GAME FILE [QUESTIONS] | referee rules forget GAME "
         "| referee rules learned [GAME] | referee rules unlearn N... | all")
MANAGE = ("import", "forget", "learned", "unlearn")
"""First words that manage the lookup's data rather than ask a question."""
BAD_INPUT = 2
NO_MATCH = 1


class UsageProblem(ValueError):
    """Arguments that do not form a rules command."""


def _first_word_game(word: str) -> str | None:
    """The game a first word names (id, alias, or a prefix of four letters or more), else None."""
    from referee.rules.library import builtin_games, imported_games

    wanted = word.strip().lower()
    known = set(builtin_games()) | set(imported_games())
    if wanted in known:
        return wanted
    from referee.games.registry import GAMES

    for game in GAMES:
        if wanted == game.id or wanted in game.aliases:
            return game.id
    prefixed = {game for game in known if game.startswith(wanted)} if len(wanted) >= 4 else set()
    prefixed |= {game.id for game in GAMES if len(wanted) >= 4 and game.id.startswith(wanted)}
    return prefixed.pop() if len(prefixed) == 1 else None


def run(
    words: Sequence[str],
    section_id: str | None = None,
    as_json: bool = False,
    limit: int | None = None,
    plain: bool = False,
    out: TextIO | None = None,
    pager: bool = True,
    db: Path | None = None,
    ask: Callable[[str], str] | None = None,
) -> int:
    """Carry out a rules command; returns the exit status. Problems are one line on stderr.
    `db` is the data directory (imported copies, the search cache), as for every command. `ask`
    reads the table's answer to "which one answered it?"; by default it is asked only when both
    standard input and the output are a terminal."""
    from referee.cli.failure import error
    from referee.data_dir import chosen
    from referee.rules.model import RulesError

    stream = out if out is not None else sys.stdout
    if ask is None and sys.stdin.isatty() and stream.isatty():
        ask = input
    try:
        with chosen(db):
            return _dispatch(list(words), section_id, as_json, limit, Output(plain, pager, stream, ask))
    except (RulesError, UsageProblem) as problem:
        error(str(problem))
        return BAD_INPUT


class Output(NamedTuple):
    """Where the answer goes and how: Markdown text when plain, through a pager when allowed; `ask`
    reads the table's word on which result answered (None: nobody is asked)."""

    plain: bool
    pager: bool
    stream: TextIO
    ask: Callable[[str], str] | None = None


def _dispatch(words: list[str], section_id: str | None, as_json: bool, limit: int | None,
              output: Output) -> int:
    from referee.rules import library

    out = output.stream
    if limit is not None and not 1 <= limit <= LARGEST_LIMIT:
        raise UsageProblem(f"--limit {limit} is out of range; allowed: 1 to {LARGEST_LIMIT}")
    if words and words[0].lower() in ("import", "forget") and section_id is None:
        return _manage_copy(words, out)
    if words and words[0].lower() in ("learned", "unlearn") and section_id is None:
        return _manage_learned(words, as_json, output)
    if not words:
        if section_id is not None:
            raise UsageProblem("--section needs a game: referee rules GAME --section ID")
        games = library.builtin_games() + [g for g in library.imported_games()
                                             if g not in library.builtin_games()]
        print("Rulebooks: " + (", ".join(games) or "none found"), file=out)
        print(USAGE, file=out)
        return 0
    game = _first_word_game(words[0])
    query_words = words[1:] if game is not None else words
    if game is not None:
        game = library.resolve_game(game)
    if section_id is not None:
        if game is None:
            raise UsageProblem(f"--section needs a game first; {words[0]!r} is not a game id or alias")
        if query_words:
            raise UsageProblem("give either --section ID or a question, not both")
        found = library.section(game, section_id)
        if as_json:
            _print_json([(found.game, found.id, found.title, found.text, None, found.source)], out)
        else:
            _print_markdown([found.markdown()], output)
        return 0
    if game is not None and not query_words:
        return _list_sections(game, as_json, output)
    query = " ".join(query_words)
    if game is None:
        results = library.search_every_game(query, limit)
    else:
        results = library.search(query, game, limit or DEFAULT_LIMIT)
    if as_json:
        _print_json(results, out)
        return 0
    if not library.matches_well(results):
        _did_you_mean(query, game, results, out)
        return NO_MATCH
    if game is None:  # each game's own best answer, every one in full
        blocks = [_result_markdown(number, result, True) for number, result in enumerate(results, 1)]
    else:
        blocks = [_result_markdown(1, results[0], False) + _others(results[1:], game)]
    _print_markdown(blocks, output)
    if output.ask is not None:
        _learn_from_table(query, results, output)
    return 0


def _did_you_mean(query: str, game: str | None, results: list[Result], out: TextIO) -> None:
    """Nothing answers well: the nearest words the rulebooks use, and the sections nearest to it."""
    from referee.rules import library

    where = game or "any game"
    print(f"Nothing in {where} matches {query!r} well.", file=out)
    corrections = library.corrections(query, game)
    if corrections:
        words = ", ".join(f"{known!r} for {asked!r}" for asked, known in corrections[:SUGGESTIONS])
        print(f"Did you mean {words}?", file=out)
    if results:
        print("The nearest sections:" if corrections else "Did you mean one of these?", file=out)
        for result in results[:SUGGESTIONS]:
            print(f"  {result.game} --section {result.section}: {result.title}", file=out)
        print(f"Show one with: referee rules {game or 'GAME'} --section ID", file=out)
    else:
        print(f"Try other words, or `referee rules {game or 'GAME'}` for the list of sections.", file=out)


def _manage_copy(words: list[str], out: TextIO) -> int:
    from referee.rules import imports
    from referee.user_text import visible

    verb = words[0].lower()
    if verb == "import":
        if len(words) not in (3, 4):
            raise UsageProblem("usage: referee rules import GAME FILE [QUESTIONS] (a .txt or .md copy you own, "
                               "and optionally the questions its sections answer, as rulebooks/README.md says)")
        questions = Path(words[3]).expanduser() if len(words) == 4 else None
        rulebook = imports.import_copy(words[1], Path(words[2]).expanduser(), questions)
        print(f"Imported {len(rulebook.sections)} sections of {rulebook.game} from {visible(words[2])}; "
              f"they are searched beside the built-in summary (`referee rules forget "
              f"{rulebook.game}` removes them).", file=out)
        return 0
    if len(words) != 2:
        raise UsageProblem("usage: referee rules forget GAME")
    name = imports.forget(words[1])
    print(f"Removed the imported copy of {imports.registered_game(words[1])} ({visible(name)}).", file=out)
    return 0


def _list_sections(game: str, as_json: bool, output: Output) -> int:
    from referee.rules import library
    from referee.rules.imports import load_imported
    from referee.rules.pager import show
    from referee.user_text import visible

    out = output.stream
    rulebooks: list[Rulebook] = []
    if game in library.builtin_games():
        rulebooks.append(library.load_rulebook(game))
    copy = load_imported(game)
    if copy is not None:
        rulebooks.append(copy)
    if as_json:
        _print_json([(s.game, s.id, s.title, s.text, None, s.source)
                     for rulebook in rulebooks for s in rulebook.sections], out, key="sections")
        return 0
    lines = []
    for rulebook in rulebooks:
        lines.append(visible(f"{rulebook.title} ({rulebook.source}): {len(rulebook.sections)} sections"))
        width = max(len(s.id) for s in rulebook.sections) + 2
        for s in rulebook.sections:
            indent = "  " * max(0, s.level - 2)
            mode = f"  [{s.referee}]" if s.referee else ""
            lines.append(visible(f"  {indent}{s.id:<{width}}{s.title}{mode}"))
    lines.append(f"Show one with: referee rules {game} --section ID")
    show("\n".join(lines) + "\n", out, output.pager)
    return 0


def _result_markdown(number: int, result: Result, name_game: bool) -> str:
    """One answer in full: its heading, its text, and the sections a player reads next."""
    game = f"{result.game} " if name_game else ""
    where = "" if result.source == "built-in" else f"Source: {result.source}\n\n"
    related = ", ".join(f"#{section} ({title})" for section, title in result.related)
    see_also = f"\nSee also: {related}\n" if related else ""
    return f"## {number}. {game}#{result.section}: {result.title}\n\n{where}{result.text}\n{see_also}"


def _others(results: Sequence[Result], game: str) -> str:
    """The other matches, by title only: the best answer comes first and alone in full."""
    if not results:
        return ""
    lines = [f"- {number}. #{result.section}: {result.title}" for number, result in enumerate(results, 2)]
    return ("\nAlso matching:\n\n" + "\n".join(lines) +
            f"\n\nShow one with: referee rules {game} --section ID\n")


LEARN_PROMPT = "Which one answered it? Its number, 'none', or Enter to skip: "


def _learn_from_table(query: str, results: Sequence[Result], output: Output) -> None:
    """Ask the table which result answered the question, and keep its phrasing for that section.
    A wrong answer gets one line saying what is allowed and a second chance; Enter, end of input
    or Ctrl-C skip."""
    from referee.rules import library
    from referee.rules.learned import learn
    from referee.rules.model import RulesError

    assert output.ask is not None
    allowed = f"a number from 1 to {len(results)}, 'none', or Enter" if len(results) > 1 else "1, 'none', or Enter"
    for attempt in range(2):
        try:
            answer = output.ask(LEARN_PROMPT).strip().lower()
        except (EOFError, KeyboardInterrupt):
            print(file=output.stream)
            return
        if answer in ("", "none", "no", "n", "0", "skip"):
            return
        if answer.isdecimal() and 1 <= int(answer) <= len(results):
            chosen = results[int(answer) - 1]
            try:
                learn(chosen.game, chosen.section, query, library.section_ids(chosen.game))
            except RulesError as problem:
                print(f"Not kept: {problem}", file=output.stream)
                return
            print(f"Kept: {query!r} for {chosen.game} #{chosen.section} "
                  f"(`referee rules learned` lists what is kept).", file=output.stream)
            return
        print(f"{answer!r} is not one of the results; allowed: {allowed}.", file=output.stream)
        if attempt:
            return


def _manage_learned(words: list[str], as_json: bool, output: Output) -> int:
    """`rules learned [GAME]` lists the table's phrasings; `rules unlearn N... | all` removes some."""
    from referee.rules import learned, library
    from referee.rules.pager import show
    from referee.user_text import visible

    out = output.stream
    if words[0].lower() == "learned":
        if len(words) > 2:
            raise UsageProblem("usage: referee rules learned [GAME]")
        game = library.resolve_game(words[1]) if len(words) == 2 else None
        found = learned.numbered(game)
        if as_json:
            json.dump({"learned": learned.as_json(found)}, out, indent=2, ensure_ascii=False)
            out.write("\n")
            return 0
        if not found:
            where = f" for {game}" if game else ""
            print(f"No phrasings learned{where} yet: after a lookup at a terminal, say which result "
                  "answered it.", file=out)
            return 0
        lines = [visible(line) for line in learned.describe(found, library.titles())]
        lines.append("Remove one with: referee rules unlearn N (or: unlearn all)")
        show("\n".join(lines) + "\n", out, output.pager)
        return 0
    targets = words[1:]
    if not targets:
        raise UsageProblem("usage: referee rules unlearn N... | all (numbers from `referee rules learned`)")
    if [word.lower() for word in targets] == ["all"]:
        removed = learned.unlearn(None)
    else:
        wrong = [word for word in targets if not word.isdecimal()]
        if wrong:
            raise UsageProblem(f"{wrong[0]!r} is not a number; allowed: numbers from `referee rules learned`, or all")
        removed = learned.unlearn([int(word) for word in targets])
    print(f"Removed {len(removed)} learned phrasing{'s' if len(removed) != 1 else ''}.", file=out)
    for item in removed:
        print(visible(f"  {item.game} #{item.section}: {item.text!r}"), file=out)
    return 0


def _print_json(rows: Sequence[tuple[str, str, str, str, float | None, str] | Result], out: TextIO,
                key: str = "results") -> None:
    """Sections for scripts; a search result also carries its score and its see-also ids."""
    items = []
    for row in rows:
        game, section_id, title, text, score, source = row[:6]
        item: dict[str, object] = {"game": game, "section": section_id, "title": title, "text": text}
        if score is not None:
            item["score"] = round(score, 3)
        item["source"] = source
        if len(row) > 7:
            item["see_also"] = [section for section, _ in row[7]]
        items.append(item)
    json.dump({key: items}, out, indent=2, ensure_ascii=False)
    out.write("\n")


def _print_markdown(blocks: list[str], output: Output) -> None:
    """StyledLine and wrapped on a terminal, paged when long; the Markdown text itself anywhere else.
    An imported copy is the user's own text: a control character in it is shown as an escape."""
    from referee.rules.pager import show
    from referee.user_text import visible

    blocks = [visible(block) for block in blocks]
    out = output.stream
    if output.plain or not out.isatty():
        show("\n".join(blocks), out, output.pager)
        return
    import os
    import shutil

    from referee.rules.terminal import DIM, paint, render

    width = min(shutil.get_terminal_size().columns, 100)
    color = "NO_COLOR" not in os.environ
    rule = paint("─" * width, DIM, color)
    show(f"\n{rule}\n".join(render(block, width, color) for block in blocks), out, output.pager)


def fast_path(argv: Sequence[str]) -> int | None:
    """Run `rules ...` without Typer when the arguments are plain; None hands them back to Typer.

    Only `--section ID`, `--json`, `--plain`, `--no-pager`, `--limit N` and `--db PATH` (and short forms)
    are read here; anything else (`--help`, an unknown option) is left to Typer, which explains it.
    """
    if not argv or argv[0] != "rules":
        return None
    words: list[str] = []
    section_id: str | None = None
    db: Path | None = None
    as_json = plain = False
    pager = True
    limit: int | None = None
    arguments = list(argv[1:])
    position = 0
    while position < len(arguments):
        argument = arguments[position]
        value = arguments[position + 1] if position + 1 < len(arguments) else None
        name, _, inline = argument.partition("=")
        if argument == "--":
            words.extend(arguments[position + 1:])
            break
        if name in ("--section", "-s"):
            if inline:
                section_id = inline
            elif value is None:
                return None
            else:
                section_id, position = value, position + 1
        elif name == "--db":
            raw = inline or value
            if not raw:
                return None
            db = Path(raw)
            position += 0 if inline else 1
        elif name in ("--limit", "-n"):
            raw = inline or value
            if raw is None or not raw.lstrip("-").isdecimal():
                return None
            limit = int(raw)
            position += 0 if inline else 1
        elif argument == "--json":
            as_json = True
        elif argument == "--plain":
            plain = True
        elif argument == "--no-pager":
            pager = False
        elif argument.startswith("-") and len(argument) > 1:
            return None
        else:
            words.append(argument)
        position += 1
    return run(words, section_id, as_json, limit, plain, pager=pager, db=db)


def register(app: typer.Typer) -> None:
    """Add the `rules` command to the main app."""

    @app.command(
        "rules",
        context_settings={"allow_interspersed_args": True},
        epilog="Examples: referee rules blackwood brew a potion | referee rules stealth | "
               "referee rules got --section keyword-stealth | referee rules import got mycopy.txt",
    )
    def rules(
        words: Annotated[list[str] | None, typer.Argument(
            help="GAME then a question, a question alone (all games), or import GAME FILE / forget GAME",
            show_default=False)] = None,
        section: Annotated[str | None, typer.Option(
            "--section", "-s", help="Print the section with this id (needs GAME)")] = None,
        as_json: Annotated[bool, typer.Option(
            "--json", help="Print {\"results\": [...]} for scripts, best first")] = False,
        limit: Annotated[int | None, typer.Option(
            "--limit", "-n", show_default=False,
            help=f"How many sections to show (1-{LARGEST_LIMIT}); default {DEFAULT_LIMIT} for a game, "
                 "and across all games each game's best answer")] = None,
        plain: Annotated[bool, typer.Option(
            "--plain", help="Print Markdown text even on a terminal")] = False,
        no_pager: Annotated[bool, typer.Option(
            "--no-pager", help="Never page a long answer ($PAGER, else less -R) on a terminal")] = False,
        db: Annotated[Path | None, typer.Option(
            "--db", help="Data directory for imported copies and the search cache")] = None,
    ) -> None:
        """Look up a rule: the best matching rulebook sections, or a game's list of sections.

        The search index is kept in the data directory's cache/ for the next lookup, when there is a
        data directory (a lookup never makes one)."""
        status = run(words or [], section, as_json, limit, plain, pager=not no_pager, db=db)
        if status:
            raise typer.Exit(status)
