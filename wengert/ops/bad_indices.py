"""TensorFlow's `bad_indices_policy` argument of gather_nd, scatter_nd and tensor_scatter_nd_*.

An index tuple is bad when one of its entries falls outside the dimension it indexes:
valid = all_j (0 <= indices[..., j] < dims[j]) over the tuple's entries j. The policies are
- "" (the default), "DEFAULT" and "ERROR": a bad tuple is an InvalidArgumentError (the ops'
  kernels check every tuple);
- "IGNORE": gather_nd gives zeros where a tuple is bad (it gathers at a clamped tuple and
  selects zeros there), and the scatters drop the updates of bad tuples.
Any other value is TensorFlow's NotFoundError (it has no kernel for the attribute's value).
"""
from ..framework.errors import NotFoundError
from .array_ops import concat, where
from .broadcast_ops import zeros_like
from .cast_ops import cast
from .math_ops import greater_equal, less, logical_and
from .query_ops import shape as shape_of
from .reduce_ops import reduce_all
from .reshape_ops import reshape

__all__ = ["ignores_bad_indices", "valid_tuples", "clamped", "zero_where_bad"]

_RAISING = ("", "DEFAULT", "ERROR")


def ignores_bad_indices(policy, what):
    """True for "IGNORE", False for the raising policies; NotFoundError for anything else."""
    if policy in _RAISING:
        return False
    if policy == "IGNORE":
        return True
    raise NotFoundError(f"{what}: bad_indices_policy must be '', 'DEFAULT', 'ERROR' or 'IGNORE', "
                        f"got {policy!r}.")


def valid_tuples(indices, target):
    """A bool tensor of indices.shape[:-1]: whether each index tuple lies inside the leading
    dimensions of `target` (a tensor whose shape the tuples index)."""
    depth = indices.shape[-1]
    if depth is None:
        raise NotImplementedError("bad_indices_policy='IGNORE' needs the last dimension of "
                                  f"indices known, got shape {indices.shape}.")
    dims = cast(shape_of(target)[:depth], indices.dtype)
    inside = logical_and(greater_equal(indices, zeros_like(indices)), less(indices, dims))
    return reduce_all(inside, axis=-1)


def clamped(indices, valid):
    """The tuples with each bad one replaced by zeros (a tuple that every kernel accepts)."""
    return where(reshape(valid, _with_ones(valid, 1)), indices, zeros_like(indices))


def zero_where_bad(out, valid):
    """`out` (one slice per tuple, leading dimensions valid.shape) with zeros at bad tuples."""
    extra = out.shape.rank - valid.shape.rank
    return where(reshape(valid, _with_ones(valid, extra)), out, zeros_like(out))


def _with_ones(valid, count):
    return concat([shape_of(valid), [1] * count], 0) if count else shape_of(valid)
