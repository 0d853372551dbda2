import importlib

module = importlib.import_module("pipeline.run")
assert callable(module.main)
print("ok")
