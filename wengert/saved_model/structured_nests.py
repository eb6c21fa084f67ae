"""TensorFlow's StructuredValue protos (framework/protos/struct.py) read back as Python nests:
the reverse of structured_values.py, as a SavedModel that TensorFlow wrote records a function's
argument spec, input signature and outputs.

    none_value -> None; bool_value, int64_value, float64_value, string_value -> the value;
    tensor_shape_value -> TensorShape; tensor_dtype_value -> DType;
    tensor_spec_value, bounded_tensor_spec_value -> TensorSpec(shape, dtype, name);
    tensor_value, numpy_value -> a NumPy array;
    list_value -> list; tuple_value -> tuple; dict_value -> dict;
    named_tuple_value -> a namedtuple of its name and keys (its fields renamed where a key is
        not an identifier), so FullArgSpec reads as .args, .defaults ...

A type_spec_value of a RaggedTensorSpec (its type_state: shape, dtype, ragged_rank,
row_splits_dtype) or a SparseTensorSpec (shape, dtype) becomes wengert's spec of the same
fields; any other TypeSpec (and one whose state holds more than plain values) is an
UnimplementedError.
The nest is built without recursion: the values are listed parents first, then made children
first.
"""
import collections

from ..framework import dtypes
from ..framework.errors import UnimplementedError
from ..framework.protos.tensor import from_proto
from ..framework.tensor_shape import TensorShape
from ..framework.sparse_tensor import SparseTensorSpec
from ..tracing.ragged_spec import RaggedTensorSpec
from ..tracing.signatures import TensorSpec

__all__ = ["python_nest", "shape_of"]

_SCALARS = ("none_value", "bool_value", "int64_value", "float64_value", "string_value")
_COMPOSITE = ("list_value", "tuple_value", "dict_value", "named_tuple_value", "type_spec_value")


def shape_of(proto):
    """A TensorShape of a TensorShapeProto (-1 an unknown size)."""
    if proto.unknown_rank:
        return TensorShape(None)
    return TensorShape([None if d.size < 0 else d.size for d in proto.dim])


def _children(value, kind):
    if kind in ("list_value", "tuple_value"):
        return list(getattr(value, kind).values)
    if kind == "dict_value":
        fields = value.dict_value.fields
        return [fields[k] for k in sorted(fields)]
    if kind == "named_tuple_value":
        return [pair.value for pair in value.named_tuple_value.values]
    return []


def _leaf(value, kind):
    if kind == "none_value" or kind is None:
        return None
    if kind in _SCALARS:
        return getattr(value, kind)
    if kind == "tensor_shape_value":
        return shape_of(value.tensor_shape_value)
    if kind == "tensor_dtype_value":
        return dtypes.as_dtype(value.tensor_dtype_value)
    if kind in ("tensor_spec_value", "bounded_tensor_spec_value"):
        spec = getattr(value, kind)
        return TensorSpec(shape_of(spec.shape), dtypes.as_dtype(spec.dtype), spec.name or None)
    if kind in ("tensor_value", "numpy_value"):
        return from_proto(getattr(value, kind))[0]
    return _type_spec(value.type_spec_value)


def _type_spec(spec):
    """wengert's RaggedTensorSpec or SparseTensorSpec of a TypeSpecProto (see above)."""
    kind = spec.type_spec_class
    state = spec.type_state
    items = list(state.tuple_value.values) if state.WhichOneof("kind") == "tuple_value" else []
    plain = all(v.WhichOneof("kind") not in _COMPOSITE for v in items)
    fields = [_leaf(v, v.WhichOneof("kind")) for v in items] if plain else []
    if kind in (3, "RAGGED_TENSOR_SPEC") and len(fields) in (4, 5):
        return RaggedTensorSpec(fields[0], fields[1], fields[2], fields[3])
    if kind in (1, "SPARSE_TENSOR_SPEC") and len(fields) == 2:
        return SparseTensorSpec(fields[0], fields[1])
    name = spec.type_spec_class_name or "a composite tensor"
    raise UnimplementedError(f"tf.saved_model.load: a function's arguments or outputs hold "
                             f"{name} (a TypeSpec); wengert loads functions of plain tensors, "
                             "RaggedTensors, SparseTensors and Python values only.")


def _container(value, kind, items):
    if kind == "list_value":
        return items
    if kind == "tuple_value":
        return tuple(items)
    if kind == "dict_value":
        return dict(zip(sorted(value.dict_value.fields), items))
    named = value.named_tuple_value
    keys = [pair.key for pair in named.values]
    cls = collections.namedtuple(named.name if named.name.isidentifier() else "NamedTuple",
                                 keys, rename=True)
    return cls(*items)


def python_nest(value):
    """The Python nest a StructuredValue holds (see the module docstring)."""
    order, children = [value], []
    at = 0
    while at < len(order):
        kids = _children(order[at], order[at].WhichOneof("kind"))
        children.append(list(range(len(order), len(order) + len(kids))))
        order.extend(kids)
        at += 1
    built = [None] * len(order)
    for i in range(len(order) - 1, -1, -1):
        kind = order[i].WhichOneof("kind")
        if kind in ("list_value", "tuple_value", "dict_value", "named_tuple_value"):
            built[i] = _container(order[i], kind, [built[c] for c in children[i]])
        else:
            built[i] = _leaf(order[i], kind)
    return built[0]
