"""Fixtures for the Passages engine tests (the helpers live in ``helpers``)."""

from __future__ import annotations

import pytest

from tests.unit.passages.helpers import Scene


@pytest.fixture
def scene() -> Scene:
    return Scene()
