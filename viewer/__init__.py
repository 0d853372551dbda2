"""The trajectory viewer: ``nightshift view RUN [--vs OTHER]`` serves a run's trials as a local web page, and
``--static OUT`` writes the same page and data files for opening from disk.

Owns: reading a run folder for display (run_data, steps), the page and its data files (pages, templates/,
static/), the local server (server) and links to it (links). Must not change a run's files, and must never
show a held-out case's instruction, tests or outputs.
"""
