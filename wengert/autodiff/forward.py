"""Forward mode: `ForwardAccumulator`, the Jacobian-vector product carried along with each op.

Reverse mode walks a recorded list of ops backwards, one pass per output. Forward mode needs no
record: every tensor that depends on the primals carries a *tangent*, its directional derivative
along the given input tangents, and each op computes the tangents of its outputs from those of its
inputs as soon as it runs:

    y = op(x_1, ..., x_n)      =>      dy = J_1 dx_1 + ... + J_n dx_n      (the JVP of op)

One forward pass gives J u for one direction u; the cost is a small constant times the forward
pass, and no intermediate value is kept.

Where the rule comes from, for an op type:
- its `jvp` rule, declared with the op (`defop(..., jvp=rule)`), `rule(primals, tangents, outputs,
  **attrs)` returning the tangent of each output; a tangent is None where an input has none;
- `jvp=linear`: the op is linear in its floating-point inputs, so J u is the op applied to the
  tangents (zeros standing in for missing ones; integer inputs such as indices are kept);
- `jvp=linear_in(i, ...)`: linear in inputs i, ... only; the others are read for their shape or
  as indices (a gradient op's `like` input), so they keep their primal values, and when none of
  inputs i, ... has a tangent the output has none (no zeros are computed);
- `jvp=multilinear`: linear in each floating-point input separately (Mul, MatMul, Einsum): the
  product rule gives J u = sum_i op(x_1, ..., u_i, ..., x_n);
- otherwise, the *transposed VJP* fallback. The registered gradient function computes
  vjp(v) = J^T v, which is linear in v, so for any fixed u
        <vjp(v), u> = <v, J u>    and therefore    J u = d/dv <vjp(v), u>,
  one extra reverse pass over the few ops of the gradient function, with a dummy v (its value
  does not matter: the expression is linear in v). Every differentiable op therefore has a JVP.

Rules are written in wengert ops, so they nest with tapes both ways. With the accumulator outside
a tape (forward over reverse), the ops the tape's gradient runs carry tangents too, which gives
Hessian-vector products; with a tape outside the accumulator (reverse over forward), the tape
records the tangent computations and can differentiate a JVP. Accumulators nest: an inner
accumulator's tangent computations carry tangents of the outer one (second-order forward mode).

The accumulator is an observer of `execute` (see framework/execute.py): inactive, it costs
nothing but the existing check of the (empty) observer tuple. A traced `function` called while an
accumulator is active replays its ops eagerly, so they carry tangents as well. Tangents are
keyed by the identity of the tensor, weakly: when a tensor dies its tangent goes with it.
"""
import weakref

import numpy as np

from ..framework.context import state
from ..framework.execute import execute
from ..framework.operation import Operation
from ..framework.registry import (_GRADIENTS, _MISSING, get_gradient_function, linear,  # noqa: F401
                                 linear_in, multilinear)
from ..framework.tensor import Tensor, TensorLike, array_of, convert_to_tensor
from ..framework.variables import Variable
from ..ops.broadcast_ops import broadcast_to, zeros_like
from ..ops.reduce_ops import reduce_sum
from ..ops.shape_rules import static_shape
from ..util import nest
from .backprop import PassView, fit_to_input
from .tape import GradientTape

__all__ = ["ForwardAccumulator", "linear", "linear_in", "multilinear", "op_tangents",
           "uses_fallback"]


# -- computing output tangents ------------------------------------------------------------------
def _is_float(t):
    value = getattr(t, "_value", None)  # array_of(t), inline: per op; graph tensors have none
    return value.dtype.kind in "fc" if value is not None else t.dtype.is_differentiable


def _zeros(t):
    value = array_of(t)
    if value is None or state.graph is not None:
        return zeros_like(t)
    return Tensor(np.zeros(value.shape, value.dtype))


def uses_fallback(op_def):
    """True when the op type has no JVP rule of its own and is differentiable: its tangents come
    from the transposed VJP."""
    return op_def.jvp is None and _GRADIENTS.get(op_def.type, _MISSING) is not None


def op_tangents(op_def, inputs, tangents, outputs, attrs):
    """The tangent of each output of one op (a list, None where there is none), given the
    tangents of its inputs (None where an input has none)."""
    if _GRADIENTS.get(op_def.type, _MISSING) is None:  # not differentiable: no tangent
        return [None] * len(outputs)
    rule = op_def.jvp
    if rule is linear:
        result = execute(op_def, [u if u is not None else _zeros(x) if _is_float(x) else x
                                  for x, u in zip(inputs, tangents)], attrs)
    elif type(rule) is linear_in:
        if all(tangents[i] is None for i in rule.indices):
            return [None] * len(outputs)
        result = execute(op_def, [(tangents[i] if tangents[i] is not None else _zeros(x))
                                  if i in rule.indices else x
                                  for i, x in enumerate(inputs)], attrs)
    elif rule is multilinear:
        result = _product_rule(op_def, inputs, tangents, attrs)
    elif rule is None:
        result = _transposed_vjp(op_def, inputs, tangents, outputs, attrs)
    else:
        result = rule(inputs, tangents, outputs, **attrs)
    if len(outputs) == 1:
        result = (result,) if not isinstance(result, (tuple, list)) else result
    return [_fit(t, out) for t, out in zip(result, outputs)]


def _product_rule(op_def, inputs, tangents, attrs):
    total = None
    for i, u in enumerate(tangents):
        if u is None:
            continue
        args = list(inputs)
        args[i] = u
        term = execute(op_def, args, attrs)
        total = term if total is None else total + term
    return total


def _fit(tangent, output):
    """A rule's tangent as a tensor of the output's shape and dtype (None stays None): a rule may
    return a tangent that broadcasts to the output (e.g. x + y where only y has one)."""
    if tangent is None or not _is_float(output):
        return None
    if not isinstance(tangent, Tensor):
        tangent = convert_to_tensor(tangent, dtype=output.dtype)
    want = static_shape(output)
    if want is None or None in want:
        return tangent + zeros_like(output)  # graph mode, shape known when it runs
    return tangent if static_shape(tangent) == want else broadcast_to(tangent, want)


def _transposed_vjp(op_def, inputs, tangents, outputs, attrs):
    """J u = d/dv <vjp(v), u>: the gradient function's VJP, differentiated in its cotangent v."""
    # In a graph, the op itself (its gradient function may change its attributes, e.g. a While
    # starts keeping its history); eagerly, a record made for the occasion.
    op = getattr(outputs[0], "_op", None) if outputs else None
    if op is None or getattr(op, "graph", None) is None:
        op = Operation(op_def, tuple(inputs), tuple(outputs), attrs)
    skip = tuple(i for i, u in enumerate(tangents) if u is None)
    grad_fn = get_gradient_function(op)  # LookupError naming the op when it has no rule at all
    dummies = [_zeros(out) for out in outputs]
    with GradientTape() as tape:
        for v in dummies:
            tape.watch(v)
        in_grads = grad_fn(PassView(op, skip) if skip else op, *dummies)
        if not isinstance(in_grads, (tuple, list)):
            in_grads = (in_grads,)
        total = None
        for x, g, u in zip(inputs, in_grads, tangents):
            if g is None or u is None:
                continue
            term = reduce_sum(fit_to_input(op, x, g) * u)
            total = term if total is None else total + term
    if total is None:
        return [None] * len(outputs)
    return tape.gradient(total, dummies)


# -- the accumulator ------------------------------------------------------------------------------
class ForwardAccumulator:
    """Computes Jacobian-vector products with forward-mode autodiff (`tf.autodiff.
    ForwardAccumulator`).

        v = tf.Variable([1., 2.])
        with ForwardAccumulator(v, tf.constant([1., 0.])) as acc:
            with tf.GradientTape() as tape:
                y = tf.reduce_sum(v ** 3.)
            backward = tape.gradient(y, v)    # [3., 12.]
        acc.jvp(backward)                     # [6., 0.]: the Hessian times [1, 0]

    `primals` (tensors or variables, any structure) are watched with the given `tangents` (same
    structure, each of its primal's shape); ops run inside the `with` block carry tangents, read
    back with `jvp()`. A primal given twice raises ValueError.
    """

    def __init__(self, primals, tangents):
        flat_primals, flat_tangents = nest.flatten(primals), nest.flatten(tangents)
        if len(flat_primals) != len(flat_tangents):
            raise ValueError(f"ForwardAccumulator: got {len(flat_primals)} primals but "
                             f"{len(flat_tangents)} tangents; give one tangent per primal.")
        self._table = {}      # id(tensor or variable) -> (weak reference, tangent or None)
        self._keep = []       # the primals themselves, alive for the accumulator's lifetime
        self._arrays = {}     # id(variable) -> watched variable: finds tensors read from it
        self._hook = self._observe
        self._outer_tapes = ()
        for primal, tangent in zip(flat_primals, flat_tangents):
            self._watch(primal, tangent)

    def _watch(self, primal, tangent):
        if not isinstance(primal, TensorLike):
            raise TypeError(f"ForwardAccumulator: primals must be Tensors or Variables, got "
                            f"{type(primal).__name__}; convert it with constant() first.")
        if id(primal) in self._table:
            raise ValueError(f"ForwardAccumulator: the primal {_describe(primal)} was given more "
                             "than once; watch each tensor or variable only once.")
        tangent = convert_to_tensor(tangent, dtype=primal.dtype)
        if tuple(tangent.shape) != tuple(primal.shape):
            raise ValueError(f"ForwardAccumulator: a tangent of shape {tangent.shape} was given "
                             f"for a primal of shape {primal.shape}; they must match.")
        self._keep.append(primal)
        self._table[id(primal)] = (weakref.ref(primal), tangent)
        if isinstance(primal, Variable):
            self._arrays[id(primal)] = primal

    # -- context ---------------------------------------------------------------------------------
    def __enter__(self):
        if self._hook in state.observers:
            raise ValueError("ForwardAccumulator: this accumulator is already active.")
        self._outer_tapes = state.tapes
        state.observers = state.observers + (self._hook,)
        return self

    def __exit__(self, *exc):
        state.observers = tuple(h for h in state.observers if h is not self._hook)
        return False

    # -- reading tangents ----------------------------------------------------------------------
    def _tangent_of(self, t):
        entry = self._table.get(id(t))
        if entry is not None and entry[0]() is t:
            return entry[1]
        # a read of a watched variable (is_eager_tensor inline: per op input)
        if self._arrays and type(t) is Tensor:
            for var in self._arrays.values():
                if var._is_read(t._value):
                    return self._table[id(var)][1]
        return None

    def jvp(self, primals, unconnected_gradients="none"):
        """The tangent (Jacobian-vector product) of each tensor in `primals` (any structure):
        None for tensors that do not depend on the watched primals, or zeros with
        `unconnected_gradients=UnconnectedGradients.ZERO`."""
        mode = getattr(unconnected_gradients, "value", unconnected_gradients)
        if mode not in ("none", "zero"):
            raise ValueError(f"unconnected_gradients must be 'none' or 'zero', got "
                             f"{unconnected_gradients!r}.")
        flat = nest.flatten(primals)
        results = []
        for t in flat:
            if not isinstance(t, TensorLike):
                raise TypeError(f"ForwardAccumulator.jvp expects tensors, got "
                                f"{type(t).__name__}.")
            tangent = self._tangent_of(t)
            if tangent is None and mode == "zero":
                tangent = _zeros(t)
            results.append(tangent)
        if not nest.is_nested(primals):
            return results[0]
        return nest.pack_sequence_as(primals, results)

    # -- the observer ----------------------------------------------------------------------------
    def _observe(self, op_def, inputs, outputs, attrs, name):
        table, tangents = self._table, None
        for i, t in enumerate(inputs):
            entry = table.get(id(t))
            if entry is not None and entry[0]() is t:
                tangent = entry[1]
            elif self._arrays:
                tangent = self._tangent_of(t)
            else:
                continue
            if tangent is not None:
                if tangents is None:
                    tangents = [None] * len(inputs)
                tangents[i] = tangent
        if tangents is None:
            return
        st = state
        saved_observers, saved_tapes = st.observers, st.tapes
        # Tangent ops are seen by the accumulators and tapes that were active before this one.
        st.observers = saved_observers[:saved_observers.index(self._hook)]
        if saved_tapes and saved_tapes is not self._outer_tapes:
            st.tapes = tuple(t for t in saved_tapes if t in self._outer_tapes)
        try:
            results = op_tangents(op_def, inputs, tangents, outputs, attrs)
        finally:
            st.observers, st.tapes = saved_observers, saved_tapes
        for out, tangent in zip(outputs, results):
            if tangent is not None or self._arrays:  # None marks "no tangent" over a shared array
                key = id(out)
                table[key] = (weakref.ref(out, _forget(table, key)), tangent)


def _forget(table, key):
    def drop(ref):
        entry = table.get(key)
        if entry is not None and entry[0] is ref:
            del table[key]
    return drop


def _describe(t):
    if isinstance(t, Variable):
        return f"variable {t.name!r}"
    return f"tensor of shape {t.shape} and dtype {t.dtype.name}"
