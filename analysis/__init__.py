"""Analysis: DuckDB over a run's Parquet file: scores with intervals, paired differences, noise, reports.

Owns every number a user reads in the morning. Must not run trials; reads only Parquet (and the
manifest.json beside it, to recognise A/A repeats). Entry point: ``analyse(runs)``; see docs/ANALYSIS.md.
"""

from nightshift.analysis.source import AnalysisError
from nightshift.analysis.summary import Analysis, analyse

__all__ = ["Analysis", "AnalysisError", "analyse"]
