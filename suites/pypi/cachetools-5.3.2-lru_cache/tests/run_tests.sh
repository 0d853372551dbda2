#!/usr/bin/env bash
# Grade a repository task: the pristine tests and pytest configuration, then pytest with a junit XML report.
# The verdict is read from that report and this script's exit code (pytest's), never from printed lines.
cd /workspace || exit 2
report=${NIGHTSHIFT_JUNIT:?the grader names the junit report path in NIGHTSHIFT_JUNIT}
rm -f "$report"
/opt/venv/bin/python -I /grader/tests/restore_tests.py /grader/tests/pristine /workspace || exit 3
exec /opt/venv/bin/python -I -B -m pytest -c /grader/tests/config/pytest.ini --rootdir /workspace \
    --confcutdir /workspace -p no:cacheprovider -q --junitxml "$report" \
    -o junit_family=xunit1 tests
