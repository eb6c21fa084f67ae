"""What tf.sparse's kernels share about a sparse tensor's coordinates: the bounds and order
checks TensorFlow's kernels make, and the linear (row-major) position of each entry.

With dense_shape s of rank r, the strides are t_k = prod_{j>k} s_j, and entry i's linear
position is p_i = sum_k indices[i, k] t_k: indices are in canonical order exactly when p is
strictly increasing, and two entries name the same coordinate exactly when their p agree.
The checks raise TensorFlow's InvalidArgumentError naming the op, the entry and its index.
"""
import numpy as np

from ...framework.errors import InvalidArgumentError

__all__ = ["linear_positions", "check_bounds", "check_order", "check_entries"]


def linear_positions(indices, shape):
    """Each row of `indices` ([N, r]) as its row-major position in a tensor of `shape`."""
    shape = np.asarray(shape, np.int64)
    strides = np.ones(len(shape), np.int64)
    if len(shape) > 1:
        strides[:-1] = np.cumprod(shape[::-1])[::-1][1:]
    return np.asarray(indices, np.int64).reshape(-1, len(shape)) @ strides


def check_bounds(op, indices, shape):
    """InvalidArgumentError naming the first entry of `indices` outside `shape`."""
    if len(indices) == 0:
        return
    bound = np.asarray(shape, np.int64)
    if indices.shape[1] != len(bound):
        raise InvalidArgumentError(
            f"{op}: indices have {indices.shape[1]} columns but dense_shape has rank "
            f"{len(bound)}; give one index per dimension.")
    outside = np.any((indices < 0) | (indices >= bound), axis=1)
    if outside.any():
        i = int(np.argmax(outside))
        raise InvalidArgumentError(f"{op}: indices[{i}] = {indices[i].tolist()} is out of "
                                   f"bounds: need 0 <= index < {bound.tolist()}.")


def check_order(op, indices, shape, repeats=True):
    """InvalidArgumentError naming the first entry out of row-major order (or, with
    `repeats`, repeating the one before it)."""
    if len(indices) < 2:
        return
    step = np.diff(linear_positions(indices, shape))
    if (step < 0).any():
        i = int(np.argmax(step < 0)) + 1
        raise InvalidArgumentError(f"{op}: indices[{i}] = {indices[i].tolist()} is out of "
                                   "order; use tf.sparse.reorder to sort them first.")
    if repeats and (step == 0).any():
        i = int(np.argmax(step == 0)) + 1
        raise InvalidArgumentError(f"{op}: indices[{i}] = {indices[i].tolist()} is repeated.")


def check_entries(op, indices, shape):
    """Both checks: in bounds, then in canonical order without repeats."""
    check_bounds(op, indices, shape)
    check_order(op, indices, shape)
