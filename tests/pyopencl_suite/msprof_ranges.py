"""pytest plugin: every test's call inside an mstx range named by its node id.

    python3 -m pytest -p msprof_ranges ...   (this folder on PYTHONPATH)

Only the call is in the range, not the fixtures' setup and teardown, so a
range holds the device work of the test's own body. Outside msprof-record
the mstx module does nothing, so the suite runs as it does without it.
"""
import mstx
import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    rid = mstx.range_start(item.nodeid, None)
    try:
        yield
    finally:
        mstx.range_end(rid)
