"""TensorFlow 1's `ConditionalAccumulator` and `SparseConditionalAccumulator` (and their base
`ConditionalAccumulatorBase`): objects whose methods add the accumulator ops of
ops/io/accumulators.py, the way synchronous replicas aggregate gradients.

`apply_grad(grad, local_step)` adds a gradient computed at `local_step` unless it is stale
(behind the accumulator's global step: then it is dropped silently); `take_grad(n)` waits for n
gradients and returns their mean (or sum, reduction_type="SUM"), emptying the accumulator and
advancing its global step; `num_accumulated()` counts the gradients in; `set_global_step(s)` sets
the step. The sparse accumulator takes IndexedSlices-style gradients
(`apply_grad(indices, values, shape)`, `apply_indexed_slices_grad(slices)`) and gives back
(indices, values, shape) or an IndexedSlices; each index is averaged over the gradients that
held it. In a graph the methods return ops and tensors that a Session runs (each Session has
its own accumulator); eagerly they run at once. A gradient of another dtype is TensorFlow's
ValueError and one of an incompatible static shape its ValueError, both while building; shape
mismatches seen only when running are its InvalidArgumentError (accumulator_states.py).
"""
import collections

import numpy as np

from ..framework import dtypes
from ..framework.context import state
from ..framework.execute import execute
from ..framework.indexed_slices import IndexedSlices
from ..framework.tensor import Tensor, array_of, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..ops.cast_ops import cast
from ..ops.io.accumulator_states import AccumulatorSpec
from ..ops.io.accumulators import (ACCUMULATOR_APPLY, ACCUMULATOR_NUM, ACCUMULATOR_SET_STEP,
                                   ACCUMULATOR_TAKE, CONDITIONAL_ACCUMULATOR,
                                   SPARSE_ACCUMULATOR, SPARSE_ACCUMULATOR_APPLY,
                                   SPARSE_ACCUMULATOR_NUM, SPARSE_ACCUMULATOR_SET_STEP,
                                   SPARSE_ACCUMULATOR_TAKE)

__all__ = ["ConditionalAccumulator", "ConditionalAccumulatorBase",
           "SparseConditionalAccumulator"]

#: what a sparse take_grad returns, as TensorFlow names it
SparseAccumulatorTakeGradient = collections.namedtuple(
    "SparseAccumulatorTakeGradient", ["indices", "values", "shape"])

_ALLOWED = ("float32", "float64", "int32", "uint8", "int16", "int8", "complex64", "int64",
            "qint8", "quint8", "qint32", "bfloat16", "qint16", "quint16", "uint16",
            "complex128", "float16", "uint32", "uint64")


def _checked(dtype, shape, reduction_type, op_type):
    dtype = dtypes.as_dtype(dtype)
    if dtype.name not in _ALLOWED:
        raise TypeError(f"Value passed to parameter 'dtype' has DataType {dtype.name} not in "
                        f"list of allowed values: {', '.join(_ALLOWED)}")
    if reduction_type not in ("MEAN", "SUM"):
        raise ValueError(f"Attr 'reduction_type' of '{op_type}' Op passed string "
                         f"'{reduction_type}' not in: \"MEAN\", \"SUM\".")
    return dtype, TensorShape(shape) if shape is not None else TensorShape(None)


def _refuse_shared(shared_name):
    if shared_name:
        raise NotImplementedError(
            f"shared_name={shared_name!r}: wengert's accumulators belong to one Session each; "
            "sharing one between sessions by name is not supported.")


class ConditionalAccumulatorBase:
    """What both accumulators share: the handle, name, dtype, count and global step."""

    _NUM, _SET_STEP = ACCUMULATOR_NUM, ACCUMULATOR_SET_STEP

    def __init__(self, dtype, shape, accumulator_ref):
        self._dtype = dtype
        self._shape = TensorShape(shape) if shape is not None else TensorShape(None)
        self._accumulator_ref = accumulator_ref
        op = getattr(accumulator_ref, "op", None)
        self._name = op.name.split("/")[-1] if op is not None else ""

    @property
    def accumulator_ref(self):
        return self._accumulator_ref

    @property
    def name(self):
        return self._name

    @property
    def dtype(self):
        return self._dtype

    def _op(self, op_def, inputs, name, **attrs):
        inputs = (self._accumulator_ref,) + tuple(inputs)
        attrs = {"accumulator": self._spec, **attrs}
        if state.graph is not None:
            return execute(op_def, inputs, attrs, name)
        out = op_def.kernel(None, *[array_of(t) for t in inputs], **attrs)
        if op_def.num_outputs == 0:
            return None
        return Tensor(out) if op_def.num_outputs == 1 else tuple(Tensor(o) for o in out)

    def num_accumulated(self, name=None):
        """How many gradients the accumulator holds now (int32)."""
        return self._op(self._NUM, (), name or f"{self._name}_NumAccumulated")

    def set_global_step(self, new_global_step, name=None):
        """Set the accumulator's global step (gradients of older local steps are dropped)."""
        step = cast(convert_to_tensor(new_global_step), dtypes.int64)
        return self._op(self._SET_STEP, (step,), name or self._SET_STEP.type)


def _make(self, op_def, sparse, dtype, shape, shared_name, name, reduction_type):
    _refuse_shared(shared_name)
    dtype, shape = _checked(dtype, shape, reduction_type, op_def.type)
    self._spec = AccumulatorSpec(sparse, dtype, shape, reduction_type, name)
    if state.graph is not None:
        ref = execute(op_def, (), {"accumulator": self._spec}, name)
    else:
        ref = Tensor(np.array(0, np.int64))
    ConditionalAccumulatorBase.__init__(self, dtype, shape, ref)
    if state.graph is None:
        self._name = name


class ConditionalAccumulator(ConditionalAccumulatorBase):
    """Aggregates dense gradients; `take_grad(n)` gives their mean once n are in."""

    _NUM, _SET_STEP = ACCUMULATOR_NUM, ACCUMULATOR_SET_STEP

    def __init__(self, dtype, shape=None, shared_name=None, name="conditional_accumulator",
                 reduction_type="MEAN"):
        _make(self, CONDITIONAL_ACCUMULATOR, False, dtype, shape, shared_name, name,
              reduction_type)

    def apply_grad(self, grad, local_step=0, name=None):
        """Add `grad` (computed at `local_step`) unless it is stale."""
        grad = convert_to_tensor(grad, dtype=self._dtype)
        if not grad.shape.is_compatible_with(self._shape):
            raise ValueError(f"Shapes {grad.shape} and {self._shape} are incompatible")
        step = cast(convert_to_tensor(local_step), dtypes.int64)
        return self._op(ACCUMULATOR_APPLY, (step, grad), name or ACCUMULATOR_APPLY.type)

    def take_grad(self, num_required, name=None):
        """The mean (or sum) of `num_required` gradients, once they are in."""
        return self._op(ACCUMULATOR_TAKE, (convert_to_tensor(num_required, dtype=dtypes.int32),),
                        name or ACCUMULATOR_TAKE.type)


class SparseConditionalAccumulator(ConditionalAccumulatorBase):
    """Aggregates IndexedSlices-style gradients, averaging each index over the gradients that
    held it."""

    _NUM, _SET_STEP = SPARSE_ACCUMULATOR_NUM, SPARSE_ACCUMULATOR_SET_STEP

    def __init__(self, dtype, shape=None, shared_name=None,
                 name="sparse_conditional_accumulator", reduction_type="MEAN"):
        _make(self, SPARSE_ACCUMULATOR, True, dtype, shape, shared_name, name, reduction_type)

    def apply_indexed_slices_grad(self, grad, local_step=0, name=None):
        """Add an IndexedSlices gradient unless it is stale."""
        return self.apply_grad(grad_indices=grad.indices, grad_values=grad.values,
                               grad_shape=grad.dense_shape, local_step=local_step, name=name)

    def apply_grad(self, grad_indices, grad_values, grad_shape=None, local_step=0, name=None):
        """Add the gradient whose rows `grad_values` sit at `grad_indices` (of a tensor of
        shape `grad_shape`, if given) unless it is stale."""
        step = cast(convert_to_tensor(local_step), dtypes.int64)
        indices = cast(convert_to_tensor(grad_indices), dtypes.int64)
        values = convert_to_tensor(grad_values, dtype=self._dtype)
        shape = cast(convert_to_tensor([] if grad_shape is None else grad_shape,
                                       dtype=None if grad_shape is not None else dtypes.int64),
                     dtypes.int64)
        return self._op(SPARSE_ACCUMULATOR_APPLY, (step, indices, values, shape),
                        name or SPARSE_ACCUMULATOR_APPLY.type,
                        has_known_shape=grad_shape is not None)

    def take_grad(self, num_required, name=None):
        """(indices, values, shape) of the average of `num_required` gradients."""
        return SparseAccumulatorTakeGradient(*self._op(
            SPARSE_ACCUMULATOR_TAKE, (convert_to_tensor(num_required, dtype=dtypes.int32),),
            name or SPARSE_ACCUMULATOR_TAKE.type))

    def take_indexed_slices_grad(self, num_required, name=None):
        """The average of `num_required` gradients as an IndexedSlices."""
        indices, values, shape = self.take_grad(num_required, name)
        return IndexedSlices(values, indices, shape)
