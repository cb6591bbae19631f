"""SIGKILL at random moments while a session is being played: nothing acknowledged is ever lost.

A child process (tests/crash_child.py) plays scripted Council of Blackthorn sessions (answers, a
few undos and corrections) and prints 'ack N' after each step the store acknowledged. The parent
picks a random step (every fifth run: the opening of the session), lets the child run up to it, and
kills it with SIGKILL at a random moment after letting it go; the child stops before the next step,
so the kill lands in that step (or the opening) whatever the machine's speed. Then it checks,
before starting the next child from where the store says the session stands:

- the store loads: the session list reads, and every session played so far opens;
- resume shows every acknowledged step: the stored log is the script's log after the last
  acknowledged step, or after the one step that was in flight when the kill came, nothing else;
- the state resume rebuilt equals the reference state after that step and a clean replay of the
  same answers.

The default run makes at least 25 kills; `pytest -m slow` makes 500. Each run prints its figures.

`referee play/resume --answers` is also killed again and again, each time once it has shown a random
number of answers (so each run saves some), until the game is over.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from reliability_support import SessionScript, child_env, clean_state, make_script

from referee.games.blackthorn.game import GAME
from referee.games.registry import load_game
from referee.session import LiveSession
from referee.store import Store

CHILD = Path(__file__).with_name("crash_child.py")
FOLD_CHOICES = ("1", "2", "3", "7", "500")
"""How often the child folds its journal into the session file; small values put kills inside folds."""
MAX_DELAY = 0.02
"""Longest wait between letting the child into its step and the kill: about a step's time, so that
kills fall before, inside and after the step's writes. It only picks the moment: wherever it falls,
the child is stopped before the next step."""
OPENING_EVERY = 5
"""Every fifth run the kill falls while the session is being started or resumed."""


@dataclass
class Campaign:
    root: Path
    rng: random.Random
    kills: int = 0
    kills_mid_game: int = 0
    """Kills after which the recovered log was neither empty nor the whole game."""
    in_flight_kept: int = 0
    """Kills that came while a step was in flight and found it already on disk."""
    acknowledged_checked: int = 0
    games_finished: int = 0
    runs: int = 0
    sessions: dict[str, SessionScript] = field(default_factory=dict)


def run_child(
    campaign: Campaign, script_path: Path, first: int, session_id: str | None, kill_at: str
) -> tuple[int, list[str], str]:
    """One child from step `first`, killed in the stretch `kill_at` names (see crash_child.py), or,
    for '-', left to finish the script."""
    fold = campaign.rng.choice(FOLD_CHOICES)
    args = [sys.executable, str(CHILD), str(campaign.root), str(script_path), str(first), session_id or "-", fold,
            kill_at]
    child = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=child_env())
    assert child.stdin is not None and child.stdout is not None
    seen: list[str] = []
    if kill_at != "-":
        while (line := child.stdout.readline()) and line.strip() != f"at {kill_at}":
            seen.append(line.strip())
        assert line, f"the child ended before reaching {kill_at}: {seen} {child.stderr.read() if child.stderr else ''}"
        child.stdin.write("go\n")
        child.stdin.flush()
        time.sleep(campaign.rng.uniform(0, MAX_DELAY))  # where in the step: the next gate holds the child anyway
        child.send_signal(signal.SIGKILL)
    out, err = child.communicate(timeout=60)
    return child.returncode, seen + out.splitlines(), err


def kill_point(campaign: Campaign, first: int, steps: int) -> str:
    """Where the next child is killed: the opening every OPENING_EVERY runs, else a random step from
    `first` on that leaves at least one step after it ('-' when none is left: the child finishes)."""
    campaign.runs += 1
    if first >= steps - 1:
        return "-"
    if campaign.runs % OPENING_EVERY == 0:
        return "open"
    return str(campaign.rng.randrange(max(first, 1), steps - 1))


def new_session_on_disk(campaign: Campaign) -> str | None:
    """A session the child created but was killed before naming (its file may already exist)."""
    found = {path.stem for path in (campaign.root / "sessions").glob("*.json")} - set(campaign.sessions)
    assert len(found) <= 1, found
    return found.pop() if found else None


def check_every_session_opens(campaign: Campaign) -> None:
    listed = {meta.id for meta in Store(campaign.root).list()}
    for session_id, script in campaign.sessions.items():
        session = Store(campaign.root).session_file(session_id)
        session.load()
        assert session.entries in script.logs
        assert session_id in listed or not session.entries, f"{session_id} missing from the session list"


def recover(campaign: Campaign, session_id: str, script: SessionScript, acknowledged: int) -> int:
    """Resume after a kill; returns how many script steps the store holds. Fails if any is lost."""
    live = LiveSession.resume(Store(campaign.root), session_id, load_game)
    try:
        assert live.replay_error is None and live.dropped == 0
        log = [entry.to_json() for entry in live.driver.entries]
        candidates = [k for k in (acknowledged + 1, acknowledged) if k < len(script.logs)]
        held = next((k for k in candidates if script.logs[k] == log), None)
        assert held is not None, (
            f"after {acknowledged} acknowledged steps the store holds a log of {len(log)} entries "
            f"that is neither the acknowledged log nor the one with the step in flight"
        )
        state = GAME.to_json(live.driver.state)
        assert state == script.states[held]
        assert state == clean_state(script.players, log)
        if held == len(script.steps):
            assert live.driver.finished and live.driver.report is not None
            live.close("finished")  # what the command line does when it resumes a finished game
        return held
    finally:
        live.release()


def run_campaign(tmp_path: Path, target_kills: int, seed: int) -> Campaign:
    campaign = Campaign(tmp_path / "store", random.Random(seed))
    started = time.monotonic()
    while campaign.kills < target_kills:
        script = make_script(campaign.rng)
        script_path = script.write(tmp_path / f"script-{campaign.games_finished}.json")
        session_id: str | None = None
        held = 0
        while True:
            kill_at = kill_point(campaign, held, len(script.steps))
            code, lines, err = run_child(campaign, script_path, held, session_id, kill_at)
            assert code in (0, -signal.SIGKILL), f"child failed ({code}): {err[-2000:]}"
            named = [line.split()[1] for line in lines if line.startswith("session ")]
            session_id = session_id or (named[0] if named else new_session_on_disk(campaign))
            if session_id is None:
                continue  # killed before the session existed: start it again
            campaign.sessions.setdefault(session_id, script)
            acks = [int(line.split()[1]) for line in lines if line.startswith("ack ")]
            acknowledged = acks[-1] + 1 if acks else held
            before = held
            held = recover(campaign, session_id, script, acknowledged)
            if kill_at.isdigit():  # the kill fell in that step: before it, or after it was saved
                assert held in (int(kill_at), int(kill_at) + 1), (kill_at, held)
            campaign.acknowledged_checked += acknowledged - before
            if code == -signal.SIGKILL:
                campaign.kills += 1
                campaign.in_flight_kept += held > acknowledged
                campaign.kills_mid_game += 0 < held < len(script.steps)
            if held == len(script.steps):
                campaign.games_finished += 1
                break
            if campaign.kills >= target_kills:
                break
        check_every_session_opens(campaign)
    elapsed = time.monotonic() - started
    print(
        f"\ncrash campaign: {campaign.kills} SIGKILLs ({campaign.kills_mid_game} mid-game, "
        f"{campaign.in_flight_kept} found the step in flight already saved), "
        f"{campaign.acknowledged_checked} acknowledged steps checked, {campaign.games_finished} games "
        f"finished, {len(campaign.sessions)} sessions, 0 lost, {elapsed:.1f} s"
    )
    return campaign


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs POSIX signals")
def test_random_sigkills_lose_no_acknowledged_step(tmp_path: Path) -> None:
    campaign = run_campaign(tmp_path, target_kills=25, seed=20240605)
    assert campaign.kills >= 25
    assert campaign.kills_mid_game >= 12  # the kills really landed inside games, not only at the edges
    assert campaign.acknowledged_checked > 0


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs POSIX signals")
def test_five_hundred_random_sigkills(tmp_path: Path) -> None:
    seed = int(os.environ.get("REFEREE_CRASH_SEED", "7"))
    campaign = run_campaign(tmp_path, target_kills=500, seed=seed)
    assert campaign.kills >= 500
    assert campaign.kills_mid_game >= 250


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs POSIX signals")
def test_command_line_killed_repeatedly_resumes_to_the_same_end(tmp_path: Path) -> None:
    """`referee play/resume --answers` killed with SIGKILL again and again until each game is over:
    resume always starts after every answer on disk, the answers on disk are always the script's,
    and the game ends where a clean run ends."""
    rng = random.Random(99)
    kills = games = 0
    while kills < 10:
        kills += play_through_kills(tmp_path / f"game-{games}", make_script(rng, 0, 0), rng)
        games += 1
    print(f"\ncommand line: {kills} SIGKILLs over {games} games, each ending as a clean run does")


SHOWN_BEFORE_KILL = (2, 30)
"""How many answers a killed `referee` run shows before the kill (at random between the two): the
first of them is saved before the second is shown, so every run makes progress."""


def play_through_kills(home: Path, script: SessionScript, rng: random.Random) -> int:
    answers = [step[1] for step in script.steps]
    env = child_env(REFEREE_HOME=str(home), COLUMNS="120", PYTHONUNBUFFERED="1")  # each line shown as it is
    rest = home.with_suffix(".txt")
    kills, session_id, on_disk = 0, None, 0
    for _ in range(len(answers)):  # each run saves at least one answer, so this is enough
        rest.write_text("\n".join(answers[on_disk:]) + "\n")
        command = ["resume", session_id] if session_id else ["play", "blackthorn", "-p", ",".join(script.players)]
        child = subprocess.Popen([sys.executable, "-m", "referee", *command, "--answers", str(rest)], env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert child.stdout is not None
        shown, wanted, seen = 0, rng.randint(*SHOWN_BEFORE_KILL), []
        while shown < wanted and (line := child.stdout.readline()):
            seen.append(line)
            shown += line.startswith("? ")  # an answer from the file, shown with its question
        if shown == wanted:
            child.send_signal(signal.SIGKILL)  # the shown answer is on its way; the one before it is saved
        out, err = child.communicate(timeout=60)
        out = "".join(seen) + out
        kills += child.returncode == -signal.SIGKILL
        assert child.returncode in (0, -signal.SIGKILL), err
        assert "Traceback" not in err, err
        if session_id and "Resuming" in out:
            assert f"after {on_disk} answers" in out  # resume showed every answer on disk
        found = sorted(home.glob("sessions/*.json"))
        assert found, "a run that showed two answers saved the first"
        session_id = found[0].stem
        session = Store(home).session_file(session_id)
        session.load()
        assert session.entries == script.logs[len(session.entries)]
        assert child.returncode == 0 or len(session.entries) > on_disk  # the answer before the kill was kept
        on_disk = len(session.entries)
        if child.returncode == 0:
            break
    assert session_id is not None and on_disk == len(answers)
    meta = next(meta for meta in Store(home).list() if meta.id == session_id)
    assert meta.status == "finished"
    live = LiveSession.resume(Store(home), session_id, load_game)
    try:
        assert GAME.to_json(live.driver.state) == script.states[-1]
    finally:
        live.release()
    return kills
