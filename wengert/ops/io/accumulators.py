"""TensorFlow 1's conditional accumulators as graph ops, over the states of accumulator_states.py.

    ResourceConditionalAccumulator          the accumulator's handle; running it makes it
    ResourceAccumulatorApplyGradient(handle, local_step, gradient)      adds a dense gradient
    ResourceAccumulatorTakeGradient(handle, num_required) -> the mean (or sum) of the gradients
    ResourceAccumulatorNumAccumulated(handle) -> int32
    ResourceAccumulatorSetGlobalStep(handle, new_global_step)
    SparseConditionalAccumulator, SparseAccumulatorApplyGradient(handle, local_step, indices,
        values, shape), SparseAccumulatorTakeGradient(handle, num_required) -> (indices,
        values, shape), AccumulatorNumAccumulated, AccumulatorSetGlobalStep: the same for
        IndexedSlices-style gradients (TensorFlow keeps the sparse one on its old kernels)

The accumulator's spec travels in the `accumulator` attribute and a Session's store holds the
state of each spec (an eager call passes no store: the spec's own state), so two sessions of one
graph have two accumulators, as in TensorFlow. Every op is stateful and none has a gradient.
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.registry import defop
from ...framework.tensor_shape import TensorShape
from .accumulator_states import state_of

__all__ = ["ACCUMULATOR_APPLY", "ACCUMULATOR_NUM", "ACCUMULATOR_SET_STEP", "ACCUMULATOR_TAKE",
           "CONDITIONAL_ACCUMULATOR", "SPARSE_ACCUMULATOR", "SPARSE_ACCUMULATOR_APPLY",
           "SPARSE_ACCUMULATOR_NUM", "SPARSE_ACCUMULATOR_SET_STEP", "SPARSE_ACCUMULATOR_TAKE"]


def _create(store, *, accumulator):
    dtype = accumulator.dtype
    if dtype.name not in ("float16", "float32", "float64"):  # TensorFlow's CPU kernels
        op_type = "SparseConditionalAccumulator" if accumulator.sparse else \
            "ResourceConditionalAccumulator"
        raise InvalidArgumentError(
            f"No OpKernel was registered to support Op '{op_type}' used by {{{{node "
            f"{accumulator.name}}}}} with these attrs: [dtype=DT_{dtype.name.upper()}]: "
            "TensorFlow's accumulators hold half, float or double gradients; cast them.")
    state_of(store, accumulator)
    return np.array(0, np.int64)


def _apply(store, handle, local_step, gradient, *, accumulator):
    state_of(store, accumulator)._apply_dense(int(local_step), np.asarray(gradient))


def _take(store, handle, num_required, *, accumulator):
    return state_of(store, accumulator)._take_dense(int(num_required))


def _num(store, handle, *, accumulator):
    return np.array(state_of(store, accumulator).count, np.int32)


def _set_step(store, handle, new_global_step, *, accumulator):
    state_of(store, accumulator)._set_step(int(new_global_step))


def _sparse_apply(store, handle, local_step, indices, values, shape, *, accumulator,
                  has_known_shape):
    state_of(store, accumulator)._apply_sparse(
        int(local_step), [int(i) for i in np.asarray(indices).ravel()], np.asarray(values),
        [int(d) for d in np.asarray(shape).ravel()], has_known_shape)


def _sparse_take(store, handle, num_required, *, accumulator):
    spec = accumulator.shape
    dims = spec.as_list() if spec.rank is not None else []
    indices, values = state_of(store, accumulator)._take_sparse(
        int(num_required), [d or 0 for d in dims[1:]])
    shape = np.array([-1 if d is None else d for d in dims], np.int64)
    return indices, values, shape


def _handle_rule(*, accumulator):
    return TensorShape([]), dtypes.int64


def _none(*inputs, **attrs):
    return []


def _take_rule(handle, num_required, *, accumulator):
    return accumulator.shape, accumulator.dtype


def _sparse_take_rule(handle, num_required, *, accumulator):
    unknown = TensorShape(None)
    return [(unknown, dtypes.int64), (unknown, accumulator.dtype), (unknown, dtypes.int64)]


def _num_rule(handle, *, accumulator):
    return TensorShape([]), dtypes.int32


def _raw_creator(class_name):
    def create(dtype, shape, container="", shared_name="", reduction_type="MEAN", name=None):
        raise NotImplementedError(
            f"tf.raw_ops: wengert's accumulator ops take the accumulator object as their handle; "
            f"make one with tf.compat.v1.{class_name}({dtype!r}, {shape!r}) and pass it.")
    return create


CONDITIONAL_ACCUMULATOR = defop("ResourceConditionalAccumulator", _create, shape=_handle_rule,
                                grad=None, stateful=True,
                                raw=_raw_creator("ConditionalAccumulator"))
ACCUMULATOR_APPLY = defop(
    "ResourceAccumulatorApplyGradient", _apply, shape=_none, grad=None, num_outputs=0,
    stateful=True, raw=lambda handle, local_step, gradient, name=None: handle.apply_grad(
        gradient, local_step, name=name))
ACCUMULATOR_TAKE = defop(
    "ResourceAccumulatorTakeGradient", _take, shape=_take_rule, grad=None, stateful=True,
    raw=lambda handle, num_required, dtype, name=None: handle.take_grad(num_required, name))
ACCUMULATOR_NUM = defop("ResourceAccumulatorNumAccumulated", _num, shape=_num_rule, grad=None,
                        stateful=True,
                        raw=lambda handle, name=None: handle.num_accumulated(name))
ACCUMULATOR_SET_STEP = defop(
    "ResourceAccumulatorSetGlobalStep", _set_step, shape=_none, grad=None, num_outputs=0,
    stateful=True, raw=lambda handle, new_global_step, name=None: handle.set_global_step(
        new_global_step, name))
SPARSE_ACCUMULATOR = defop("SparseConditionalAccumulator", _create, shape=_handle_rule,
                           grad=None, stateful=True,
                           raw=_raw_creator("SparseConditionalAccumulator"))
SPARSE_ACCUMULATOR_APPLY = defop(
    "SparseAccumulatorApplyGradient", _sparse_apply, shape=_none, grad=None, num_outputs=0,
    tf_inputs=("handle", "local_step", "gradient_indices", "gradient_values", "gradient_shape"),
    stateful=True, raw=lambda handle, local_step, gradient_indices, gradient_values,
    gradient_shape, has_known_shape, name=None: handle.apply_grad(
        gradient_indices, gradient_values, gradient_shape if has_known_shape else None,
        local_step, name))
SPARSE_ACCUMULATOR_TAKE = defop(
    "SparseAccumulatorTakeGradient", _sparse_take, shape=_sparse_take_rule, grad=None,
    num_outputs=3, stateful=True,
    raw=lambda handle, num_required, dtype, name=None: handle.take_grad(num_required, name))
SPARSE_ACCUMULATOR_NUM = defop("AccumulatorNumAccumulated", _num, shape=_num_rule, grad=None,
                               stateful=True,
                               raw=lambda handle, name=None: handle.num_accumulated(name))
SPARSE_ACCUMULATOR_SET_STEP = defop(
    "AccumulatorSetGlobalStep", _set_step, shape=_none, grad=None, num_outputs=0,
    stateful=True, raw=lambda handle, new_global_step, name=None: handle.set_global_step(
        new_global_step, name))
