"""A night's trust verdict on disk: ``trust.json`` in the run folder, written by the night's InfraAlarm
(flows/infra_alerts.py) and read here for the report and ``compare``: a night whose infra share was over its
threshold is called not trustworthy."""

from __future__ import annotations

import json
from pathlib import Path

TRUST_FILE = "trust.json"


def trust_notes(parquet_files: list[str]) -> list[str]:
    """One 'NOT TRUSTWORTHY' line per run whose trust.json says its infra share was over the threshold."""
    notes = []
    for file in parquet_files:
        path = Path(file).parent / TRUST_FILE
        try:
            record = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        if not record.get("trustworthy", True):
            kinds = ", ".join(f"{k} {n}" for k, n in record.get("infra_by_kind", {}).items())
            notes.append(f"NOT TRUSTWORTHY: run {path.parent.name}: {record['infra_share']:.0%} of its trials ended "
                         f"in infra_error ({kinds}), over the experiment's threshold of {record['threshold']:.0%}")
    return notes
