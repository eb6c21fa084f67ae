"""Calling Python from ops: `tf.py_function` (differentiable) and `tf.numpy_function`.

EagerPyFunc(inputs) runs `func` on eager tensors, eagerly or when a graph runs (so a traced
function, or a tf.data map, can call arbitrary Python), and returns tensors of the declared
dtypes `Tout`. Its gradient is TensorFlow's: the VJP of `func` itself, computed by running `func`
again under a GradientTape on the same inputs and asking that tape for the gradients of the
outputs weighted by the incoming gradients. That VJP is itself an EagerPyFunc, so it works in
graphs too and differentiates again (the inner tape records on outer ones). `func` should
therefore be a function of its inputs (it runs once more per gradient).

PyFunc (numpy_function) hands `func` NumPy arrays and takes arrays back; it has no gradient, as in
TensorFlow. Both are impure: executors never fold or merge them. The output shapes are unknown
to the graph (TensorShape(None)) unless the caller sets them.
"""
import functools

import numpy as np

from ...framework import dtypes
from ...framework.context import state_scope
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.registry import defop
from ...framework.tensor import Tensor, array_of, convert_to_tensor, to_array
from ...framework.tensor_shape import TensorShape
from ..broadcast_ops import zeros_like

__all__ = ["py_function", "numpy_function", "py_func", "eager_py_func"]


def _dtypes_of(Tout):
    """(whether Tout names one output, its dtypes): a dtype or a TensorSpec per output; a
    nested structure is TensorFlow's TypeError."""
    single = not isinstance(Tout, (list, tuple))
    out = []
    for t in ([Tout] if single else Tout):
        t = t.dtype if hasattr(t, "shape") and hasattr(t, "dtype") else t  # a TensorSpec
        try:
            out.append(dtypes.as_dtype(t))
        except (TypeError, ValueError):
            raise TypeError(f"Cannot convert the argument `type_value`: {t!r} to a TensorFlow "
                            "DType.") from None
    return single, out


def _results(value, Tout, func):
    """`func`'s return value as arrays of the declared dtypes."""
    if value is None and not Tout:
        return ()
    values = list(value) if isinstance(value, (list, tuple)) else [value]
    if len(values) != len(Tout):
        raise InvalidArgumentError(f"{_name(func)} returned {len(values)} value(s) but Tout "
                                   f"declares {len(Tout)}.")
    out = []
    for i, (v, dtype) in enumerate(zip(values, Tout)):
        array = np.asarray(array_of(v)) if isinstance(v, Tensor) else np.asarray(v)
        if array.dtype.kind in "USO" or dtype.name == "string":
            array = to_array(array, dtype)
        elif array.dtype != dtype._np:
            if array.dtype.kind == "f" and dtype.is_integer:
                raise InvalidArgumentError(f"{_name(func)} returned {array.dtype} for output {i}, "
                                           f"declared {dtype.name} in Tout.")
            array = array.astype(dtype._np)
        out.append(array)
    return tuple(out)


def _name(func):
    return f"the function {getattr(func, '__name__', func)!r}"


def _eager_kernel(*arrays, func, Tout):
    with state_scope(None):  # Python called by an op runs eagerly, unrecorded
        value = func(*[Tensor(np.asarray(a)) for a in arrays])
    return _results(value, Tout, func)


def _numpy_kernel(*arrays, func, Tout):
    with state_scope(None):
        value = func(*[np.array(a) for a in arrays])
    return _results(value, Tout, func)


def _unknown_rule(*inputs, func, Tout):
    return [(TensorShape(None), t) for t in Tout]


# GradientTape lives in autodiff/, above the ops: it registers itself here when imported.
TAPE = [None]


def _vjp_function(func, n_inputs, float_inputs, n_outputs):
    """A Python function (inputs..., output gradients...) -> input gradients (zeros where func
    does not depend on an input), by re-running `func` under a tape."""
    GradientTape = TAPE[0]  # noqa: N806

    def vjp(*args):
        xs, gs = list(args[:n_inputs]), list(args[n_inputs:])
        with GradientTape() as tape:
            for i in float_inputs:
                tape.watch(xs[i])
            ys = func(*xs)
        ys = list(ys) if isinstance(ys, (list, tuple)) else [ys]
        pairs = [(y, g) for y, g in zip(ys, gs) if y is not None and g is not None and
                 convert_to_tensor(y).dtype.is_floating]
        sources = [xs[i] for i in float_inputs]
        grads = tape.gradient([y for y, _ in pairs], sources,
                              output_gradients=[g for _, g in pairs]) if pairs else [None] * len(
            sources)
        return [zeros_like(s) if g is None else g for s, g in zip(sources, grads)]
    vjp.__name__ = f"{getattr(func, '__name__', 'func')}_grad"
    return vjp


def _eager_py_func_grad(op, *grads):
    inputs = list(op.inputs)
    float_inputs = [i for i, t in enumerate(inputs) if t.dtype.is_floating]
    if not float_inputs:
        return [None] * len(inputs)
    func, Tout = op.get_attr("func"), op.get_attr("Tout")
    grads = [g if g is not None else _zeros_for(o) for g, o in zip(grads, op.outputs)]
    vjp = _vjp_function(func, len(inputs), float_inputs, len(Tout))
    out = py_function(vjp, inputs + grads, [inputs[i].dtype for i in float_inputs])
    out = list(out)
    full = [None] * len(inputs)
    for i, g in zip(float_inputs, out):
        full[i] = g
    return full


def _zeros_for(t):
    return zeros_like(t)


# (returns_view: the Python function may return its arguments, or arrays it keeps)
# (raw: tf.raw_ops' arguments; `token`, TensorFlow's key to a registered function, is the
# Python function itself)
EAGER_PY_FUNC = defop("EagerPyFunc", _eager_kernel, shape=_unknown_rule,
                      grad=_eager_py_func_grad, num_outputs=None, pure=False, returns_view=True,
                      raw=lambda input, token, Tout, is_async=False, name=None: _run(  # noqa: N803
                          EAGER_PY_FUNC, token, input, list(Tout), name))
PY_FUNC = defop("PyFunc", _numpy_kernel, shape=_unknown_rule, grad=None, num_outputs=None,
                pure=False, returns_view=True,
                raw=lambda input, token, Tout, name=None: _run(  # noqa: N803
                    PY_FUNC, token, input, list(Tout), name))


def _run(op_def, func, inp, Tout, name):
    if not callable(func):
        raise TypeError(f"{op_def.type}: func must be callable, got {type(func).__name__}.")
    single, out_dtypes = _dtypes_of(Tout)
    inputs = tuple(convert_to_tensor(x) for x in (inp or []))
    outs = execute(op_def, inputs, {"func": func, "Tout": out_dtypes}, name)
    outs = outs if isinstance(outs, tuple) else (outs,)
    if single:
        return outs[0] if outs else None
    return list(outs)


def _decorator(op_def, Tout, name):
    """`@py_function(Tout=...)`: the decorated function, called with tensors, runs as the op."""
    def decorate(func):
        @functools.wraps(func)
        def call(*args):
            return _run(op_def, func, list(args), Tout, name)
        return call
    return decorate


def py_function(func=None, inp=None, Tout=None, name=None):
    """Run the Python function `func` on tensors `inp` (eagerly, or when a graph runs) and return
    tensors of dtypes `Tout` (one dtype or TensorSpec: one tensor; a list: a list).
    Differentiable: the gradient runs `func` again under a GradientTape. Without `func`, a
    decorator: `@py_function(Tout=tf.float32)` makes the function run as this op."""
    if func is None:
        return _decorator(EAGER_PY_FUNC, Tout, name)
    return _run(EAGER_PY_FUNC, func, inp, Tout, name)


def numpy_function(func=None, inp=None, Tout=None, stateful=True, name=None):
    """Run `func` on NumPy arrays (the values of `inp`) and return tensors of dtypes `Tout`.
    Not differentiable; wengert runs every call (stateful or not, nothing is merged). Without
    `func`, a decorator, as py_function's."""
    if not isinstance(stateful, bool):
        raise TypeError(f"numpy_function: stateful must be a bool, got {stateful!r}.")
    if func is None:
        return _decorator(PY_FUNC, Tout, name)
    return _run(PY_FUNC, func, inp, Tout, name)


eager_py_func = py_function
py_func = numpy_function
