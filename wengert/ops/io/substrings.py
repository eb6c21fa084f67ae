"""Substrings and string grouping, as TensorFlow computes them:

    Substr               input[pos : pos + len] per element (pos, len broadcast with input), in
                         bytes or (unit="UTF8_CHAR") characters; pos < 0 counts from the end;
                         |pos| beyond the string's length is InvalidArgumentError naming the
                         string and its index; len past the end stops at the end
    UnsortedSegmentJoin  the strings of each segment joined with `separator`, in input order
                         (an empty segment is ""), for segment ids in [0, num_segments)
    StringNGrams         each row's n-grams for every width in ngram_widths, the widths one
                         after another, tokens joined by `separator`; rows padded by
                         pad_width (-1: width - 1) tokens left_pad / right_pad first; a row
                         shorter than every width gives its whole padded row when
                         preserve_short_sequences, else nothing

Rows come as (values, row_splits); `ngrams` of a dense [..., n] tensor gives a dense
[..., count] tensor, as TensorFlow's does. None of these ops is differentiable.
"""
import numpy as np

from ...framework import dispatch, dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.registry import defop
from ...framework.tensor import convert_to_tensor, string_array
from ...framework.tensor_shape import TensorShape
from .. import shape_rules
from ..array_ops import concat
from ..creation_ops import range as range_, shape as shape_of
from ..math_ops import cast
from ..reduce_ops import reduce_prod
from ..reshape_ops import reshape

__all__ = ["ngrams", "ngram_rows", "substr", "unsorted_segment_join"]


# -- Substr -------------------------------------------------------------------------------------
def _substr_one(index, value, pos, length, unit):
    text = value.decode("utf-8") if unit == "UTF8_CHAR" else value
    size = len(text)
    if pos > size or pos < -size:
        raise InvalidArgumentError(f"Substr: pos {pos} out of range for string {value!r} at "
                                   f"index {index}")
    start = pos if pos >= 0 else size + pos
    piece = text[start:start + max(length, 0)]
    return piece.encode("utf-8") if unit == "UTF8_CHAR" else piece


def _substr_kernel(strings, pos, length, *, unit):
    strings, pos, length = np.broadcast_arrays(np.asarray(strings, dtype=object), pos, length)
    flat = [_substr_one(i, s, int(p), int(n), unit) for i, (s, p, n) in
            enumerate(zip(strings.reshape(-1), pos.reshape(-1), length.reshape(-1)))]
    out = np.empty(len(flat), dtype=object)
    out[:] = flat
    return string_array(out.reshape(strings.shape))


def _substr_rule(strings, pos, length, **attrs):
    shape = shape_rules.broadcast_shapes(shape_rules.broadcast_shapes(strings.shape, pos.shape),
                                         length.shape)
    return shape, dtypes.string


SUBSTR = defop("Substr", _substr_kernel, grad=None, shape=_substr_rule,
               tf_inputs=("input", "pos", "len"),
               raw=lambda input, pos, len, unit="BYTE", name=None: substr(input, pos, len,
                                                                        unit=unit, name=name))


def substr(input, pos, len, unit="BYTE", name=None):  # noqa: A002 (TensorFlow's names)
    """The substring of each string from `pos` of `len` bytes (unit="UTF8_CHAR": characters)."""
    ragged = dispatch.elementwise(lambda x, p, n: substr(x, p, n, unit, name), input, pos, len)
    if ragged is not None:
        return ragged
    if unit not in ("BYTE", "UTF8_CHAR"):
        raise ValueError(f"substr: unit must be 'BYTE' or 'UTF8_CHAR', got {unit!r}.")
    strings = convert_to_tensor(input, dtype_hint=dtypes.string)
    pos, length = convert_to_tensor(pos), convert_to_tensor(len, dtype=None)
    for value, what in ((pos, "pos"), (length, "len")):
        if not value.dtype.is_integer:
            raise TypeError(f"substr: {what} must be int32 or int64, got {value.dtype.name}.")
    return execute(SUBSTR, (strings, pos, length), {"unit": unit}, name)


# -- UnsortedSegmentJoin ------------------------------------------------------------------------
def _segment_join_kernel(strings, segment_ids, num_segments, *, separator):
    strings, segment_ids = np.asarray(strings, dtype=object), np.asarray(segment_ids)
    num_segments = int(num_segments)
    outer = segment_ids.shape
    groups = [[[] for _ in range(num_segments)] for _ in
              range(int(np.prod(strings.shape[len(outer):], dtype=np.int64)))]
    rows = strings.reshape(len(segment_ids.reshape(-1)), -1)
    for i, segment in enumerate(segment_ids.reshape(-1)):
        if not 0 <= segment < num_segments:
            raise InvalidArgumentError(f"UnsortedSegmentJoin: segment_ids[{i}] = {segment} is "
                                       f"not in [0, {num_segments}).")
        for j, value in enumerate(rows[i]):
            groups[j][segment].append(value)
    sep = separator.encode("utf-8")
    joined = np.empty((len(groups), num_segments), dtype=object)
    for j, group in enumerate(groups):
        for k, values in enumerate(group):
            joined[j, k] = sep.join(values)
    return string_array(joined.T.reshape((num_segments,) + strings.shape[len(outer):]))


def _segment_join_rule(strings, segment_ids, num_segments, **attrs):
    count = getattr(num_segments, "_value", None)
    inner = strings.shape[segment_ids.shape.rank:] if strings.shape.rank is not None and \
        segment_ids.shape.rank is not None else None
    if inner is None:
        return TensorShape(None), dtypes.string
    return TensorShape([None if count is None else int(count)] + list(inner)), dtypes.string


SEGMENT_JOIN = defop("UnsortedSegmentJoin", _segment_join_kernel, grad=None,
                     shape=_segment_join_rule,
                     raw=lambda inputs, segment_ids, num_segments, separator="", name=None:
                     unsorted_segment_join(inputs, segment_ids, num_segments, separator, name))


def unsorted_segment_join(inputs, segment_ids, num_segments, separator="", name=None):
    """The strings of each of num_segments segments joined by `separator`, in input order."""
    return execute(SEGMENT_JOIN, (convert_to_tensor(inputs, dtype_hint=dtypes.string),
                                  convert_to_tensor(segment_ids),
                                  convert_to_tensor(num_segments)),
                   {"separator": separator}, name)


# -- StringNGrams -------------------------------------------------------------------------------
def _row_ngrams(row, widths, separator, left, right, pad_width, preserve):
    out = []
    for width in widths:
        pad = width - 1 if pad_width < 0 else min(pad_width, width - 1)
        padded = [left] * pad + list(row) + [right] * pad
        out += [separator.join(padded[i:i + width]) for i in range(len(padded) - width + 1)]
    if not out and preserve and len(row):
        pad = max(0, pad_width)
        out = [separator.join([left] * pad + list(row) + [right] * pad)]
    return out


def _ngrams_kernel(values, splits, *, separator, widths, left, right, pad_width, preserve):
    values = np.asarray(values, dtype=object)
    enc = [t.encode("utf-8") for t in (separator, left, right)]
    pieces, out_splits = [], [0]
    for a, b in zip(splits[:-1], splits[1:]):
        pieces += _row_ngrams(values[a:b], widths, *enc, pad_width, preserve)
        out_splits.append(len(pieces))
    out = np.empty(len(pieces), dtype=object)
    out[:] = pieces
    return string_array(out), np.asarray(out_splits, np.asarray(splits).dtype)


NGRAMS = defop("StringNGrams", _ngrams_kernel, grad=None, num_outputs=2,
               tf_inputs=("data", "data_splits"),
               shape=lambda values, splits, **a: [(TensorShape([None]), dtypes.string),
                                                  (splits.shape, splits.dtype)],
               raw=lambda data, data_splits, separator, ngram_widths, left_pad, right_pad,
               pad_width, preserve_short_sequences, name=None: execute(
                   NGRAMS, (convert_to_tensor(data), convert_to_tensor(data_splits)),
                   _ngram_attrs(separator, ngram_widths, (left_pad, right_pad), pad_width,
                                preserve_short_sequences), name))


def _ngram_attrs(separator, widths, pads, pad_width, preserve):
    return {"separator": separator, "widths": tuple(int(w) for w in widths),
            "left": pads[0], "right": pads[1], "pad_width": int(pad_width),
            "preserve": bool(preserve)}


def _ngram_options(ngram_width, separator, pad_values, padding_width, preserve):
    """The StringNGrams attributes of tf.strings.ngrams' arguments, checked as TensorFlow
    checks them."""
    widths = list(ngram_width) if isinstance(ngram_width, (list, tuple)) else [ngram_width]
    if any(w < 1 for w in widths):
        raise ValueError(f"All ngram_widths must be greater than 0. Got {ngram_width}")
    if padding_width is not None and padding_width < 1:
        raise ValueError("padding_width must be greater than 0.")
    if pad_values is None:
        if padding_width is not None:
            raise ValueError("pad_values must be provided if padding_width is set.")
        pads, pad_width = ("", ""), 0
    else:
        pads = (pad_values, pad_values) if isinstance(pad_values, str) else tuple(pad_values)
        pad_width = -1 if padding_width is None else int(padding_width)
    return _ngram_attrs(separator, widths, pads, pad_width, preserve)


def ngram_rows(values, row_splits, ngram_width, separator=" ", pad_values=None,
               padding_width=None, preserve_short_sequences=False, name=None):
    """(n-grams, row_splits) of the rows values[row_splits[i]:row_splits[i+1]]: the parts of
    the ragged tensor tf.strings.ngrams returns for ragged data (ops/ragged/strings.py)."""
    attrs = _ngram_options(ngram_width, separator, pad_values, padding_width,
                           preserve_short_sequences)
    return execute(NGRAMS, (convert_to_tensor(values, dtype_hint=dtypes.string),
                            convert_to_tensor(row_splits)), attrs, name)


@dispatch.dispatchable
def ngrams(data, ngram_width, separator=" ", pad_values=None, padding_width=None,
           preserve_short_sequences=False, name="StringNGrams"):
    """The n-grams of the last axis of a dense string tensor (see the module docstring); a
    RaggedTensor's are ops/ragged/strings.py's."""
    attrs = _ngram_options(ngram_width, separator, pad_values, padding_width,
                           preserve_short_sequences)
    data = convert_to_tensor(data, dtype_hint=dtypes.string)
    if not data.shape.rank:
        raise ValueError(f"ngrams: data must be a dense tensor of known rank >= 1, got shape "
                         f"{data.shape}.")
    shape = data.shape.as_list()
    if None in shape:  # dimensions known only when the graph runs
        shape = shape_of(data, out_type=dtypes.int64)
    rows = reduce_prod(shape[:-1])
    splits = range_(rows + 1, dtype=dtypes.int64) * cast(shape[-1], dtypes.int64)
    values, _ = execute(NGRAMS, (reshape(data, [-1]), splits), attrs, name)
    if isinstance(shape, list):
        return reshape(values, shape[:-1] + [-1])
    return reshape(values, concat([shape[:-1], np.array([-1], np.int64)], 0))
