"""The experiment file, the run manifest that pins it, and the expansion into trials.

Owns: parsing/validating experiment YAML (config), resolving pins into manifest.json (manifest),
trial ids and the cases × variants × seeds expansion (trials). Must not run trials or call Prefect.
"""
