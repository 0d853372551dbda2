"""Analysis: DuckDB over a run's Parquet file: scores with intervals, paired differences, reports.

Owns every number a user reads in the morning. Must not run trials; reads only Parquet.
"""

from analysis.scores import paired_differences, variant_scores

__all__ = ["paired_differences", "variant_scores"]
