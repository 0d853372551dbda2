import experiment

low, high = experiment.bootstrap_ci(experiment.load())
assert (round(low, 3), round(high, 3)) == (1.077, 3.093), (low, high)
again = experiment.bootstrap_ci(experiment.load())
assert again == (low, high), "the interval changes between runs"
print("ok")
