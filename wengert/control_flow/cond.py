"""`cond`, `case` and `switch_case`, with gradients: the `If` and `Case` ops (the `While` op behind
`while_loop` is in while_op.py, built by while_loop.py).

Eagerly these are plain Python: `cond` calls the branch the predicate selects. The ops the chosen
code runs are recorded on the tapes as usual, so gradients follow the path the data took and need
nothing new.

In graph mode (a Session graph or a traced `function`) each is ONE op holding its code as
sub-graphs (subgraphs.py); tensors of the enclosing graph that the code uses become
extra inputs of the op.

`If(pred, *inputs)` runs `then_branch` or `else_branch` on the inputs (`Case(index, *inputs)`
runs `branches[index]`, the last one when the index is out of range). The derivative of
y = pred ? f(x) : g(x) is pred ? df : dg, so the gradient op is again an If over the branches'
VJP sub-graphs: the taken branch's inputs get v^T df/dx, every input the branch does not use gets
zeros (TensorFlow 2: cond(p, x*y*2, 2.0) gives dx = 4 when p holds and 0 when it does not).

State. When the code of an op reads or assigns variables (or prints, or pulls from an
iterator), the op is declared stateful (variadic.py): plans run it in program order even
when nothing needs its outputs, and its kernel receives the variable store and hands it to its
sub-graphs. Gradient ops recompute the forward code with a store that drops writes.
"""
import numpy as np

from ..framework import dtypes
from ..framework.context import op_scope, state
from ..framework.errors import InvalidArgumentError
from ..framework.registry import defop, needs_grad
from ..framework.tensor import Tensor, array_of, convert_to_tensor
from ..framework.variables import Variable
from ..ops import broadcast_ops
from ..runtime.variable_store import LIVE_VARIABLES
from ..util import nest
from .subgraphs import (as_bool_scalar, check_compatible, most_specific_common_shape,
                        output_tensor, trace, vjp_graph)
from .variadic import register, run, single_or_tuple, store_for, with_outputs

__all__ = ["cond", "case", "switch_case"]


# -- ops with a variable number of outputs --------------------------------------------------------


# -- If and Case ----------------------------------------------------------------------------------
def _if_kernel(pred, *args, then_branch, else_branch, discard_writes=False):
    return _if_stateful_kernel(LIVE_VARIABLES, pred, *args, then_branch=then_branch,
                               else_branch=else_branch, discard_writes=discard_writes)


def _if_stateful_kernel(store, pred, *args, then_branch, else_branch, discard_writes=False):
    branch = then_branch if as_bool_scalar(pred, "If") else else_branch
    return single_or_tuple(branch.run(list(args), store_for(store, discard_writes)))


def _case_kernel(index, *args, branches, discard_writes=False):
    return _case_stateful_kernel(LIVE_VARIABLES, index, *args, branches=branches,
                                 discard_writes=discard_writes)


def _case_stateful_kernel(store, index, *args, branches, discard_writes=False):
    i = int(index)
    branch = branches[i] if 0 <= i < len(branches) else branches[-1]
    return single_or_tuple(branch.run(list(args), store_for(store, discard_writes)))


def _branch_specs(branches):
    first = branches[0].outputs
    specs = [(most_specific_common_shape([b.outputs[i].shape for b in branches]), t.dtype)
             for i, t in enumerate(first)]
    return specs[0] if len(specs) == 1 else specs


def _if_rule(pred, *args, then_branch, else_branch, discard_writes=False):
    return _branch_specs((then_branch, else_branch))


def _case_rule(index, *args, branches, discard_writes=False):
    return _branch_specs(branches)


def _branches_grad(op, grads, branches, rebuild):
    """Gradient of If/Case: the same selection over the branches' VJP sub-graphs."""
    xs = op.inputs[1:]
    needed = tuple(i for i, x in enumerate(xs)
                   if x.dtype.is_differentiable and needs_grad(op, i + 1))
    if not needed:
        return [None] * len(op.inputs)
    seeds = [g if g is not None else broadcast_ops.zeros_like(t)
             for g, t in zip(grads, op.outputs) if t.dtype.is_differentiable]
    grad_branches = [vjp_graph(b, needed, f"{b.name}_grad") for b in branches]
    attrs = {**rebuild(grad_branches), "discard_writes": True}
    out = run(with_outputs(op.op_def, len(needed), attrs), [op.inputs[0], *xs, *seeds], attrs)
    out = [out] if len(needed) == 1 else list(out)
    result = [None] * len(op.inputs)
    for i, g in zip(needed, out):
        result[i + 1] = g
    return result


def _if_grad(op, *grads):
    return _branches_grad(op, grads, (op.get_attr("then_branch"), op.get_attr("else_branch")),
                          lambda gs: {"then_branch": gs[0], "else_branch": gs[1]})


def _case_grad(op, *grads):
    return _branches_grad(op, grads, op.get_attr("branches"),
                          lambda gs: {"branches": tuple(gs)})


def _outputs(result):
    """A branch's result as the list of tensors tf.raw_ops' If and Case return."""
    return list(result) if isinstance(result, (list, tuple)) else [result]


# tf.raw_ops.If and Case: the branches (functions of the inputs) onto cond and switch_case
IF = defop("If", _if_kernel, shape=_if_rule, grad=_if_grad, returns_view=True,
           raw=lambda cond, input, Tout, then_branch, else_branch, output_shapes=(),  # noqa: N803
           name=None: _outputs(_cond(cond, lambda: then_branch(*input),
                                     lambda: else_branch(*input), name)))
CASE = defop("Case", _case_kernel, shape=_case_rule, grad=_case_grad, returns_view=True,
             raw=lambda branch_index, input, Tout, branches, output_shapes=(),  # noqa: N803
             name=None: _outputs(switch_case(branch_index, [
                 (lambda f: lambda: f(*input))(f) for f in branches], name=name)))
register(IF, _if_stateful_kernel)
register(CASE, _case_stateful_kernel)


# -- public: cond, case, switch_case --------------------------------------------------------------
def cond(pred, true_fn=None, false_fn=None, name=None):
    """`true_fn()` if `pred` else `false_fn()`; in a graph, one If op holding both branches."""
    if not callable(true_fn) or not callable(false_fn):
        raise TypeError("cond: true_fn and false_fn must be callables (functions of no "
                        f"arguments), got {type(true_fn).__name__} and "
                        f"{type(false_fn).__name__}.")
    if state.graph is None or isinstance(pred, (bool, np.bool_)):
        return true_fn() if _eager_pred(pred, "cond") else false_fn()
    pred = _graph_selector(pred, "cond", dtypes.bool, "pred")
    return _build_branches(IF, "cond", pred, [true_fn, false_fn], ["true_fn", "false_fn"],
                           lambda gs: {"then_branch": gs[0], "else_branch": gs[1]}, name)


_cond = cond  # (tf.raw_ops.If's argument `cond` hides the function)


def switch_case(branch_index, branch_fns, default=None, name=None):
    """`branch_fns[branch_index]()` (or `default()`, else the last branch, when out of range);
    `branch_fns` is a list of callables, or of (int, callable) pairs, or a dict int -> callable."""
    fns = _branch_list(branch_fns)
    if default is not None:
        fns = fns + [default]
    if state.graph is None:
        index = int(np.asarray(_eager_value(branch_index)))
        return (fns[index] if 0 <= index < len(fns) - (default is not None) else fns[-1])()
    index = _graph_selector(branch_index, "switch_case", None, "branch_index")
    names = [f"branch_{i}" for i in range(len(fns))]
    return _build_branches(CASE, "switch_case", index, fns, names,
                           lambda gs: {"branches": tuple(gs)}, name)


def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name="case"):
    """The fn of the first pair whose predicate holds (`default` if none does); with
    `exclusive=True` more than one true predicate is an error. Built as nested conds under the
    name scope `name`. Eagerly, a branch's one-element list or tuple is unpacked unless
    `strict` (TensorFlow's eager case does so; its graph case returns the list either way)."""
    with op_scope(name, "case"):
        result = _case(pred_fn_pairs, default, exclusive)
    if not strict and state.graph is None and isinstance(result, (list, tuple)) and len(
            result) == 1:
        return result[0]
    return result


def _case(pred_fn_pairs, default, exclusive):
    pairs = list(pred_fn_pairs.items()) if isinstance(pred_fn_pairs, dict) else list(
        pred_fn_pairs)
    for pair in pairs:
        if not (isinstance(pair, (tuple, list)) and len(pair) == 2 and callable(pair[1])):
            raise TypeError(f"case: pred_fn_pairs must hold (predicate, callable) pairs, got "
                            f"{pair!r:.80}.")
    if exclusive:
        _check_exclusive(pairs)
    if default is None:
        if not pairs:
            raise ValueError("case: give at least one (predicate, fn) pair or a default.")
        pairs, default = pairs[:-1], pairs[-1][1]
    result = default
    for pred, fn in reversed(pairs):
        result = (lambda p, f, rest: lambda: cond(p, f, rest))(pred, fn, result)
    return result()


def _check_exclusive(pairs):
    if state.graph is not None:
        return  # checked only eagerly (TensorFlow adds an Assert op)
    true = [i for i, (p, _) in enumerate(pairs) if _eager_pred(p, "case")]
    if len(true) > 1:
        raise InvalidArgumentError(f"case: exclusive=True but predicates {true} are all true; "
                                   "at most one may hold.")


def _branch_list(branch_fns):
    if isinstance(branch_fns, dict):
        items = sorted(branch_fns.items())
    else:
        items = list(branch_fns)
    if items and isinstance(items[0], (tuple, list)):
        keys = [k for k, _ in items]
        if keys != list(range(len(keys))):
            raise ValueError(f"switch_case: branch keys must be 0, 1, ..., n-1; got {keys}.")
        items = [f for _, f in items]
    if not items or not all(callable(f) for f in items):
        raise TypeError("switch_case: branch_fns must be a non-empty list (or dict) of "
                        "callables.")
    return items


def _eager_value(x):
    array = array_of(x)
    return x if array is None else array


def _eager_pred(pred, what):
    if isinstance(pred, Tensor) and not pred.dtype.is_bool:
        raise TypeError(f"{what}: pred must be a bool tensor, got dtype {pred.dtype.name}; "
                        "compare it (e.g. x > 0) or cast it to bool.")
    return as_bool_scalar(_eager_value(pred), what)


def _graph_selector(value, what, dtype, arg):
    t = value._as_tensor(None) if isinstance(value, Variable) else convert_to_tensor(value)
    if dtype is not None and t.dtype is not dtype:
        raise TypeError(f"{what}: {arg} must be a bool tensor, got dtype {t.dtype.name}; "
                        "compare it (e.g. x > 0) or cast it to bool.")
    if dtype is None and not t.dtype.is_integer:
        raise TypeError(f"{what}: {arg} must be an integer tensor, got dtype {t.dtype.name}.")
    if t.shape.rank not in (None, 0):
        raise ValueError(f"{what}: {arg} must be a scalar, got shape {t.shape}.")
    return t


def _build_branches(op_def, what, selector, fns, names, make_attrs, name):
    graph = state.graph
    traced = []
    for fn, branch_name in zip(fns, names):
        sub, result = trace(f"{what}_{branch_name}", fn, [], graph)
        sub.outputs = [output_tensor(sub, v, f"{what} {branch_name}")
                       for v in nest.flatten(result)]
        traced.append((sub, result))
    first, first_result = traced[0]
    for (sub, result), branch_name in zip(traced[1:], names[1:]):
        if _structure(result) != _structure(first_result):
            raise ValueError(
                f"{what}: {names[0]} and {branch_name} must return the same nested structure; "
                f"{names[0]} returned {_structure(first_result)} and {branch_name} returned "
                f"{_structure(result)}.")
        check_compatible(what, (names[0], branch_name), first.outputs, sub.outputs)
    if not first.outputs:
        return first_result
    captured, seen = [], set()
    for sub, _ in traced:
        for outer_t, _ in sub.captures:
            if id(outer_t) not in seen:
                seen.add(id(outer_t))
                captured.append(outer_t)
    for sub, _ in traced:
        sub.inputs = sub.inputs_for(captured)
    branches = [sub for sub, _ in traced]
    attrs = make_attrs(branches)
    out = run(with_outputs(op_def, len(first.outputs), attrs), [selector, *captured], attrs,
               name)
    flat = [out] if len(first.outputs) == 1 else list(out)
    return nest.pack_sequence_as(first_result, flat)


def _structure(x):
    """A printable description of a nested structure, leaves shown as T."""
    if isinstance(x, dict):
        return "{" + ", ".join(f"{k!r}: {_structure(x[k])}" for k in sorted(x, key=repr)) + "}"
    if isinstance(x, (list, tuple)):
        inner = ", ".join(_structure(v) for v in x)
        return f"[{inner}]" if isinstance(x, list) else f"({inner}{',' if len(x) == 1 else ''})"
    return "T"

