"""TensorFlow 1's string and record functions under their old names and argument orders:
`string_to_number` (`input` as another name for `string_tensor`), `reduce_join` (`keep_dims` and
`reduction_indices` as other names for keepdims and axis), `decode_raw` (`bytes` for
input_bytes), `decode_csv`, `parse_example` and `parse_single_example` (`name` before the
arguments TensorFlow 2 added), `substr` (`name` before `unit`) and `string_to_hash_bucket`
(`input` as another name for `string_tensor`)."""
from ..framework import dtypes
from ..ops.io import byte_codecs, csv_parsing, example_parsing, string_hashing, strings, substrings

__all__ = ["decode_csv", "decode_raw", "parse_example", "parse_single_example", "reduce_join",
           "string_to_hash_bucket", "string_to_number", "substr"]


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
