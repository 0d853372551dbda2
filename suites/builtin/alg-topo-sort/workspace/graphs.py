"""Graph helpers for the build planner."""


def toposort(graph):
    """Return the nodes of ``graph`` (node -> list of dependencies) in dependency order."""
    raise NotImplementedError
