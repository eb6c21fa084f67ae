"""`tf.sparse.fill_empty_rows`: a default entry in every row that has none.

SparseFillEmptyRows (inputs indices [N, r], values [N], dense_shape [r], default_value) keeps
every entry, grouped by row (the first index) in increasing order and in input order within a
row, and adds the entry (row, 0, ..., 0) = default_value for each row with no entry. Outputs:
the new indices and values, empty_row_indicator [dense_shape[0]] (true for the filled rows),
and reverse_index_map [N] (where each input entry went in the output).

Derivatives (TensorFlow's SparseFillEmptyRowsGrad): with G the output values' gradient,
d/dvalues = gather(G, reverse_index_map) and d/ddefault = sum(G) - sum(d/dvalues), the sum over
the filled entries. The output values are linear in (values, default_value): the JVP scatters
the values' tangents to their outputs and puts the default's tangent on the filled entries.
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.registry import defop
from ...framework.sparse_tensor import SparseTensor
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ..broadcast_ops import ones_like
from ..creation_ops import size
from ..indexing_ops import gather
from ..reduce_ops import reduce_sum
from ..segment_ops import unsorted_segment_sum
from .conversions import check_sparse

__all__ = ["fill_empty_rows"]

_OP = "SparseFillEmptyRows"


def _fill_kernel(indices, values, dense_shape, default_value):
    if len(dense_shape) == 0:
        raise InvalidArgumentError(f"{_OP}: dense_shape must be a vector of at least one "
                                   "dimension, got a scalar.")
    rows = int(dense_shape[0])
    indices = np.asarray(indices, np.int64).reshape(-1, len(dense_shape))
    bad = (indices[:, 0] < 0) | (indices[:, 0] >= rows)
    if bad.any():
        i = int(np.argmax(bad))
        raise InvalidArgumentError(f"{_OP}: indices({i}, 0) is invalid: {int(indices[i, 0])} "
                                   f"is not in [0, {rows}).")
    counts = np.bincount(indices[:, 0], minlength=rows)
    empty = counts == 0
    slots = counts + empty
    starts = np.concatenate([[0], np.cumsum(slots)[:-1]])
    order = np.argsort(indices[:, 0], kind="stable")
    reverse = np.empty(len(indices), np.int64)
    reverse[order] = starts[indices[order, 0]] + _rank_in_row(indices[order, 0])
    total = int(slots.sum())
    out_indices = np.zeros((total, len(dense_shape)), np.int64)
    out_values = np.empty(total, values.dtype)
    out_indices[reverse], out_values[reverse] = indices, values
    out_indices[starts[empty], 0] = np.nonzero(empty)[0]
    out_values[starts[empty]] = default_value
    return out_indices, out_values, empty, reverse


def _rank_in_row(sorted_rows):
    """For rows sorted ascending, each entry's position among the entries of its row."""
    n = len(sorted_rows)
    if n == 0:
        return np.zeros(0, np.int64)
    first = np.concatenate([[True], sorted_rows[1:] != sorted_rows[:-1]])
    return np.arange(n) - np.maximum.accumulate(np.where(first, np.arange(n), 0))


def _fill_rule(indices, values, dense_shape, default_value):
    rank = dense_shape.shape[0] if dense_shape.shape.rank == 1 else None
    return [(TensorShape([None, rank]), dtypes.int64), (TensorShape([None]), values.dtype),
            (TensorShape([None]), dtypes.bool), (indices.shape[:1], dtypes.int64)]


def _fill_grad(op, g_indices, g_values, g_empty=None, g_reverse=None):
    d_values = gather(g_values, op.outputs[3])
    return None, d_values, None, reduce_sum(g_values) - reduce_sum(d_values)


def _fill_jvp(primals, tangents, outputs, **_):
    t_values, t_default = tangents[1], tangents[3]
    out_values, reverse = outputs[1], outputs[3]
    count = size(out_values, out_type=dtypes.int64)
    from_input = unsorted_segment_sum(ones_like(primals[1]), reverse, count)
    total = None
    if t_values is not None:
        total = unsorted_segment_sum(t_values, reverse, count)
    if t_default is not None:
        part = (1 - from_input) * t_default
        total = part if total is None else total + part
    return None, total, None, None


FILL_EMPTY_ROWS = defop(
    _OP, _fill_kernel, shape=_fill_rule, grad=_fill_grad, jvp=_fill_jvp, num_outputs=4,
    raw=lambda indices, values, dense_shape, default_value, name=None: execute(
        FILL_EMPTY_ROWS, (convert_to_tensor(indices), convert_to_tensor(values),
                          convert_to_tensor(dense_shape), convert_to_tensor(default_value)),
        name=name))


def fill_empty_rows(sp_input, default_value, name=None):
    """(SparseTensor with `default_value` at (row, 0, ...) of every row that had no entry,
    empty_row_indicator): entries grouped by row, rows in increasing order."""
    sp = check_sparse(sp_input, "sparse.fill_empty_rows")
    default = convert_to_tensor(default_value, dtype=sp.dtype)
    if default.shape.rank not in (None, 0):
        raise ValueError(f"sparse.fill_empty_rows: default_value must be a scalar, got shape "
                         f"{default.shape}.")
    indices, values, empty, _ = execute(FILL_EMPTY_ROWS, (sp.indices, sp.values, sp.dense_shape,
                                                          default), name=name)
    return SparseTensor(indices, values, sp.dense_shape), empty
