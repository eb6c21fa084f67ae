"""Input signatures of `tf.function`: `TensorSpec`, the key that decides whether a call can reuse
a trace, and the Python signature calls bind to (`function_spec`).

The key of a call holds, for each argument, its dtype and shape when it is a tensor (Tensor or
NumPy array), the variable itself for a Variable, and the value for anything else (compared by
value, as TensorFlow's Literal: `1`, `1.0` and `True` are the same key); lists, tuples and dicts
are looked through, their structure part of the key (dispatch.py decides which trace covers a
key). An object with `__tf_tracing_type__` (tf.types.experimental.SupportsTracingProtocol) is
keyed by the TraceType it returns, compared with that type's `==`. A SparseTensor argument is looked through too: its three tensors are
inputs of the trace (so a call with another number of entries traces again), and a
SparseTensorSpec in an input_signature stands for their three TensorSpecs (installed here into
framework/sparse_tensor.py's TENSOR_SPEC, since TensorSpec is defined in this layer). How a
trace prints is in function_type.py.

A TensorSpec is a tf.types.experimental.TraceType as TensorFlow's: spec A is a subtype of spec B
when they have one dtype and one name and A's shape is a subtype of B's (B's dimensions equal or
None, or B of unknown rank); their most specific common supertype keeps the dimensions all agree
on. It stands for one tensor: `to_tensors(v)` is [v cast to the spec], `from_tensors` takes the
next tensor, `placeholder_value` is a placeholder of the spec in the graph being built, and
`cast` converts a Python value to the spec's dtype and refines a graph tensor's shape to the
spec's, a TypeError when neither fits the other.
"""
import collections
import inspect

import numpy as np

from ..framework import dtypes
from ..framework.protos.struct import TensorSpecProto
from ..framework.sparse_tensor import TENSOR_SPEC
from ..framework.ragged_tensor import RaggedTensor
from ..framework.tensor import Tensor, array_of, convert_to_tensor, is_eager_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.variables import Variable
from ..graph.graph import placeholder
from ..util import nest

__all__ = ["TensorSpec", "type_spec_from_value", "call_key",
           "FunctionSpec", "function_spec", "model_input_specs"]

FunctionSpec = collections.namedtuple(
    "FunctionSpec", ["fullargspec", "is_method", "input_signature", "jit_compile"])
FunctionSpec.__doc__ = "The Python signature a tf.function binds its arguments to."


def function_spec(function):
    python = function.python_function
    return FunctionSpec(inspect.getfullargspec(python), inspect.ismethod(python),
                        function.input_signature, None)


class TensorSpec:
    """The dtype and shape a tensor argument must have (None dimensions match any size)."""

    __slots__ = ("shape", "dtype", "name")

    def __init__(self, shape, dtype=dtypes.float32, name=None):
        self.shape = TensorShape(shape)
        self.dtype = dtypes.as_dtype(dtype)
        self.name = name

    @classmethod
    def from_tensor(cls, tensor, name=None):
        return cls(tensor.shape, tensor.dtype, name)

    def is_compatible_with(self, other):
        """True for a tensor, array or spec of this dtype whose shape fits this shape."""
        if isinstance(other, (Tensor, TensorSpec)):
            dtype, shape = other.dtype, other.shape
        else:
            array = np.asarray(other)
            dtype, shape = array.dtype, array.shape
        return dtypes.as_dtype(dtype) is self.dtype and self.shape.is_compatible_with(shape)

    def __eq__(self, other):
        return (isinstance(other, TensorSpec) and self.dtype is other.dtype
                and self.shape == other.shape and self.name == other.name)

    def __hash__(self):  # (an unknown rank's shape hashes as the empty tuple)
        return hash((self.dtype.name, self.shape.rank, tuple.__hash__(self.shape), self.name))

    def __repr__(self):
        return f"TensorSpec(shape={self.shape}, dtype=tf.{self.dtype.name}, name={self.name!r})"

    # -- tf.types.experimental.TraceType ---------------------------------------------------------
    def is_subtype_of(self, other):
        """Whether `other` can stand for every tensor this spec stands for."""
        return (type(other) is type(self) and self.dtype is other.dtype
                and self.name == other.name and self.shape.is_subtype_of(other.shape))

    def most_specific_common_supertype(self, others):
        """The narrowest spec of which this and every one of `others` are subtypes; None when
        they differ in class, dtype or name."""
        if any(type(o) is not type(self) or o.dtype is not self.dtype or o.name != self.name
               for o in others):
            return None
        shape = self.shape.most_specific_common_supertype([o.shape for o in others])
        return TensorSpec(shape, self.dtype, self.name)

    def most_specific_compatible_type(self, other):
        """Deprecated form of most_specific_common_supertype: ValueError when there is none."""
        found = self.most_specific_common_supertype([other])
        if found is None:
            raise ValueError(f"No TypeSpec is compatible with both {self!r} and {other!r}")
        return found

    def placeholder_value(self, placeholder_context):
        """A placeholder of this spec's dtype and shape in the graph being built."""
        return placeholder(self.dtype, self.shape, self.name)

    def to_tensors(self, value):
        return [self.cast(value, None)]

    def from_tensors(self, tensors):
        return next(tensors)

    def flatten(self):
        return [self]

    def cast(self, value, casting_context):
        """`value` as a tensor of this spec: a Python value converted to its dtype, a graph
        tensor's shape refined to the spec's; TypeError when neither spec fits the other. With
        `casting_context.allow_specs`, a TensorSpec subtype gives this spec."""
        if getattr(casting_context, "allow_specs", False) and isinstance(value, TensorSpec):
            assert value.is_subtype_of(self), f"Can not cast {value!r} to {self!r}"
            return self
        if not isinstance(value, Tensor):
            value = convert_to_tensor(value, self.dtype)
        value_spec = TensorSpec(value.shape, value.dtype, self.name)
        if not value_spec.is_subtype_of(self):
            if not self.is_subtype_of(value_spec):
                raise TypeError(f"Can not cast {value_spec!r} to {self!r}")
            value.set_shape(self.shape)
        return value

    def experimental_as_proto(self):
        return TensorSpecProto(name=self.name or "", shape=self.shape.as_proto(),
                               dtype=self.dtype.as_datatype_enum)

    @classmethod
    def experimental_from_proto(cls, proto):
        return cls(TensorShape.experimental_from_proto(proto.shape),
                   dtypes.DType(proto.dtype), proto.name or None)


def type_spec_from_value(value):
    """The TensorSpec (dtype and shape) of a tensor, array or Python value."""
    value = value if isinstance(value, Tensor) else convert_to_tensor(value)
    return TensorSpec(value.shape, value.dtype)


def model_input_specs(model, name=None):
    """[TensorSpec] of a Keras model's inputs, for exporters that trace its call: its symbolic
    inputs' shapes, dtypes and names, else the shapes it was built with (batch dimension None,
    float32, named `name`). None when the model knows neither (it was never built)."""
    inputs = getattr(model, "inputs", None)
    if inputs:
        return [TensorSpec(t.shape, t.dtype, getattr(t, "name", None)) for t in inputs]
    shape = getattr(model, "_build_input_shape", None)
    if shape is None:
        return None
    shapes = shape if isinstance(shape, list) else [shape]
    return [TensorSpec([None] + list(s)[1:], name=name) for s in shapes]


def is_tensor_like(x):
    return isinstance(x, (Tensor, np.ndarray, TensorSpec))


def _shape_key(shape, relax):
    if shape.rank is None:
        return None
    return (None,) * len(shape) if relax else tuple(shape)


def _leaf_key(x, tensors, relax):
    if is_eager_tensor(x) or isinstance(x, np.ndarray):
        value = array_of(x) if is_eager_tensor(x) else x
        tensors.append(x)
        return (value.dtype, (None,) * value.ndim if relax else value.shape)
    if isinstance(x, (Tensor, TensorSpec)):  # a graph tensor (nested call) or a spec
        tensors.append(x)
        return (x.dtype._np, _shape_key(x.shape, relax))
    if isinstance(x, Variable):
        return ("variable", id(x))
    tracing_type = getattr(x, "__tf_tracing_type__", None)
    if tracing_type is not None and not isinstance(x, type):  # the tracing protocol
        return ("traced", tracing_type(None))
    try:
        hash(x)
    except TypeError:
        return ("object", id(x))
    if isinstance(x, float) and x != x:
        return ("literal", "nan")  # TensorFlow matches NaN with NaN
    return ("literal", x)  # by value, as TensorFlow's Literal: 1, 1.0 and True are one key


def _structure_token(x):
    """A hashable description of a nested structure's containers (not its leaves)."""
    tokens, stack = [], [x]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            keys = sorted(item, key=repr)
            tokens.append((type(item), tuple(keys)))
            stack.extend(item[k] for k in keys)
        elif isinstance(item, (list, tuple)):
            tokens.append((type(item), len(item)))
            stack.extend(item)
        elif nest.is_composite(item):  # a SparseTensor: its kind (its tensors are leaves)
            token = getattr(item, "_trace_token", None)  # a dataset or iterator: its spec
            tokens.append(type(item) if token is None else token())
        else:
            tokens.append(None)
    return tuple(tokens)


def _ragged_key(x, tensors, relax):
    """A ragged tensor's key: its components, keyed by the shapes a trace gives them."""
    parts = x._nest_components()
    tensors.extend(parts)
    return ("ragged", tuple((p.dtype._np, _shape_key(s, relax))
                            for p, s in zip(parts, x._component_shapes())))


def _arg_key(x, tensors, relax):
    if isinstance(x, RaggedTensor):
        return _ragged_key(x, tensors, relax)
    if not nest.is_nested(x) and not nest.is_composite(x):
        return _leaf_key(x, tensors, relax)
    return (_structure_token(x), tuple(_leaf_key(leaf, tensors, relax)
                                       for leaf in nest.flatten(x, expand_composites=True)))


def call_key(args, kwargs, relax):
    """(hashable signature of the call, its tensor arguments in order)."""
    tensors, key = [], []
    for a in args:
        if is_eager_tensor(a) and not relax:  # the common case
            value = array_of(a)
            key.append((value.dtype, value.shape))
            tensors.append(a)
        else:
            key.append(_arg_key(a, tensors, relax))
    if kwargs:
        for k in sorted(kwargs):
            key.append((k, _arg_key(kwargs[k], tensors, relax)))
    return tuple(key), tensors


TENSOR_SPEC.append(TensorSpec)  # framework's SparseTensorSpec describes its parts with these
