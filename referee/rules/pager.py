"""Long answers through a pager, as git shows them: only on a terminal, never when piped.

The pager is `$PAGER`, or `less -R` when it is not set; an empty `$PAGER` or `cat` turns paging
off. `LESS` is set to `FRX` when the player has not set it (as git does): less then quits by
itself when the text fits one screen, keeps the colours, and leaves the text on the screen.
A pager that cannot be started costs nothing: the text is written straight to the terminal.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
from typing import TextIO

DEFAULT_PAGER = "less -R"


def pager_command() -> str | None:
    """The command to page through, or None when paging is turned off or the pager is missing."""
    command = os.environ.get("PAGER", DEFAULT_PAGER).strip()
    if not command or command == "cat":
        return None
    try:
        program = shlex.split(command)[0]
    except (ValueError, IndexError):
        return None
    return command if shutil.which(program) else None


def needs_paging(text: str, out: TextIO) -> bool:
    """A terminal, and more lines than fit on its screen."""
    if not out.isatty():
        return False
    return text.count("\n") >= shutil.get_terminal_size().lines - 1


def show(text: str, out: TextIO, allowed: bool = True) -> None:
    """Write the text, through the pager when it is long, allowed, and bound for a terminal."""
    command = pager_command() if allowed and needs_paging(text, out) else None
    if command is None:
        out.write(text)
        return
    out.flush()
    env = dict(os.environ)
    env.setdefault("LESS", "FRX")
    env.setdefault("LV", "-c")
    # Ctrl-C belongs to the pager while it runs (less uses it to stop a search), not to us.
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        pager = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE, env=env,
                                 encoding="utf-8", errors="replace")
    except OSError:
        signal.signal(signal.SIGINT, previous)
        out.write(text)
        return
    try:
        if pager.stdin is not None:
            pager.stdin.write(text)
            pager.stdin.close()
    except BrokenPipeError:  # the player quit the pager before reading it all
        pass
    finally:
        pager.wait()
        signal.signal(signal.SIGINT, previous)
