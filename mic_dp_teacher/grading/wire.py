"""A safe wire format between the grader and a sandboxed student kernel.

Values cross the process boundary as JSON. NumPy arrays of numbers travel as ``np.save`` bytes and are
read back with ``allow_pickle=False``; pandas objects travel as their columns, index and dtype names.
Nothing is ever unpickled, and the decoder checks every node's type, so a student's kernel can send only
plain data. Objects the grader hands to the student's function that are not plain data (a callable, a
NumPy ``Generator``, an object with methods) are sent as *handles*: the sender keeps the object and the
other side gets a stand-in (see :mod:`mic_dp_teacher.grading.worker`).
"""

from __future__ import annotations

import base64
import io
import math
import numbers
from fractions import Fraction

import numpy as np
import pandas as pd

__all__ = ["WireError", "encode", "decode", "MAX_DEPTH", "MAX_ITEMS", "is_course_object", "course_class",
           "course_object", "course_exception"]

_NOT_SENT = ("mic_dp_teacher.grading", "mic_dp_helpers.checks")


def _course_path(kind: type) -> str | None:
    module = getattr(kind, "__module__", "") or ""
    if not module.startswith("mic_dp_helpers.") or module.startswith(_NOT_SENT):
        return None
    return f"{module}:{kind.__qualname__}"


def is_course_object(value) -> bool:
    """An instance of a class of the course package (not the grader's or the checks'), with a ``__dict__``.

    Parameters
    ----------
    value : object
        Any value.

    Returns
    -------
    bool
        Whether :func:`encode` sends it as a course object.
    """
    return (not isinstance(value, (type, BaseException)) and _course_path(type(value)) is not None
            and hasattr(value, "__dict__") and not hasattr(type(value), "__slots__"))


def course_class(path) -> type:
    """The course class named ``path`` ("mic_dp_helpers.accounting.ledger:PrivacyAccountant"), looked up, never imported.

    Parameters
    ----------
    path : str
        ``"module:qualname"`` of a class in an already imported course module.

    Returns
    -------
    type
        The class.

    Raises
    ------
    WireError
        If ``path`` is malformed or names no class of an imported course module.
    """
    import sys

    if not isinstance(path, str) or ":" not in path:
        raise WireError("bad class name")
    module_name, _, qualname = path.partition(":")
    module = sys.modules.get(module_name)
    if module is None or not module_name.startswith("mic_dp_helpers.") or module_name.startswith(_NOT_SENT):
        raise WireError(f"unknown course module {module_name!r}")
    kind = module
    for part in qualname.split("."):
        if part.startswith("_") and part != qualname.split(".")[-1] or part.startswith("__"):
            raise WireError("bad class name")
        kind = getattr(kind, part, None)
    if not isinstance(kind, type) or _course_path(kind) != path:
        raise WireError(f"unknown course class {path!r}")
    return kind


def course_object(path, state):
    """Rebuild a course object from its class name and attribute dict, without running its code.

    Parameters
    ----------
    path : str
        ``"module:qualname"`` of the class.
    state : dict
        The object's ``__dict__``.

    Returns
    -------
    object
        A new instance (``__init__`` is not called).

    Raises
    ------
    WireError
        If the class cannot be rebuilt this way or ``state`` is malformed.
    """
    kind = course_class(path)
    if issubclass(kind, BaseException) or hasattr(kind, "__slots__"):
        raise WireError(f"{path} cannot be rebuilt")
    if not isinstance(state, dict) or not all(isinstance(k, str) for k in state):
        raise WireError("bad object state")
    obj = kind.__new__(kind)
    obj.__dict__.update(state)
    return obj


def course_exception(path, message: str, state) -> BaseException | None:
    """An exception of a course class (e.g. BudgetExceededError) with ``message``, or None if unknown.

    Parameters
    ----------
    path : str
        ``"module:qualname"`` of the exception class.
    message : str
        The exception's message.
    state : dict
        Attributes to set on it.

    Returns
    -------
    BaseException or None
        The rebuilt exception, or None if ``path`` names no course exception.
    """
    try:
        kind = course_class(path)
    except WireError:
        return None
    if not issubclass(kind, Exception):
        return None
    error = kind.__new__(kind)
    Exception.__init__(error, message)
    if isinstance(state, dict) and all(isinstance(k, str) and not k.startswith("__") for k in state):
        error.__dict__.update(state)
    return error

MAX_DEPTH = 40
MAX_ITEMS = 5_000_000  # list elements, dict entries and object-array elements in one message


class WireError(ValueError):
    """A value that cannot be sent, or a message that does not follow the format."""


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _unb64(text) -> bytes:
    if not isinstance(text, str):
        raise WireError("binary data must be a base64 string")
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (ValueError, UnicodeError) as error:
        raise WireError(f"bad base64 data ({error})") from None


def _float(value: float) -> dict:
    return {"t": "float", "v": float(value).hex()}


class _Encoder:
    def __init__(self, handle=None):
        self.handle = handle  # called for values that are not plain data; returns a JSON node or raises
        self.items = 0

    def count(self, n: int) -> None:
        self.items += n
        if self.items > MAX_ITEMS:
            raise WireError(f"the value has more than {MAX_ITEMS} elements")

    def __call__(self, value, depth: int = 0):
        if depth > MAX_DEPTH:
            raise WireError(f"the value is nested more than {MAX_DEPTH} levels deep")
        d = depth + 1
        if value is None:
            return {"t": "none"}
        if isinstance(value, (bool, np.bool_)) and not isinstance(value, np.ndarray):
            if isinstance(value, np.bool_):
                return {"t": "np", "dtype": "bool", "v": bool(value)}
            return {"t": "bool", "v": bool(value)}
        if isinstance(value, np.generic):
            array = np.asarray(value)
            if array.dtype.hasobject:
                raise WireError("NumPy object scalars cannot be sent")
            return {"t": "npscalar", "b": _b64(_npy(array))}
        if isinstance(value, int):
            return {"t": "int", "v": str(int(value))}
        if isinstance(value, float):
            return _float(value)
        if isinstance(value, Fraction):  # the ledger adds epsilons exactly, as fractions
            return {"t": "fraction", "n": str(value.numerator), "d": str(value.denominator)}
        if isinstance(value, complex):
            return {"t": "complex", "re": float(value.real).hex(), "im": float(value.imag).hex()}
        if isinstance(value, str):
            return {"t": "str", "v": str(value)}
        if isinstance(value, (bytes, bytearray)):
            return {"t": "bytes", "v": _b64(bytes(value))}
        if isinstance(value, (list, tuple, set, frozenset)):
            self.count(len(value))
            kind = {list: "list", tuple: "tuple", set: "set", frozenset: "frozenset"}
            name = next((k for t, k in kind.items() if isinstance(value, t)), "list")
            return {"t": name, "v": [self(item, d) for item in value]}
        if isinstance(value, dict):
            self.count(len(value))
            return {"t": "dict", "v": [[self(k, d), self(v, d)] for k, v in value.items()]}
        if isinstance(value, np.ndarray):
            return self.array(value, d)
        if isinstance(value, pd.DataFrame):
            columns = [self.series_values(value.iloc[:, j], d) for j in range(value.shape[1])]
            return {"t": "df", "columns": self.index(value.columns, d), "index": self.index(value.index, d), "data": columns}
        if isinstance(value, pd.Series):
            return {"t": "series", "name": self(value.name, d), "index": self.index(value.index, d),
                    "data": self.series_values(value, d)}
        if isinstance(value, pd.Index):
            return self.index(value, d)
        if self.handle is not None:
            node = self.handle(value)
            if node is not None:
                return node
        if is_course_object(value):
            return {"t": "course", "cls": _course_path(type(value)), "state": self(dict(vars(value)), d)}
        raise WireError(f"a {type(value).__name__} cannot be sent; use numbers, strings, lists, dicts, "
                        "NumPy arrays or pandas objects")

    def array(self, value: np.ndarray, d: int) -> dict:
        if value.dtype.hasobject:
            self.count(value.size)
            flat = value.reshape(-1).tolist()
            missing = [i for i, x in enumerate(flat) if type(x) is not str]
            if all(flat[i] is None or (type(flat[i]) is float and flat[i] != flat[i]) for i in missing):
                # text columns, the common case, travel as a JSON list of strings
                return {"t": "strs", "shape": list(value.shape), "v": [None if type(x) is not str else x for x in flat],
                        "none": [i for i in missing if flat[i] is None], "nan": [i for i in missing if flat[i] is not None]}
            return {"t": "objarray", "shape": list(value.shape), "v": [self(item, d) for item in value.reshape(-1)]}
        if value.dtype.kind not in "biufcmMSU":
            raise WireError(f"arrays of dtype {value.dtype} cannot be sent")
        self.count(value.size)
        return {"t": "array", "b": _b64(_npy(value))}

    def series_values(self, series: pd.Series, d: int) -> dict:
        dtype = str(series.dtype)
        values = series.to_numpy()
        if isinstance(series.dtype, np.dtype) and not series.dtype.hasobject:
            return {"dtype": dtype, "values": self.array(values, d)}
        return {"dtype": dtype, "values": self.array(np.asarray(values, dtype=object), d)}

    def index(self, index: pd.Index, d: int) -> dict:
        if isinstance(index, pd.RangeIndex):
            return {"t": "range", "start": index.start, "stop": index.stop, "step": index.step, "name": self(index.name, d)}
        if isinstance(index, pd.MultiIndex):
            return {"t": "multiindex", "v": self(list(index), d), "names": self(list(index.names), d)}
        return {"t": "index", "name": self(index.name, d), "data": self.series_values(index.to_series(), d)}


def _npy(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, np.ascontiguousarray(array) if array.ndim else array, allow_pickle=False)
    return buffer.getvalue()


def encode(value, handle=None):
    """Return ``value`` as a JSON-ready tree; ``handle(obj)`` encodes what is not plain data (or raises).

    Parameters
    ----------
    value : object
        Plain data, NumPy values, pandas objects or course objects.
    handle : callable, optional
        Encodes what is not plain data.

    Returns
    -------
    object
        A JSON-ready tree.

    Examples
    --------
    >>> decode(encode({"a": (1, 2.5)}))
    {'a': (1, 2.5)}
    """
    return _Encoder(handle)(value)


class _Decoder:
    def __init__(self, handle=None):
        self.handle = handle
        self.items = 0

    def count(self, n: int) -> None:
        self.items += n
        if self.items > MAX_ITEMS:
            raise WireError(f"the message has more than {MAX_ITEMS} elements")

    def __call__(self, node, depth: int = 0):
        if depth > MAX_DEPTH:
            raise WireError("the message is nested too deeply")
        if not isinstance(node, dict) or not isinstance(node.get("t"), str):
            raise WireError("every value must be an object with a type tag")
        d = depth + 1
        kind = node["t"]
        value = node.get("v")
        if kind == "none":
            return None
        if kind == "bool":
            return _typed(value, bool)
        if kind == "int":
            text = _typed(value, str)
            if len(text) > 5000:
                raise WireError("integer too long")
            try:
                return int(text)
            except ValueError:
                raise WireError("bad integer") from None
        if kind == "float":
            return _hexfloat(value)
        if kind == "fraction":
            parts = [_typed(node.get(key), str) for key in ("n", "d")]
            if any(len(text) > 5000 for text in parts):
                raise WireError("fraction too long")
            try:
                return Fraction(int(parts[0]), int(parts[1]))
            except (ValueError, ZeroDivisionError):
                raise WireError("bad fraction") from None
        if kind == "complex":
            return complex(_hexfloat(node.get("re")), _hexfloat(node.get("im")))
        if kind == "str":
            return _typed(value, str)
        if kind == "bytes":
            return _unb64(value)
        if kind in ("list", "tuple", "set", "frozenset"):
            items = _typed(value, list)
            self.count(len(items))
            decoded = [self(item, d) for item in items]
            return {"list": list, "tuple": tuple, "set": set, "frozenset": frozenset}[kind](decoded)
        if kind == "dict":
            pairs = _typed(value, list)
            self.count(len(pairs))
            out = {}
            for pair in pairs:
                if not isinstance(pair, list) or len(pair) != 2:
                    raise WireError("dict entries must be [key, value] pairs")
                key = self(pair[0], d)
                try:
                    out[key] = self(pair[1], d)
                except TypeError:
                    raise WireError("unhashable dict key") from None
            return out
        if kind == "np":
            return np.bool_(_typed(value, bool))
        if kind == "npscalar":
            array = _load(node.get("b"))
            if array.ndim != 0:
                raise WireError("a NumPy scalar must be 0-dimensional")
            return array[()]
        if kind in ("array", "objarray", "strs"):
            return self.array(node, d)
        if kind == "df":
            columns = self.index(node.get("columns"), d)
            index = self.index(node.get("index"), d)
            data = _typed(node.get("data"), list)
            if len(data) != len(columns):
                raise WireError("a DataFrame needs one data entry per column")
            series = [self.series_values(entry, d) for entry in data]
            if any(len(s) != len(index) for s in series):
                raise WireError("every DataFrame column must be as long as the index")
            frame = pd.DataFrame({j: s for j, s in enumerate(series)}, index=index) if series else pd.DataFrame(index=index)
            frame.columns = columns
            return frame
        if kind == "series":
            values = self.series_values(node.get("data"), d)
            index = self.index(node.get("index"), d)
            if len(values) != len(index):
                raise WireError("a Series must be as long as its index")
            return pd.Series(values, index=index, name=_hashable(self(node.get("name"), d)))
        if kind in ("range", "index", "multiindex"):
            return self.index(node, d)
        if kind == "course" and "k" not in node:
            return course_object(node.get("cls"), self(node.get("state"), d))
        if self.handle is not None:
            return self.handle(node)
        raise WireError(f"unknown value type {kind!r}")

    def array(self, node: dict, d: int) -> np.ndarray:
        if node.get("t") == "array":
            array = _load(node.get("b"))
            self.count(array.size)
            return array
        if node.get("t") == "strs":
            shape, items = _typed(node.get("shape"), list), _typed(node.get("v"), list)
            self.count(len(items))
            if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in shape) or math.prod(shape) != len(items):
                raise WireError("bad text array shape")
            if not all(x is None or isinstance(x, str) for x in items):
                raise WireError("a text array holds only strings")
            out = np.empty(len(items), dtype=object)
            out[:] = items
            for key, fill in (("nan", float("nan")), ("none", None)):
                for i in _typed(node.get(key, []), list):
                    if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(items) or items[i] is not None:
                        raise WireError("bad missing-value index")
                    out[i] = fill
            return out.reshape(shape)
        if node.get("t") != "objarray":
            raise WireError("expected an array")
        shape = _typed(node.get("shape"), list)
        if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in shape):
            raise WireError("bad array shape")
        items = _typed(node.get("v"), list)
        self.count(len(items))
        if math.prod(shape) != len(items):
            raise WireError("array shape does not match its elements")
        out = np.empty(len(items), dtype=object)
        for position, item in enumerate(items):
            out[position] = self(item, d)
        return out.reshape(shape)

    def series_values(self, entry, d: int):
        if not isinstance(entry, dict):
            raise WireError("bad column")
        dtype = _typed(entry.get("dtype"), str)
        values = self.array(_typed(entry.get("values"), dict), d)
        if values.ndim != 1:
            raise WireError("a column must be one-dimensional")
        try:
            target = pd.api.types.pandas_dtype(dtype)
        except (TypeError, ValueError):
            target = None
        if target is not None and values.dtype != target:
            try:
                return pd.array(values, dtype=target)
            except (TypeError, ValueError):
                return values
        return values

    def index(self, node, d: int) -> pd.Index:
        if not isinstance(node, dict):
            raise WireError("bad index")
        kind = node.get("t")
        if kind == "range":
            start, stop, step = (node.get(k) for k in ("start", "stop", "step"))
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in (start, stop, step)) or step == 0:
                raise WireError("bad range index")
            if abs(stop - start) // abs(step) > MAX_ITEMS:
                raise WireError("range index too long")
            return pd.RangeIndex(start, stop, step, name=_hashable(self(node.get("name"), d)))
        if kind == "multiindex":
            tuples = self(node.get("v"), d)
            names = self(node.get("names"), d)
            if not isinstance(tuples, list) or not all(isinstance(t, tuple) for t in tuples) or not isinstance(names, list):
                raise WireError("bad MultiIndex")
            return pd.MultiIndex.from_tuples(tuples, names=names) if tuples else pd.MultiIndex.from_arrays([[]] * len(names), names=names)
        if kind == "index":
            values = self.series_values(node.get("data"), d)
            return pd.Index(values, name=_hashable(self(node.get("name"), d)))
        raise WireError("expected an index")


def _typed(value, kind):
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise WireError(f"expected a {kind.__name__}")
    return value


def _hashable(value):
    try:
        hash(value)
    except TypeError:
        raise WireError("names must be hashable") from None
    return value


def _hexfloat(text) -> float:
    try:
        return float.fromhex(_typed(text, str))
    except ValueError:
        raise WireError("bad float") from None


def _load(text) -> np.ndarray:
    data = _unb64(text)
    try:
        array = np.load(io.BytesIO(data), allow_pickle=False)
    except Exception as error:  # a malformed .npy header or an object array
        raise WireError(f"bad array data ({type(error).__name__})") from None
    if not isinstance(array, np.ndarray) or array.dtype.hasobject:
        raise WireError("bad array data")
    return array


def decode(node, handle=None):
    """Rebuild a value from :func:`encode`'s tree, checking every node; ``handle(node)`` decodes handles.

    Parameters
    ----------
    node : object
        A tree from :func:`encode` (as read from JSON).
    handle : callable, optional
        Decodes handle nodes.

    Returns
    -------
    object
        The value.
    """
    return _Decoder(handle)(node)


def is_plain_number(value) -> bool:
    """True for ints and floats (not bools).

    Parameters
    ----------
    value : object
        Any value.

    Returns
    -------
    bool
        Whether ``value`` is a real number and not a boolean.

    Examples
    --------
    >>> is_plain_number(2.5), is_plain_number(True)
    (True, False)
    """
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))
