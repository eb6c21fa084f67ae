"""The abstract types of `tf.types.experimental`, for `isinstance` checks and annotations.

`TraceType` is what a tracing signature is made of (a TensorSpec, a RaggedTensorSpec or a
SparseTensorSpec is one); `Callable` is anything TensorFlow can call with tensors, with
`ConcreteFunction` (one trace), `PolymorphicFunction` (a `tf.function`, which traces per input
signature; `GenericFunction` is the same class) and `AtomicFunction` below it; `FunctionType` is
the parameters and output of a trace; `SupportsTracingProtocol` is an object that says its own
trace type through `__tf_tracing_type__`; `TensorLike` is the union of what converts to a
tensor (tensors, NumPy arrays and scalars, Python numbers, strings, lists and tuples). wengert's
classes are registered as their virtual subclasses.
"""
import abc
import typing

import numpy as np

from ..framework.sparse_tensor import SparseTensorSpec
from ..framework.tensor import Tensor
from ..framework.variables import Variable
from . import function_type
from .concrete_function import ConcreteFunction as _ConcreteFunction
from .function import Function as _Function
from .ragged_spec import RaggedTensorSpec
from .signatures import TensorSpec

__all__ = ["TraceType", "Callable", "ConcreteFunction", "PolymorphicFunction",
           "GenericFunction", "AtomicFunction", "FunctionType", "SupportsTracingProtocol",
           "TensorLike"]


class TraceType(abc.ABC):
    """The type of one argument of a trace: which values it accepts and how it generalizes."""

    @abc.abstractmethod
    def is_subtype_of(self, other):
        """Whether every value of this type is a value of `other`."""

    @abc.abstractmethod
    def most_specific_common_supertype(self, others):
        """The narrowest type holding this one and `others`, or None."""

    def placeholder_value(self, placeholder_context):
        """A value of this type standing for an argument while tracing."""
        raise NotImplementedError(f"{type(self).__name__}.placeholder_value")

    def to_tensors(self, value):
        """The tensors `value` of this type is made of."""
        raise NotImplementedError(f"{type(self).__name__}.to_tensors")

    def from_tensors(self, tensors):
        """The value of this type made of `tensors` (an iterator)."""
        raise NotImplementedError(f"{type(self).__name__}.from_tensors")

    def flatten(self):
        """The TensorSpecs of the tensors a value of this type is made of."""
        return []

    def cast(self, value, cast_context):
        """`value` converted to this type."""
        return value


class Callable(abc.ABC):
    """Something TensorFlow calls with tensors (`function_type` says how)."""


class ConcreteFunction(Callable):
    """One trace of a function: a graph with fixed input types."""


class PolymorphicFunction(Callable):
    """A `tf.function`: traces the Python function once per input signature."""

    @abc.abstractmethod
    def get_concrete_function(self, *args, **kwargs):
        """The trace for these arguments (tensors or TensorSpecs), made if needed."""

    def experimental_get_compiler_ir(self, *args, **kwargs):
        """XLA's text for a trace: wengert compiles no XLA, so this is an error."""
        raise NotImplementedError("experimental_get_compiler_ir: wengert does not compile "
                                  "functions with XLA (jit_compile has no effect).")


GenericFunction = PolymorphicFunction


class AtomicFunction(Callable):
    """The graph function under a ConcreteFunction, called with flat tensors."""

    @abc.abstractmethod
    def call_with_captures(self, args, kwargs, captures):
        """Call with the captured tensors given explicitly."""


FunctionType = function_type.FunctionType


@typing.runtime_checkable
class SupportsTracingProtocol(typing.Protocol):
    """An object that gives its own TraceType through `__tf_tracing_type__(context)`."""

    def __tf_tracing_type__(self, context):
        ...


TensorLike = typing.Union[Tensor, Variable, int, float, bool, str, bytes, complex, tuple, list,
                          np.ndarray, np.generic]

for _spec in (TensorSpec, RaggedTensorSpec, SparseTensorSpec):
    TraceType.register(_spec)
ConcreteFunction.register(_ConcreteFunction)
PolymorphicFunction.register(_Function)
