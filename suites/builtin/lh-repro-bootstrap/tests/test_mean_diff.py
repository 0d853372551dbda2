import experiment

diffs = experiment.load()
assert len(diffs) == 60, len(diffs)
assert round(sum(diffs) / len(diffs), 3) == 2.083
print("ok")
