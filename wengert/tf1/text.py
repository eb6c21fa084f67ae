"""TensorFlow 1's string and record functions under their old names and argument orders:
`string_to_number` (`input` as another name for `string_tensor`), `reduce_join` (`keep_dims` and
`reduction_indices` as other names for keepdims and axis), `decode_raw` (`bytes` for
input_bytes), `decode_csv`, `parse_example` and `parse_single_example` (`name` before the
arguments TensorFlow 2 added), `substr` (`name` before `unit`), `string_to_hash_bucket`
(`input` as another name for `string_tensor`), and `string_split`: each string of a vector split
at every character of `delimiter` (default " "; "" splits into bytes), empty pieces dropped
when `skip_empty` (an empty string gives no pieces either way), as a SparseTensor with entry
[row, k] the k-th piece of row (dense_shape [rows, most pieces]) or a RaggedTensor."""
import re

from ..framework import dtypes
from ..framework.ragged_tensor import RaggedTensor
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor import convert_to_tensor
from ..graph.graph import name_scope
from ..ops import math_ops
from ..ops.array_ops import concat, stack
from ..ops.cast_ops import cast
from ..ops.creation_ops import range as _range
from ..ops.indexing_ops import boolean_mask, gather
from ..ops.io import byte_codecs, csv_parsing, example_parsing, string_hashing, strings, substrings
from ..ops.query_ops import size
from ..ops.ragged import strings as ragged_strings
from ..ops.reduce_ops import reduce_max
from ..ops.scan_ops import cumsum
from ..ops.segment_ops import unsorted_segment_sum
from ..ops.sort_ops import searchsorted

__all__ = ["decode_csv", "decode_raw", "parse_example", "parse_single_example", "reduce_join",
           "string_split", "string_to_hash_bucket", "string_to_number", "substr"]


def _one_of(name, value, old_name, old_value):
    if value is not None and old_value is not None:
        raise ValueError(f"Cannot specify both '{name}' and '{old_name}'.")
    return value if value is not None else old_value


def string_to_number(string_tensor=None, out_type=dtypes.float32, name=None, input=None):  # noqa: A002
    """Each string parsed as a number of `out_type`."""
    string_tensor = _one_of("string_tensor", string_tensor, "input", input)
    return strings.to_number(string_tensor, out_type=out_type, name=name)


def reduce_join(inputs, axis=None, keep_dims=None, separator="", name=None,
                reduction_indices=None, keepdims=None):
    """Strings joined along `axis` with `separator`."""
    axis = _one_of("axis", axis, "reduction_indices", reduction_indices)
    keepdims = _one_of("keepdims", keepdims, "keep_dims", keep_dims)
    return strings.reduce_join(inputs, axis=axis, keepdims=bool(keepdims), separator=separator,
                               name=name)


def decode_raw(input_bytes=None, out_type=None, little_endian=True, name=None, bytes=None):  # noqa: A002
    """Each string's bytes reinterpreted as a vector of `out_type`."""
    input_bytes = _one_of("input_bytes", input_bytes, "bytes", bytes)
    return byte_codecs.decode_raw(input_bytes, out_type, little_endian=little_endian, name=name)


def decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True, name=None,
               na_value="", select_cols=None):
    """CSV lines split into one tensor per column, typed by `record_defaults`."""
    return csv_parsing.decode_csv(records, record_defaults, field_delim=field_delim,
                                  use_quote_delim=use_quote_delim, na_value=na_value,
                                  select_cols=select_cols, name=name)


def parse_example(serialized, features, name=None, example_names=None):
    """A batch of serialized tf.train.Examples parsed into tensors by `features`."""
    return example_parsing.parse_example(serialized, features, example_names=example_names,
                                         name=name)


def parse_single_example(serialized, features, name=None, example_names=None):
    """One serialized tf.train.Example parsed into tensors by `features`."""
    return example_parsing.parse_single_example(serialized, features,
                                                example_names=example_names, name=name)


def substr(input, pos, len, name=None, unit="BYTE"):  # noqa: A002 (TensorFlow's names)
    """The substrings input[pos:pos + len], in bytes or (unit="UTF8_CHAR") characters."""
    return substrings.substr(input, pos, len, unit=unit, name=name)


def string_to_hash_bucket(string_tensor=None, num_buckets=None, name=None, input=None):  # noqa: A002
    """Each string's fingerprint hash modulo num_buckets."""
    string_tensor = _one_of("string_tensor", string_tensor, "input", input)
    return string_hashing.to_hash_bucket(string_tensor, num_buckets, name=name)


def string_split(source, sep=None, skip_empty=True, delimiter=None, result_type="SparseTensor",
                 name=None):
    """The pieces of each string of the vector `source` (see the module docstring), its ops
    under the name scope `name` ("StringSplit" by default)."""
    with name_scope(name, "StringSplit", [source]):
        return _string_split(source, sep, skip_empty, delimiter, result_type)


def _string_split(source, sep, skip_empty, delimiter, result_type):
    delimiter = _one_of("delimiter", delimiter, "sep", sep)
    delimiter = " " if delimiter is None else delimiter
    if result_type not in ("SparseTensor", "RaggedTensor"):
        raise ValueError(f"result_type must be 'RaggedTensor' or 'SparseTensor', got "
                         f"{result_type!r}.")
    source = convert_to_tensor(source, dtype=dtypes.string)
    if source.shape.rank is not None and source.shape.rank != 1:
        raise ValueError(f"string_split: input must be a vector, got shape: {source.shape}")
    if delimiter == "":
        pieces = ragged_strings.bytes_split(source)
    else:
        if len(delimiter) > 1:
            source = strings.regex_replace(source, f"[{re.escape(delimiter)}]", delimiter[0])
        pieces = ragged_strings.split(source, sep=delimiter[0])
    values, splits = pieces.values, cast(pieces.row_splits, dtypes.int64)
    rows = _range(math_ops.subtract(_size(splits), 1), dtype=dtypes.int64)
    row_ids = cast(searchsorted(splits[1:], _range(_size(values), dtype=dtypes.int64),
                                side="right"), dtypes.int64)
    all_row_ids = row_ids
    keep = gather(math_ops.not_equal(source, ""), row_ids)
    if skip_empty:
        keep = math_ops.logical_and(keep, math_ops.not_equal(values, ""))
    values, row_ids = boolean_mask(values, keep), boolean_mask(row_ids, keep)
    counts = unsorted_segment_sum(cast(keep, dtypes.int64), all_row_ids, _size(rows))
    new_splits = concat([cast(convert_to_tensor([0]), dtypes.int64), cumsum(counts)], 0)
    if result_type == "RaggedTensor":
        return RaggedTensor.from_row_splits(values, new_splits)
    columns = _range(_size(values), dtype=dtypes.int64) - gather(new_splits, row_ids)
    width = math_ops.maximum(reduce_max(concat([counts, cast(convert_to_tensor([0]),
                                                             dtypes.int64)], 0)), 0)
    return SparseTensor(stack([row_ids, columns], 1), values, stack([_size(rows), width]))


def _size(t):
    return cast(size(t), dtypes.int64)
