"""Python nests as TensorFlow's StructuredValue protos (framework/protos/struct.py), the way a
SavedModel records a function's input signature, argument spec and outputs.

A nest becomes a tree of values: None -> none_value, bool/int/float/str -> bool_value,
int64_value, float64_value, string_value, a tuple -> tuple_value, a list -> list_value, a dict
(string keys) -> dict_value, a named tuple -> named_tuple_value, and each leaf a function maps
(a tensor or a TensorSpec) -> tensor_spec_value {name, shape (-1 for an unknown size), dtype},
a RaggedTensorSpec or SparseTensorSpec -> type_spec_value (TensorFlow's TypeSpecProto).
`full_arg_spec` writes inspect.FullArgSpec as TensorFlow does (self left out of a method's
arguments), `function_spec` a FunctionSpec of an argument spec and an input signature.
"""
import inspect

from ..framework import dtypes
from ..framework.protos.saved_object_graph import FunctionSpec
from ..framework.protos.struct import StructuredValue
from ..framework.sparse_tensor import SparseTensorSpec
from ..framework.tensor_shape import TensorShape
from ..tracing.ragged_spec import RaggedTensorSpec

__all__ = ["spec_value", "composite_spec_value", "type_spec_into", "nest_value", "full_arg_spec", "function_spec", "shape_into"]


def shape_into(proto, shape):
    """Fill a TensorShapeProto from a shape (None dims as -1, unknown rank flagged)."""
    shape = TensorShape(shape)
    if shape.rank is None:
        proto.unknown_rank = True
        return
    proto.SetInParent()
    for d in shape.as_list():
        proto.dim.add(size=-1 if d is None else int(d))


def spec_value(name, shape, dtype):
    """A StructuredValue holding TensorSpecProto(name, shape, dtype)."""
    out = StructuredValue()
    spec = out.tensor_spec_value
    spec.name = name or ""
    shape_into(spec.shape, shape)
    spec.dtype = dtypes.as_dtype(dtype).as_datatype_enum
    return out


def type_spec_into(proto, spec):
    """Fill a TypeSpecProto from a RaggedTensorSpec (type_state: shape, dtype, ragged_rank,
    row_splits_dtype) or a SparseTensorSpec (shape, dtype), as TensorFlow 2.21 writes them."""
    ragged = isinstance(spec, RaggedTensorSpec)
    proto.type_spec_class = 3 if ragged else 1  # RAGGED_TENSOR_SPEC, SPARSE_TENSOR_SPEC
    proto.type_spec_class_name = "RaggedTensorSpec" if ragged else "SparseTensorSpec"
    proto.num_flat_components = 1 + spec.ragged_rank if ragged else 3
    state = proto.type_state.tuple_value
    state.SetInParent()
    shape_into(state.values.add().tensor_shape_value, spec.shape)
    state.values.add().tensor_dtype_value = spec.dtype.as_datatype_enum
    if ragged:
        state.values.add().int64_value = spec.ragged_rank
        state.values.add().tensor_dtype_value = spec.row_splits_dtype.as_datatype_enum


def composite_spec_value(spec):
    """A StructuredValue holding the TypeSpecProto of a RaggedTensorSpec or SparseTensorSpec."""
    out = StructuredValue()
    type_spec_into(out.type_spec_value, spec)
    return out


def nest_value(structure, leaf):
    """The StructuredValue of a Python nest; `leaf(x)` gives the value of each tensor-like leaf
    (or None for a plain Python value, written as such)."""
    out = StructuredValue()
    stack = [(structure, out)]
    while stack:
        value, target = stack.pop()
        if isinstance(value, dict):
            target.dict_value.SetInParent()
            for key in sorted(value):
                stack.append((value[key], target.dict_value.fields[str(key)]))
        elif isinstance(value, tuple) and hasattr(value, "_fields"):
            target.named_tuple_value.name = type(value).__name__
            for key, item in zip(value._fields, value):
                stack.append((item, target.named_tuple_value.values.add(key=key).value))
        elif isinstance(value, (tuple, list)):
            box = target.tuple_value if isinstance(value, tuple) else target.list_value
            box.SetInParent()
            stack.extend(reversed([(item, box.values.add()) for item in value]))
        else:
            _leaf_into(target, value, leaf)
    return out


def _leaf_into(target, value, leaf):
    made = leaf(value)
    if made is not None:
        target.CopyFrom(made)
    elif value is None:
        target.none_value.SetInParent()
    elif isinstance(value, bool):
        target.bool_value = value
    elif isinstance(value, int):
        target.int64_value = value
    elif isinstance(value, float):
        target.float64_value = value
    elif isinstance(value, str):
        target.string_value = value
    else:
        raise TypeError(f"tf.saved_model.save: {type(value).__name__} value {value!r:.60} in a "
                        "function's arguments or outputs has no SavedModel form; pass tensors, "
                        "None, numbers, strings, or lists, tuples and dicts of them.")


def full_arg_spec(python_function, drop_self):
    """FullArgSpec of a Python function as a named_tuple StructuredValue."""
    try:
        spec = inspect.getfullargspec(python_function)
    except TypeError:
        spec = inspect.FullArgSpec([], None, None, None, [], None, {})
    args = list(spec.args)[1 if drop_self and spec.args else 0:]
    fields = {"args": args, "varargs": spec.varargs, "varkw": spec.varkw,
              "defaults": None if spec.defaults is None else tuple(
                  d if isinstance(d, (bool, int, float, str, type(None))) else None
                  for d in spec.defaults),
              "kwonlyargs": list(spec.kwonlyargs), "kwonlydefaults": None, "annotations": {}}
    out = StructuredValue()
    out.named_tuple_value.name = "FullArgSpec"
    for key, value in fields.items():
        out.named_tuple_value.values.add(key=key).value.CopyFrom(
            nest_value(value, lambda x: None))
    return out


def function_spec(python_function, drop_self, input_signature):
    """FunctionSpec: the argument spec and (a tuple of TensorSpec values, or None) the input
    signature."""
    spec = FunctionSpec()
    spec.fullargspec.CopyFrom(full_arg_spec(python_function, drop_self))
    if input_signature is None:
        spec.input_signature.none_value.SetInParent()
    else:
        spec.input_signature.CopyFrom(nest_value(tuple(input_signature), _spec_leaf))
    return spec


def _spec_leaf(value):
    if isinstance(value, (RaggedTensorSpec, SparseTensorSpec)):
        return composite_spec_value(value)
    if hasattr(value, "shape") and hasattr(value, "dtype"):
        return spec_value(getattr(value, "name", None), value.shape, value.dtype)
    return None
