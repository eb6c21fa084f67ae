"""`tf.sets`: union, intersection, difference and size of sets held in the last dimension.

A tensor of rank r >= 2 (dense, or a SparseTensor) holds one set per position of its first r-1
dimensions: the values along the last dimension (a dense row's every value; a sparse row's
present values), duplicates counted once. For two such tensors with the same leading shape
the ops compute, position by position,

    union  A u B     intersection  A n B     difference  A - B  (or B - A)

and return a SparseTensor whose row at each position lists the result in increasing order
(bytes order for strings): indices [..., j] for the j-th element, dense_shape the leading shape
plus the largest result's size (0 when every result is empty). `size` counts each set of a
SparseTensor (int32, of the leading shape). Values are int8/16/32/64, uint8/16 or strings.

The ops are TensorFlow's DenseToDenseSetOperation, DenseToSparseSetOperation,
SparseToSparseSetOperation and SetSize; a (sparse, dense) pair is computed as (dense, sparse)
with the difference reversed, as tf.sets does. Not differentiable (the outputs are values picked
from the inputs, not functions of them).
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.registry import defop
from ...framework.sparse_tensor import SparseTensor
from ...framework.tensor import convert_to_tensor, string_array
from ...framework.tensor_shape import TensorShape

__all__ = ["union", "intersection", "difference", "size"]

_TYPES = (dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.uint16,
          dtypes.string)
_COMBINE = {"union": lambda a, b: a | b, "intersection": lambda a, b: a & b,
            "a-b": lambda a, b: a - b, "b-a": lambda a, b: b - a}


def _check_rank(shape, what):
    if len(shape) < 2:
        raise InvalidArgumentError(f"{what}: Shape {list(shape)} has rank {len(shape)} < 2: a "
                                   f"set operation takes sets along the last dimension of a "
                                   f"tensor of rank >= 2.")


def _dense_sets(values):
    values = np.asarray(values)
    _check_rank(values.shape, "set operation")
    lead = tuple(int(d) for d in values.shape[:-1])
    rows = values.reshape(-1, values.shape[-1]) if values.size else np.zeros(
        (int(np.prod(lead)), 0), values.dtype)
    return lead, {np.unravel_index(i, lead): set(row.tolist()) for i, row in enumerate(rows)}


def _sparse_sets(indices, values, shape, validate=True):
    shape = tuple(int(d) for d in np.asarray(shape))
    _check_rank(shape, "set operation")
    indices = np.asarray(indices, np.int64).reshape(-1, len(shape))
    if validate and len(indices) > 1:
        order = np.lexsort(indices.T[::-1])
        if np.any(order != np.arange(len(indices))):
            at = int(np.flatnonzero(order != np.arange(len(indices)))[0])
            raise InvalidArgumentError(
                f"set operation: indices of a SparseTensor set are out of order at entry {at}"
                f" ({indices[at].tolist()}): they must be sorted in row-major order "
                f"(tf.sparse.reorder sorts them; validate_indices=False skips the check).")
    sets = {}
    for index, value in zip(np.asarray(indices).tolist(), np.asarray(values).tolist()):
        sets.setdefault(tuple(index[:-1]), set()).add(value)
    return shape[:-1], sets


def _combine(lead1, sets1, lead2, sets2, operation, dtype):
    if lead1 != lead2:
        raise InvalidArgumentError(f"set operation: Mismatched shapes {list(lead1)} vs "
                                   f"{list(lead2)}: the two tensors' leading dimensions (all "
                                   f"but the last) must agree.")
    combine, empty = _COMBINE[operation], set()
    indices, values, width = [], [], 0
    for key in sorted(set(sets1) | set(sets2)):
        result = sorted(combine(sets1.get(key, empty), sets2.get(key, empty)))
        indices.extend((*key, j) for j in range(len(result)))
        values.extend(result)
        width = max(width, len(result))
    indices = np.array(indices, np.int64).reshape(-1, len(lead1) + 1)
    if dtype == dtypes.string:
        out = np.empty(len(values), dtype=object)
        out[:] = values
        values = string_array(out)
    else:
        values = np.array(values, dtype.as_numpy_dtype).reshape(-1)
    return indices, values, np.array(list(lead1) + [width], np.int64)


def _dense_dense(set1, set2, *, operation, dtype, validate=True):
    return _combine(*_dense_sets(set1), *_dense_sets(set2), operation, dtype)


def _dense_sparse(set1, indices2, values2, shape2, *, operation, dtype, validate=True):
    return _combine(*_dense_sets(set1), *_sparse_sets(indices2, values2, shape2, validate),
                    operation, dtype)


def _sparse_sparse(indices1, values1, shape1, indices2, values2, shape2, *, operation, dtype,
                   validate=True):
    return _combine(*_sparse_sets(indices1, values1, shape1, validate),
                    *_sparse_sets(indices2, values2, shape2, validate), operation, dtype)


def _result_rule(*inputs, operation, dtype, validate=True):
    rank = inputs[0].shape.rank if len(inputs) != 6 else None
    return [(TensorShape([None, rank]), dtypes.int64), (TensorShape([None]), dtype),
            (TensorShape([rank]), dtypes.int64)]


def _size_kernel(indices, values, shape, validate=True):
    lead, sets = _sparse_sets(indices, values, shape, validate)
    out = np.zeros(lead, np.int32)
    for key, members in sets.items():
        out[key] = len(members)
    return out


def _raw_set_op(op, *inputs, set_operation, validate_indices=True, name=None):
    dtype = convert_to_tensor(inputs[0]).dtype if op is not SPARSE_SPARSE else \
        convert_to_tensor(inputs[1]).dtype
    return execute(op, tuple(convert_to_tensor(x) for x in inputs),
                   {"operation": _operation(set_operation), "dtype": dtype,
                    "validate": bool(validate_indices)}, name)


def _operation(name):
    if name not in _COMBINE:
        raise InvalidArgumentError(f"Invalid set_operation {name!r}: one of 'union', "
                                   f"'intersection', 'a-b', 'b-a'.")
    return name


DENSE_DENSE = defop(
    "DenseToDenseSetOperation", _dense_dense, grad=None, num_outputs=3, shape=_result_rule,
    raw=lambda set1, set2, set_operation, validate_indices=True, name=None: _raw_set_op(
        DENSE_DENSE, set1, set2, set_operation=set_operation,
        validate_indices=validate_indices, name=name))
DENSE_SPARSE = defop(
    "DenseToSparseSetOperation", _dense_sparse, grad=None, num_outputs=3, shape=_result_rule,
    tf_inputs=("set1", "set2_indices", "set2_values", "set2_shape"),
    raw=lambda set1, set2_indices, set2_values, set2_shape, set_operation,
    validate_indices=True, name=None: _raw_set_op(
        DENSE_SPARSE, set1, set2_indices, set2_values, set2_shape,
        set_operation=set_operation, validate_indices=validate_indices, name=name))
SPARSE_SPARSE = defop(
    "SparseToSparseSetOperation", _sparse_sparse, grad=None, num_outputs=3, shape=_result_rule,
    tf_inputs=("set1_indices", "set1_values", "set1_shape", "set2_indices", "set2_values",
               "set2_shape"),
    raw=lambda set1_indices, set1_values, set1_shape, set2_indices, set2_values, set2_shape,
    set_operation, validate_indices=True, name=None: _raw_set_op(
        SPARSE_SPARSE, set1_indices, set1_values, set1_shape, set2_indices, set2_values,
        set2_shape, set_operation=set_operation, validate_indices=validate_indices, name=name))
SET_SIZE = defop(
    "SetSize", _size_kernel, grad=None, tf_inputs=("set_indices", "set_values", "set_shape"),
    shape=lambda indices, values, shape, validate=True: (TensorShape(None), dtypes.int32),
    raw=lambda set_indices, set_values, set_shape, validate_indices=True, name=None: execute(
        SET_SIZE, tuple(convert_to_tensor(x) for x in (set_indices, set_values, set_shape)),
        {"validate": bool(validate_indices)}, name))


def _operand(x, what):
    if not isinstance(x, SparseTensor):
        x = convert_to_tensor(x)
    if x.dtype not in _TYPES:
        raise TypeError(f"'{what}' has invalid dtype `{x.dtype}` not in supported dtypes: "
                        f"{sorted(d.name for d in _TYPES)}.")
    return x


def _set_operation(a, b, operation, validate_indices, name):
    a, b = _operand(a, "a"), _operand(b, "b")
    if a.dtype != b.dtype:
        raise TypeError(f"Types don't match, {a.dtype} vs {b.dtype}: both sets must hold one "
                        f"dtype.")
    if isinstance(a, SparseTensor) and not isinstance(b, SparseTensor):
        a, b = b, a
        operation = {"a-b": "b-a", "b-a": "a-b"}.get(operation, operation)
    attrs = {"operation": operation, "dtype": a.dtype, "validate": bool(validate_indices)}
    if isinstance(a, SparseTensor):
        op, inputs = SPARSE_SPARSE, (a.indices, a.values, a.dense_shape, b.indices, b.values,
                                     b.dense_shape)
    elif isinstance(b, SparseTensor):
        op, inputs = DENSE_SPARSE, (a, b.indices, b.values, b.dense_shape)
    else:
        op, inputs = DENSE_DENSE, (a, b)
    return SparseTensor(*execute(op, inputs, attrs, name))


def union(a, b, validate_indices=True, name=None):
    """The union of the sets in the last dimension of `a` and `b`, as a SparseTensor."""
    return _set_operation(a, b, "union", validate_indices, name)


def intersection(a, b, validate_indices=True, name=None):
    """The intersection of the sets in the last dimension of `a` and `b`."""
    return _set_operation(a, b, "intersection", validate_indices, name)


def difference(a, b, aminusb=True, validate_indices=True, name=None):
    """a - b (or b - a when aminusb is False) of the sets in the last dimension."""
    return _set_operation(a, b, "a-b" if aminusb else "b-a", validate_indices, name)


def size(a, validate_indices=True, name=None):
    """The number of distinct values in each set of a SparseTensor (int32)."""
    if not isinstance(a, SparseTensor):
        raise TypeError(f"Expected `SparseTensor`, got {a}.")
    _operand(a, "a")
    return execute(SET_SIZE, (a.indices, a.values, a.dense_shape),
                   {"validate": bool(validate_indices)}, name)
