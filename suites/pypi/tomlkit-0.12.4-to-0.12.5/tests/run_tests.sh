#!/usr/bin/env bash
# Grade a repository task: the pristine tests and pytest configuration, then pytest with a junit XML report.
# The verdict is read from that report and this script's exit code (pytest's), never from printed lines;
# guarded_pytest.py voids both when the code under test tampered with the run (docs/SUITES.md).
cd /workspace || exit 2
report=${NIGHTSHIFT_JUNIT:?the grader names the junit report path in NIGHTSHIFT_JUNIT}
unset NIGHTSHIFT_JUNIT  # the code under test must not learn where the report goes
rm -f "$report"
/opt/venv/bin/python -I /grader/tests/restore_tests.py /grader/tests/pristine /workspace || exit 3
exec /opt/venv/bin/python -I -B /grader/tests/guarded_pytest.py -c /grader/tests/config/pytest.ini --rootdir /workspace \
    --confcutdir /workspace -p no:cacheprovider -q \
    -o junit_family=xunit1 --continue-on-collection-errors tests 3<<<"$report"
