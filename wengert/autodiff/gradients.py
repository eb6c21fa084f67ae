"""`gradients()` and `hessians()` for graph mode: the reverse pass, building nodes.

`gradients(ys, xs)` hands the graph's ops (creation order is execution order) to the same
`backprop.backward` the tape uses. Because gradient rules are written in wengert ops and a graph is
being built, every step of the chain rule becomes new nodes in the graph, under the name scope
"gradients": the graph is extended with its own derivative, as TensorFlow does. Gradients of those
nodes again give second and higher derivatives.
"""
from ..framework.context import state
from ..framework.tensor import convert_to_tensor
from ..ops import array_ops, broadcast_ops, reshape_ops
from ..util import nest
from .backprop import UnconnectedGradients, backward

__all__ = ["gradients", "hessians"]


def gradients(ys, xs, grad_ys=None, name="gradients", gate_gradients=False,
              aggregation_method=None, stop_gradients=None,
              unconnected_gradients=UnconnectedGradients.NONE):
    """Symbolic d(sum ys)/d(xs): a list with one tensor (or None) per x. aggregation_method
    must be one of tf.AggregationMethod's (TensorFlow's ValueError otherwise); each sums a
    tensor's gradients to the same value. gate_gradients groups TensorFlow's gradient ops
    under control dependencies, which changes no value, and one thread runs them here."""
    _check_aggregation_method(aggregation_method)
    del gate_gradients
    graph = state.graph
    if graph is None:
        raise RuntimeError("tf.gradients is not supported when eager execution is enabled. Use "
                           "tf.GradientTape instead (or build a graph: tf.function, or "
                           "with tf.Graph().as_default()).")
    ys = [convert_to_tensor(y) for y in nest.flatten(ys)]
    xs = nest.flatten(xs)
    for t in ys + xs:
        owner = getattr(t, "graph", None)
        if owner is not None and owner is not graph:
            raise ValueError(f"tf.gradients: {t.name!r} belongs to another graph than the one "
                             "being built; build ys and xs in the same graph.")
    stop_ids = frozenset(id(t) for t in nest.flatten(stop_gradients or []))
    records = list(graph._ops)
    with graph.name_scope(name):
        seeds = _seeds(ys, grad_ys)
        return backward(records, ys, xs, seeds, unconnected_gradients, stop_ids)


def _check_aggregation_method(method):
    """ADD_N (0, the default), EXPERIMENTAL_TREE (1) or EXPERIMENTAL_ACCUMULATE_N (2)."""
    if method is not None and method not in (0, 1, 2):
        raise ValueError(f"Invalid `aggregation_method` specified {method}. Accepted values "
                         "are [0, 1, 2].")


def _seeds(ys, grad_ys):
    if grad_ys is None:
        return [broadcast_ops.ones_like(y) for y in ys]
    grad_ys = nest.flatten(grad_ys)
    if len(grad_ys) != len(ys):
        raise ValueError(f"grad_ys has {len(grad_ys)} entries but ys has {len(ys)}.")
    seeds = []
    for y, g in zip(ys, grad_ys):
        g = broadcast_ops.ones_like(y) if g is None else convert_to_tensor(g, dtype=y.dtype)
        if not y.shape.is_compatible_with(g.shape):
            raise ValueError(f"grad_ys for {y.name!r} has shape {g.shape}, but the tensor has "
                             f"shape {y.shape}; each grad_ys entry must match its ys entry.")
        seeds.append(g)
    return seeds


def hessians(ys, xs, name="hessians", colocate_gradients_with_ops=False,
             gate_gradients=False, aggregation_method=None):
    """For each x, the Hessian of sum(ys) with respect to x, shaped x.shape + x.shape.

    Row i is the gradient of the i-th entry of the (flattened) gradient, so x needs a statically
    known size. All nodes go under the name scope `name`. aggregation_method and
    gate_gradients as for gradients(); colocate_gradients_with_ops places gradient ops on
    their forward ops' devices, which is the one CPU here (and in TensorFlow on a CPU)."""
    _check_aggregation_method(aggregation_method)
    del gate_gradients, colocate_gradients_with_ops
    graph = state.graph
    if graph is None:
        raise RuntimeError("tf.hessians is not supported when eager execution is enabled. Use "
                           "nested tf.GradientTape (tape.jacobian of a gradient) instead.")
    xs = nest.flatten(xs)
    out = []
    with graph.name_scope(name):
        for x in xs:
            size = x.shape.num_elements() if x.shape.rank is not None else None
            if size is None:
                raise ValueError(f"hessians needs a statically known shape for {x.name!r}, "
                                 f"which has shape {x.shape}; give the placeholder a full shape.")
            grad = gradients(ys, [x])[0]
            if grad is None:
                out.append(None)
                continue
            flat = reshape_ops.reshape(grad, [-1])
            rows = [reshape_ops.reshape(gradients(flat[i], [x], unconnected_gradients="zero")[0],
                                      [-1]) for i in range(size)]
            out.append(reshape_ops.reshape(array_ops.stack(rows), list(x.shape) * 2))
    return out
