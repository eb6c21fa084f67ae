"""Control flow with gradients: `cond`, `case`, `switch_case`, and the `While` op behind
`while_loop` (which while_loop_ops.py builds from the user's functions).

Eagerly these are plain Python: `cond` calls the branch the predicate selects, `while_loop` runs a
Python loop. The ops the chosen code runs are recorded on the tapes as usual, so gradients follow
the path the data took and need nothing new.

In graph mode (a Session graph or a traced `function`) each is ONE op holding its code as
sub-graphs (control_flow_graph.py); tensors of the enclosing graph that the code uses become
extra inputs of the op.

- `If(pred, *inputs)` runs `then_branch` or `else_branch` on the inputs (`Case(index, *inputs)`
  runs `branches[index]`, the last one when the index is out of range). The derivative of
  y = pred ? f(x) : g(x) is pred ? df : dg, so the gradient op is again an If over the branches'
  VJP sub-graphs: the taken branch's inputs get v^T df/dx, every input the branch does not use gets
  zeros (TensorFlow 2: cond(p, x*y*2, 2.0) gives dx = 4 when p holds and 0 when it does not).
- `While(max_iter, *vars, *invariants)` repeats x_{t+1} = body(x_t, c) while cond(x_t, c) holds
  (and t < max_iter when max_iter >= 0). Its outputs are the final x_N, the iteration count N,
  and, per loop variable, the stack H = [x_0, ..., x_{N-1}] of values that entered each iteration
  (kept when a gradient may be needed: memory linear in N). By the chain rule, with G_N the
  gradient of x_N and gH the gradient reaching the stacks,
      G_t = (d body / d x)(H[t])^T G_{t+1} + gH[t],     t = N-1 ... 0,
      g_c = sum_t (d body / d c)(H[t])^T G_{t+1},
  and dx_0 = G_0. That backward recurrence is itself a While op (counting t down) whose body reads
  H[t] (`WhileHistoryGet`), recomputes the body there and applies its VJP. Being an ordinary loop
  of ordinary ops, it can be differentiated again: second derivatives through loops work (the
  gradient of the stacks is accumulated in full per iteration, so that costs O(N^2)).
  The predicate has no gradient; integer loop variables (counters) get None. When cond and body
  are pure, the kernel runs one compiled step per iteration, the body followed by the cond on its
  results (control_flow_graph.fused_step): a loop's cost is its per-iteration calls.

State. When the code of an op reads or assigns variables (or prints, or pulls from an
iterator), the op is declared stateful (`_with_outputs`): plans run it in program order even
when nothing needs its outputs, and its kernel receives the variable store and hands it to its
sub-graphs. Gradient ops recompute the forward code with a store that drops writes, so
differentiating a loop that assigns a variable does not assign it again.
"""
import numpy as np

from ..framework import dtypes
from ..framework.context import state
from ..framework.errors import InvalidArgumentError, OpError
from ..framework.execute import execute
from ..framework.registry import defop, linear, needs_grad, OpDef
from ..framework.tensor import Tensor, array_of, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.variables import Variable
from ..ops import broadcast_ops, math_ops
from ..util import nest
from .func_graph import LIVE_VARIABLES, run_stateful_eagerly
from .control_flow_graph import (as_bool_scalar, check_compatible, most_specific_common_shape,
                                 fused_step, output_tensor, spec_of, trace, vjp_graph, vjp_ops)

__all__ = ["cond", "case", "switch_case"]


# -- ops with a variable number of outputs --------------------------------------------------------
_ARITIES = {}


def _with_outputs(op_def, n, attrs=None):
    """The declaration `op_def` with `n` outputs (If/Case/While return what their code returns).

    When the sub-graphs in `attrs` touch state (read or assign variables, print, pull from an
    iterator), the declaration is stateful: plans always run the op, in program order, and
    hand its kernel the variable store, which it passes on to its sub-graphs."""
    stateful = attrs is not None and _touches_state(attrs)
    key = (op_def.type, n, stateful)
    hit = _ARITIES.get(key)
    if hit is None:
        base = _BASE.get(op_def.type, op_def)
        kernel = _STATEFUL_KERNELS[base] if stateful else base.kernel
        hit = _ARITIES[key] = OpDef(op_def.type, kernel, base.shape, base.jvp, n, base.module,
                                    stateful=stateful)
    return hit


def _touches_state(attrs):
    for value in attrs.values():
        for graph in (value if isinstance(value, tuple) else (value,)):
            if getattr(graph, "touches_state", False):
                return True
    return False


def _run(op_def, inputs, attrs, name=None):
    """Build or run one If/Case/While op (a stateful one runs eagerly on the live variables)."""
    if op_def.stateful and state.graph is None:
        return run_stateful_eagerly(op_def, inputs, attrs, name)
    return execute(op_def, inputs, attrs, name)


class _DiscardingWrites:
    """A variable store that reads through and drops writes: the gradient of a branch or loop
    recomputes its forward ops, whose assignments must not happen a second time."""

    def __init__(self, store):
        self._store = store

    def read(self, var):
        return self._store.read(var)

    def write(self, var, value):
        pass

    def update(self, var, ufunc, value, in_place=False):
        return np.asarray(ufunc(self._store.read(var), value))  # never into the variable

    def lend(self, var):
        self._store.lend(var)


def _store_for(store, discard_writes):
    return _DiscardingWrites(store) if discard_writes else store


def _single_or_tuple(values):
    return values[0] if len(values) == 1 else tuple(values)


# -- If and Case ----------------------------------------------------------------------------------
def _if_kernel(pred, *args, then_branch, else_branch, discard_writes=False):
    return _if_stateful_kernel(LIVE_VARIABLES, pred, *args, then_branch=then_branch,
                               else_branch=else_branch, discard_writes=discard_writes)


def _if_stateful_kernel(store, pred, *args, then_branch, else_branch, discard_writes=False):
    branch = then_branch if as_bool_scalar(pred, "If") else else_branch
    return _single_or_tuple(branch.run(list(args), _store_for(store, discard_writes)))


def _case_kernel(index, *args, branches, discard_writes=False):
    return _case_stateful_kernel(LIVE_VARIABLES, index, *args, branches=branches,
                                 discard_writes=discard_writes)


def _case_stateful_kernel(store, index, *args, branches, discard_writes=False):
    i = int(index)
    branch = branches[i] if 0 <= i < len(branches) else branches[-1]
    return _single_or_tuple(branch.run(list(args), _store_for(store, discard_writes)))


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
    out = _run(_with_outputs(op.op_def, len(needed), attrs), [op.inputs[0], *xs, *seeds], attrs)
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


IF = defop("If", _if_kernel, shape=_if_rule, grad=_if_grad, returns_view=True)
CASE = defop("Case", _case_kernel, shape=_case_rule, grad=_case_grad, returns_view=True)


# -- While ----------------------------------------------------------------------------------------
def _while_kernel(max_iter, *args, cond, body, n_vars, keep_history, discard_writes=False):
    return _while_stateful_kernel(LIVE_VARIABLES, max_iter, *args, cond=cond, body=body,
                                  n_vars=n_vars, keep_history=keep_history,
                                  discard_writes=discard_writes)


def _while_stateful_kernel(store, max_iter, *args, cond, body, n_vars, keep_history,
                           discard_writes=False):
    store = _store_for(store, discard_writes)
    values, invariants = list(args[:n_vars]), list(args[n_vars:])
    limit = int(max_iter)
    keep = keep_history or bool(state.tapes) or bool(state.observers)
    history = [[] for _ in values] if keep else None
    cond_plan, body_plan = cond.plan(), body.plan()
    step = fused_step(cond, body)
    plans = (cond_plan, body_plan) if step is None else (cond_plan, step.plan())
    try:
        if step is None:
            values, count = _iterate(cond_plan._fn, body_plan._fn, values, invariants, store,
                                     limit, history)
        else:
            values, count = _iterate_fused(cond_plan._fn, plans[1]._fn, values, invariants,
                                           store, limit, history)
    except (OpError, ValueError, TypeError, IndexError, ArithmeticError) as exc:
        error = plans[1].error_for(exc) or plans[0].error_for(exc)
        if error is None or error is exc:
            raise
        raise error from None
    stacks = [_stack(h, v) if keep else np.zeros((0,) + np.shape(v), np.asarray(v).dtype)
              for h, v in zip(history or values, values)]
    return tuple(values) + (np.asarray(count, np.int32),) + tuple(stacks)


def _iterate(cond_fn, body_fn, values, invariants, store, limit, history):
    """Run the body while the cond holds (at most `limit` times unless it is negative), calling
    the plans' compiled functions directly: this loop is a While op's whole cost per iteration.
    Returns the final values and the iteration count."""
    count = 0
    while limit < 0 or count < limit:
        if not _truth(cond_fn(values + invariants, store)[0]):
            break
        if history is not None:
            for stack, v in zip(history, values):
                stack.append(v)
        values = body_fn(values + invariants, store)
        count += 1
    return values, count


def _truth(predicate):
    """The Python bool of a cond's result (np.True_ / np.False_ first: the usual case)."""
    if predicate is _TRUE:
        return True
    if predicate is _FALSE:
        return False
    return (bool(predicate) if type(predicate) is np.ndarray and not predicate.shape
            else as_bool_scalar(predicate, "While cond"))


_TRUE, _FALSE = np.True_, np.False_


def _iterate_fused(cond_fn, step_fn, values, invariants, store, limit, history):
    """_iterate with one compiled call per iteration: `step_fn` runs the body and then the cond
    on its results (fused_step), so the predicate for the next iteration comes back with the
    values. Only the first predicate needs the cond on its own."""
    count = 0
    predicate = cond_fn(values + invariants, store)[0]
    # (count != limit is `limit < 0 or count < limit`: count starts at 0 and steps by 1)
    while count != limit and (predicate is _TRUE or predicate is not _FALSE
                              and _truth(predicate)):
        if history is not None:
            for stack, v in zip(history, values):
                stack.append(v)
        out = step_fn(values + invariants if invariants else values, store)
        predicate = out.pop()
        values = out
        count += 1
    return values, count


def _stack(history, last):
    if not history:
        return np.zeros((0,) + np.shape(last), np.asarray(last).dtype)
    try:
        return np.stack(history)
    except ValueError:  # shapes changed from one iteration to the next
        return np.zeros((0,) + np.shape(last), np.asarray(last).dtype)


def _while_rule(max_iter, *args, cond, body, n_vars, keep_history, discard_writes=False):
    finals = [(t.shape, t.dtype) for t in body.inputs[:n_vars]]
    stacks = [(TensorShape(None) if t.shape.rank is None else TensorShape((None,) + tuple(
        t.shape)), t.dtype) for t in body.inputs[:n_vars]]
    return finals + [(TensorShape(()), dtypes.int32)] + stacks


def _while_grad(op, *grads):
    n = op.get_attr("n_vars")
    body = op.get_attr("body")
    xs, caps = op.inputs[1:1 + n], op.inputs[1 + n:]
    floats = [k for k in range(n) if xs[k].dtype.is_differentiable]
    need_caps = [c for c, t in enumerate(caps)
                 if t.dtype.is_differentiable and needs_grad(op, 1 + n + c)]
    if not floats:
        return [None] * len(op.inputs)
    if op.graph is not None:  # from now on the forward loop keeps its history
        op.attrs = {**op.attrs, "keep_history": True}
    finals, count, stacks = op.outputs[:n], op.outputs[n], op.outputs[n + 1:]
    g_finals = [grads[k] if grads[k] is not None else broadcast_ops.zeros_like(finals[k])
                for k in floats]
    g_stacks = [k for k in floats if not broadcast_ops.is_zero_gradient(grads[n + 1 + k])]
    gcond, gbody = _backward_loop_graphs(body, n, floats, need_caps, g_stacks)
    start = math_ops.subtract(count, np.int32(1))
    accs = [broadcast_ops.zeros_like(caps[c]) for c in need_caps]
    carried = [start, *g_finals, *accs]
    invariants = [*stacks, *[grads[n + 1 + k] for k in g_stacks], *caps]
    out = _while_op(gcond, gbody, -1, carried, invariants, keep_history=False,
                    discard_writes=True)
    result = [None] * len(op.inputs)
    for j, k in enumerate(floats):
        if needs_grad(op, 1 + k):
            result[1 + k] = out[1 + j]
    for j, c in enumerate(need_caps):
        result[1 + n + c] = out[1 + len(floats) + j]
    return result


WHILE = defop("While", _while_kernel, shape=_while_rule, grad=_while_grad, returns_view=True)


def _while_op(cond_graph, body_graph, max_iter, carried, invariants, keep_history=False,
              name=None, discard_writes=False):
    """Run or build one While op; returns its outputs as a list."""
    n = len(carried)
    attrs = {"cond": cond_graph, "body": body_graph, "n_vars": n, "keep_history": keep_history}
    if discard_writes:
        attrs["discard_writes"] = True
    max_iter = convert_to_tensor(max_iter, dtype=dtypes.int32) if not isinstance(
        max_iter, Tensor) else max_iter
    return list(_run(_with_outputs(WHILE, 2 * n + 1, attrs), [max_iter, *carried, *invariants],
                     attrs, name))


def _backward_loop_graphs(body, n, floats, need_caps, g_stacks):
    """The condition (t >= 0) and body of the backward loop for `body` (see module docstring).

    Loop variables: t, one gradient per float loop variable, one accumulator per needed
    invariant. Invariants: the stacks of all loop variables, the stack gradients that are not
    zero, and the forward loop's invariants."""
    cache = body.__dict__.setdefault("_backward_cache", {})
    key = (tuple(floats), tuple(need_caps), tuple(g_stacks))
    if key in cache:
        return cache[key]
    x_specs = [spec_of(t) for t in body.inputs[:n]]
    c_specs = [spec_of(t) for t in body.inputs[n:]]
    specs = ([(dtypes.int32, TensorShape(()))] + [x_specs[k] for k in floats]
             + [c_specs[c] for c in need_caps] + [_stack_spec(s) for s in x_specs]
             + [_stack_spec(x_specs[k]) for k in g_stacks] + c_specs)
    n_carried = 1 + len(floats) + len(need_caps)

    def step(t, *rest):
        gs, accs = rest[:len(floats)], rest[len(floats):n_carried - 1]
        stacks = rest[n_carried - 1:n_carried - 1 + n]
        g_stack = dict(zip(g_stacks, rest[n_carried - 1 + n:n_carried - 1 + n + len(g_stacks)]))
        caps = list(rest[n_carried - 1 + n + len(g_stacks):])
        xs = [_history_get(s, t) for s in stacks]
        grads = vjp_ops(body, xs + caps, gs, floats + [n + c for c in need_caps])
        new_gs = [g if k not in g_stack else math_ops.add(g, _history_get(g_stack[k], t))
                  for k, g in zip(floats, grads)]
        new_accs = [math_ops.add(a, g) for a, g in zip(accs, grads[len(floats):])]
        return [math_ops.subtract(t, np.int32(1)), *new_gs, *new_accs]

    gbody, outs = trace("while_body_grad", step, specs, None)
    gbody.outputs = list(outs)
    gcond, pred = trace("while_cond_grad",
                        lambda t, *rest: math_ops.greater_equal(t, np.int32(0)), specs, None)
    gcond.outputs = [pred]
    cache[key] = (gcond, gbody)
    return gcond, gbody


def _stack_spec(spec):
    dtype, shape = spec
    return dtype, TensorShape(None) if shape.rank is None else TensorShape((None,) + tuple(shape))


# -- reading the history of a loop -------------------------------------------------------------
def _history_get_kernel(stack, index):
    i = int(index)
    if not 0 <= i < stack.shape[0]:
        raise InvalidArgumentError(
            f"WhileHistoryGet: iteration {i} is not in a while_loop history of {stack.shape[0]} "
            "iterations. The forward loop did not keep its history: differentiating a loop "
            "whose loop variables change shape between iterations is not supported.")
    return stack[i]


def _history_get_rule(stack, index):
    shape = stack.shape
    return (TensorShape(None) if shape.rank is None else shape[1:]), stack.dtype


def _history_get_grad(op, grad):
    stack, index = op.inputs
    return execute(HISTORY_SCATTER, (grad, stack, index)), None


def _history_scatter_kernel(grad, like, index):
    out = np.zeros(like.shape, like.dtype)
    out[int(index)] = grad
    return out


def _history_scatter_grad(op, grad):
    return execute(HISTORY_GET, (grad, op.inputs[2])), None, None


_BASE = {IF.type: IF, CASE.type: CASE, WHILE.type: WHILE}  # their one-output declarations
_STATEFUL_KERNELS = {IF: _if_stateful_kernel, CASE: _case_stateful_kernel,
                     WHILE: _while_stateful_kernel}

HISTORY_GET = defop("WhileHistoryGet", _history_get_kernel, shape=_history_get_rule,
                    grad=_history_get_grad, jvp=linear, returns_view=True)
HISTORY_SCATTER = defop("WhileHistoryScatter", _history_scatter_kernel,
                        shape=lambda grad, like, index: (like.shape, like.dtype),
                        grad=_history_scatter_grad, jvp=linear)


def _history_get(stack, index):
    return execute(HISTORY_GET, (stack, index))


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
    `exclusive=True` more than one true predicate is an error. Built as nested conds."""
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
    out = _run(_with_outputs(op_def, len(first.outputs), attrs), [selector, *captured], attrs,
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

