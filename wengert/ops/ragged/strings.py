"""The tf.strings functions whose results are ragged: split, bytes_split, unicode_decode and
unicode_split (with or without byte offsets), and unicode_encode of ragged code points; and the
ragged stand-ins of reduce_join and ngrams (methods.py registers them). The elementwise string
ops (length, upper, substr, regex_replace, ...) reach a ragged input's flat values through
elementwise dispatch.

Each splits every string of its input into pieces, so a string tensor of shape [d0, ..., dk]
becomes a ragged tensor of shape [d0, ..., dk, None]: the kernels (ops/io) split a vector of
strings into (pieces, row_splits), and this module puts those row partitions under the input's
own. A dense input of rank k > 1 keeps its inner dimensions as uniform rows (shape [2, 2, None]
for a [2, 2] input, as TensorFlow builds it with RaggedTensor.from_tensor); a ragged input keeps
its partitions; a scalar gives a dense vector of pieces. unicode_split is unicode_decode followed
by encoding each code point alone in the same encoding, so an invalid byte sequence becomes the
replacement character's bytes (b"\\xef\\xbf\\xbd" in UTF-8). unicode_encode of a ragged tensor
encodes its innermost rows and keeps the outer partitions.
"""
from ...framework import dtypes
from ...framework.ragged_tensor import RaggedTensor
from ...framework.tensor import convert_to_tensor
from ..io import strings as string_ops
from ..io import substrings
from ..io import unicode as unicode_ops
from ..reshape_ops import expand_dims, reshape
from . import reductions
from .factories import wrap

__all__ = ["split", "bytes_split", "unicode_decode", "unicode_decode_with_offsets",
           "unicode_split", "unicode_split_with_offsets", "unicode_encode", "reduce_join",
           "ngrams"]


def _pieces(input, what, cut):  # noqa: A002
    """cut(vector of strings) -> (outputs..., row_splits), each output a flat vector; returns
    each output as a ragged tensor one rank above `input` (a dense vector for a scalar)."""
    if isinstance(input, RaggedTensor):
        if input.row_splits.dtype != dtypes.int64:
            raise ValueError(f"{what}: self and new_values have mismatched row_splits dtypes; "
                             "use RaggedTensor.with_row_splits_dtype() to convert them to "
                             "compatible dtypes (the pieces' row splits are int64, as "
                             "TensorFlow's are; the input's are int32).")
        flat = input.flat_values
        if flat.shape.rank != 1:
            return _pieces_dense(input, flat, what, cut)
        *outputs, splits = cut(flat)
        return tuple(input.with_flat_values(wrap(o, splits, validate=False)) for o in outputs)
    x = convert_to_tensor(input, dtype_hint=dtypes.string)
    if x.shape.rank is None:
        raise ValueError(f"{what}: the input's rank must be known, got shape {x.shape}.")
    if x.shape.rank == 0:
        *outputs, splits = cut(reshape(x, [1]))
        return tuple(outputs)
    if x.shape.rank == 1:
        *outputs, splits = cut(x)
        return tuple(wrap(o, splits, validate=False) for o in outputs)
    rows = RaggedTensor.from_tensor(x, ragged_rank=x.shape.rank - 1)
    return _pieces(rows, what, cut)


def _pieces_dense(rows, flat, what, cut):
    """A ragged input whose flat values have inner dimensions: cut them as a dense tensor."""
    return tuple(rows.with_flat_values(p) for p in _pieces(flat, what, cut))


def split(input, sep=None, maxsplit=-1, name=None):  # noqa: A002
    """Split each string on `sep` (None: runs of whitespace, empty pieces dropped), at most
    `maxsplit` times (-1: no limit)."""
    attrs = {"sep": sep, "maxsplit": int(maxsplit)}
    out, = _pieces(input, "strings.split", lambda v: string_ops.split_vector(v, attrs, name))
    return out


def bytes_split(input, name=None):  # noqa: A002
    """Each string split into its single bytes."""
    out, = _pieces(input, "strings.bytes_split",
                   lambda v: string_ops.bytes_split_vector(v, name))
    return out


def _decode(input, encoding, errors, replacement_char, controls, offsets, name):  # noqa: A002
    def cut(vector):
        splits, *outputs = unicode_ops.decode_strings(vector, encoding, errors,
                                                      replacement_char, controls, offsets,
                                                      name)
        return (*outputs, splits)
    return _pieces(input, "strings.unicode_decode", cut)


def unicode_decode(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                   replace_control_characters=False, name=None):
    """The int32 code points of each string (see ops/io/unicode.py for errors and offsets)."""
    points, = _decode(input, input_encoding, errors, replacement_char,
                      replace_control_characters, False, name)
    return points


def unicode_decode_with_offsets(input, input_encoding, errors="replace",  # noqa: A002
                                replacement_char=65533, replace_control_characters=False,
                                name=None):
    """(code points, byte offsets): where in its string each character starts."""
    return _decode(input, input_encoding, errors, replacement_char,
                   replace_control_characters, True, name)


def _encode_each(points, encoding, replacement_char):
    """Each code point alone, as a string in `encoding`."""
    if isinstance(points, RaggedTensor):
        return points.with_flat_values(_encode_each(points.flat_values, encoding,
                                                    replacement_char))
    return unicode_ops.unicode_encode(expand_dims(points, -1), encoding,
                                      replacement_char=replacement_char)


def unicode_split(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                  name=None):
    """Each string split into its characters, each a string in `input_encoding`."""
    points = unicode_decode(input, input_encoding, errors, replacement_char, name=name)
    return _encode_each(points, input_encoding, replacement_char)


def unicode_split_with_offsets(input, input_encoding, errors="replace",  # noqa: A002
                               replacement_char=65533, name=None):
    """(characters, byte offsets) of each string."""
    points, offsets = unicode_decode_with_offsets(input, input_encoding, errors,
                                                  replacement_char, name=name)
    return _encode_each(points, input_encoding, replacement_char), offsets


def unicode_encode(input, output_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                   name=None):
    """Each innermost row of code points as one string: a dense [..., n] tensor gives [...],
    a ragged [..., None] tensor gives its outer rows of strings."""
    if not isinstance(input, RaggedTensor):
        return unicode_ops.unicode_encode(input, output_encoding, errors, replacement_char, name)
    flat = input.flat_values
    if flat.shape.rank != 1:
        return input.with_flat_values(unicode_ops.unicode_encode(
            flat, output_encoding, errors, replacement_char, name))
    splits = input.nested_row_splits
    strings = unicode_ops.encode_rows(flat, splits[-1], output_encoding, errors,
                                      replacement_char, name)
    return strings if len(splits) == 1 else _replace_innermost(input, strings)


def _replace_innermost(rt, strings):
    """rt with its innermost partition and flat values replaced by `strings` (one per
    innermost row)."""
    if not isinstance(rt.values.values, RaggedTensor):
        return rt.with_values(strings)
    return rt.with_values(_replace_innermost(rt.values, strings))


def reduce_join(inputs, axis=None, keepdims=False, separator="", name=None):
    """tf.strings.reduce_join of a RaggedTensor: the strings of each group joined (groups as
    reductions.py forms them; axis None joins every string)."""
    return reductions.reduce(("join", separator), inputs, axis, keepdims, name)


def ngrams(data, ngram_width, separator=" ", pad_values=None, padding_width=None,
           preserve_short_sequences=False, name="StringNGrams"):
    """tf.strings.ngrams of a RaggedTensor: the n-grams of each innermost row, as a ragged
    tensor of the same ragged rank (TensorFlow's row partition: plain row splits)."""
    args = (ngram_width, separator, pad_values, padding_width, preserve_short_sequences, name)
    if isinstance(data.values, RaggedTensor):
        return data.with_values(ngrams(data.values, *args))
    values, splits = substrings.ngram_rows(data.values, data.row_splits, *args)
    return wrap(values, splits, validate=False)
