"""`referee export` and `referee import`: sessions to JSON, Markdown or BG Stats, and JSON back in."""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path

from referee.cli.failure import error
from referee.errors import RefereeError, SessionError
from referee.history import read_session, resolve, summary_of
from referee.store import SessionMeta, Store
from referee.wording import counted

FORMATS = ("json", "md", "bgstats")



def run_export(db: Path | None, given: str | None, every: bool, form: str, output: Path | None) -> int:
    form = form.strip().lower()
    if form not in FORMATS:
        error(f"--format is one of {', '.join(FORMATS)}, not {form!r}")
        return 2
    if (given is None) == (not every):
        error("give one session id, or --all (not both)")
        return 2
    store = Store(db)
    try:
        metas = store.list() if every else [resolve(store, given or "")]
        text = render(store, metas, form, single=not every)
    except RefereeError as problem:
        error(str(problem))
        return 2
    if output is None:
        sys.stdout.write(text)
        return 0
    try:
        from referee.safe_files import write_user_file

        write_user_file(output.expanduser(), text, store.root)
    except OSError as problem:
        error(f"cannot write {output}: {problem.strerror or problem.__class__.__name__}")
        return 2
    print(f"Wrote {counted(len(metas), 'session')} as {form} to {output}", file=sys.stderr)
    return 0


def render(store: Store, metas: list[SessionMeta], form: str, single: bool) -> str:
    if form == "bgstats":
        return bgstats_text(store, metas, single)
    if form == "md":
        from referee.export import markdown_report

        # one at a time: read, written, let go
        return "\n---\n\n".join(markdown_report(read_session(store, meta.id)) for meta in metas)
    from referee.export import json_document, json_text
    from referee.export_cache import exported

    exported_at = datetime.now().isoformat(sep=" ", timespec="seconds")
    if single:
        return dumps(json_document([read_session(store, meta.id) for meta in metas], exported_at), single)
    # Every session: each one's export as kept from the last export, unless its files changed since.
    return json_text((exported(store, meta.id) for meta in metas), exported_at)


def bgstats_text(store: Store, metas: list[SessionMeta], single: bool) -> str:
    """One BG Stats play per finished session, from the index alone (a single session: one object)."""
    from referee.export import bgstats_play
    from referee.games.registry import find_game

    plays = []
    unfinished = 0
    for meta in metas:
        summary = summary_of(store, meta)
        if summary is None:
            if single:
                raise SessionError(f"session {meta.id} has not ended: BG Stats records finished plays only")
            unfinished += 1
            continue
        plays.append(bgstats_play(meta, summary, find_game(meta.game).name))
    if unfinished:
        error(f"{counted(unfinished, 'unfinished session')} left out: BG Stats records finished plays only")
    return dumps(plays[0] if single else plays, single)


def dumps(document: object, single: bool) -> str:
    """One session indented for reading; many compact (Python's indenting encoder is many times slower).
    Control characters are written as JSON escapes."""
    from referee.user_text import json_visible

    return json_visible(json.dumps(document, ensure_ascii=False, indent=1 if single else None)) + "\n"


def run_import(db: Path | None, path: Path) -> int:
    from referee.export import check_document, import_checked
    from referee.safe_files import describe, read_user_text

    try:
        text = read_user_text(path.expanduser())  # a regular file of at most 16 MB, a byte-order mark allowed
    except (OSError, UnicodeDecodeError) as problem:
        error(f"cannot read {path}: {describe(problem)}; nothing was imported")
        return 2
    try:
        document = json.loads(text)
    except (ValueError, RecursionError) as problem:
        error(f"{path} is not JSON ({problem.__class__.__name__}); nothing was imported")
        return 2
    try:
        result = import_checked(Store(db), check_document(document))
    except RefereeError as problem:
        error(str(problem))
        return 2
    for session_id in result.present:
        print(f"{session_id}: already present, left as it is")
    print(f"Imported {counted(len(result.imported), 'session')}; {len(result.present)} already present.")
    return 0
