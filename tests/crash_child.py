"""A session player for the crash tests: it plays a script and reports each step it finished.

    python tests/crash_child.py ROOT SCRIPT.json FIRST_STEP SESSION_ID|- FOLD_EVERY GATE

It starts a new session (SESSION_ID '-') or resumes one, then runs the script's steps from
FIRST_STEP on. It prints 'ready' once its imports are done, 'session ID' once the session is open,
and 'ack N' after step N returned, that is after the store acknowledged it.

GATE says where the parent's kill is to fall: 'open' (opening the session) or a step's number.
The child runs freely up to the gate, prints 'at GATE' and waits for a line on its standard input;
then it runs on to the next gate (before the first step, or before the step after GATE's), prints
'at NEXT' and waits there until it is killed. So the SIGKILL, sent at a random moment after the
line, lands in that stretch and nowhere else, however fast the machine is. GATE '-' runs the
script to its end. The parent checks that every acknowledged step survived.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import referee.store
from referee.games.registry import load_game
from referee.session import LiveSession
from referee.store import Store


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def gate(name: str) -> None:
    say(f"at {name}")
    sys.stdin.readline()


def main(argv: list[str]) -> int:
    root, script_path, first, session_id, fold_every, kill_at = argv
    stops = {kill_at} if kill_at == "-" else {kill_at, first if kill_at == "open" else str(int(kill_at) + 1)}
    script = json.loads(Path(script_path).read_text(encoding="utf-8"))
    # Folding far more often than usual makes kills land inside the whole-file rewrite too.
    referee.store.FOLD_EVERY = int(fold_every)
    say("ready")
    store = Store(Path(root))
    if "open" in stops:
        gate("open")
    if session_id == "-":
        live = LiveSession.start(store, load_game(script["game"]), script["players"], script["options"])
    else:
        live = LiveSession.resume(store, session_id, load_game)
    say(f"session {live.meta.id}")
    for number in range(int(first), len(script["steps"])):
        if str(number) in stops:
            gate(str(number))
        kind, *arguments = script["steps"][number]
        if kind == "answer":
            live.answer(arguments[0])
        elif kind == "adjust":
            live.adjust(arguments[0], arguments[1])
        elif kind == "undo":
            live.undo(int(arguments[0]))
        say(f"ack {number}")
    live.release()
    say("done")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
