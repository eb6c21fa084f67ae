"""User-defined gradients: `custom_gradient`, `recompute_grad`, `grad_pass_through`.

`custom_gradient(f)`: f(*x) returns (y, grad_fn) and grad_fn(*dy) returns dx, one gradient per
input (TensorFlow's semantics). Calling the decorated function runs f, then one op of type
"CustomGradient" whose inputs are x (and the reads of the variables f used) plus f's outputs, and
whose outputs are copies of y ("CustomGradientN" when y has several tensors). Its record carries this call's grad_fn, so the one reverse pass
treats it like any op: the registered rule for "CustomGradient" calls the record's grad_fn. The
ops f ran are recorded as usual but are not on the path to y (y is the custom op's output), so
only grad_fn defines dy/dx; grad_fn may use f's intermediate tensors, and because tapes did record
them, differentiating grad_fn again (second order) works when it is written in wengert ops.
Forward mode uses the transposed VJP of the custom op, so a custom gradient also defines J u.

When f reads trainable variables, grad_fn is called as grad_fn(*dy, variables=[v, ...]) and
returns (dx, dv), with one gradient per variable.

Inside a graph (a traced `function` or a TF1 graph) the same op is built, and `gradients()` calls
grad_fn while building. A traced function called under a tape replays its ops eagerly; the
recorded grad_fn then holds symbolic tensors, so the rule runs f again, eagerly, on the replayed
inputs to get an eager grad_fn (the forward pass is recomputed once for that gradient).

`recompute_grad(f)`: forward without recording f's intermediate activations; the gradient runs f
again under a tape and takes its VJP, trading compute for memory. `grad_pass_through(f)`: y = f(x)
forward, dy/dx = identity backward (straight-through estimators, assignments).
"""
import functools
import inspect
import re

from ..framework.context import state
from ..framework.execute import execute
from ..framework.registry import defop
from ..framework.tensor import convert_to_tensor
from ..framework.variables import Variable
from ..util import nest
from .tape import GradientTape

__all__ = ["custom_gradient", "recompute_grad", "grad_pass_through"]


class _Call:
    """What the op record needs to differentiate one call (hashable by identity, an attr)."""

    __slots__ = ("grad_fn", "fn", "kwargs", "num_args", "variables", "traced")

    def __init__(self, grad_fn, fn, kwargs, num_args, variables, traced):
        self.grad_fn, self.fn, self.kwargs = grad_fn, fn, kwargs
        self.num_args, self.variables, self.traced = num_args, variables, traced

    def __repr__(self):
        return f"<custom gradient of {getattr(self.fn, '__name__', 'f')}>"


def _kernel(*arrays, num_inputs, call):
    return tuple(arrays[num_inputs:])


def _shape_rule(*inputs, num_inputs, call):
    return [(t.shape, t.dtype) for t in inputs[num_inputs:]]


def _custom_grad(op, *grads):
    call = op.get_attr("call")
    n_args, variables = call.num_args, call.variables
    grad_fn = call.grad_fn
    if call.traced and op.graph is None:  # a traced call, replayed eagerly: run f again
        _, grad_fn = _split(call.fn(*op.inputs[:n_args], **call.kwargs), call.fn)
    if variables:
        result = grad_fn(*grads, variables=list(variables))
        if not isinstance(result, (tuple, list)) or len(result) != 2:
            raise ValueError(f"custom_gradient: {_name(call.fn)} uses variables, so its grad_fn "
                             "must return a pair (gradients of the inputs, gradients of the "
                             "variables).")
        input_grads, variable_grads = result
        variable_grads = list(nest.flatten(variable_grads))
        if len(variable_grads) != len(variables):
            raise ValueError(f"Must return gradient for each variable from @custom_gradient "
                             f"grad_fn: {_name(call.fn)} uses {len(variables)} variables but "
                             f"its grad_fn returned {len(variable_grads)} variable gradients.")
    else:
        input_grads, variable_grads = grad_fn(*grads), []
    input_grads = list(input_grads) if isinstance(input_grads, (tuple, list)) else [input_grads]
    if len(input_grads) != n_args:
        raise ValueError(f"custom_gradient function expected to return {n_args} gradients, but "
                         f"returned {len(input_grads)} instead: the grad_fn of {_name(call.fn)} "
                         "must return one gradient (or None) per positional input.")
    return input_grads + variable_grads + [None] * (len(op.inputs) - n_args - len(variables))


# One output is the common case and gets its own op type with num_outputs=1 (its output is a
# tensor, not a 1-tuple, wherever ops are run or replayed); "CustomGradientN" has any number.
CUSTOM_GRADIENT = defop("CustomGradient", lambda *arrays, num_inputs, call: arrays[num_inputs],
                        shape=lambda *inputs, num_inputs, call: _shape_rule(
                            *inputs, num_inputs=num_inputs, call=call)[0],
                        grad=_custom_grad)
CUSTOM_GRADIENT_N = defop("CustomGradientN", _kernel, shape=_shape_rule, grad=_custom_grad,
                          num_outputs=None)


def _name(fn):
    return getattr(fn, "__name__", repr(fn))


def _op_name(fn):
    """The op's name: the function's, made a valid node name (`_clip` -> `clip`, a lambda ->
    `lambda`), or "CustomGradient" when nothing is left."""
    name = re.sub(r"[^A-Za-z0-9_.\-]", "_", _name(fn)).lstrip("_.-")
    return name or "CustomGradient"


def _split(result, fn):
    if not isinstance(result, (tuple, list)) or len(result) != 2 or not callable(result[1]):
        raise TypeError(f"custom_gradient: {_name(fn)} must return a pair (outputs, grad_fn), "
                        f"with grad_fn a function; it returned {type(result).__name__}.")
    return result[0], result[1]


def _accepts_variables(grad_fn):
    try:
        params = inspect.signature(grad_fn).parameters.values()
    except (TypeError, ValueError):
        return True
    return any(p.name == "variables" or p.kind is p.VAR_KEYWORD for p in params)


class _VariableWatcher(GradientTape):
    """A tape that only serves to learn which trainable variables a function reads."""

    def __init__(self):
        super().__init__(persistent=True, watch_accessed_variables=True)


def _as_input(x, fn):
    try:
        return convert_to_tensor(x)
    except (TypeError, ValueError):
        raise TypeError(f"custom_gradient: positional arguments of {_name(fn)} must be tensors "
                        f"(or values convertible to tensors), got {type(x).__name__}; pass "
                        "other values as keyword arguments.") from None


def _as_output(y):
    if isinstance(y, Variable):
        return y._as_tensor(None)
    return convert_to_tensor(y)


def custom_gradient(f=None):
    """Decorator giving `f` its own gradient: f(*x) returns (y, grad_fn), and
    grad_fn(*upstream) returns the gradients of the inputs (`tf.custom_gradient`).

        @custom_gradient
        def log1pexp(x):
            e = tf.exp(x)
            def grad(upstream):
                return upstream * (1 - 1 / (1 + e))
            return tf.math.log(1 + e), grad
    """
    if f is None:
        return custom_gradient

    @functools.wraps(f)
    def decorated(*args, **kwargs):
        st = state
        graph_mode = st.graph is not None
        if not (graph_mode or st.tapes or st.observers):  # nothing differentiates: just run f
            return _split(f(*args, **kwargs), f)[0]
        xs = [_as_input(a, f) for a in args]
        with _VariableWatcher() as watcher:
            y, grad_fn = _split(f(*xs, **kwargs), f)
        arg_ids = {id(x) for x in xs}
        variables = [v for v in watcher.watched_variables() if id(v) not in arg_ids]
        watcher._release()  # its records must not keep f's intermediate tensors alive
        if variables and not _accepts_variables(grad_fn):
            raise TypeError(f"If using @custom_gradient with a function that uses variables, "
                            f"then grad_fn must accept a keyword argument 'variables': "
                            f"{_name(f)} reads {[v.name for v in variables]}.")
        flat_y = [_as_output(t) for t in nest.flatten(y)]
        reads = [v._as_tensor(None) for v in variables]
        call = _Call(grad_fn, f, kwargs, len(xs), tuple(variables), graph_mode)
        inputs = xs + reads + flat_y
        op_def = CUSTOM_GRADIENT if len(flat_y) == 1 else CUSTOM_GRADIENT_N
        outputs = execute(op_def, inputs, {"num_inputs": len(xs) + len(reads), "call": call},
                          _op_name(f))
        return nest.pack_sequence_as(y, [outputs] if len(flat_y) == 1 else list(outputs))
    return decorated


def recompute_grad(f):
    """`f` with its activations recomputed in the backward pass (`tf.recompute_grad`): the
    forward pass keeps only f's inputs and outputs; the gradient runs f again under a tape."""

    @functools.wraps(f)
    def decorated(*args, **kwargs):
        @custom_gradient
        def inner(*xs):
            saved = state.tapes
            state.tapes = tuple(t for t in saved if isinstance(t, _VariableWatcher))
            try:
                y = f(*xs, **kwargs)
            finally:
                state.tapes = saved

            def grad(*upstream, variables=None):
                variables = list(variables or ())
                with GradientTape(watch_accessed_variables=False) as tape:
                    tape.watch(list(xs) + variables)
                    y_again = f(*xs, **kwargs)
                grads = tape.gradient(nest.flatten(y_again), list(xs) + variables,
                                      output_gradients=list(upstream))
                n = len(xs)
                return (grads[:n], grads[n:]) if variables else grads[:n]
            return y, grad
        return inner(*args)
    return decorated


def grad_pass_through(f):
    """`f` forward, the identity backward (`tf.grad_pass_through`): the gradient with respect
    to each input is the upstream gradient of the matching output.

        z = grad_pass_through(x.assign)(y)   # dz/dy = 1 although assign has no gradient
    """

    @functools.wraps(f)
    def decorated(*args, **kwargs):
        @custom_gradient
        def inner(*xs):
            def grad(*upstream, variables=None):
                if variables:
                    return list(upstream), [None] * len(variables)
                return list(upstream)
            return f(*xs, **kwargs), grad
        return inner(*args)
    return decorated
