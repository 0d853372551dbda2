"""`nightshift run` on a terminal: one live bar with counts by status and the ETA, not two lines per trial."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pandas as pd

from nightshift.cli import main
from tests.test_run_lock import experiment

ANSI = re.compile(r"\x1b\[[0-9;?]*[a-zA-Z]")


def last_bar(text: str) -> str:
    bars = [line for line in ANSI.sub("", text).replace("\r", "\n").splitlines() if line.startswith("trials ")]
    assert bars, text[-3000:]
    return bars[-1]


def test_the_bar_counts_every_status_and_holds_back_trial_lines(tmp_path: Path, prefect_server, capfd) -> None:
    exp = experiment(tmp_path)  # 16 trials: 1 case x 2 variants x 8 seeds
    assert main(["run", str(exp), "--progress", "bar"]) == 0
    text = "".join(capfd.readouterr())
    assert "Finished in state" not in text and "Task run '" not in text  # held back from the terminal
    rows = pd.read_parquet(next((tmp_path / "out").glob("*/results.parquet")))
    bar = last_bar(text)
    assert " 16/16 " in bar, bar
    shown = {status: int(n) for status, n in re.findall(r"([a-z_]+) (\d+)", bar)}
    assert shown == dict(Counter(rows["status"])), (bar, rows["status"].tolist())
    assert "report:" in text and "viewer:" in text  # and it still ends with where to look

    assert main(["run", str(exp), "--progress", "bar"]) == 0  # the resume: every trial answered from its row
    bar = last_bar("".join(capfd.readouterr()))
    assert " 16/16 " in bar and "from rows 16" in bar, bar


def test_log_lines_print_above_the_bar_not_glued_onto_it(capsys) -> None:
    """A handler keeps the stream it was built with (Prefect's prints through its own rich Console), so its lines
    used to be written straight after the bar's last frame. During the bar they go through the bar's console."""
    import logging
    import sys
    import time

    from prefect.logging.handlers import PrefectConsoleHandler
    from rich.console import Console

    from nightshift.cli.progress import trial_bar

    terminal = sys.stderr  # what the bar and the handlers share (pytest's capture stands in for the terminal)
    console = Console(file=terminal, force_terminal=True, width=100)
    logger = logging.getLogger("prefect.nightshift_test")
    handler = PrefectConsoleHandler(stream=terminal)
    logger.addHandler(handler)
    logger.propagate = False
    try:
        with trial_bar(console) as bar:
            bar.started(total=4, done=0)
            bar.finished("resolved")
            time.sleep(0.6)  # the bar has drawn a frame
            logger.warning("MARK-one endpoint slow")
            bar.finished("failed")
            time.sleep(0.6)
        logger.warning("MARK-two after the bar")
    finally:
        logger.removeHandler(handler)
    lines = ANSI.sub("", capsys.readouterr().err).replace("\r", "\n").splitlines()
    marked = [line for line in lines if "MARK-" in line]
    assert len(marked) == 2, lines
    assert not any("trials " in line for line in marked), marked  # each on a line of its own
    assert handler.console.file is terminal  # the handler's own console is back after the bar
