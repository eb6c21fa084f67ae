"""Protocol-buffer encoding of the few TensorFlow messages an event file holds, with no protobuf
library: `Event`, `Summary`, `SummaryMetadata`, `TensorProto`, `TensorShapeProto`, `GraphDef`,
`NodeDef`, `AttrValue` and `RunMetadata`, as `tensorflow/core/framework/*.proto` and
`tensorflow/core/util/event.proto` define them.

The wire format (wengert/framework/protos/wire.py, whose field encoders this module uses) is a
sequence of fields, each a key `(field_number << 3) | wire_type` written as a varint, then the value: wire type 0 a varint (ints, bools, enums; a negative int64 is its
two's complement, ten bytes), 1 eight little-endian bytes (double), 5 four bytes (float), 2 a
varint length and that many bytes (strings, bytes, nested messages, packed repeated numbers).
Each function here returns the bytes of one message; a message is the concatenation of its
fields, so composing messages is concatenating bytes. TensorBoard's own parser reads them back
(tests/test_summary_files.py).
"""
import struct

import numpy as np

from ..framework.protos.wire import (field_bytes, field_double, field_float,  # noqa: F401
                                     field_varint, varint)

__all__ = ["varint", "field_varint", "field_bytes", "field_double", "field_float",
           "tensor_proto", "shape_proto", "summary_metadata", "summary_value", "summary",
           "event", "attr_value", "node_def", "graph_def", "run_metadata_with_graphs",
           "DATA_TYPES", "data_type"]

_FLOAT = struct.Struct("<f")

# DataType enum of tensorflow/core/framework/types.proto, by NumPy dtype name
DATA_TYPES = {"float32": 1, "float64": 2, "int32": 3, "uint8": 4, "int16": 5, "int8": 6,
              "string": 7, "complex64": 8, "int64": 9, "bool": 10, "uint16": 17,
              "complex128": 18, "float16": 19, "resource": 20, "uint32": 22, "uint64": 23}


def data_type(dtype):
    """The DataType enum value of a NumPy dtype (strings and bytes are DT_STRING)."""
    dtype = np.dtype(dtype)
    if dtype.kind in "OSU":
        return DATA_TYPES["string"]
    try:
        return DATA_TYPES[dtype.name]
    except KeyError:
        raise TypeError(f"No TensorFlow DataType for NumPy dtype {dtype}.") from None


# -- tensors ------------------------------------------------------------------------------------
def shape_proto(shape):
    """TensorShapeProto: dim (2) = Dim{size (1)}; unknown_rank (3). None dims are -1."""
    if shape is None:
        return field_varint(3, 1)
    return b"".join(field_bytes(2, field_varint(1, -1 if d is None else d)) for d in shape)


def tensor_proto(value):
    """TensorProto of an array: dtype (1), tensor_shape (2), and the values: tensor_content (4)
    raw little-endian bytes for numbers, string_val (8) one entry per element for strings."""
    array = np.asarray(value)
    dtype = data_type(array.dtype)
    out = field_varint(1, dtype) + field_bytes(2, shape_proto(array.shape))
    if dtype == DATA_TYPES["string"]:
        return out + b"".join(field_bytes(8, _as_bytes(s)) for s in array.reshape(-1))
    little = array.astype(array.dtype.newbyteorder("<"), copy=False)
    return out + field_bytes(4, np.ascontiguousarray(little).tobytes())


def _as_bytes(s):
    return s if isinstance(s, bytes) else str(s).encode("utf-8")


# -- summaries and events -------------------------------------------------------------------------
def summary_metadata(plugin_name, content=b"", description=None, display_name=None):
    """SummaryMetadata: plugin_data (1) = PluginData{plugin_name (1), content (2)},
    display_name (2), summary_description (3)."""
    plugin = field_bytes(1, plugin_name) + (field_bytes(2, content) if content else b"")
    out = field_bytes(1, plugin)
    if display_name:
        out += field_bytes(2, display_name)
    if description:
        out += field_bytes(3, description)
    return out


def summary_value(tag, tensor=None, metadata=None):
    """Summary.Value: tag (1), tensor (8), metadata (9)."""
    out = field_bytes(1, tag)
    if metadata is not None:
        out += field_bytes(9, metadata)
    if tensor is not None:
        out += field_bytes(8, tensor)
    return out


def summary(values):
    """Summary: value (1), repeated."""
    return b"".join(field_bytes(1, v) for v in values)


def event(wall_time, step=None, *, file_version=None, graph_def=None, summary=None,
          source_writer=None):
    """Event: wall_time (1), step (2), then one of file_version (3), graph_def (4, serialized
    GraphDef bytes), summary (5); source_metadata (10) = SourceMetadata{writer (1)}."""
    out = field_double(1, wall_time)
    if step:
        out += field_varint(2, step)
    if file_version is not None:
        out += field_bytes(3, file_version)
    if graph_def is not None:
        out += field_bytes(4, graph_def)
    if summary is not None:
        out += field_bytes(5, summary)
    if source_writer is not None:
        out += field_bytes(10, field_bytes(1, source_writer))
    return out


# -- graphs ---------------------------------------------------------------------------------------
def attr_value(value):
    """AttrValue: s (2), i (3), f (4), b (5), type (6), shape (7), tensor (8), list (1) =
    ListValue{s (2), i (3, packed), f (4, packed), b (5, packed), type (6, packed), shape (7)}.
    `value` is a tagged pair: ("s", str), ("i", int), ("f", float), ("b", bool),
    ("type", numpy dtype), ("shape", dims or None), ("tensor", array), or ("list_<kind>",
    [items])."""
    kind, v = value
    if kind == "s":
        return field_bytes(2, v)
    if kind == "i":
        return field_varint(3, v)
    if kind == "f":
        return field_float(4, v)
    if kind == "b":
        return field_varint(5, bool(v))
    if kind == "type":
        return field_varint(6, data_type(v))
    if kind == "shape":
        return field_bytes(7, shape_proto(v))
    if kind == "tensor":
        return field_bytes(8, tensor_proto(v))
    return field_bytes(1, _list_value(kind[5:], v))


def _list_value(kind, items):
    if kind == "s":
        return b"".join(field_bytes(2, s) for s in items)
    if kind == "shape":
        return b"".join(field_bytes(7, shape_proto(s)) for s in items)
    if kind == "f":
        return field_bytes(4, b"".join(_FLOAT.pack(x) for x in items)) if items else b""
    number, convert = {"i": (3, int), "b": (5, bool), "type": (6, data_type)}[kind]
    packed = b"".join(varint(int(convert(x))) for x in items)
    return field_bytes(number, packed) if items else b""


def node_def(name, op, inputs=(), attrs=None, device=""):
    """NodeDef: name (1), op (2), input (3, repeated), device (4), attr (5, map entries
    {key (1), value (2)})."""
    out = field_bytes(1, name) + field_bytes(2, op)
    out += b"".join(field_bytes(3, i) for i in inputs)
    if device:
        out += field_bytes(4, device)
    for key in sorted(attrs or {}):
        entry = field_bytes(1, key) + field_bytes(2, attr_value(attrs[key]))
        out += field_bytes(5, entry)
    return out


def graph_def(nodes, producer=1):
    """GraphDef: node (1, repeated serialized NodeDefs), versions (4) = VersionDef{producer}."""
    return b"".join(field_bytes(1, n) for n in nodes) + field_bytes(4, field_varint(1, producer))


def run_metadata_with_graphs(graphs):
    """RunMetadata holding functions' graphs (serialized GraphDefs), as
    `tf.summary.trace_export` writes it: function_graphs (4, repeated) =
    FunctionGraphs{pre_optimization_graph (2)}."""
    return b"".join(field_bytes(4, field_bytes(2, g)) for g in graphs)
