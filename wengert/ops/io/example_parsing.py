"""`tf.io.parse_example` and `parse_single_example`: serialized tf.train.Examples to tensors.

An Example is a map from feature names to lists of float32, int64 or bytes values. Parsing a
batch of B serialized Examples with a features dict (parsing_config.py) gives, per key:

    FixedLenFeature(shape)          a [B] + shape tensor: each record's values in row-major
                                    order, exactly prod(shape) of them, or the default_value
                                    where the record lacks the feature
    FixedLenSequenceFeature(shape)  a [B, T] + shape tensor, T the most items any record has
                                    (its values count / prod(shape)), shorter ones padded with
                                    default_value (0 or b"" without one)
    VarLenFeature                   a SparseTensor of dense shape [B, L], L the longest list:
                                    entry (b, j) is record b's j-th value
    SparseFeature                   a SparseTensor of dense shape [B] + size: record b's values
                                    at the positions its index feature(s) give
    RaggedFeature                   a RaggedTensor [B, (rows...), values]: each record's values
                                    split by its partitions (ragged_feature_parsing.py)

`parse_single_example` parses one record the same way, without the batch dimension (a
RaggedFeature without partitions then gives the dense 1-D values). The
parsing is one op (kernel in NumPy over the protobuf wire format, framework/protos/wire.py), so
it runs in `tf.function` and `Dataset.map`. A record that lacks a required feature, holds a
feature of another type, or holds the wrong number of values is an InvalidArgumentError in
TensorFlow's words, naming the key and the record's index (and name, with example_names);
malformed bytes are a DataLossError. Nothing here has a gradient.
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.protos import example_layout, example_wire, wire
from ...framework.registry import defop
from ...framework.sparse_tensor import SparseTensor
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ..reshape_ops import reshape, squeeze
from ..slice_ops import slice as slice_
from .parsing_config import KINDS, RaggedFeature, check_features
from .ragged_feature_parsing import (check_ragged_keys, output_count, ragged_outputs,
                                     ragged_result, ragged_rule, ragged_spec)

__all__ = ["parse_example", "parse_single_example", "decode_features", "feature_values",
           "array_of_values", "parse_specs", "to_dict", "strings", "unbatch", "type_word",
           "names_of", "PARSE_EXAMPLES"]

_KIND_OF_FIELD = {1: "string", 2: "float32", 3: "int64"}
FAST = True  # the fast reader for the usual layout; tests set False to check the generic path
_TYPE_WORD = {"string": "string", "float32": "float", "int64": "int64"}


def decode_features(record, what="tensorflow.Example"):
    """{name: the serialized Feature} of one serialized Example (a later entry of a name
    replaces an earlier one, as protobuf's maps do)."""
    out = {}
    for number, wire_type, value, _, _ in wire.fields(record, what):
        if number == 1 and wire_type == wire.LEN:
            _merge_map(value, out, "tensorflow.Features")
    return out


def _merge_map(features, out, what):
    for number, wire_type, entry, _, _ in wire.fields(features, what):
        if number != 1 or wire_type != wire.LEN:
            continue
        key, feature = b"", b""
        for n, t, v, _, _ in wire.fields(entry, what + ".FeatureEntry"):
            if t == wire.LEN and n == 1:
                key = v
            elif t == wire.LEN and n == 2:
                feature += v
        out[key.decode("utf-8", "replace")] = feature


def feature_values(feature):
    """(dtype name or None for an empty Feature, values) of one serialized Feature: a list of
    bytes, or a NumPy float32 or int64 array."""
    kind, raw = None, []
    for number, wire_type, value, _, _ in wire.fields(feature, "tensorflow.Feature"):
        if number in _KIND_OF_FIELD and wire_type == wire.LEN:
            if number != kind:
                kind, raw = number, []
            raw.append(value)
    if kind is None:
        return None, []
    if kind == 1:
        return "string", [v for r in raw for n, t, v, _, _ in wire.fields(r, "BytesList")
                          if n == 1 and t == wire.LEN]
    values = []
    for r in raw:
        values.extend(_numbers(r, kind))
    dtype = np.float32 if kind == 2 else np.int64
    return _KIND_OF_FIELD[kind], np.asarray(values, dtype=dtype)


def _numbers(raw, kind):
    out = []
    for number, wire_type, value, _, _ in wire.fields(raw, "tensorflow.FloatList" if kind == 2
                                                      else "tensorflow.Int64List"):
        if number != 1:
            continue
        if kind == 2:
            if wire_type == wire.LEN:
                out.extend(wire.unpack_floats(value).tolist())
            elif wire_type == wire.I32:
                out.extend(wire.unpack_floats(value).tolist())
        elif wire_type == wire.LEN:
            out.extend(wire.signed64(v) for v in wire.unpack_varints(value))
        elif wire_type == wire.VARINT:
            out.append(wire.signed64(value))
    return out


def type_word(dtype):
    """TensorFlow's word for a feature dtype in its messages (float, int64, string)."""
    return _TYPE_WORD[dtype]


def names_of(names, count):
    """The records' names for messages: example_names, or <unknown> for each."""
    flat = list(np.asarray(names, dtype=object).reshape(-1))
    return [_text(flat[i]) if i < len(flat) else "<unknown>" for i in range(count)]


def _text(name):
    return name.decode("utf-8", "replace") if isinstance(name, bytes) else str(name)


# -- the op ------------------------------------------------------------------------------------------
def _where(names, index):
    return names[index] if names is not None and index < len(names) else "<unknown>"


class _Records:
    """The batch being parsed: each record's features as {key bytes: (dtype name, payload)},
    read by the fast reader (protos/example_wire.py) or, for a record it does not take, by the
    generic decoder; values decoded on demand, one record at a time or a column at once."""

    def __init__(self, serialized, names):
        self.names, self.count, self._serialized = names, len(serialized), serialized
        self.layout = example_layout.batch_columns(serialized) if FAST else None
        self._features = None

    @property
    def features(self):
        if self._features is None:
            self._features = [_record_features(r) for r in self._serialized]
            self.generic = any(type(f) is not dict for f in self._features)
        return self._features

    def values(self, index, key, dtype):
        """The values of `key` in record `index` (None when absent), checked for `dtype`."""
        entry = self.features[index].get(key.encode("utf-8"))
        if entry is None:
            return None
        kind, payload = entry
        if kind is None:
            return _empty(dtype)
        self.check(index, key, kind, dtype)
        return _decoded(kind, payload)

    def entry(self, index, key):
        """(dtype name, values) of `key` in record `index` unchecked, (None, None) for an empty
        Feature, None when absent (RaggedFeature words a type mismatch in its own way)."""
        entry = self.features[index].get(key.encode("utf-8"))
        if entry is None or entry[0] is None:
            return None if entry is None else (None, None)
        return entry[0], _decoded(*entry)

    def check(self, index, key, kind, dtype):
        if kind != dtype:
            raise InvalidArgumentError(
                f"Name: {_where(self.names, index)}, Key: {key}, Index: {index}.  Data types "
                f"don't match. Data type: {_TYPE_WORD[kind]} but expected type: "
                f"{_TYPE_WORD[dtype]}")

    def column(self, key, dtype, size):
        """All records' values of `key` as one [records, size] array when every record holds
        exactly `size` packed values of `dtype`; None otherwise (the caller then goes record
        by record, which finds defaults and names the errors)."""
        if not size:
            return None
        if self.layout is not None:
            return self._layout_column(key, dtype, size)
        if self.features and self.generic:
            return None
        missing = (None, None)
        entries = [f.get(key.encode("utf-8"), missing) for f in self.features]
        payloads = [payload for kind, payload in entries if kind == dtype]
        if len(payloads) != len(entries):
            return None
        if dtype == "float32":
            if set(map(len, payloads)) != {4 * size}:
                return None
            return example_wire.packed_floats(payloads).reshape(len(payloads), size)
        if dtype == "int64":
            decoded = example_wire.packed_varints(payloads)
            if decoded is None or (decoded[1] != size).any():
                return None
            return decoded[0].reshape(len(payloads), size)
        items = example_wire.bytes_columns(payloads, size)
        return None if items is None else array_of_values(items, dtype).reshape(-1, size)


    def _layout_column(self, key, dtype, size):
        parts = self.layout.get(key.encode("utf-8"))
        if parts is None or sum(len(i) for _, i, _ in parts) != self.count or \
                any(kind != dtype for kind, _, _ in parts):
            return None
        out = np.empty((self.count, size), dtype=object if dtype == "string" else
                       np.float32 if dtype == "float32" else np.int64)
        for kind, indices, columns in parts:
            values = example_layout.column_values(kind, columns, size)
            if values is None:
                return None
            if dtype == "string":
                values = array_of_values(values, dtype).reshape(-1, size)
            out[indices] = values
        return out


def _record_features(record):
    walked = example_wire.walk_example(record) if FAST else None
    if walked is not None:
        return walked
    return _Decoded((key.encode("utf-8"), feature_values(feature))
                    for key, feature in decode_features(record).items())


class _Decoded(dict):
    """A record's features decoded by the generic decoder: values, not packed payloads."""


def _decoded(kind, payload):
    if not isinstance(payload, bytes):
        return payload
    if kind == "float32":
        return np.array(wire.unpack_floats(payload, "tensorflow.FloatList"), dtype=np.float32)
    if kind == "int64":
        return np.array([wire.signed64(v) for v in wire.unpack_varints(
            payload, "tensorflow.Int64List")], dtype=np.int64)
    items = example_wire.bytes_items(payload)
    return items if items is not None else [
        v for n, t, v, _, _ in wire.fields(payload, "tensorflow.BytesList")
        if n == 1 and t == wire.LEN]


def _empty(dtype):
    return [] if dtype == "string" else np.zeros(0, np.float32 if dtype == "float32" else
                                                 np.int64)


def array_of_values(values, dtype):
    """A list of feature values as the NumPy array of their dtype name."""
    if dtype == "string":
        out = np.empty(len(values), dtype=object)
        out[:] = list(values)
        return out
    return np.asarray(values, dtype=np.float32 if dtype == "float32" else np.int64)


def _fixed(records, key, dtype, shape, default):
    size = int(np.prod(shape))
    column = records.column(key, dtype, size)
    if column is not None:
        return column.reshape((len(column),) + tuple(shape))
    rows = []
    for i in range(len(records.features)):
        values = records.values(i, key, dtype)
        if values is None or (len(values) == 0 and size):
            if default is None:
                raise InvalidArgumentError(
                    f"Name: {_where(records.names, i)}, Feature: {key} (data type: "
                    f"{_TYPE_WORD[dtype]}) is required but could not be found.")
            rows.append(np.asarray(default).reshape(-1))
            continue
        if len(values) != size:
            raise InvalidArgumentError(
                f"Name: {_where(records.names, i)}, Key: {key}, Index: {i}.  Number of "
                f"{_TYPE_WORD[dtype]} values != expected.  Values size: {len(values)} but "
                f"output shape: {list(shape)}")
        rows.append(array_of_values(values, dtype))
    out = array_of_values([], dtype) if not rows else np.stack(rows) if dtype != "string" else \
        np.array(rows, dtype=object).reshape(len(rows), size)
    return out.reshape((len(rows),) + tuple(shape))


def _sequence(records, key, dtype, shape, default, allow_missing):
    size = int(np.prod(shape))
    rows = []
    for i in range(len(records.features)):
        values = records.values(i, key, dtype)
        if values is None:
            if not allow_missing:
                raise InvalidArgumentError(
                    f"Name: {_where(records.names, i)}, Feature: {key} (data type: "
                    f"{_TYPE_WORD[dtype]}) is required but could not be found.")
            values = _empty(dtype)
        if size and len(values) % size:
            raise InvalidArgumentError(
                f"Name: {_where(records.names, i)}, Key: {key}, Index: {i}.  Number of "
                f"{_TYPE_WORD[dtype]} values is not a multiple of stride length. Saw "
                f"{len(values)} values but output shape is: {list(shape)}")
        rows.append(array_of_values(values, dtype).reshape((-1,) + tuple(shape)))
    steps = max((len(r) for r in rows), default=0)
    pad = default if default is not None else (b"" if dtype == "string" else 0)
    np_dtype = object if dtype == "string" else np.float32 if dtype == "float32" else np.int64
    out = np.empty((len(rows), steps) + tuple(shape), dtype=np_dtype)
    out[...] = pad
    for i, r in enumerate(rows):
        out[i, :len(r)] = r
    return out


def _varlen(records, key, dtype):
    indices, values, longest = [], [], 0
    for i in range(len(records.features)):
        row = records.values(i, key, dtype)
        if row is None or not len(row):
            continue
        indices.extend((i, j) for j in range(len(row)))
        values.extend(row.tolist() if dtype != "string" else row)
        longest = max(longest, len(row))
    return (np.asarray(indices, dtype=np.int64).reshape(-1, 2), array_of_values(values, dtype),
            np.array([len(records.features), longest], dtype=np.int64))


def _sparse_feature(records, key, dtype, config):
    index_keys = config.index_key if isinstance(config.index_key, (list, tuple)) else \
        [config.index_key]
    sizes = config.size if isinstance(config.size, (list, tuple)) else [config.size]
    indices, values = [], []
    for i in range(len(records.features)):
        row = records.values(i, config.value_key, dtype)
        row = _empty(dtype) if row is None else row
        columns = []
        for index_key, size in zip(index_keys, sizes):
            where = records.values(i, index_key, "int64")
            where = _empty("int64") if where is None else where
            if len(where) != len(row):
                raise InvalidArgumentError(
                    f"Name: {_where(records.names, i)}, Key: {key}, Index: {i}.  SparseFeature "
                    f"'{index_key}' holds {len(where)} indices for {len(row)} values of "
                    f"'{config.value_key}'.")
            if len(where) and (where.min() < 0 or where.max() >= int(size)):
                raise InvalidArgumentError(
                    f"Name: {_where(records.names, i)}, Key: {key}, Index: {i}.  An index of "
                    f"'{index_key}' is outside [0, {size}).")
            columns.append(where)
        entries = sorted(zip(zip(*columns), range(len(row)))) if not config.already_sorted \
            else list(zip(zip(*columns), range(len(row))))
        for position, j in entries:
            indices.append((i,) + tuple(int(p) for p in position))
            values.append(row[j])
    rank = 1 + len(index_keys)
    return (np.asarray(indices, dtype=np.int64).reshape(-1, rank), array_of_values(values, dtype),
            np.array([len(records.features)] + [int(s) for s in sizes], dtype=np.int64))


def _parse_kernel(serialized, names, *, specs):
    records = _Records(np.asarray(serialized, dtype=object).reshape(-1),
                       None if names.size == 0 else names_of(names, names.size))
    out = []
    for key, kind, dtype, shape, extra in specs:
        if kind == "fixed":
            out.append(_fixed(records, key, dtype, shape, _unpack_default(extra, dtype, shape)))
        elif kind == "sequence":
            default = _unpack_default(extra[0], dtype, ())
            out.append(_sequence(records, key, dtype, shape, default, extra[1]))
        elif kind == "varlen":
            out.extend(_varlen(records, key, dtype))
        elif kind == "ragged":
            out.extend(ragged_outputs(records, key, dtype, extra))
        else:
            out.extend(_sparse_feature(records, key, dtype, extra))
    return tuple(out)


def _unpack_default(packed, dtype, shape):
    if packed is None:
        return None
    return array_of_values(list(packed), dtype).reshape(shape)


def _parse_rule(serialized, names, *, specs):
    batch = serialized.shape.as_list() if serialized.shape.rank is not None else [None]
    out = []
    for key, kind, dtype, shape, extra in specs:
        dt = dtypes.as_dtype(dtype)
        if kind == "fixed":
            out.append((TensorShape(batch + list(shape)), dt))
        elif kind == "sequence":
            out.append((TensorShape(batch + [None] + list(shape)), dt))
        elif kind == "ragged":
            out += ragged_rule(batch, dt, extra)
        else:
            rank = 2 if kind == "varlen" else 1 + (len(extra.index_key) if isinstance(
                extra.index_key, (list, tuple)) else 1)
            out += [(TensorShape([None, rank]), dtypes.int64), (TensorShape([None]), dt),
                    (TensorShape([rank]), dtypes.int64)]
    return out


PARSE_EXAMPLES = defop("ParseExamples", _parse_kernel, shape=_parse_rule, grad=None,
                       num_outputs=None)


def parse_specs(features, what, single=False):
    """The op's `specs` attribute for a features dict of parse_example (RaggedFeatures
    composed per record when `single`)."""
    specs, checked = [], check_features(features, what)
    check_ragged_keys(checked)
    for key, kind, dtype, shape, default in checked:
        if kind == "sequence" and not default[1]:
            raise ValueError(f"Unsupported: FixedLenSequenceFeature requires allow_missing to "
                             f"be True. ({what}, feature '{key}')")
        if kind == "fixed":
            default = None if default is None else tuple(np.asarray(default).reshape(-1).tolist())
        elif kind == "sequence":
            value, allow = default
            default = (None if value is None else (np.asarray(value).item(),), allow)
        elif kind == "ragged":
            default = ragged_spec(key, default, single, what)
        specs.append((key, kind, dtype.name, shape, default))
    return tuple(specs)


def to_dict(specs, outputs):
    """{key: tensor or SparseTensor} from the op's outputs."""
    out, k = {}, 0
    for key, kind, _, _, extra in specs:
        if kind in ("fixed", "sequence"):
            out[key] = outputs[k]
            k += 1
        elif kind == "ragged":
            count = output_count(extra)
            out[key] = ragged_result(extra, outputs[k:k + count])
            k += count
        else:
            out[key] = SparseTensor(outputs[k], outputs[k + 1], outputs[k + 2])
            k += 3
    return out


def strings(value, what, arg):
    """`value` as a string tensor; TypeError naming `arg` otherwise."""
    t = convert_to_tensor(value, dtype_hint=dtypes.string)
    if t.dtype is not dtypes.string:
        raise TypeError(f"{what}: {arg} must be a string tensor, got {t.dtype.name}.")
    return t


def parse_example(serialized, features, example_names=None, name=None):
    """Parse a vector of serialized tf.train.Examples into a dict of tensors, one per key of
    `features` (see the module docstring for what each configuration gives)."""
    serialized = strings(serialized, "parse_example", "serialized")
    if serialized.shape.rank not in (None, 1):
        raise ValueError(f"parse_example: serialized must be a vector of records, got shape "
                         f"{serialized.shape}; use parse_single_example for one record.")
    return _parse(serialized, features, example_names, name, "parse_example")


def _parse(serialized, features, example_names, name, what):
    specs = parse_specs(features, what, single=what == "parse_single_example")
    names = strings([] if example_names is None else example_names, what, "example_names")
    outputs = execute(PARSE_EXAMPLES, (serialized, names), {"specs": specs}, name)
    return to_dict(specs, outputs if isinstance(outputs, tuple) else (outputs,))


def parse_single_example(serialized, features, example_names=None, name=None):
    """Parse one serialized tf.train.Example (a scalar string) into a dict of tensors: as
    parse_example, without the batch dimension."""
    serialized = strings(serialized, "parse_single_example", "serialized")
    if serialized.shape.rank not in (None, 0):
        raise ValueError(f"parse_single_example: serialized must be a scalar string, got "
                         f"shape {serialized.shape}; use parse_example for a batch.")
    names = None if example_names is None else reshape(
        strings(example_names, "parse_single_example", "example_names"), [1])
    batch = _parse(reshape(serialized, [1]), features, names, name, "parse_single_example")
    return {key: value if isinstance(features[key], RaggedFeature) else unbatch(value)
            for key, value in batch.items()}


def unbatch(value):
    """One record's value from a batch of one: the dense row, or the SparseTensor without its
    batch coordinate."""
    if isinstance(value, SparseTensor):
        return SparseTensor(slice_(value.indices, [0, 1], [-1, -1]), value.values,
                            slice_(value.dense_shape, [1], [-1]))
    return squeeze(value, axis=[0])
