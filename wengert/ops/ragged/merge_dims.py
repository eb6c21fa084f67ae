"""RaggedTensor.merge_dims: dimensions outer_axis..inner_axis joined into one.

It merges one pair of neighbouring dimensions at a time. Merging dimensions 0 and 1 drops the
outermost partition (its values, row after row, are the merged dimension). Merging 1 and 2
composes two partitions: row i of the result runs over the sub-rows s_i..s_{i+1} of the next
level, so its splits are that level's splits gathered at s (gather(inner_splits, s)); over a
uniform inner dimension of width w they are s * w. Deeper pairs apply the same one level down;
pairs inside the flat values are a reshape.
"""
from ...framework.ragged_tensor import RaggedTensor
from ..array_ops import concat
from ..creation_ops import shape as shape_of
from ..indexing_ops import gather
from ..math_ops import cast
from ..reshape_ops import reshape
from . import factories

__all__ = ["merge_dims"]


def _axis(axis, rank, what):
    if not isinstance(axis, int) or isinstance(axis, bool):
        raise TypeError(f"RaggedTensor.merge_dims: {what} must be an int, got {axis!r}.")
    if rank is None and axis < 0:
        raise ValueError(f"RaggedTensor.merge_dims: a negative {what} needs a known rank.")
    out = axis + rank if axis < 0 else axis
    if rank is not None and not 0 <= out < rank:
        raise ValueError(f"RaggedTensor.merge_dims: {what}={axis} is out of range for rank "
                         f"{rank}.")
    return out


def _merge_dense(x, outer, inner):
    dims = shape_of(x)
    return reshape(x, concat([dims[:outer], [-1], dims[inner + 1:]], 0))


def _merge_pair(rt, axis):
    """rt with dimensions axis and axis + 1 merged."""
    if not isinstance(rt, RaggedTensor):
        return _merge_dense(rt, axis, axis + 1)
    values = rt.values
    if axis == 0:
        return values if isinstance(values, RaggedTensor) else _merge_dense(values, 0, 0)
    if axis > 1:
        return rt.with_values(_merge_pair(values, axis - 1))
    if isinstance(values, RaggedTensor):
        return factories.wrap(values.values, gather(values.row_splits, rt.row_splits),
                              fn="merge_dims", validate=False)
    width = cast(shape_of(values)[1], rt.row_splits.dtype)
    return factories.wrap(_merge_dense(values, 0, 1), rt.row_splits * width, fn="merge_dims",
                          validate=False)


def merge_dims(self, outer_axis, inner_axis):
    """This tensor with dimensions outer_axis through inner_axis merged into one."""
    rank = self.shape.rank
    outer = _axis(outer_axis, rank, "outer_axis")
    inner = _axis(inner_axis, rank, "inner_axis")
    if outer > inner:
        raise ValueError(f"RaggedTensor.merge_dims: outer_axis ({outer_axis}) must be less "
                         f"than or equal to inner_axis ({inner_axis}).")
    result = self
    for _ in range(inner - outer):
        result = _merge_pair(result, outer)
    return result
