"""Each session's JSON export, kept from one export to the next under the bytes it was made from.

A session's export is a function of its stored files alone (the folded log with its setup, and
the journal), and of the export format. Exporting every session would otherwise decode, check and
encode every log each time. So the export of a session is kept in the store's export cache,
under a digest of those bytes, of the format version and of the referee's version: while the files
hold the same bytes, the kept text is the export; once they differ at all (an answer, an edit, a
repair), or another referee exports them, it is made again. A kept export that does not match its
own digest (edited, cut short, another session's) is made again too: the cache only saves time.
The cache can be removed at any time; it is rebuilt as sessions are exported.
"""

from __future__ import annotations

import hashlib
import json

from referee import __version__
from referee.export import EXPORT_VERSION, session_json_text
from referee.history import read_session
from referee.safe_files import read_cache, read_regular, write_cache
from referee.store import Store


def stored_digest(store: Store, session_id: str, version: int = EXPORT_VERSION) -> str | None:
    """The digest of what the session's export is made from; None when its file cannot be read
    (the export then reads it the usual way, and says what is wrong)."""
    session = store.session_file(session_id)
    digest = hashlib.blake2b(f"export {version} referee {__version__}\n".encode(), digest_size=20)
    try:
        folded = read_regular(session.path)
    except OSError:
        return None
    try:
        journal = read_regular(session.journal_path)
    except FileNotFoundError:
        journal = b""
    except OSError:
        return None
    for part in (folded, journal):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()


def exported(store: Store, session_id: str) -> str:
    """The session's part of a JSON export (`session_json_text`): the kept one while the session's
    files are as it was made from, else made from them and kept for next time.

    A kept export is used only when it matches its own digest (referee.safe_files.read_cache: an
    edited or cut copy is made again), holds the key of these files, and is this session's own."""
    path = store.export_cache_dir / f"{session_id}.json"
    before = stored_digest(store, session_id)
    if before is not None:
        key, _newline, text = (read_cache(path, store.root) or "").partition("\n")
        if key == before and text.startswith(json.dumps({"id": session_id})[:-1] + ","):
            return text
    text = session_json_text(read_session(store, session_id))
    if before is not None and "\n" not in text and stored_digest(store, session_id) == before:
        # (kept only when the files did not change while it was made: it is theirs. The folder's crashed
        # writes are swept when the store next opens, not once a session.)
        write_cache(path, f"{before}\n{text}", store.root, sweep=False)
    return text
