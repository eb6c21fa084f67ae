"""Elementwise ops over ragged tensors: every elementwise op (tf.add, tf.math.sin, comparisons,
casts, ...) and `tf.ragged.map_flat_values` act on the flat values, keeping the partitions.

For f applied elementwise to operands of which some are ragged:

    f(rt_1, ..., dense_k, ...) = rt_1.with_flat_values(f(rt_1.flat_values, ..., d_k, ...))

The ragged operands must share their partitions (equal row splits at every level; TensorFlow's
"Inputs must have identical ragged splits"). A dense operand broadcasts as TensorFlow's ragged
broadcasting allows: a scalar, or a tensor over the flat values' inner dimensions, as it is;
a tensor of the ragged tensor's full rank whose ragged dimensions have size 1 is spread to the
values by their row ids, level by level (d[i, 0, ...] for every value of row i). Because f runs
on the flat values, its gradient is f's own: it reaches the flat values (and whatever built
them) unchanged.
"""
import numpy as np

from ...framework import dispatch
from ...framework.errors import InvalidArgumentError
from ...framework.ragged_tensor import RaggedTensor
from ...framework.static_value import static_value
from ...framework.tensor import convert_to_tensor
from ...util import nest
from ..indexing_ops import gather
from ..reshape_ops import squeeze
from .partition_queries import value_rowids

__all__ = ["map_flat_values", "apply_elementwise", "same_partitions", "register"]


def same_partitions(a, b, fn):
    splits_a, splits_b = a.nested_row_splits, b.nested_row_splits
    if len(splits_a) != len(splits_b):
        raise InvalidArgumentError(f"{fn}: the ragged operands have ragged ranks "
                                   f"{len(splits_a)} and {len(splits_b)}; they must match.")
    for s, t in zip(splits_a, splits_b):
        if s is t:
            continue
        u, v = static_value(s), static_value(t)
        if u is not None and v is not None and (u.shape != v.shape or np.any(u != v)):
            raise InvalidArgumentError(f"{fn}: Inputs must have identical ragged splits; got "
                                       f"row splits {u.tolist()} and {v.tolist()}.")


def _spread(dense, rt):
    """dense (rank = rt's rank, ragged dimensions of size 1) as a tensor over rt's flat
    values."""
    level = rt
    while isinstance(level, RaggedTensor):
        if dense.shape[1] not in (1, None):
            raise ValueError(f"Elementwise op on a RaggedTensor of shape {rt.shape}: a dense "
                             f"operand of shape {dense.shape} must have size 1 in the ragged "
                             "dimensions to broadcast; convert it with "
                             "tf.RaggedTensor.from_tensor or pass its rows' values.")
        dense = squeeze(dense, [1])
        if dense.shape[0] != 1:
            dense = gather(dense, value_rowids(level))
        level = level.values
    return dense


def _flat_operand(value, template):
    if isinstance(value, RaggedTensor):
        return value.flat_values
    if not hasattr(value, "shape"):
        return value
    dense = convert_to_tensor(value, dtype_hint=template.dtype)
    rank, inner = dense.shape.rank, template.flat_values.shape.rank - 1
    if rank is None or rank <= inner:
        return dense
    if rank != template.shape.rank:
        raise ValueError(f"Elementwise op on a RaggedTensor of shape {template.shape}: a dense "
                         f"operand of shape {dense.shape} does not broadcast to it.")
    return _spread(dense, template)


def apply_elementwise(fn, operands, what="elementwise op"):
    """fn over the operands' flat values (see the module docstring), as a ragged tensor."""
    ragged = [x for x in operands if isinstance(x, RaggedTensor)]
    template = ragged[0]
    for other in ragged[1:]:
        same_partitions(template, other, what)
    result = fn(*[_flat_operand(x, template) for x in operands])
    return template.with_flat_values(result)


def map_flat_values(op, *args, **kwargs):
    """op(*args, **kwargs) with every RaggedTensor among them (at any depth of lists, tuples and
    dicts) replaced by its flat values; the result takes their partitions."""
    ragged = [x for x in nest.flatten([args, kwargs]) if isinstance(x, RaggedTensor)]
    if not ragged:
        return op(*args, **kwargs)
    template = ragged[0]
    for other in ragged[1:]:
        same_partitions(template, other, "tf.ragged.map_flat_values")

    def flat(x):
        return x.flat_values if isinstance(x, RaggedTensor) else x
    args = nest.map_structure(flat, args)
    kwargs = nest.map_structure(flat, kwargs)
    result = op(*args, **kwargs)
    rows, nvals = getattr(result, "shape", None), template.flat_values.shape[0]
    if rows is not None and rows.rank and nvals is not None and rows[0] not in (None, nvals):
        raise ValueError("tf.ragged.map_flat_values requires that the output of `op` have the "
                         f"same outer-dimension size as flat_values of any ragged inputs: got "
                         f"{rows[0]} rows for {nvals} values.")
    return template.with_flat_values(result)


def _handler(fn, operands):
    return apply_elementwise(fn, operands)


def register():
    """Make the elementwise ops dispatch ragged operands here (methods.py calls it)."""
    dispatch.register_elementwise(RaggedTensor, _handler)
