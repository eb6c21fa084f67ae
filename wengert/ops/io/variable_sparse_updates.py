"""`tf.Variable`'s sparse updates and reads (TensorFlow's ResourceScatter*, ResourceGather,
ResourceGatherNd and ResourceCountUpTo), installed here onto framework/'s Variable:

    v.scatter_update(IndexedSlices(u, i))   v[i] = u        (a row named twice gets one update)
    v.scatter_add / scatter_sub             v[k] += / -= the sum of the u whose index is k
    v.scatter_mul / scatter_div             v[k] *= / /= each u whose index is k (their product)
    v.scatter_max / scatter_min             v[k] = max / min(v[k], every u whose index is k)
    v.scatter_nd_update/add/sub(i, u)       the same at index tuples: i's last axis indexes v's
                                            leading axes (tensor_scatter_nd_*'s rule)
    v.batch_scatter_update(IndexedSlices)   v[b..., i[b..., j]] = u[b..., j] per batch position b
    v.sparse_read(i)                        gather(v, i): rows of v
    v.gather_nd(i)                          gather_nd(v, i)
    v.count_up_to(limit)                    v's value before adding one; OutOfRangeError at limit

With u of shape i.shape + v.shape[1:] (or a scalar, broadcast). Each update computes the new
value with the tensor_scatter/segment ops and assigns it, so it runs eagerly, inside a
tf.function and on a TensorFlow 1 graph variable (Session.run performs it) alike; it returns
what `assign` returns. A shape mismatch is an InvalidArgumentError eagerly (ValueError while a
graph is built), before anything is written. Gradients of a read: `sparse_read` is `gather`, so
the gradient with respect to the variable is IndexedSlices, as TensorFlow's ResourceGather;
`gather_nd` with indices of shape [N, 1] reads whole rows and gives IndexedSlices too (TF's
ResourceGatherNd gradient), other indices a dense gradient.
"""
from ...framework.context import state
from ...framework.errors import InvalidArgumentError
from ...framework.indexed_slices import IndexedSlices
from ...framework.tensor import convert_to_tensor
from ...framework.variables import Variable
from .. import math_ops
from ..array_ops import concat, stack
from ..broadcast_ops import broadcast_to
from ..creation_ops import range as _range
from ..indexing_ops import gather, gather_nd
from ..query_ops import shape as shape_of
from ..reshape_ops import expand_dims, squeeze
from ..scatter_ops import (tensor_scatter_nd_add, tensor_scatter_nd_max, tensor_scatter_nd_min,
                           tensor_scatter_nd_sub, tensor_scatter_nd_update)
from ..segment_ops import unsorted_segment_prod
from ..shape_ops import meshgrid
from .count_up_to import COUNT_UP_TO

__all__ = []


def _delta(var, sparse_delta, who, op_type):
    """(indices, updates) of an IndexedSlices, updates checked against indices.shape +
    var.shape[1:] (a scalar is broadcast to it)."""
    if not isinstance(sparse_delta, IndexedSlices):
        raise TypeError(f"Variable.{who}: Argument `sparse_delta` must be a `tf.IndexedSlices`. "
                        f"Received arg: {sparse_delta}")
    indices = convert_to_tensor(sparse_delta.indices)
    updates = convert_to_tensor(sparse_delta.values, dtype=var.dtype)
    want = indices.shape.concatenate(var.shape[1:])
    if updates.shape.rank == 0:
        return indices, broadcast_to(updates, concat([shape_of(indices), shape_of(var)[1:]], 0))
    if not want.is_compatible_with(updates.shape):
        error = ValueError if state.graph is not None else InvalidArgumentError
        raise error(f"Variable.{who}: {op_type} on variable '{var.name}': Must have updates.shape = "
                    f"indices.shape + params.shape[1:] or updates.shape = [], got updates.shape "
                    f"{updates.shape}, indices.shape {indices.shape}, params.shape {var.shape}.")
    return indices, updates


def _rows(combine, kind):
    """A method v.scatter_<kind>(sparse_delta): v = combine(v, indices, updates)."""
    op_type = f"ResourceScatter{kind.title()}"

    def method(self, sparse_delta, use_locking=False, name=None):
        indices, updates = _delta(self, sparse_delta, f"scatter_{kind}", op_type)
        return self.assign(combine(self.read_value(), indices, updates), name=name)
    method.__name__ = method.__qualname__ = f"scatter_{kind}"
    method.__doc__ = f"TensorFlow's {op_type} on this variable (see the module docstring)."
    return method


def _at_rows(scatter):
    return lambda value, indices, updates: scatter(value, expand_dims(indices, -1), updates)


def _by_product(combine):
    """v combined (multiplied or divided) with the product of the updates of each row."""
    def apply(value, indices, updates):
        rows = value.shape[0] if value.shape[0] is not None else shape_of(value)[0]
        return combine(value, unsorted_segment_prod(updates, indices, rows))
    return apply


def _nd(scatter, kind):
    op_type = f"ResourceScatterNd{kind.title()}"

    def method(self, indices, updates, name=None):
        updates = convert_to_tensor(updates, dtype=self.dtype)
        return self.assign(scatter(self.read_value(), convert_to_tensor(indices), updates),
                           name=name)
    method.__name__ = method.__qualname__ = f"scatter_nd_{kind}"
    method.__doc__ = f"TensorFlow's {op_type} on this variable (see the module docstring)."
    return method


def batch_scatter_update(self, sparse_delta, use_locking=False, name=None):
    """v[b..., indices[b..., j]] = updates[b..., j] for every batch position b."""
    if not isinstance(sparse_delta, IndexedSlices):
        _delta(self, sparse_delta, "batch_scatter_update", "ResourceScatterNdUpdate")  # raises
    indices = convert_to_tensor(sparse_delta.indices)
    rank = indices.shape.rank
    if rank is None or rank < 1:
        raise ValueError(f"Variable.batch_scatter_update: variable '{self.name}': indices must have a "
                         f"known rank of at least 1, got shape {indices.shape}.")
    dims = shape_of(indices, out_type=indices.dtype)
    grids = meshgrid(*[_range(dims[k], dtype=indices.dtype) for k in range(rank)],
                     indexing="ij")
    nd = stack([*grids[:rank - 1], indices], axis=-1)
    updates = convert_to_tensor(sparse_delta.values, dtype=self.dtype)
    return self.assign(tensor_scatter_nd_update(self.read_value(), nd, updates), name=name)


def sparse_read(self, indices, name=None):
    """The rows `indices` of the variable (gather; its gradient is IndexedSlices)."""
    return gather(self, indices, name=name)


def variable_gather_nd(self, indices, name=None):
    """gather_nd of the variable; whole rows ([N, 1] indices) read as sparse_read does."""
    indices = convert_to_tensor(indices)
    if indices.shape.rank == 2 and indices.shape[-1] == 1:
        return gather(self, squeeze(indices, -1), name=name)
    return gather_nd(self, indices, name=name)


def count_up_to(self, limit):
    """The variable's value before adding one to it; OutOfRangeError once it reached limit."""
    if self.dtype.name not in ("int32", "int64"):
        raise InvalidArgumentError(f"Variable.count_up_to: variable '{self.name}' must be int32 "
                                   f"or int64 to count, not {self.dtype.name}.")
    return COUNT_UP_TO.raw(self, int(limit), self.dtype)


_ROW_UPDATES = {
    "update": _at_rows(tensor_scatter_nd_update), "add": _at_rows(tensor_scatter_nd_add),
    "sub": _at_rows(tensor_scatter_nd_sub), "max": _at_rows(tensor_scatter_nd_max),
    "min": _at_rows(tensor_scatter_nd_min), "mul": _by_product(math_ops.multiply),
    "div": _by_product(math_ops.divide)}
_ND_UPDATES = {"update": tensor_scatter_nd_update, "add": tensor_scatter_nd_add,
               "sub": tensor_scatter_nd_sub}

# -- the installs ----------------------------------------------------------------------------------
for _kind, _combine in _ROW_UPDATES.items():
    setattr(Variable, f"scatter_{_kind}", _rows(_combine, _kind))
for _kind, _scatter in _ND_UPDATES.items():
    setattr(Variable, f"scatter_nd_{_kind}", _nd(_scatter, _kind))
Variable.batch_scatter_update = batch_scatter_update
Variable.sparse_read = sparse_read
Variable.gather_nd = variable_gather_nd
Variable.count_up_to = count_up_to
