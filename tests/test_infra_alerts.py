"""Infra failure spike alerts: a forced spike of simulator faults in a real night fires the Prefect notification
block the experiment names (a CustomWebhookNotificationBlock aimed at a local HTTP server), and the night is
marked not trustworthy in its report and by compare."""

from __future__ import annotations

import json
import logging
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from nightshift.analysis.trust import trust_notes
from nightshift.experiment.config import AlertSettings
from nightshift.flows.infra_alerts import InfraAlarm


@pytest.fixture
def hook():
    """A local webhook receiver on 127.0.0.1: yields (url, list of received JSON bodies)."""
    received: list[dict] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 - http.server's name
            received.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
            self.send_response(200)
            self.end_headers()

        def log_message(self, *_):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/alert", received
    server.shutdown()


def test_the_alarm_fires_once_per_crossing_with_the_breakdown(tmp_path: Path) -> None:
    alarm = InfraAlarm(AlertSettings(infra_share=0.5, window=4), "night-x", logging.getLogger("test"))
    fired = [alarm.observe(*o) for o in [("resolved", ""), ("infra_error", "endpoint"), ("failed", ""),
                                          ("infra_error", "sandbox_create"), ("infra_error", "endpoint")]]
    assert fired[:4] == [None] * 4 and fired[4] is not None  # 5th trial: 3 of the last 4 (75%)
    assert "3 of the last 4 trials (75%)" in fired[4] and "endpoint 2, sandbox_create 1" in fired[4]
    assert alarm.observe("infra_error", "endpoint") is None  # still over: no second alert
    for _ in range(4):
        alarm.observe("resolved")  # back under the threshold: re-armed
    assert alarm.observe("infra_error", "grader") is None  # 1 of 4: under
    record = alarm.verdict(tmp_path)
    assert record["infra_share"] == round(5 / 11, 4) and record["trustworthy"]  # 45% ≤ 50% over the night


def test_a_forced_fault_spike_fires_the_named_notification_block(tmp_path: Path, prefect_server, hook) -> None:
    from prefect.blocks.notifications import CustomWebhookNotificationBlock

    from nightshift.experiment.manifest import RunManifest  # noqa: F401 - the flow's imports, warmed
    from nightshift.flows.nightly_eval import nightly_eval

    url, received = hook
    CustomWebhookNotificationBlock(name="nightshift-test", url=url, json_data={"text": "{{subject}}: {{body}}"}
                                   ).save("nightshift-test-alerts", overwrite=True)
    # the simulator's fault draws are seeded (seed 0): the first (the pinning call) is 0.909, past 0.9, and the
    # next four (each trial's first call) are all under it, so the night pins and then every trial fails
    exp = tmp_path / "exp.yaml"
    exp.write_text("""
name: spike
suites: [builtin]
cases: [py-bugfix-slugify, sh-csv-column-sum]
variants: [{name: strong, model: sim-strong}]
seeds: [1, 2]
concurrency: 2
infra_retries: 0
model: {max_retries: 0, simulator: {latency_ms: 1, fault_rate: 0.9}}
alerts: {infra_share: 0.5, window: 4, notify_block: custom-webhook/nightshift-test-alerts}
output_dir: out
""")
    summary = nightly_eval(experiment_file=str(exp))
    run_dir = Path(summary["run_dir"])
    rows = [json.loads(p.read_text()) for p in (run_dir / "results").glob("*.json")]
    assert len(rows) == 4 and {(r["status"], r["infra_kind"]) for r in rows} == {("infra_error", "endpoint")}
    assert len(received) == 1, received  # fired once, when the share first crossed, not once per trial
    assert "infra failure spike in run" in received[0]["text"] and "endpoint" in received[0]["text"]
    trust = json.loads((run_dir / "trust.json").read_text())
    assert trust["infra_share"] == 1.0 and not trust["trustworthy"] and trust["alerts"]
    assert trust_notes([str(run_dir / "results.parquet")])[0].startswith(f"NOT TRUSTWORTHY: run {run_dir.name}")
    assert "NOT TRUSTWORTHY" in (run_dir / "report.md").read_text()
