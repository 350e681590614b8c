"""Argument checks and converters shared by the helpers: each raises an error naming the argument and what is
allowed.

One module per kind of argument; every name is importable from ``mic_dp_helpers._validation``:

* :mod:`~mic_dp_helpers._validation.scalars`: positive, finite and bounded floats, integers, sizes,
  probabilities and True/False switches;
* :mod:`~mic_dp_helpers._validation.text`: text, choices among named options, and the short description
  of a value that every message uses;
* :mod:`~mic_dp_helpers._validation.arrays`: numbers only, finite, one value per row, per-column bounds,
  class labels;
* :mod:`~mic_dp_helpers._validation.frames`: DataFrames, column names and lists of columns;
* :mod:`~mic_dp_helpers._validation.randomness`: sources of randomness (Scientific Python's SPEC 7):
  ``rng`` as None, an int seed or a Generator.
"""

from __future__ import annotations

from mic_dp_helpers._validation.scalars import (
    check_positive_float,
    check_in_float_range,
    check_int_at_least,
    MAX_VALUES,
    check_size,
    check_probability,
    check_finite_float,
    check_flag,
)
from mic_dp_helpers._validation.text import (
    ChoiceTypeError,
    describe,
    check_text,
    check_choice,
)
from mic_dp_helpers._validation.arrays import (
    ndim_of,
    check_positive_floats,
    value_kind,
    is_boolean,
    as_number_array,
    check_finite_array,
    check_finite_vector,
    check_finite_matrix,
    check_column_bounds,
    check_labels,
)
from mic_dp_helpers._validation.frames import (
    ColumnError,
    check_column_name,
    check_dataframe,
    check_column_list,
    check_numeric_frame,
)
from mic_dp_helpers._validation.randomness import (
    as_generator,
    as_seed,
)

__all__ = [
    "check_positive_float",
    "check_in_float_range",
    "check_int_at_least",
    "MAX_VALUES",
    "check_size",
    "check_probability",
    "check_finite_float",
    "check_flag",
    "ChoiceTypeError",
    "describe",
    "check_text",
    "check_choice",
    "ndim_of",
    "check_positive_floats",
    "value_kind",
    "is_boolean",
    "as_number_array",
    "check_finite_array",
    "check_finite_vector",
    "check_finite_matrix",
    "check_column_bounds",
    "check_labels",
    "ColumnError",
    "check_column_name",
    "check_dataframe",
    "check_column_list",
    "check_numeric_frame",
    "as_generator",
    "as_seed",
]
