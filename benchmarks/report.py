"""The results as table rows: each figure with its floor, its ratio and its target."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class Row:
    section: str
    label: str
    unit: str
    """'s' (seconds), 'B' (bytes) or '/s' (a rate)."""
    median: float
    minimum: float
    maximum: float
    floor: str | None = None
    floor_median: float | None = None
    target: str | None = None
    met: bool | None = None

    @property
    def ratio(self) -> float | None:
        return self.median / self.floor_median if self.floor_median else None

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "ratio": self.ratio}


def _row(section: str, label: str, unit: str, figures: Mapping[str, Any], **extra: Any) -> Row:
    return Row(section, label, unit, figures["median"], figures["min"], figures["max"], **extra)


def startup_rows(report: Mapping[str, Any]) -> list[Row]:
    seconds = report["seconds"]
    target = report["target_ratio"]
    rows = []
    for label, figures in seconds.items():
        paired = report["ratios"].get(label)
        if paired is None:
            rows.append(_row("start-up", label, "s", figures))
            continue
        ratio = paired["ratio"]
        rows.append(_row("start-up", label, "s", figures, floor=paired["floor"],
                         floor_median=seconds[paired["floor"]]["median"],
                         target=f"<= {target}x floor", met=ratio <= target))
    return rows


def latency_rows(report: Mapping[str, Any]) -> list[Row]:
    stores = [name for name in report if isinstance(report[name], dict) and "p50" in report[name]]
    full, empty, fsync = stores[0], stores[1], "fsync floor"
    p95_target = report["targets"]["p95_seconds"]
    ratio_target = report["targets"]["full_to_empty"]
    rows = []
    for name, floor in ((full, empty), (empty, fsync), (fsync, None)):
        for figure in ("p50", "p95", "max"):
            target: str | None = None
            met: bool | None = None
            median = report[name][figure]["median"]
            if figure == "p95" and name != fsync:
                target = f"< {p95_target * 1000:.0f} ms"
                met = median < p95_target
                if name == full:
                    target += f", <= {ratio_target}x empty"
                    met = met and median <= ratio_target * report[empty][figure]["median"]
            rows.append(_row("answer latency", f"{figure} answer, {name}", "s", report[name][figure],
                             floor=f"{figure}, {floor}" if floor else None,
                             floor_median=report[floor][figure]["median"] if floor else None,
                             target=target, met=met))
    for name, floor in ((full, empty),):
        rows.append(_row("answer latency", f"last answer to scoreboard, {name}", "s", report[name]["final"],
                         floor=f"same, {floor}", floor_median=report[floor]["final"]["median"]))
    return rows


def resume_rows(report: Mapping[str, Any]) -> list[Row]:
    target = report["target_seconds"]
    floor = "read files only (floor)"
    return [
        _row("resume", f"resume {report['log_entries']}-entry session", "s", report["resume"],
             floor=floor, floor_median=report[floor]["median"],
             target=f"< {target * 1000:.0f} ms", met=report["resume"]["median"] < target),
        _row("resume", floor, "s", report[floor]),
    ]


def throughput_rows(report: Mapping[str, Any]) -> list[Row]:
    rows = []
    for game, figures in report.items():
        target = figures["target_games_per_second"]
        rows.append(_row("throughput", f"{game}, {figures['players']} players: games", "/s",
                         figures["games_per_second"], target=f">= {target:.0f}/s" if target else None,
                         met=figures["games_per_second"]["median"] >= target if target else None))
        rows.append(_row("throughput", f"{game}, {figures['players']} players: answers", "/s",
                         figures["answers_per_second"]))
    return rows


def memory_rows(report: Mapping[str, Any]) -> list[Row]:
    floor = "floor hello Ann"
    rows = []
    for name, figures in report.items():
        if not isinstance(figures, dict) or "peak_rss_bytes" not in figures:
            continue
        paired = {} if name == floor else {"floor": floor}
        rows.append(_row("memory", f"peak RSS, {name}", "B", figures["peak_rss_bytes"], **paired,
                         floor_median=report[floor]["peak_rss_bytes"]["median"] if paired else None))
        rows.append(_row("memory", f"wall time, {name}", "s", figures["seconds"], **paired,
                         floor_median=report[floor]["seconds"]["median"] if paired else None))
    return rows


RULES_LABELS = {
    "entry_point": "python -m referee rules ... (piped)",
    "fast_path": "rules fast path (piped)",
    "fast_path_terminal": "rules fast path (terminal, styled)",
    "fast_path_uncompiled": "rules fast path, no bytecode cache",
    "every_game": "rules who goes first, all games (piped)",
    "every_game_terminal": "rules who goes first, all games (terminal)",
}
"""Names for bench_rules.py's figures; a figure it adds later shows under its own key."""


def rules_rows(report: Mapping[str, Any]) -> list[Row]:
    rows = []
    baseline = report["baseline"]["median"]
    target = report.get("target_ratio")
    for name, ratio in report.get("ratios", {}).items():
        limit = target if name in ("fast_path", "every_game") else None
        rows.append(_row("rules lookup", RULES_LABELS.get(name, name), "s", report[name], floor="import typer, rich",
                         floor_median=baseline, target=f"<= {limit}x floor" if limit else None,
                         met=ratio <= limit if limit else None))
    rows.append(_row("rules lookup", "python -c 'import typer, rich'", "s", report["baseline"]))
    return rows


def history_rows(report: Mapping[str, Any]) -> list[Row]:
    small, large, target = report["sessions_small"], report["sessions_large"], report["target_ratio"]
    rows = []
    for label, figures in report["commands"].items():
        held = figures["held_to_target"]
        rows.append(_row("history", f"{label}, {large} sessions", "s", figures["large"],
                         floor=f"same, {small} sessions", floor_median=figures["small"]["median"],
                         target=f"<= {target}x {small} sessions" if held else None,
                         met=figures["ratio"] <= target if held else None))
        rows.append(_row("history", f"{label}, {small} sessions", "s", figures["small"]))
        if "json" in label:  # the untimed first run, which made each session's kept export
            first = figures["first_run"]
            rows.append(_row("history", f"{label}, {large} sessions, first run (nothing kept yet)", "s",
                             {"median": first, "min": first, "max": first}))
    return rows


def long_history_rows(report: Mapping[str, Any]) -> list[Row]:
    entries, floor, target = report["entries"], report["floor"], report["target_ratio"]
    rows = []
    for label, figures in report["commands"].items():
        if label == floor:
            rows.append(_row("long session", f"{label}, {entries:,} entries", "s", figures))
            continue
        rows.append(_row("long session", f"{label}, {entries:,} entries", "s", figures, floor=floor,
                         floor_median=report["commands"][floor]["median"], target=f"<= {target}x {floor}",
                         met=figures["ratio"] <= target))
    return rows


def terminal_rows(report: Mapping[str, Any]) -> list[Row]:
    answers, started = report["answer_to_prompt"], report["start_to_first_question"]
    answer_target, start_target = report["targets"]["answer"], report["targets"]["start"]
    rows = []
    def over_every_answer(side: str, figure: str) -> dict[str, float]:
        """The percentile over every answer of every game (the figure held to the target), with
        the lowest and highest of the games' own percentiles beside it."""
        games = answers[side][f"{figure} per game"]
        return {"median": answers[side][figure], "min": games["min"], "max": games["max"]}

    for figure in ("p50", "p95"):
        label = f"{figure} Enter to next question, whole game, {report['stored_sessions']} sessions stored"
        ratio = report["ratios"][f"answer {figure}"]
        rows.append(_row("terminal", label, "s", over_every_answer("referee", figure),
                         floor=f"{figure}, bare questionary loop", floor_median=answers["floor"][figure],
                         target=f"<= {answer_target}x floor", met=ratio <= answer_target))
        rows.append(_row("terminal", f"{figure}, bare questionary loop", "s", over_every_answer("floor", figure)))
    rows.append(_row("terminal", "referee play to its first question", "s", started["referee play"],
                     floor="minimal questionary prompt", floor_median=started["floor"]["median"],
                     target=f"<= {start_target}x floor", met=report["ratios"]["start"] <= start_target))
    rows.append(_row("terminal", "minimal questionary prompt", "s", started["floor"]))
    return rows


def rows_for(results: Mapping[str, Any]) -> list[Row]:
    return [
        *terminal_rows(results["terminal"]),
        *startup_rows(results["startup"]),
        *latency_rows(results["latency"]),
        *resume_rows(results["resume"]),
        *throughput_rows(results["throughput"]),
        *memory_rows(results["memory"]),
        *rules_rows(results["rules_lookup"]),
        *history_rows(results["history"]),
        *long_history_rows(results["long_history"]),
    ]


def shown(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    if unit == "s":
        return f"{value * 1000:.2f} ms" if value < 0.01 else f"{value * 1000:.1f} ms"
    if unit == "B":
        return f"{value / 1_048_576:.1f} MiB"
    return f"{value:,.0f}/s"


def render_table(rows: list[Row]) -> str:
    headers = ("Figure", "median", "min", "max", "floor", "floor median", "ratio", "target", "")
    lines: list[tuple[str, ...]] = []
    section = None
    for row in rows:
        if row.section != section:
            section = row.section
            lines.append((f"[{section}]",) + ("",) * (len(headers) - 1))
        verdict = {True: "ok", False: "MISSED", None: ""}[row.met]
        lines.append((
            f"  {row.label}", shown(row.median, row.unit), shown(row.minimum, row.unit),
            shown(row.maximum, row.unit), row.floor or "-", shown(row.floor_median, row.unit),
            f"{row.ratio:.2f}x" if row.ratio is not None else "-", row.target or "-", verdict,
        ))
    widths = [max(len(line[column]) for line in [headers, *lines]) for column in range(len(headers))]
    text = []
    for line in [headers, *lines]:
        cells = [cell.ljust(width) if column in (0, 4, 7, 8) else cell.rjust(width)
                 for column, (cell, width) in enumerate(zip(line, widths, strict=True))]
        text.append("  ".join(cells).rstrip())
    return "\n".join(text)
