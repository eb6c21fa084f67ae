"""`while_loop`: a Python loop eagerly, one `While` op in graphs and traced functions.

The `While` op, its gradient (a loop running backwards over the kept per-iteration values) and
the history ops are in cond.py; this module builds them from the user's `cond` and
`body` functions: loop variables flattened from any nested structure, shape invariants checked,
`maximum_iterations` honoured. As in TensorFlow 2, `back_prop=False` stops the gradient at the
outputs of a loop built in a graph or function and changes nothing eagerly, and
`parallel_iterations` must be a positive integer (TypeError); neither it nor `swap_memory`
changes a result (loop_options.py).
"""
import numpy as np

from ..framework import dtypes
from ..framework.context import state
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.variables import Variable
from ..ops.io import tensor_arrays
from ..util import nest
from .cond import _eager_pred, _eager_value, _structure
from .loop_options import check_loop_options, without_gradient
from .subgraphs import output_tensor, trace
from .while_op import WHILE, _while_op

__all__ = ["while_loop", "while_loop_history"]


# -- public: while_loop -------------------------------------------------------------------------------
def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10,
               back_prop=True, swap_memory=False, maximum_iterations=None, name=None):
    """Repeat `loop_vars = body(*loop_vars)` while `cond(*loop_vars)`; returns the final values in
    the structure of `loop_vars`. In a graph, one While op (differentiable, see module doc)."""
    if not callable(cond) or not callable(body):
        raise TypeError("while_loop: cond and body must be callables.")
    check_loop_options("while_loop", parallel_iterations, swap_memory)
    flows, rebuild = tensor_arrays.as_flows(loop_vars)
    if rebuild is not None:  # TensorArrays travel as their flow tensors
        return _with_tensor_arrays(cond, body, loop_vars, flows, rebuild, shape_invariants,
                                   (maximum_iterations, back_prop), name)
    flat = [_as_loop_tensor(v) for v in nest.flatten(loop_vars)]
    if not flat:
        raise ValueError("while_loop: loop_vars must hold at least one tensor.")
    invariants = _flat_invariants(loop_vars, shape_invariants, len(flat))
    for k, (t, inv) in enumerate(zip(flat, invariants)):
        if inv is not None and not inv.is_compatible_with(t.shape):
            raise ValueError(f"while_loop: the shape invariant {inv} of loop variable {k} is "
                             f"not compatible with its initial shape {t.shape}.")
    if state.graph is None:
        return _eager_while(cond, body, loop_vars, flat, invariants, maximum_iterations)
    return without_gradient(
        _graph_while(cond, body, loop_vars, flat, invariants, maximum_iterations, name),
        back_prop)


def _raw_while(input, cond, body, output_shapes=(), parallel_iterations=10,  # noqa: A002
               name=None):
    """tf.raw_ops.While: `cond` and `body` functions of the loop variables `input` (a list)."""
    return list(while_loop(lambda *v: cond(*v), lambda *v: body(*v), list(input),
                           parallel_iterations=parallel_iterations, name=name))


# The While op's tf.raw_ops function: while_op.py declares the op and cannot import this module.
WHILE.raw = _raw_while


def _with_tensor_arrays(cond, body, loop_vars, flows, rebuild, shape_invariants, limits,
                        name):
    """while_loop over the flows of the TensorArrays in loop_vars (their rows may grow);
    limits = (maximum_iterations, back_prop)."""
    maximum_iterations, back_prop = limits
    if state.graph is not None and any(isinstance(v, tensor_arrays.TensorArray) and
                                       v.element_shape.rank is None
                                       for v in nest.flatten(loop_vars)):
        loop_vars = _settle_element_shapes(body, loop_vars, flows, rebuild)
        flows, rebuild = tensor_arrays.as_flows(loop_vars)
    leaves = nest.flatten(loop_vars)
    given = nest.flatten(shape_invariants) if shape_invariants is not None else [None] * len(
        leaves)
    invariants = [tensor_arrays.flow_invariant(v) if isinstance(
        v, tensor_arrays.TensorArray) else inv for v, inv in zip(leaves, given)]
    if not any(inv is not None for inv in invariants):
        invariants = None
    elif nest.is_nested(loop_vars):
        invariants = nest.pack_sequence_as(flows, invariants)
    else:
        invariants = invariants[0]

    def cond_flows(*values):
        return cond(*_rebuilt(rebuild, values, loop_vars))

    def body_flows(*values):
        out = body(*_rebuilt(rebuild, values, loop_vars))
        return tensor_arrays.flows_of(out)
    result = while_loop(cond_flows, body_flows, flows, invariants, back_prop=back_prop,
                        maximum_iterations=maximum_iterations, name=name)
    return rebuild(result)


def _settle_element_shapes(body, loop_vars, flows, rebuild):
    """Give TensorArrays without an element shape the shape their first write in the body
    gives (found by tracing the body once, aside), so their flows keep one shape in the loop."""
    leaves, flat = nest.flatten(loop_vars), [_as_loop_tensor(t) for t in nest.flatten(flows)]
    unknown = [isinstance(v, tensor_arrays.TensorArray) and v.element_shape.rank is None
               for v in leaves]
    specs = [(t.dtype, TensorShape(None) if u else t.shape) for t, u in zip(flat, unknown)]

    def probe(*values):
        return tensor_arrays.flows_of(body(*_rebuilt(rebuild, values, loop_vars)))
    _, result = trace("while_probe", probe, specs, state.graph)
    settled = []
    for leaf, is_unknown, out in zip(leaves, unknown, nest.flatten(result)):
        shape = getattr(out, "shape", TensorShape(None))
        if is_unknown and shape.rank is not None and None not in shape.as_list()[1:]:
            leaf = tensor_arrays.with_element_shape(leaf, shape.as_list()[1:])
        settled.append(leaf)
    return nest.pack_sequence_as(loop_vars, settled) if nest.is_nested(loop_vars) else \
        settled[0]


def _rebuilt(rebuild, values, loop_vars):
    """The loop variables rebuilt around `values` (as the positional arguments of cond/body)."""
    structure = rebuild(values if nest.is_nested(loop_vars) else values[0])
    return structure if isinstance(loop_vars, (list, tuple)) else (structure,)


def _as_loop_tensor(v):
    if isinstance(v, Variable):
        return v._as_tensor(None)
    return convert_to_tensor(v)


def _flat_invariants(loop_vars, shape_invariants, n):
    """One TensorShape (or None) per flat loop variable."""
    if shape_invariants is None:
        return [None] * n
    flat, stack = [], [(loop_vars, shape_invariants)]
    while stack:
        var, inv = stack.pop()
        if nest.is_nested(var):
            keys = sorted(var, key=repr) if isinstance(var, dict) else range(len(var))
            if isinstance(var, dict):
                children = [(var[k], inv[k]) for k in sorted(var)]
            else:
                if len(inv) != len(var):
                    raise ValueError("while_loop: shape_invariants must have the structure of "
                                     "loop_vars.")
                children = [(var[k], inv[k]) for k in keys]
            stack.extend(reversed(children))
        else:
            flat.append(None if inv is None else TensorShape(inv))
    return flat


def _call(fn, loop_vars, flat):
    packed = nest.pack_sequence_as(loop_vars, flat)
    if isinstance(loop_vars, (list, tuple)):
        return fn(*packed)
    return fn(packed)


def _body_result(result, loop_vars, n):
    """The body's result as a flat list, checked against the loop variables' structure."""
    if isinstance(loop_vars, (list, tuple)) and len(loop_vars) == 1 and not isinstance(
            result, (list, tuple)):
        result = [result]
    if _structure(_lists(result)) != _structure(_lists(loop_vars)):
        raise ValueError(f"while_loop: body must return the structure of loop_vars "
                         f"{_structure(loop_vars)}, but it returned {_structure(result)}.")
    return nest.flatten(result)


def _lists(x):
    """x with tuples shown as lists (a body may return a tuple for list loop_vars)."""
    if isinstance(x, dict):
        return {k: _lists(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_lists(v) for v in x]
    return x


def _check_iteration(k, before, after, invariant):
    """The TensorFlow error for a loop variable whose dtype or shape changed."""
    if after.dtype is not before.dtype:
        raise TypeError(f"while_loop: loop variable {k} enters the loop with dtype "
                        f"{before.dtype.name}, but body returns dtype {after.dtype.name}; "
                        "the body must keep each loop variable's dtype (use cast).")
    allowed = invariant if invariant is not None else before.shape
    if not allowed.is_compatible_with(after.shape):
        raise ValueError(
            f"while_loop: loop variable {k} enters the loop with shape {before.shape}, but has "
            f"shape {after.shape} after one iteration. To allow the shape to vary across "
            "iterations, use the `shape_invariants` argument of while_loop to specify a "
            "less-specific shape.")


def _eager_while(cond, body, loop_vars, flat, invariants, maximum_iterations):
    limit = None if maximum_iterations is None else int(np.asarray(
        _eager_value(maximum_iterations)))
    count = 0
    while (limit is None or count < limit) and _eager_pred(_call(cond, loop_vars, flat),
                                                           "while_loop cond"):
        new = [_as_loop_tensor(v) for v in _body_result(_call(body, loop_vars, flat),
                                                         loop_vars, len(flat))]
        for k, (before, after) in enumerate(zip(flat, new)):
            _check_iteration(k, before, after, invariants[k])
        flat = new
        count += 1
    return nest.pack_sequence_as(loop_vars, flat)


def while_loop_history(cond, body, loop_vars, name=None):
    """A graph's `while_loop` that also returns, for each flat loop variable, the stack of its
    values at the start of every iteration ([iterations, ...], what a TensorArray written once
    per step holds; differentiable): (final values as loop_vars, list of stacks). Keras's
    recurrent layers read their per-step outputs from it."""
    if state.graph is None:
        raise RuntimeError("while_loop_history builds a graph's While op; eagerly, loop in "
                           "Python.")
    flat = [_as_loop_tensor(v) for v in nest.flatten(loop_vars)]
    out = _graph_while(cond, body, loop_vars, flat, [None] * len(flat), None, name,
                       keep_history=True)
    n = len(flat)
    return nest.pack_sequence_as(loop_vars, out[:n]), list(out[n + 1:])


def _graph_while(cond, body, loop_vars, flat, invariants, maximum_iterations, name,
                 keep_history=False):
    graph = state.graph
    specs = [(t.dtype, inv if inv is not None else t.shape) for t, inv in zip(flat, invariants)]
    cond_graph, pred = trace("while_cond", lambda *xs: _call(cond, loop_vars, list(xs)), specs,
                             graph)
    pred = output_tensor(cond_graph, pred, "while_loop cond")
    if pred.dtype is not dtypes.bool or pred.shape.rank not in (None, 0):
        raise TypeError(f"while_loop: cond must return a bool scalar, got {pred!r}.")
    cond_graph.outputs = [pred]
    body_graph, result = trace("while_body", lambda *xs: _call(body, loop_vars, list(xs)),
                               specs, graph)
    body_graph.outputs = [output_tensor(body_graph, v, "while_loop body")
                          for v in _body_result(result, loop_vars, len(flat))]
    for k, (placeholder, after) in enumerate(zip(body_graph.inputs, body_graph.outputs)):
        _check_iteration(k, placeholder, after, invariants[k])
    captured, seen = [], set()
    for sub in (cond_graph, body_graph):
        for outer_t, _ in sub.captures:
            if id(outer_t) not in seen:
                seen.add(id(outer_t))
                captured.append(outer_t)
    n = len(flat)
    for sub in (cond_graph, body_graph):
        sub.inputs = sub.inputs[:n] + sub.inputs_for(captured)
    limit = -1 if maximum_iterations is None else maximum_iterations
    out = _while_op(cond_graph, body_graph, limit, flat, captured, keep_history=keep_history,
                    name=name)
    if keep_history:
        return out
    return nest.pack_sequence_as(loop_vars, out[:n])
