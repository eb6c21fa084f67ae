"""The `While` op behind `while_loop` (while_loop.py builds it from the user's functions), with its
gradient: a While op again, over the loop's saved history.

`While(max_iter, *vars, *invariants)` repeats x_{t+1} = body(x_t, c) while cond(x_t, c) holds
(and t < max_iter when max_iter >= 0). Its outputs are the final x_N, the iteration count N,
and, per loop variable, the stack H = [x_0, ..., x_{N-1}] of values that entered each iteration
(kept when a gradient may be needed: memory linear in N; a variable whose shape changes from
one iteration to the next, such as a growing TensorArray's flow, is kept as a NumPy object
array of its values). By the chain rule, with G_N the
gradient of x_N and gH the gradient reaching the stacks,
    G_t = (d body / d x)(H[t])^T G_{t+1} + gH[t],     t = N-1 ... 0,
    g_c = sum_t (d body / d c)(H[t])^T G_{t+1},
and dx_0 = G_0. That backward recurrence is itself a While op (counting t down) whose body reads
H[t] (`WhileHistoryGet`), recomputes the body there and applies its VJP. Being an ordinary loop
of ordinary ops, it can be differentiated again: second derivatives through loops work (the
gradient of the stacks is accumulated in full per iteration, so that costs O(N^2)).
The predicate has no gradient; integer loop variables (counters) get None. When cond and body
are pure, the kernel runs one compiled step per iteration, the body followed by the cond on its
results (subgraphs.fused_step): a loop's cost is its per-iteration calls. While a profiler
runs, the kernel calls the plans' timed twins, so the ops of every iteration are in the profile.
"""
import numpy as np

from ..framework import dtypes
from ..framework.context import state
from ..framework.errors import InvalidArgumentError, OpError
from ..framework.execute import execute
from ..framework.registry import defop, linear, needs_grad
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..ops import broadcast_ops, math_ops
from ..runtime.variable_store import LIVE_VARIABLES
from .subgraphs import as_bool_scalar, fused_step, spec_of, trace, vjp_ops
from .variadic import register, run, store_for, with_outputs


def _while_kernel(max_iter, *args, cond, body, n_vars, keep_history, discard_writes=False):
    return _while_stateful_kernel(LIVE_VARIABLES, max_iter, *args, cond=cond, body=body,
                                  n_vars=n_vars, keep_history=keep_history,
                                  discard_writes=discard_writes)


def _while_stateful_kernel(store, max_iter, *args, cond, body, n_vars, keep_history,
                           discard_writes=False):
    store = store_for(store, discard_writes)
    values, invariants = list(args[:n_vars]), list(args[n_vars:])
    limit = int(max_iter)
    keep = keep_history or bool(state.tapes) or bool(state.observers)
    history = [[] for _ in values] if keep else None
    cond_plan, body_plan = cond.plan(), body.plan()
    step = fused_step(cond, body)
    plans = (cond_plan, body_plan) if step is None else (cond_plan, step.plan())
    cond_fn, body_fn = _function_of(plans[0]), _function_of(plans[1])
    try:
        if step is None:
            values, count = _iterate(cond_fn, body_fn, values, invariants, store, limit,
                                     history)
        else:
            values, count = _iterate_fused(cond_fn, body_fn, values, invariants, store, limit,
                                           history)
    except (OpError, ValueError, TypeError, IndexError, ArithmeticError) as exc:
        error = plans[1].error_for(exc) or plans[0].error_for(exc)
        if error is None or error is exc:
            raise
        raise error from None
    stacks = [_stack(h, v) if keep else np.zeros((0,) + np.shape(v), np.asarray(v).dtype)
              for h, v in zip(history or values, values)]
    return tuple(values) + (np.asarray(count, np.int32),) + tuple(stacks)


def _function_of(plan):
    """The plan's compiled function, or its twin whose kernels are timed while a profiler runs
    (as Plan.run picks it): the body's ops then show in the profile one by one."""
    profiler = state.profiler
    return plan._fn if profiler is None else profiler.plan_function(plan)


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


_TRUE, _FALSE = np.True_, np.False_


def _truth(predicate):
    """The Python bool of a cond's result (np.True_ / np.False_ first: the usual case)."""
    if predicate is _TRUE:
        return True
    if predicate is _FALSE:
        return False
    return (bool(predicate) if type(predicate) is np.ndarray and not predicate.shape
            else as_bool_scalar(predicate, "While cond"))


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
    except ValueError:  # shapes changed from one iteration to the next (a growing TensorArray)
        ragged = np.empty(len(history), object)
        for i, value in enumerate(history):
            ragged[i] = value
        return ragged


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


WHILE = register(defop("While", _while_kernel, shape=_while_rule, grad=_while_grad,
                       returns_view=True), _while_stateful_kernel)


def _while_op(cond_graph, body_graph, max_iter, carried, invariants, keep_history=False,
              name=None, discard_writes=False):
    """Run or build one While op; returns its outputs as a list."""
    n = len(carried)
    attrs = {"cond": cond_graph, "body": body_graph, "n_vars": n, "keep_history": keep_history}
    if discard_writes:
        attrs["discard_writes"] = True
    max_iter = convert_to_tensor(max_iter, dtype=dtypes.int32) if not isinstance(
        max_iter, Tensor) else max_iter
    return list(run(with_outputs(WHILE, 2 * n + 1, attrs), [max_iter, *carried, *invariants],
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


def _history_get_kernel(stack, index):
    i = int(index)
    if not 0 <= i < stack.shape[0]:
        raise InvalidArgumentError(
            f"WhileHistoryGet: iteration {i} is not in a while_loop history of {stack.shape[0]} "
            "iterations: the forward loop did not keep its history.")
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


HISTORY_GET = defop("WhileHistoryGet", _history_get_kernel, shape=_history_get_rule,
                    grad=_history_get_grad, jvp=linear, returns_view=True)


HISTORY_SCATTER = defop("WhileHistoryScatter", _history_scatter_kernel,
                        shape=lambda grad, like, index: (like.shape, like.dtype),
                        grad=_history_scatter_grad, jvp=linear)


def _history_get(stack, index):
    return execute(HISTORY_GET, (stack, index))
