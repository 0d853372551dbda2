"""Clocks for tests."""


class FakeClock:
    """A manually advanced clock; call it to read the current time in seconds."""

    def __init__(self, start=0.0):
        self.now = float(start)

    def __call__(self):
        return self.now

    def advance(self, seconds):
        if seconds < 0:
            raise ValueError("time cannot go backwards")
        self.now += seconds
