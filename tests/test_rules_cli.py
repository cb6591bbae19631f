"""`referee rules` through Typer's CliRunner, and the fast path the main entry point can take."""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from referee.cli import rules_cmd
from referee.rules import library

FIXTURES = Path(__file__).parent / "fixtures" / "rules"


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> typer.Typer:
    folder = tmp_path / "rulebooks"
    shutil.copytree(FIXTURES, folder)
    monkeypatch.setenv("REFEREE_RULEBOOKS", str(folder))
    monkeypatch.setenv("REFEREE_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(library, "_memory", None)
    application = typer.Typer()

    @application.callback()
    def root() -> None:
        """Test app."""

    rules_cmd.register(application)
    return application


def invoke(app: typer.Typer, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["rules", *args], env={"COLUMNS": "100"})
    return result.exit_code, result.stdout, result.stderr


def test_search_prints_sections_best_first_with_ids(app: typer.Typer) -> None:
    code, out, _ = invoke(app, "lantern-watch", "how", "do", "I", "relight")
    assert code == 0
    assert out.startswith("## 1. #relight: Relighting a lantern")
    assert "Spend 2 oil to relight" in out
    # the best answer alone in full; the other matches by title after it
    assert out.count("## ") == 1 and out.index("Spend 2 oil") < out.index("Also matching:") < out.index("- 2. #")


def test_json_output_for_scripts(app: typer.Typer) -> None:
    code, out, _ = invoke(app, "lantern-watch", "tie", "--json", "--limit", "2")
    assert code == 0
    results = json.loads(out)["results"]
    assert [r["section"] for r in results][0] == "tie-break"
    assert len(results) <= 2
    assert set(results[0]) == {"game", "section", "title", "text", "score", "source", "see_also"}
    assert results[0]["score"] >= results[-1]["score"]


def test_without_a_game_every_game_is_searched(app: typer.Typer) -> None:
    code, out, _ = invoke(app, "ties", "copper", "--json")
    assert code == 0
    first = json.loads(out)["results"][0]
    assert (first["game"], first["section"]) == ("copper-road", "final-scoring")
    code, out, _ = invoke(app, "ties", "copper")
    assert "## 1. copper-road #final-scoring" in out


def test_a_unique_game_prefix_of_four_letters_names_the_game(app: typer.Typer) -> None:
    code, out, _ = invoke(app, "copp", "ties")
    assert code == 0 and out.startswith("## 1. #final-scoring")


def test_listing_and_showing_one_section(app: typer.Typer) -> None:
    code, out, _ = invoke(app, "lantern-watch")
    assert code == 0
    assert "Lantern Watch (built-in): 11 sections" in out
    assert "    relight" in out and "[automates]" in out
    code, out, _ = invoke(app, "lantern-watch", "--section", "storm-dice")
    assert code == 0
    assert out.startswith("## Rolling the storm dice {#storm-dice}\nReferee: asks")
    assert out.rstrip().endswith("See also: #lanterns")
    code, out, _ = invoke(app, "lantern-watch", "-s", "relight", "--json")
    assert json.loads(out)["results"][0]["title"] == "Relighting a lantern"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("lantern-watch", "--section", "nope"), "no section 'nope' in lantern-watch"),
        (("chess", "--section", "x"), "--section needs a game first; 'chess' is not a game"),
        (("lantern-watch", "dice", "--section", "storm-dice"), "either --section ID or a question"),
        (("--section", "x"), "--section needs a game"),
        (("lantern-watch", "dice", "--limit", "0"), "--limit 0 is out of range; allowed: 1 to 50"),
        (("import", "lantern-watch"), "usage: referee rules import GAME FILE"),
        (("import", "chess", "x.txt"), "unknown game 'chess'"),
        (("import", "blackwood", "/no/such/file.txt"), "file not found"),
        (("forget",), "usage: referee rules forget GAME"),
        (("forget", "blackwood"), "no imported copy of blackwood to forget"),
        (("lantern-watch", "?"), "empty question"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(app: typer.Typer, args: tuple[str, ...], message: str) -> None:
    code, out, err = invoke(app, *args)
    assert code == 2
    assert err.startswith("referee: ") and message in err
    assert err.count("\n") == 1
    assert "Traceback" not in out + err


def test_no_match_says_so(app: typer.Typer) -> None:
    code, out, _ = invoke(app, "lantern-watch", "zeppelin")
    assert code == 1
    assert "Nothing in lantern-watch matches 'zeppelin'" in out
    code, out, _ = invoke(app, "lantern-watch", "zeppelin", "--json")
    assert (code, json.loads(out)) == (0, {"results": []})


def test_no_arguments_lists_the_rulebooks(app: typer.Typer) -> None:
    code, out, _ = invoke(app)
    assert code == 0
    assert "Rulebooks: copper-road, lantern-watch" in out


def test_import_search_and_forget_a_copy(app: typer.Typer, tmp_path: Path) -> None:
    copy = tmp_path / "notes.md"
    copy.write_text("# Blackwood notes\n\n## Night Market\nPotions sell for double at night.\n")
    code, out, _ = invoke(app, "import", "bw", str(copy))
    assert code == 0 and "Imported 1 sections of blackwood from" in out
    assert (tmp_path / "home" / "rulebooks" / "blackwood.json").is_file()

    code, out, _ = invoke(app, "blackwood", "night", "market", "--json")
    first = json.loads(out)["results"][0]
    assert (first["section"], first["source"]) == ("night-market", "imported:notes.md")
    code, out, _ = invoke(app, "blackwood", "night", "market")
    assert "Source: imported:notes.md" in out
    code, out, _ = invoke(app, "blackwood")
    assert "(imported:notes.md): 1 sections" in out

    code, out, _ = invoke(app, "forget", "blackwood")
    assert code == 0 and "Removed the imported copy of blackwood (notes.md)" in out
    assert not (tmp_path / "home" / "rulebooks" / "blackwood.json").exists()
    code, _, err = invoke(app, "blackwood", "night")
    assert code == 2 and "no rulebook for blackwood yet" in err


def test_fast_path_matches_the_typer_command(app: typer.Typer, capsys: pytest.CaptureFixture[str]) -> None:
    _, typer_out, _ = invoke(app, "lantern-watch", "stelth", "--json", "-n", "2")
    assert rules_cmd.fast_path(["rules", "lantern-watch", "stelth", "--json", "-n", "2"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(typer_out)


@pytest.mark.parametrize(
    "argv",
    [["games"], [], ["rules", "--help"], ["rules", "x", "--bogus"], ["rules", "x", "--limit"],
     ["rules", "x", "-n", "many"], ["rules", "lantern-watch", "--section"]],
)
def test_fast_path_leaves_other_commands_and_odd_options_to_typer(argv: list[str]) -> None:
    assert rules_cmd.fast_path(argv) is None


def test_fast_path_reads_inline_values_and_double_dash(
        app: typer.Typer, capsys: pytest.CaptureFixture[str]) -> None:
    assert rules_cmd.fast_path(["rules", "lantern-watch", "--section=relight", "--plain"]) == 0
    assert capsys.readouterr().out.startswith("## Relighting a lantern {#relight}")
    assert rules_cmd.fast_path(["rules", "lantern-watch", "--limit=1", "--", "-storm", "dice"]) == 0
    assert capsys.readouterr().out.count("## ") == 1


def test_terminal_output_is_rendered_by_rich(app: typer.Typer) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    out = Terminal()
    assert rules_cmd.run(["lantern-watch", "relight"], out=out) == 0
    text = out.getvalue()
    assert "1. #relight: Relighting a lantern" in text and "\x1b[" in text and "## 1." not in text
    plain = Terminal()
    assert rules_cmd.run(["lantern-watch", "relight"], plain=True, out=plain) == 0
    assert plain.getvalue().startswith("## 1. #relight")


class Terminal(io.StringIO):
    """Output that says it is a terminal, as a player's screen does."""

    def isatty(self) -> bool:
        return True


def test_no_internal_scores_on_a_terminal_or_in_text(app: typer.Typer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAGER", "")
    screen = Terminal()
    assert rules_cmd.run(["lantern-watch", "tie", "lanterns"], out=screen) == 0
    piped = io.StringIO()
    assert rules_cmd.run(["lantern-watch", "tie", "lanterns"], out=piped) == 0
    for text in (screen.getvalue(), piped.getvalue()):
        assert "#tie-break" in text
        assert not re.search(r"score \d|\d\.\d\d", text)
    code, out, _ = invoke(app, "lantern-watch", "tie", "--json")
    assert code == 0 and "score" in json.loads(out)["results"][0]  # scripts still get them


def test_did_you_mean_when_nothing_matches_well(app: typer.Typer) -> None:
    code, out, _ = invoke(app, "lantern-watch", "oyl")
    assert code == 1
    assert "Nothing in lantern-watch matches 'oyl' well." in out
    assert "Did you mean 'oil' for 'oyl'?" in out
    code, out, _ = invoke(app, "lantern-watch", "storm", "zeppelin", "blimp")
    assert code == 1
    assert "Did you mean one of these?" in out
    assert "  lantern-watch --section storm-dice: Rolling the storm dice" in out
    assert "Wind faces" not in out  # no section text for a weak match, only where to look
    code, out, _ = invoke(app, "lantern-watch", "storm", "dice")
    assert code == 0 and "Did you mean" not in out


def test_a_players_phrase_from_the_games_vocabulary(app: typer.Typer) -> None:
    code, out, _ = invoke(app, "lantern-watch", "does", "the", "king's", "axe", "fall", "on", "a", "traitor")
    assert code == 0 and out.startswith("## 1. #traitor: Beheading the traitor")
    code, out, _ = invoke(app, "lantern-watch", "who", "goes", "first")
    assert code == 0 and out.startswith("## 1. #turn-order: Turn order")


def test_across_games_each_game_answers_once(app: typer.Typer) -> None:
    code, out, _ = invoke(app, "keeper", "lantern", "--json", "--limit", "10")
    assert code == 0
    assert [result["game"] for result in json.loads(out)["results"]] == ["lantern-watch"]
    code, out, _ = invoke(app, "lantern-watch", "lantern", "keeper", "--json", "--limit", "10")
    assert len(json.loads(out)["results"]) > 1  # asked about the one game, it gives several


def paged_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, out: io.StringIO, *args: str,
              pager: bool = True) -> str | None:
    """Run a lookup with a pager that writes what it is given to a file; the paged text, if any."""
    paged = tmp_path / "paged.txt"
    paged.unlink(missing_ok=True)
    monkeypatch.setenv("PAGER", f"cat > {paged}")
    monkeypatch.setenv("LINES", "6")
    monkeypatch.delenv("LESS", raising=False)
    assert rules_cmd.run(list(args), out=out, pager=pager) == 0
    return paged.read_text(encoding="utf-8") if paged.exists() else None


def test_a_long_answer_is_paged_only_on_a_terminal(app: typer.Typer, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    screen = Terminal()
    paged = paged_run(tmp_path, monkeypatch, screen, "lantern-watch", "lantern", "keeper")
    assert paged is not None and "Relighting a lantern" in paged and "\x1b[" in paged
    assert screen.getvalue() == ""  # all of it went to the pager

    piped = io.StringIO()
    assert paged_run(tmp_path, monkeypatch, piped, "lantern-watch", "lantern", "keeper") is None
    assert piped.getvalue().startswith("## 1. ")

    screen = Terminal()
    assert paged_run(tmp_path, monkeypatch, screen, "lantern-watch", "lantern", "keeper", pager=False) is None
    assert "Relighting a lantern" in screen.getvalue()


def test_a_short_answer_or_a_missing_pager_writes_straight_to_the_terminal(
        app: typer.Typer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LINES", "200")
    monkeypatch.setenv("PAGER", f"cat > {tmp_path / 'paged.txt'}")
    screen = Terminal()
    assert rules_cmd.run(["lantern-watch", "relight"], out=screen) == 0
    assert "Relighting a lantern" in screen.getvalue() and not (tmp_path / "paged.txt").exists()
    monkeypatch.setenv("LINES", "6")
    monkeypatch.setenv("PAGER", "no-such-pager-here -R")
    screen = Terminal()
    assert rules_cmd.run(["lantern-watch", "lantern", "keeper"], out=screen) == 0
    assert "Relighting a lantern" in screen.getvalue()


def test_the_fast_path_reads_no_pager(app: typer.Typer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert rules_cmd.fast_path(["rules", "lantern-watch", "relight", "--no-pager"]) == 0
    assert capsys.readouterr().out.startswith("## 1. #relight")
    code, out, _ = invoke(app, "lantern-watch", "relight", "--no-pager")
    assert code == 0 and out.startswith("## 1. #relight")


def test_in_a_real_terminal_a_long_answer_goes_to_the_pager_and_a_piped_one_does_not(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    import pexpect

    paged = tmp_path / "paged.txt"
    env = dict(os.environ, REFEREE_HOME=str(tmp_path / "home"), PAGER=f"cat > {paged}", COLUMNS="100")
    env.pop("LINES", None)
    command = [sys.executable, "-m", "referee", "rules", "who", "goes", "first"]
    child = pexpect.spawn(command[0], command[1:], env=env, dimensions=(10, 100), encoding="utf-8", timeout=30)
    child.expect("Which one answered it")  # after the pager, the table may teach the lookup
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    text = paged.read_text(encoding="utf-8")
    assert text.count("\x1b[") > 5 and "cutthroat-kingdoms" in text and "got-lcg-1e" in text
    paged.unlink()
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False, timeout=30)
    assert done.returncode == 0 and not paged.exists()
    assert done.stdout.startswith("## 1. ") and "\x1b[" not in done.stdout
