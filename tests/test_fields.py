"""The one field validator: types (bool is no number, floats are finite), ranges,
unknown and missing fields, and messages naming where."""
from __future__ import annotations

import math

import numpy as np
import pytest

from balance3d.fields import FieldError, Spec, check, check_object


@pytest.mark.parametrize("value, spec, message", [
    (True, Spec("n", int), "x: must be an integer, got true"),
    (1.5, Spec("n", int), "x: must be an integer, got 1.5"),
    (math.nan, Spec("n", float), "x: must be a finite number, got NaN"),
    (math.inf, Spec("n", float), "x: must be a finite number, got Infinity"),
    (10 ** 400, Spec("n", float), "x: must be a finite number, got 1" + "0" * 56 + "..."),
    (np.float64("nan"), Spec("n", float), "x: must be a finite number, got NaN"),
    (np.bool_(True), Spec("n", int), "x: must be an integer, got np.True_"),
    (np.float64(1.0), Spec("n", int), "x: must be an integer, got 1.0"),
    ("1", Spec("n", (float, type(None))), 'x: must be a number or null, got "1"'),
    (0, Spec("n", int, minimum=0, exclusive=True), "x: must be > 0, got 0"),
    (-0.5, Spec("n", float, minimum=0), "x: must be >= 0, got -0.5"),
    ("a" * 100, Spec("n", int), 'x: must be an integer, got "' + "a" * 56 + "..."),
    ("A\nB", Spec("n", str, line=True),
     'x: must be one line of printable text, got "A\\nB" (character U+000A)'),
    ("A\u202eB", Spec("n", (str, type(None)), line=True),
     'x: must be one line of printable text, got "A\\u202eB" (character U+202E)'),
])
def test_check_refuses_with_one_line_naming_where(value, spec, message):
    with pytest.raises(FieldError) as err:
        check(value, spec, "x")
    assert str(err.value) == message and "\n" not in str(err.value)
    assert err.value.where == "x"


def test_check_accepts_and_converts_whole_numbers_for_numbers():
    assert check(3, Spec("n", float), "x") == 3.0 and isinstance(check(3, Spec("n", float), "x"),
                                                                 float)
    assert check(0, Spec("n", int, minimum=0), "x") == 0
    assert check(None, Spec("n", (int, type(None))), "x") is None
    assert check({"any": 1}, Spec("n", object), "x") == {"any": 1}
    assert check(False, Spec("n", bool), "x") is False
    assert check("A\nB", Spec("n", str), "x") == "A\nB"          # only line=True refuses
    assert check("Zo\u00eb", Spec("n", str, line=True), "x") == "Zo\u00eb"


def test_check_object_names_unknown_and_missing_fields_and_nested_paths():
    specs = (Spec("a", int), Spec("b", str, required=False))
    assert check_object({"a": 1}, specs, "top") == {"a": 1}
    with pytest.raises(FieldError, match=r"^top: unknown field 'c'$"):
        check_object({"a": 1, "c": 2}, specs, "top")
    with pytest.raises(FieldError, match=r"^top: missing field 'a'$"):
        check_object({"b": "x"}, specs, "top")
    with pytest.raises(FieldError, match=r"^top\.b: must be a string, got 2$"):
        check_object({"a": 1, "b": 2}, specs, "top")
    with pytest.raises(FieldError, match=r"^b: must be a string"):
        check_object({"a": 1, "b": 2}, specs, "", label="record")
    with pytest.raises(FieldError, match=r"^record: must be an object, got \[\]$"):
        check_object([], specs, "", label="record")


def test_numpy_numbers_count_as_numbers_and_come_back_as_python_ones():
    whole = check(np.int64(3), Spec("n", int), "x")
    assert whole == 3 and type(whole) is int
    real = check(np.float32(0.5), Spec("n", float), "x")
    assert real == 0.5 and type(real) is float
    assert type(check(np.int64(2), Spec("n", float), "x")) is float
