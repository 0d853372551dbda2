"""Orders pipeline: ingest -> clean -> convert -> aggregate."""
