"""tensor_scatter_nd_update / add / sub / min / max: a copy of `tensor` with `updates` written,
added, subtracted, or combined by min / max at the index tuples in the last axis of `indices`
(TensorScatterUpdate, TensorScatterAdd, TensorScatterSub, TensorScatterMin, TensorScatterMax).

Repeated index tuples accumulate for add and sub (and min / max take the extreme of all of them);
for update the last write wins. Gradients, TensorFlow's (g the incoming gradient, gather_nd(g) the
gradient at the updated positions):

    update:  d tensor = g with 0 at the updated positions,   d updates = gather_nd(g)
    add:     d tensor = g,                                    d updates = gather_nd(g)
    sub:     d tensor = g,                                    d updates = -gather_nd(g)
    min/max: the output takes its value from tensor and/or the updates that equal it there; the
             gradient is split evenly among them: with a = [tensor = out] and b = [update =
             gathered out], n = a + scatter_nd(b) (>= 1), d tensor = g a / n and
             d updates = gather_nd(g / n) b.

All are linear in (tensor, updates) given the positions, except min / max, whose JVP routes
the tangents by the same indicators. Indices get no gradient.
"""
import numpy as np

from ..framework.errors import InvalidArgumentError
from ..framework.execute import execute
from ..framework.registry import defop, linear_in, needs_grad
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from .broadcast_ops import zeros_like
from .creation_ops import shape as shape_of
from .bad_indices import ignores_bad_indices
from .indexing_ops import _check_index_dtype, _nd_key, drop_bad_tuples, gather_nd, scatter_nd
from .math_ops import cast, equal

__all__ = ["tensor_scatter_nd_update", "tensor_scatter_nd_add", "tensor_scatter_nd_sub",
           "tensor_scatter_nd_min", "tensor_scatter_nd_max"]


def _updates_shape(tensor_shape, indices_shape):
    """The shape updates must have: indices.shape[:-1] + tensor.shape[depth:]."""
    depth = indices_shape[-1]
    return TensorShape(list(indices_shape[:-1]) + list(tensor_shape[depth:]))


def _scatter_rule(tensor, indices, updates):
    _check_index_dtype(indices)
    if tensor.dtype != updates.dtype:
        raise InvalidArgumentError(f"tensor and updates must share a dtype, got "
                                   f"{tensor.dtype.name} and {updates.dtype.name}.")
    known = (tensor.shape.rank is not None and indices.shape.rank is not None
             and updates.shape.rank is not None and indices.shape[-1] is not None)
    if known:
        if indices.shape.rank == 0 or indices.shape[-1] > tensor.shape.rank:
            raise InvalidArgumentError(f"indices of shape {indices.shape} must have a last "
                                       f"dimension <= the rank of tensor {tensor.shape}.")
        want = _updates_shape(tensor.shape, indices.shape)
        if not want.is_compatible_with(updates.shape):
            raise InvalidArgumentError(f"updates must have shape {want} (indices.shape[:-1] + "
                                       f"tensor.shape[depth:]), got {updates.shape}.")
    return tensor.shape, tensor.dtype


def _kernel(combine):
    def kernel(tensor, indices, updates):
        out = tensor.copy()
        key = _nd_key(indices, tensor.shape, "TensorScatter")
        combine(out, key, updates)
        return out
    return kernel


def _assign(out, key, updates):
    out[key] = updates


# -- gradients ----------------------------------------------------------------------------------
def _update_grad(op, grad):
    _, indices, updates = op.inputs
    d_tensor = tensor_scatter_nd_update(grad, indices, zeros_like(updates)) \
        if needs_grad(op, 0) else None
    return d_tensor, None, gather_nd(grad, indices) if needs_grad(op, 2) else None


def _add_grad(op, grad):
    return grad, None, gather_nd(grad, op.inputs[1]) if needs_grad(op, 2) else None


def _sub_grad(op, grad):
    return grad, None, -gather_nd(grad, op.inputs[1]) if needs_grad(op, 2) else None


def _indicators(tensor, indices, updates, out):
    """(a, b, n): where tensor holds the output, where each update does, and how many do."""
    a = cast(equal(tensor, out), tensor.dtype)
    b = cast(equal(updates, gather_nd(out, indices)), tensor.dtype)
    return a, b, a + scatter_nd(indices, b, shape_of(tensor))


def _extremum_grad(op, grad):
    tensor, indices, updates = op.inputs
    a, b, n = _indicators(tensor, indices, updates, op.outputs[0])
    return grad * a / n, None, gather_nd(grad / n, indices) * b


def _extremum_jvp(primals, tangents, outputs, **_):
    tensor, indices, updates = primals
    t_tensor, t_updates = tangents[0], tangents[2]
    a, b, n = _indicators(tensor, indices, updates, outputs[0])
    out = None
    if t_tensor is not None:
        out = t_tensor * a / n
    if t_updates is not None:
        term = scatter_nd(indices, t_updates * b, shape_of(tensor)) / n
        out = term if out is None else out + term
    return out


def _update_jvp(primals, tangents, outputs, **_):
    tensor, indices, updates = primals
    t_tensor = tangents[0] if tangents[0] is not None else zeros_like(tensor)
    t_updates = tangents[2] if tangents[2] is not None else zeros_like(updates)
    return tensor_scatter_nd_update(t_tensor, indices, t_updates)


def _raw(public):
    """tf.raw_ops' TensorScatter*: TensorFlow's arguments onto `public()`'s."""
    return lambda tensor, indices, updates, bad_indices_policy="", name=None: public()(
        tensor, indices, updates, bad_indices_policy=bad_indices_policy, name=name)


UPDATE = defop("TensorScatterUpdate", _kernel(_assign), shape=_scatter_rule, grad=_update_grad,
               jvp=_update_jvp,
               raw=lambda tensor, indices, updates, bad_indices_policy="", name=None: _scatter(
                   UPDATE, tensor, indices, updates, name, bad_indices_policy))
ADD = defop("TensorScatterAdd", _kernel(np.add.at), shape=_scatter_rule, grad=_add_grad,
            jvp=linear_in(0, 2),
            raw=_raw(lambda: tensor_scatter_nd_add))
SUB = defop("TensorScatterSub", _kernel(np.subtract.at), shape=_scatter_rule, grad=_sub_grad,
            jvp=linear_in(0, 2),
            raw=_raw(lambda: tensor_scatter_nd_sub))
MIN = defop("TensorScatterMin", _kernel(np.minimum.at), shape=_scatter_rule,
            grad=_extremum_grad, jvp=_extremum_jvp,
            raw=_raw(lambda: tensor_scatter_nd_min))
MAX = defop("TensorScatterMax", _kernel(np.maximum.at), shape=_scatter_rule,
            grad=_extremum_grad, jvp=_extremum_jvp,
            raw=_raw(lambda: tensor_scatter_nd_max))


def _scatter(op_def, tensor, indices, updates, name, bad_indices_policy=""):
    tensor = convert_to_tensor(tensor)
    indices = convert_to_tensor(indices)
    updates = convert_to_tensor(updates, dtype=tensor.dtype) if not hasattr(
        updates, "dtype") else convert_to_tensor(updates)
    _scatter_rule(tensor, indices, updates)
    if ignores_bad_indices(bad_indices_policy, f"tensor_scatter_nd ({op_def.type})"):
        indices, updates = drop_bad_tuples(indices, updates, tensor)
    return execute(op_def, (tensor, indices, updates), name=name)


def tensor_scatter_nd_update(tensor, indices, updates, name=None):
    """A copy of `tensor` with `updates` written at the index tuples of `indices` (the last
    of repeated tuples wins). The others take TensorFlow's bad_indices_policy (bad_indices.py);
    tf.tensor_scatter_nd_update has none, tf.raw_ops.TensorScatterUpdate has."""
    return _scatter(UPDATE, tensor, indices, updates, name)


def tensor_scatter_nd_add(tensor, indices, updates, bad_indices_policy="", name=None):
    """A copy of `tensor` with `updates` added at the index tuples (repeats add up)."""
    return _scatter(ADD, tensor, indices, updates, name, bad_indices_policy)


def tensor_scatter_nd_sub(tensor, indices, updates, bad_indices_policy="", name=None):
    """A copy of `tensor` with `updates` subtracted at the index tuples (repeats add up)."""
    return _scatter(SUB, tensor, indices, updates, name, bad_indices_policy)


def tensor_scatter_nd_min(tensor, indices, updates, bad_indices_policy="", name=None):
    """A copy of `tensor` holding min(tensor, updates...) at the index tuples."""
    return _scatter(MIN, tensor, indices, updates, name, bad_indices_policy)


def tensor_scatter_nd_max(tensor, indices, updates, bad_indices_policy="", name=None):
    """A copy of `tensor` holding max(tensor, updates...) at the index tuples."""
    return _scatter(MAX, tensor, indices, updates, name, bad_indices_policy)
