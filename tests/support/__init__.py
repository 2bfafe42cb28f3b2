"""Helpers the test suites share; imported as ``tests.support`` (pytest.ini puts the repo root on sys.path)."""
