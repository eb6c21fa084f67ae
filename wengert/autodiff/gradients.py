"""`gradients()` and `hessians()` for graph mode: the reverse pass, building nodes.

`gradients(ys, xs)` hands the graph's ops (creation order is execution order) to the same
`backprop.backward` the tape uses. Because gradient rules are written in wengert ops and a graph is
being built, every step of the chain rule becomes new nodes in the graph, under the name scope
"gradients": the graph is extended with its own derivative, as TensorFlow does. Gradients of those
nodes again give second and higher derivatives.
"""
from ..framework.context import state
from ..framework.tensor import convert_to_tensor
from ..ops import array_core
from ..util import nest
from .backprop import UnconnectedGradients, backward

__all__ = ["gradients", "hessians"]


def gradients(ys, xs, grad_ys=None, name="gradients", gate_gradients=False,
              aggregation_method=None, stop_gradients=None,
              unconnected_gradients=UnconnectedGradients.NONE):
    """Symbolic d(sum ys)/d(xs): a list with one tensor (or None) per x."""
    graph = state.graph
    if graph is None:
        raise RuntimeError("tf.gradients is not supported when eager execution is enabled. Use "
                           "tf.GradientTape instead (or build a graph: tf.function, or "
                           "with tf.Graph().as_default()).")
    ys = [convert_to_tensor(y) for y in nest.flatten(ys)]
    xs = nest.flatten(xs)
    stop_ids = frozenset(id(t) for t in nest.flatten(stop_gradients or []))
    records = list(graph._ops)
    with graph.name_scope(name):
        seeds = _seeds(ys, grad_ys)
        return backward(records, ys, xs, seeds, unconnected_gradients, stop_ids)


def _seeds(ys, grad_ys):
    if grad_ys is None:
        return [array_core.ones_like(y) for y in ys]
    grad_ys = nest.flatten(grad_ys)
    if len(grad_ys) != len(ys):
        raise ValueError(f"grad_ys has {len(grad_ys)} entries but ys has {len(ys)}.")
    return [array_core.ones_like(y) if g is None else convert_to_tensor(g, dtype=y.dtype)
            for y, g in zip(ys, grad_ys)]


def hessians(ys, xs, name="hessians", gate_gradients=False, aggregation_method=None):
    """For each x, the Hessian of sum(ys) with respect to x, shaped x.shape + x.shape."""
    from ..ops import array_ops
    xs = nest.flatten(xs)
    out = []
    for x in xs:
        grad = gradients(ys, [x], name=name)[0]
        if grad is None:
            out.append(None)
            continue
        flat = array_ops.reshape(grad, [-1])
        n = flat.shape[0]
        if n is None:
            raise ValueError(f"hessians needs a statically known size for {x!r}.")
        rows = []
        for i in range(n):
            row = gradients(flat[i], [x], name=name, unconnected_gradients="zero")[0]
            rows.append(array_ops.reshape(row, [-1]))
        out.append(array_ops.reshape(array_ops.stack(rows), list(x.shape) + list(x.shape)))
    return out
