"""Infrastructure failure spike alerts: the share of infra_error trials among the last N, by kind.

When the share crosses the experiment's threshold (``alerts.infra_share`` over ``alerts.window`` trials),
the flow logs a warning with the breakdown by kind (sandbox_create, endpoint, harness, grader), the
progress artifact says so, and the Prefect notification block the experiment names (Slack, a webhook,
email: any ``NotificationBlock``) is fired once; it re-arms when the share falls back under the threshold.
At the end, ``trust.json`` in the run folder records the night's infra share against the threshold; the
report and ``compare`` read it and call a night over the threshold not trustworthy.
"""

from __future__ import annotations

import json
import logging
from collections import Counter, deque
from pathlib import Path

from prefect.blocks.core import Block

from nightshift.analysis.trust import TRUST_FILE
from nightshift.experiment.config import AlertSettings
from nightshift.flows.sync_calls import sync_value


class InfraAlarm:
    """Fed every finished trial's (status, infra kind); fires once per crossing of the threshold."""

    def __init__(self, settings: AlertSettings, run_id: str, logger: logging.Logger | logging.LoggerAdapter):
        self.settings, self.run_id, self.logger = settings, run_id, logger
        self.latest: deque[str | None] = deque(maxlen=settings.window)
        self.fired: list[str] = []
        self.infra: Counter[str] = Counter()
        self.armed, self.seen = True, 0

    def observe(self, status: str, kind: str = "") -> str | None:
        """Record one trial; returns the alert line when this trial made the share cross the threshold."""
        self.seen += 1
        failed = status == "infra_error"
        self.latest.append((kind or "unclassified") if failed else None)
        if failed:
            self.infra[kind or "unclassified"] += 1
        kinds = Counter(k for k in self.latest if k)
        share = sum(kinds.values()) / len(self.latest)
        if share <= self.settings.infra_share or len(self.latest) < min(self.settings.window, 5):
            self.armed = self.armed or share <= self.settings.infra_share  # back at or under: re-armed
            return None
        if not self.armed:
            return None
        self.armed = False
        breakdown = ", ".join(f"{k} {n}" for k, n in kinds.most_common())
        line = (f"infra failure spike in run {self.run_id}: {sum(kinds.values())} of the last {len(self.latest)} "
                f"trials ({share:.0%}) ended in infra_error ({breakdown}); threshold {self.settings.infra_share:.0%}")
        self.logger.warning(line)
        self.fired.append(line)
        self._notify(line)
        return line

    def _notify(self, line: str) -> None:
        if not self.settings.notify_block:
            return
        try:
            block = sync_value(Block.load(self.settings.notify_block), "Block.load")
            block.notify(line, subject=f"nightshift: infra failures in {self.run_id}")
        except Exception as exc:  # noqa: BLE001 - an alert that cannot be sent must not stop the night
            self.logger.error("could not fire notification block %r: %s", self.settings.notify_block, exc)

    def verdict(self, run_dir: Path) -> dict:
        """The whole night's infra share against the threshold, written to trust.json."""
        share = sum(self.infra.values()) / self.seen if self.seen else 0.0
        record = {"infra_share": round(share, 4), "threshold": self.settings.infra_share, "trials": self.seen,
                  "infra_by_kind": dict(self.infra), "trustworthy": share <= self.settings.infra_share,
                  "alerts": self.fired}
        (run_dir / TRUST_FILE).write_text(json.dumps(record, indent=1) + "\n")
        return record

