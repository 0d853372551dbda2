"""The report's per-case table and its regressions, each linked to the trajectory viewer (nightshift view).

A case row shows resolved/graded per arm and links to the viewer's trial list for that case; a
regression (an arm resolving a case less often than its baseline) links to the same case and seed of
the two arms side by side, so the question "what did the agent do differently?" is one click away.
"""

from __future__ import annotations

import duckdb

from nightshift.analysis.source import run_labels, sql_text
from nightshift.analysis.summary import Analysis
from nightshift.links import pair_url, run_url

Block = tuple


def _rows(files: list[str]) -> list[tuple]:
    scan = "read_parquet([" + ", ".join(sql_text(f) for f in files) + "], union_by_name = true)"
    relation = duckdb.sql(f"SELECT run_id, variant, case_id, seed, status, trial_id FROM {scan} "
                          "ORDER BY case_id, seed, run_id, variant")
    assert relation is not None  # a SELECT has its relation (None is for statements without rows)
    return relation.fetchall()


def case_blocks(analysis: Analysis) -> list[Block]:
    """("h2", ...), ("table", headers, rows, links) blocks: cases and regressions with viewer links."""
    rows = _rows(analysis.info["files"])
    labels = run_labels(sorted({r[0] for r in rows}))
    by_run = analysis.info.get("arm_by_run")

    def arm(run_id: str, variant: str) -> str:
        return f"{variant}@{labels[run_id]}" if by_run else variant

    arms = sorted({arm(r[0], r[1]) for r in rows})
    cells: dict[str, dict[str, list[int]]] = {}
    trials: dict[tuple[str, str, int], tuple[str, str, str]] = {}  # (case, arm, seed) -> run, trial, status
    home: dict[str, str] = {}
    for run_id, variant, case_id, seed, status, trial_id in rows:
        a = arm(run_id, variant)
        home.setdefault(case_id, run_id)
        cell = cells.setdefault(case_id, {}).setdefault(a, [0, 0])
        if status != "infra_error":
            cell[0] += status == "resolved"
            cell[1] += 1
        trials[(case_id, a, seed)] = (run_id, trial_id, status)
    table, links = [], []
    for case_id, by_arm in cells.items():
        table.append([case_id, *(f"{by_arm[a][0]}/{by_arm[a][1]}" if a in by_arm else "–" for a in arms)])
        links.append(run_url(home[case_id], case=case_id))
    out: list[Block] = [("h2", "Cases"), ("p", "resolved / graded trials per arm (infra errors apart); each case "
                                                "opens in the trajectory viewer (`nightshift view RUN`)."),
                        ("table", ("case", *arms), table, links)]
    pairs = {(c.baseline, c.variant) for c in analysis.comparisons if c.scope == "all" and c.metric == "pass_rate"}
    regressions, reg_links = [], []
    for baseline, variant in sorted(pairs):
        for case_id, by_arm in cells.items():
            base, new = by_arm.get(baseline), by_arm.get(variant)
            if not base or not new or not base[1] or not new[1] or new[0] / new[1] >= base[0] / base[1]:
                continue
            seeds = sorted(s for (c, a, s) in trials if c == case_id and a == baseline
                           and (case_id, variant, s) in trials)
            # the seed where the baseline resolved and the variant did not, if there is one
            pick = next((s for s in seeds if trials[(case_id, baseline, s)][2] == "resolved"
                         and trials[(case_id, variant, s)][2] != "resolved"), seeds[0] if seeds else None)
            if pick is None:
                continue
            run_a, id_a, st_a = trials[(case_id, baseline, pick)]
            run_b, id_b, st_b = trials[(case_id, variant, pick)]
            regressions.append([case_id, f"{variant} vs {baseline}", f"{new[0]}/{new[1]} vs {base[0]}/{base[1]}",
                                f"seed {pick}: {st_b} vs {st_a}"])
            reg_links.append(pair_url(run_a, id_a, run_b, id_b))
    out += [("h2", "Regressions"),
            ("p", "cases an arm resolved less often than its baseline; each opens the two trials side by side."),
            ("table", ("case", "arms", "resolved", "side by side"), regressions, reg_links)]
    return out
