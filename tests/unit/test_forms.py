"""The one reading of each kind of form field every system's parsers share (games/forms.py):
each refusal worded by the system, a page that never refuses clamped instead."""

from __future__ import annotations

import pytest

from games.forms import bounded, flag, text, texts, value, whole, yes_no


class Refused(Exception):
    pass


def test_a_form_value_is_the_last_sent_as_django_reads_it() -> None:
    form = {"a": ["1", "2"], "b": []}
    assert value(form, "a") == "2" and value(form, "b", "x") == "x" and value(form, "c") == ""


def test_texts_reads_the_sent_text_fields_and_refuses_a_long_one_in_the_system_s_words() -> None:
    form = {"kind": [" melee "], "description": [""], "reason": ["x" * 5]}
    assert texts(form, ("kind", "description", "absent"), max_length=5, refuse=ValueError) == {"kind": "melee"}
    with pytest.raises(ValueError, match="^reason is too long$"):
        texts(form, ("reason",), max_length=4, refuse=lambda key: ValueError(f"{key} is too long"))


def test_one_text_field_is_stripped_and_refused_when_too_long() -> None:
    form = {"field": ["  health "], "long": ["abcdef"]}
    assert text(form, "field", max_length=6, refuse=Refused) == "health"
    assert text(form, "absent", max_length=6, refuse=Refused) == ""
    with pytest.raises(Refused, match="^long$"):
        text(form, "long", max_length=5, refuse=Refused)


@pytest.mark.parametrize(("sent", "read"), [(" 12 ", 12), ("-3", -3), ("", None), ("   ", None), (None, None)])
def test_a_whole_number_is_read_and_a_blank_is_none(sent: str | None, read: int | None) -> None:
    form = {} if sent is None else {"n": [sent]}
    assert whole(form, "n", refuse=Refused) == read


@pytest.mark.parametrize("sent", ["1.5", "twelve", "1e3", "0x10"])
def test_anything_else_is_refused_with_what_was_sent(sent: str) -> None:
    with pytest.raises(Refused) as refused:
        whole({"n": [f" {sent} "]}, "n", refuse=lambda raw: Refused(f"{raw!r} is not a whole number"))
    assert str(refused.value) == f"{sent!r} is not a whole number"


@pytest.mark.parametrize(("sent", "read"), [("7", 7), ("99", 10), ("-4", 0), ("x", 5), (None, 5)])
def test_a_page_that_never_refuses_clamps_or_falls_back(sent: str | None, read: int) -> None:
    form = {} if sent is None else {"n": [sent]}
    assert bounded(form, "n", 5, 0, 10) == read


def test_a_checkbox_and_a_yes_or_no() -> None:
    for sent in ("1", "on", "TRUE", " yes "):
        assert flag({"f": [sent]}, "f") is True and yes_no({"f": [sent]}, "f", refuse=Refused) is True
    for sent in ("0", "off", "false", "No"):
        assert flag({"f": [sent]}, "f") is False and yes_no({"f": [sent]}, "f", refuse=Refused) is False
    assert flag({}, "f") is False and yes_no({}, "f", refuse=Refused) is None
    with pytest.raises(Refused, match="^maybe$"):
        yes_no({"f": ["Maybe"]}, "f", refuse=Refused)
