"""`tf.sparse.add`: the sum of two sparse tensors, or of a sparse and a dense one.

SparseAdd (inputs a_indices, a_values, a_shape, b_indices, b_values, b_shape, thresh) merges the
entries of A and B by coordinate, as TensorFlow's kernel walks two canonically ordered lists:
a coordinate held by one operand keeps its value; one held by both gets a + b, and is dropped
when |a + b| < thresh. Outputs (sum_indices, sum_values, sum_shape) in row-major order.

SparseTensorDenseAdd (a_indices, a_values, a_shape, b) is the dense tensor b with A's values
added at A's coordinates (no broadcasting).

Derivatives. The sum is linear in the values once the kept coordinates are fixed: the gradient
of an operand's value is the incoming gradient at its coordinate in the sum, 0 where the
threshold dropped it (TensorFlow's SparseAddGrad), found by matching linear positions
(positions.py); the JVP pushes each operand's tangents into the sum's slots. For the dense sum,
d/d a_values = gather_nd(G, a_indices), d/db = G, and the op is linear.
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.registry import defop, linear
from ...framework.sparse_tensor import SparseTensor
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ..creation_ops import size
from ..indexing_ops import gather_nd
from .indices import check_bounds, linear_positions
from .positions import match, pull, push

__all__ = ["add"]


def _same_shape(op, a_shape, b_shape, dense=False):
    if len(a_shape) != len(b_shape):
        raise InvalidArgumentError(f"{op}: Operands do not have the same ranks; got shapes: "
                                   f"{list(a_shape)} and {list(b_shape)}")
    for d, (x, y) in enumerate(zip(a_shape, b_shape)):
        if x != y:
            raise InvalidArgumentError(
                f"{op}: Dimension {d} does not equal (no broadcasting is supported): sparse "
                f"side {x} vs dense side {y}" if dense else
                f"{op}: Operands' shapes do not match: got {x} and {y} for dimension {d}")


def _add_kernel(a_indices, a_values, a_shape, b_indices, b_values, b_shape, thresh):
    _same_shape("SparseAdd", a_shape, b_shape)
    check_bounds("SparseAdd", a_indices, a_shape)
    check_bounds("SparseAdd", b_indices, b_shape)
    where_a = linear_positions(a_indices, a_shape)
    where_b = linear_positions(b_indices, b_shape)
    merged, first, inverse = np.unique(np.concatenate([where_a, where_b]), return_index=True,
                                       return_inverse=True)
    values = np.zeros(len(merged), np.result_type(a_values, b_values))
    np.add.at(values, inverse, np.concatenate([a_values, b_values]))
    both = np.isin(merged, where_a) & np.isin(merged, where_b)
    keep = ~both | (np.abs(values) >= thresh)
    indices = np.concatenate([a_indices, b_indices]).astype(np.int64)[first]
    return indices[keep].reshape(-1, len(a_shape)), values[keep], np.array(a_shape, np.int64)


def _add_rule(a_indices, a_values, a_shape, b_indices, b_values, b_shape, thresh):
    rank = a_shape.shape[0] if a_shape.shape.rank == 1 else None
    return [(TensorShape([None, rank]), dtypes.int64), (TensorShape([None]), a_values.dtype),
            (a_shape.shape, dtypes.int64)]


def _add_grad(op, g_indices, g_values, g_shape=None):
    a_indices, b_indices, shape, out_indices = op.inputs[0], op.inputs[3], op.inputs[2], \
        op.outputs[0]
    grads = []
    for entries in (a_indices, b_indices):
        slot, found = match(entries, out_indices, shape)
        grads.append(pull(g_values, slot, found))
    return None, grads[0], None, None, grads[1], None, None


def _add_jvp(primals, tangents, outputs, **_):
    out_indices, out_values = outputs[0], outputs[1]
    shape, total = primals[2], None
    for entries, t in ((primals[0], tangents[1]), (primals[3], tangents[4])):
        if t is None:
            continue
        slot, found = match(entries, out_indices, shape)
        part = push(t, slot, found, size(out_values))
        total = part if total is None else total + part
    return None, total, None


SPARSE_ADD = defop("SparseAdd", _add_kernel, shape=_add_rule, grad=_add_grad, jvp=_add_jvp,
                   num_outputs=3,
                   raw=lambda a_indices, a_values, a_shape, b_indices, b_values, b_shape, thresh,
                   name=None: execute(SPARSE_ADD, _tensors(
                       a_indices, a_values, a_shape, b_indices, b_values, b_shape, thresh),
                       name=name))


def _dense_add_kernel(a_indices, a_values, a_shape, b):
    _same_shape("SparseTensorDenseAdd", a_shape, b.shape, dense=True)
    check_bounds("SparseTensorDenseAdd", a_indices, a_shape)
    out = np.array(b, dtype=np.result_type(a_values, b))
    np.add.at(out, tuple(np.asarray(a_indices, np.int64).T), a_values)
    return out


DENSE_ADD = defop("SparseTensorDenseAdd", _dense_add_kernel,
                  shape=lambda a_indices, a_values, a_shape, b: (b.shape, b.dtype),
                  grad=lambda op, g: (None, gather_nd(g, op.inputs[0]), None, g), jvp=linear,
                  raw=lambda a_indices, a_values, a_shape, b, name=None: execute(
                      DENSE_ADD, _tensors(a_indices, a_values, a_shape, b), name=name))


def _tensors(*parts):
    """TensorFlow's inputs, as tensors."""
    return tuple(convert_to_tensor(p) for p in parts)


def add(a, b, threshold=0):
    """a + b where at least one operand is a SparseTensor: sparse + sparse is a SparseTensor
    (coordinates both hold are dropped when |sum| < threshold), sparse + dense is dense."""
    a_sparse, b_sparse = isinstance(a, SparseTensor), isinstance(b, SparseTensor)
    if not (a_sparse or b_sparse):
        raise TypeError("At least one input should be SparseTensor; do you mean to use "
                        "tf.add()?")
    if a_sparse and b_sparse:
        if a.dtype != b.dtype:
            raise TypeError(f"sparse.add: the operands' values must have one dtype, got "
                            f"{a.dtype.name} and {b.dtype.name}.")
        real = a.dtype.real_dtype if a.dtype.is_complex else a.dtype
        thresh = convert_to_tensor(threshold, dtype=real)
        indices, values, shape = execute(SPARSE_ADD, (a.indices, a.values, a.dense_shape,
                                                      b.indices, b.values, b.dense_shape,
                                                      thresh))
        if a.shape.is_fully_defined():  # known while building: keep it known (TensorFlow)
            shape = convert_to_tensor(np.asarray(a.shape.as_list(), np.int64))
        return SparseTensor(indices, values, shape)
    if b_sparse:
        a, b = b, a
    dense = convert_to_tensor(b, dtype_hint=a.dtype)
    return execute(DENSE_ADD, (a.indices, a.values, a.dense_shape, dense))



def add_v1(a, b, threshold=None, thresh=None):
    """TensorFlow 1's tf.compat.v1.sparse.add: `thresh` is the older name of `threshold`."""
    if threshold is not None and thresh is not None:
        raise ValueError("sparse.add: give threshold or thresh (its older name), not both.")
    chosen = threshold if threshold is not None else thresh
    return add(a, b, threshold=0 if chosen is None else chosen)
