"""Two runs may be compared only when they differ in what is being compared."""

import pytest

from nightshift.experiment.comparability import NotComparable, check_comparable, differences
from nightshift.experiment.manifest import ModelPin, RunManifest


def manifest(**changes) -> RunManifest:
    base = dict(
        experiment="nightly", variants={"a": {"name": "a"}}, models={"a": ModelPin(model="m", version="m-2026-01")},
        endpoint="simulator", sandbox_backend="docker", sandbox_image="img", sandbox_identity="sha256:aaa",
        sandbox_limits={"memory_mb": 1024}, suite_hash="s1", cases={"c1": "h1", "c2": "h2"}, seeds=[1, 2],
        grader_version="public-tests/1", code_version="abc", python="3.11.7", packages={"prefect": "3.9.1"},
    )
    return RunManifest(**{**base, **changes})


def test_identical_pins_and_a_different_variant_are_comparable() -> None:
    other = manifest(variants={"b": {"name": "b"}}, models={"b": ModelPin(model="n", version="n-1")})
    assert check_comparable(manifest(), other) == []


def test_code_change_is_noted_not_refused() -> None:
    found = check_comparable(manifest(), manifest(code_version="def"))
    assert [d.field for d in found] == ["code_version"]


@pytest.mark.parametrize(("changes", "field"), [
    ({"models": {"a": ModelPin(model="m", version="m-2026-02")}}, "model_version[m]"),
    ({"sandbox_identity": "sha256:bbb"}, "sandbox_identity"),
    ({"suite_hash": "s2"}, "suite_hash"),
    ({"seeds": [1, 2, 3]}, "seeds"),
    ({"grader_version": "public-tests/2"}, "grader_version"),
    ({"cases": {"c1": "h1", "c3": "h3"}}, "cases"),
])
def test_each_guarded_pin_refuses_and_is_named(changes, field) -> None:
    with pytest.raises(NotComparable) as err:
        check_comparable(manifest(), manifest(**changes))
    assert field in str(err.value)
    assert "--allow-diff" in str(err.value)


def test_message_lists_every_differing_pin_and_allow_overrides_one() -> None:
    b = manifest(seeds=[7], sandbox_identity="sha256:bbb", cases={"c1": "h1", "c2": "changed"})
    with pytest.raises(NotComparable) as err:
        check_comparable(manifest(), b)
    message = str(err.value)
    assert "seeds" in message and "sandbox_identity" in message and "content differs: ['c2']" in message
    with pytest.raises(NotComparable) as err:
        check_comparable(manifest(), b, allow={"seeds"})
    assert "seeds" not in str(err.value)
    allowed = check_comparable(manifest(), b, allow={"seeds", "sandbox_identity", "cases"})
    assert {d.field for d in allowed} == {"seeds", "sandbox_identity", "cases"}


def test_unknown_allow_field_is_an_error() -> None:
    with pytest.raises(ValueError, match="not a guarded pin"):
        check_comparable(manifest(), manifest(), allow={"colour"})


def test_differences_lists_noted_pins_too() -> None:
    fields = [d.field for d in differences(manifest(), manifest(packages={"prefect": "3.10"}, python="3.12"))]
    assert fields == ["packages.prefect", "python"]  # nested pins by their leaf path


def test_a_nested_pin_names_its_differing_leaf_even_among_long_values() -> None:
    """A refusal over sandbox limits names sandbox_limits.cpu_seconds, however long the rest of the dict is."""
    long = {f"setting_{i:02d}": "x" * 30 for i in range(10)}
    a = manifest(sandbox_limits={**long, "memory_mb": 1024, "cpu_seconds": 600})
    b = manifest(sandbox_limits={**long, "memory_mb": 1024, "cpu_seconds": 300, "pids": 64})
    with pytest.raises(NotComparable) as err:
        check_comparable(a, b)
    assert "sandbox_limits.cpu_seconds: 600  ≠  300" in str(err.value)
    assert "sandbox_limits.pids: -  ≠  64" in str(err.value) and "setting_" not in str(err.value)
    assert {d.field for d in check_comparable(a, b, allow={"sandbox_limits"})} == {
        "sandbox_limits.cpu_seconds", "sandbox_limits.pids"}


def test_a_missing_run_folder_is_named_itself_not_its_parent(tmp_path) -> None:
    from nightshift.experiment.comparability import manifest_of

    with pytest.raises(NotComparable, match=f"^{tmp_path}/nope: no such run folder"):
        manifest_of(tmp_path / "nope")


def test_a_metric_both_runs_score_must_be_the_same_metric_one_only_one_has_is_noted() -> None:
    fast = {"name": "fast", "use": "team:TestsUnder", "version": "1.0", "settings": {"seconds": 2.0}}
    base = manifest(metrics={"builtin": [{"name": "resolved", "use": "resolved"}, fast]})
    slower = manifest(metrics={"builtin": [{"name": "resolved", "use": "resolved"},
                                           {**fast, "settings": {"seconds": 5.0}}]})
    with pytest.raises(NotComparable) as err:
        check_comparable(base, slower)
    assert "metrics[builtin].fast.settings.seconds: 2.0  ≠  5.0" in str(err.value)
    assert [d.field for d in check_comparable(base, slower, {"metrics"})] == ["metrics[builtin].fast.settings.seconds"]
    fewer = manifest(metrics={"builtin": [{"name": "resolved", "use": "resolved"}]})
    assert [(d.field, d.a) for d in check_comparable(base, fewer)] == [("metric_sets[builtin]", "['fast']")]


def test_a_builtin_metric_whose_module_changed_is_a_code_change_not_another_metric() -> None:
    def run(version: str) -> RunManifest:
        return manifest(code_version=version, metrics={"builtin": [
            {"name": "resolved", "source": "builtin", "version": f"0.1.0+sha256:{version}", "use": "resolved"}]})

    assert [d.field for d in check_comparable(run("abc"), run("def"))] == ["code_version"]
