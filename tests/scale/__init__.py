"""Scale tests: real servers started by conftest.py through scripts/cluster."""
