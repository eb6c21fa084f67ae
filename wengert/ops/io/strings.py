"""String tensors: the `tf.strings` basics, over object arrays of `bytes` (the tf.string dtype).

Each op works element by element in Python (strings have no NumPy kernels worth the name):
as_string (numbers to text, "%f"-style for floats as TensorFlow writes them, "true"/"false"),
join (elementwise concatenation with a separator, broadcasting scalars), length (bytes, or
UTF-8 characters), lower/upper (ASCII, as TensorFlow), strip, the kernels of split (on
whitespace or a separator) and bytes_split (a vector of strings -> (pieces, row_splits); the
ragged results are built in ops/ragged/strings.py), to_number,
format ("{}" placeholders filled with tensors printed as tf.print does), regex_full_match,
regex_replace, reduce_join (join along an axis). Text is UTF-8; Python `str` inputs are encoded.

Strings are not differentiable: no op here has a gradient, and a GradientTape refuses to watch a
string tensor (autodiff/tape.py).
"""
import re

import numpy as np

from ...framework import dispatch, dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.op_dtype_constraints import check_fixed_argument, fixed_dtype_error
from ...framework.registry import defop
from ...framework.static_value import static_value
from ...framework.tensor import constant, convert_to_tensor, string_array
from ...framework.tensor_shape import TensorShape
from .. import shape_rules
from ..array_ops import concat, stack
from ..creation_ops import range as range_, shape as shape_of
from ..indexing_ops import gather
from ..reduce_ops import reduce_max
from ..sort_ops import searchsorted
from ..shape_rules import axis_int, axis_tuple
from .printing import format_value

__all__ = ["as_string", "join", "length", "lower", "upper", "strip", "split_vector",
           "bytes_split_vector", "to_number", "format", "regex_full_match", "regex_replace",
           "reduce_join"]


def _map(fn, array, out_dtype=object):
    """fn applied to every element of an object array, as an array of `out_dtype`."""
    flat = [fn(v) for v in np.asarray(array, dtype=object).reshape(-1)]
    out = np.empty(len(flat), dtype=out_dtype)
    out[:] = flat
    return out.reshape(np.shape(array))


def _strings(x, what):
    x = convert_to_tensor(x, dtype_hint=dtypes.string)
    if x.dtype is not dtypes.string:  # TensorFlow's string ops take string only
        raise fixed_dtype_error(what, "input", x, "string")
    return x


def _same_shape(x, *, dtype=None, **_):
    return x.shape, dtypes.string if dtype is None else dtypes.as_dtype(dtype)


def _string_rule(what):
    def rule(x, **attrs):
        if x.dtype is not dtypes.string:
            raise InvalidArgumentError(f"{what}: input must be a string tensor, got "
                                       f"{x.dtype.name}.")
        return _same_shape(x, **attrs)
    return rule


def _simple(op_type, fn, out_dtype=dtypes.string, raw=None):
    return defop(op_type, lambda x, **attrs: _map(lambda v: fn(v, **attrs), x,
                                                  out_dtype.as_numpy_dtype),
                 shape=lambda x, **attrs: (_string_rule(op_type)(x)[0], out_dtype), grad=None,
                 raw=raw)


def _text(value):
    """A string attribute given as str, bytes or a scalar string tensor (tf.raw_ops' pattern;
    in a graph, a tensor whose value is known while building: a Const of a loaded function)."""
    if hasattr(value, "numpy"):
        known = static_value(value)
        value = known if known is not None else value.numpy()
    value = value.item() if isinstance(value, np.ndarray) else value
    return value.decode() if isinstance(value, bytes) else value


# -- elementwise ------------------------------------------------------------------------------------
def _as_string_one(v, precision, scientific, shortest, width, fill):
    """printf's "%<fill><width>.<precision><f|e|g|d>" of one value, as TensorFlow's AsString
    kernel formats it; bools are "true" and "false"."""
    if isinstance(v, (bool, np.bool_)):
        return b"true" if v else b"false"
    if isinstance(v, (np.floating, float)):
        kind, v = "g" if shortest else "e" if scientific else "f", float(v)
    elif isinstance(v, (np.integer, int)):
        kind, v = "d", int(v)
    else:
        return str(v).encode()
    spec = fill + (str(width) if width > -1 else "") + (f".{precision}" if precision > -1 else "")
    return (f"%{spec}{kind}" % v).encode()


def _check_as_string(dtype, precision, scientific, shortest, fill):
    """TensorFlow's AsString refusals, before anything runs."""
    if fill and fill[0] not in " +-0#" or len(fill) > 1:
        raise InvalidArgumentError(f'as_string: Fill argument not supported: "{fill}" (use one '
                                   f"of ' ', '+', '-', '0', '#').")
    if dtype.is_floating:
        if scientific and shortest:
            raise InvalidArgumentError("as_string: Cannot select both scientific and shortest "
                                       "notation.")
    elif scientific or shortest:
        raise InvalidArgumentError(f"as_string: scientific and shortest format not supported "
                                   f"for datatype {dtype.name}.")
    elif precision > -1:
        raise InvalidArgumentError(f"as_string: precision not supported for datatype "
                                   f"{dtype.name}.")


AS_STRING = defop("AsString", lambda x, **a: _map(lambda v: _as_string_one(v, **a), x),
                  shape=lambda x, **a: (x.shape, dtypes.string), grad=None,
                  raw=lambda input, precision=-1, scientific=False, shortest=False, width=-1,
                  fill="", name=None: as_string(input, precision, scientific, shortest, width,
                                                fill, name))
STRING_LENGTH = _simple("StringLength", lambda v, unit: len(
    v.decode("utf-8", "replace")) if unit == "UTF8_CHAR" else len(v), dtypes.int32,
    raw=lambda input, unit="BYTE", name=None: length(input, unit, name))
STRING_LOWER = _simple("StringLower", lambda v, encoding="": v.lower(),
                       raw=lambda input, encoding="", name=None: lower(input, encoding, name))
STRING_UPPER = _simple("StringUpper", lambda v, encoding="": v.upper(),
                       raw=lambda input, encoding="", name=None: upper(input, encoding, name))
STRING_STRIP = _simple("StringStrip", lambda v: v.strip(),
                       raw=lambda input, name=None: strip(input, name))
REGEX_FULL_MATCH = _simple("RegexFullMatch", lambda v, pattern: re.fullmatch(
    pattern.encode(), v) is not None, dtypes.bool,
    raw=lambda input, pattern, name=None: regex_full_match(input, _text(pattern), name))
REGEX_REPLACE = _simple("RegexReplace", lambda v, pattern, rewrite, replace_global: re.sub(
    pattern.encode(), re.sub(rb"\\(\d)", rb"\\g<\1>", rewrite.encode()), v,
    count=0 if replace_global else 1),
    raw=lambda input, pattern, rewrite, replace_global=True, name=None: regex_replace(
        input, _text(pattern), _text(rewrite), replace_global, name))


def _to_number_one(v, out_type):
    kind = np.dtype(out_type).kind
    try:
        return int(v) if kind in "iu" else float(v)
    except ValueError:
        raise InvalidArgumentError(f"StringToNumber could not correctly convert string: "
                                   f"{v.decode('utf-8', 'replace')}") from None


STRING_TO_NUMBER = defop(
    "StringToNumber", lambda x, out_type: _map(lambda v: _to_number_one(v, out_type), x,
                                               out_type),
    shape=lambda x, out_type: (_string_rule("StringToNumber")(x)[0], dtypes.as_dtype(out_type)),
    grad=None, raw=lambda string_tensor, out_type=dtypes.float32, name=None: to_number(
        string_tensor, out_type, name))


def _join_kernel(*arrays, separator):
    parts = np.broadcast_arrays(*[np.asarray(a, dtype=object) for a in arrays])
    out = np.empty(parts[0].shape, dtype=object)
    sep = separator.encode()
    for index in np.ndindex(out.shape):
        out[index] = sep.join(p[index] for p in parts)
    return out


STRING_JOIN = defop("StringJoin", _join_kernel, grad=None, tf_inputs=("inputs",),
                    shape=lambda *xs, separator: (shape_rules.broadcast(*xs)[0] if len(xs) > 1
                                                  else xs[0].shape, dtypes.string),
                    raw=lambda inputs, separator="", name=None: join(inputs, separator, name))


def _reduce_join_kernel(x, *, axis, keepdims, separator):
    x = np.asarray(x, dtype=object)
    axes = tuple(range(x.ndim)) if axis is None else tuple(a % x.ndim for a in axis)
    moved = np.moveaxis(x, axes, range(x.ndim - len(axes), x.ndim))
    kept = moved.shape[:x.ndim - len(axes)]
    rows = moved.reshape(kept + (-1,))
    out = np.empty(kept, dtype=object)
    for index in np.ndindex(kept):
        out[index] = separator.encode().join(rows[index])
    if keepdims:
        out = out.reshape([1 if i in axes else d for i, d in enumerate(x.shape)])
    return out


def _reduce_join_rule(x, *, axis, keepdims, separator):
    if x.shape.rank is None:
        return TensorShape(None), dtypes.string
    axes = range(x.shape.rank) if axis is None else [a % x.shape.rank for a in axis]
    dims = [1 if i in axes else d for i, d in enumerate(x.shape.as_list())
            if keepdims or i not in axes]
    return TensorShape(dims), dtypes.string


REDUCE_JOIN = defop("ReduceJoin", _reduce_join_kernel, shape=_reduce_join_rule, grad=None,
                    raw=lambda inputs, reduction_indices, keep_dims=False, separator="",
                    name=None: reduce_join(inputs, reduction_indices, keep_dims, separator,
                                           name))


def _format_kernel(*arrays, template, placeholder, summarize):
    pieces = template.split(placeholder)
    if len(pieces) - 1 != len(arrays):
        raise InvalidArgumentError(f"StringFormat: the template has {len(pieces) - 1} "
                                   f"placeholders but {len(arrays)} tensors were given.")
    text = pieces[0] + "".join(format_value(a, summarize) + p for a, p in zip(arrays,
                                                                             pieces[1:]))
    return string_array(np.array(text, dtype=object))


STRING_FORMAT = defop("StringFormat", _format_kernel, grad=None,
                      shape=lambda *xs, **attrs: (TensorShape([]), dtypes.string),
                      raw=lambda inputs, template="%s", placeholder="%s", summarize=3,
                      name=None: format(template, inputs, placeholder, summarize, name))


def _split_whitespace(value, maxsplit):
    """TensorFlow's split on runs of whitespace: after `maxsplit` pieces the rest of the string
    (leading whitespace removed) is one more piece, even when empty; maxsplit 0 keeps the whole
    string."""
    if maxsplit == 0:
        return [value]
    pieces = value.split(None, maxsplit)
    return pieces + [b""] if len(pieces) == maxsplit else pieces


def _split_kernel(x, *, sep, maxsplit):
    """(pieces, row_splits) of a vector of strings."""
    def pieces(v):
        return _split_whitespace(v, maxsplit) if sep is None else v.split(sep.encode(),
                                                                           maxsplit)
    rows = [pieces(v) for v in np.asarray(x, dtype=object).reshape(-1)]
    values = [p for row in rows for p in row]
    splits = np.cumsum([0] + [len(r) for r in rows]).astype(np.int64)
    return string_array(np.array(values, dtype=object).reshape(-1)), splits


SPLIT_V2 = defop("StringSplitV2", _split_kernel, grad=None, num_outputs=2,
                 shape=lambda x, **a: [(TensorShape([None]), dtypes.string),
                                       (TensorShape([None]), dtypes.int64)],
                 raw=lambda input, sep, maxsplit=-1, name=None: _raw_split(
                     input, sep, maxsplit, name))


def _raw_split(input, sep, maxsplit, name):  # noqa: A002
    """tf.raw_ops.StringSplitV2: the strings of a vector split, as the (indices, values, dense
    shape) of a sparse [strings, pieces] tensor."""
    values, splits = execute(SPLIT_V2, (_strings(input, "StringSplitV2"),),
                             {"sep": _text(sep) or None, "maxsplit": int(maxsplit)}, name)
    lengths = splits[1:] - splits[:-1]
    rows = searchsorted(splits, range_(splits[-1], dtype=dtypes.int64), side="right",
                        out_type=dtypes.int64) - 1  # each piece's string, also in a graph
    columns = range_(shape_of(values, dtypes.int64)[0], dtype=dtypes.int64) - gather(splits, rows)
    width = reduce_max(concat([lengths, constant(np.zeros(1, np.int64))], 0))
    return (stack([rows, columns], 1), values,
            stack([shape_of(lengths, dtypes.int64)[0], width]))


def _bytes_split_kernel(x):
    if np.ndim(x) == 0:
        value = x[()] if isinstance(x, np.ndarray) else x
        return string_array(np.array([value[i:i + 1] for i in range(len(value))], dtype=object)
                            .reshape(-1)), np.array([0, len(value)], np.int64)
    rows = [[v[i:i + 1] for i in range(len(v))] for v in np.asarray(x, dtype=object).ravel()]
    values = np.array([p for row in rows for p in row], dtype=object).reshape(-1)
    return string_array(values), np.cumsum([0] + [len(r) for r in rows]).astype(np.int64)


BYTES_SPLIT = defop("StringBytesSplit", _bytes_split_kernel, grad=None, num_outputs=2,
                    shape=lambda x: [(TensorShape([None]), dtypes.string),
                                     (TensorShape([None]), dtypes.int64)])


# -- public functions ---------------------------------------------------------------------------------
def as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill="",  # noqa: A002
              name=None):
    """Numbers (or bools) as strings: floats with 6 decimals by default."""
    ragged = dispatch.elementwise(lambda x: as_string(x, precision, scientific, shortest, width,
                                                     fill, name), input)
    if ragged is not None:
        return ragged
    x = convert_to_tensor(input)
    _check_as_string(x.dtype, int(precision), scientific, shortest, fill)
    return execute(AS_STRING, (x,), {"precision": int(precision), "scientific": scientific,
                                     "shortest": shortest, "width": int(width), "fill": fill},
                   name)


def join(inputs, separator="", name=None):
    """Elementwise concatenation of string tensors (scalars broadcast)."""
    ragged = dispatch.elementwise(lambda *xs: join(xs, separator, name), *inputs)
    if ragged is not None:
        return ragged
    return execute(STRING_JOIN, tuple(_strings(x, "strings.join") for x in inputs),
                   {"separator": separator}, name)


def length(input, unit="BYTE", name=None):  # noqa: A002
    """The length of each string, in bytes or (unit="UTF8_CHAR") in characters."""
    ragged = dispatch.elementwise(lambda x: length(x, unit, name), input)
    if ragged is not None:
        return ragged
    if unit not in ("BYTE", "UTF8_CHAR"):
        raise ValueError(f"strings.length: unit must be 'BYTE' or 'UTF8_CHAR', got {unit!r}.")
    return execute(STRING_LENGTH, (_strings(input, "strings.length"),), {"unit": unit}, name)


def lower(input, encoding="", name=None):  # noqa: A002
    ragged = dispatch.elementwise(lambda x: lower(x, encoding, name), input)
    if ragged is not None:
        return ragged
    return execute(STRING_LOWER, (_strings(input, "strings.lower"),), {"encoding": encoding},
                   name)


def upper(input, encoding="", name=None):  # noqa: A002
    ragged = dispatch.elementwise(lambda x: upper(x, encoding, name), input)
    if ragged is not None:
        return ragged
    return execute(STRING_UPPER, (_strings(input, "strings.upper"),), {"encoding": encoding},
                   name)


def strip(input, name=None):  # noqa: A002
    """Leading and trailing whitespace removed."""
    ragged = dispatch.elementwise(lambda x: strip(x, name), input)
    if ragged is not None:
        return ragged
    return execute(STRING_STRIP, (_strings(input, "strings.strip"),), {}, name)


def to_number(string_tensor, out_type=dtypes.float32, name=None):
    """Parse each string as a number of `out_type` (InvalidArgumentError for text that is
    not one)."""
    ragged = dispatch.elementwise(lambda x: to_number(x, out_type, name), string_tensor)
    if ragged is not None:
        return ragged
    return execute(STRING_TO_NUMBER, (_strings(string_tensor, "strings.to_number"),),
                   {"out_type": dtypes.as_dtype(out_type).as_numpy_dtype}, name)


def regex_full_match(input, pattern, name=None):  # noqa: A002
    """Whether each whole string matches the regular expression `pattern`."""
    ragged = dispatch.elementwise(lambda x: regex_full_match(x, pattern, name), input)
    if ragged is not None:
        return ragged
    return execute(REGEX_FULL_MATCH, (_strings(input, "strings.regex_full_match"),),
                   {"pattern": str(pattern)}, name)


def regex_replace(input, pattern, rewrite, replace_global=True, name=None):  # noqa: A002
    """Replace matches of `pattern` by `rewrite` (\\1 refers to a group)."""
    ragged = dispatch.elementwise(lambda x: regex_replace(x, pattern, rewrite,
                                                         replace_global, name), input)
    if ragged is not None:
        return ragged
    return execute(REGEX_REPLACE, (_strings(input, "strings.regex_replace"),),
                   {"pattern": str(pattern), "rewrite": str(rewrite),
                    "replace_global": bool(replace_global)}, name)


@dispatch.dispatchable
def reduce_join(inputs, axis=None, keepdims=False, separator="", name=None):
    """Join the strings along `axis` (all axes when None); a RaggedTensor's as
    ops/ragged/reductions.py reduces."""
    check_fixed_argument("ReduceJoin", "reduction_indices", axis)  # int32 only, as TF's
    if axis is not None:
        axis = axis_tuple(axis, "reduce_join: axis")
    return execute(REDUCE_JOIN, (_strings(inputs, "strings.reduce_join"),),
                   {"axis": axis, "keepdims": bool(keepdims), "separator": separator}, name)


def format(template, inputs, placeholder="{}", summarize=3, name=None):  # noqa: A001
    """`template` with each `placeholder` replaced by a tensor of `inputs`, printed as
    tf.print prints it."""
    inputs = inputs if isinstance(inputs, (list, tuple)) else [inputs]
    return execute(STRING_FORMAT, tuple(convert_to_tensor(x) for x in inputs),
                   {"template": template, "placeholder": placeholder,
                    "summarize": summarize}, name)


def split_vector(strings, attrs, name=None):
    """(pieces, row_splits) of a vector of strings split as `attrs` say (sep, maxsplit): the
    parts of the ragged tensor tf.strings.split returns (ops/ragged/strings.py)."""
    attrs = {"sep": _text(attrs["sep"]) or None, "maxsplit": int(attrs["maxsplit"])}
    return execute(SPLIT_V2, (_strings(strings, "strings.split"),), attrs, name)


def bytes_split_vector(strings, name=None):
    """(bytes, row_splits) of a vector of strings: each string's single bytes."""
    return execute(BYTES_SPLIT, (_strings(strings, "strings.bytes_split"),), {}, name)
