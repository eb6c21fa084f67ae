"""`trace_backprop()`: the chain rule made visible, one line per op of the reverse pass.

    with tf.debugging.trace_backprop():
        grads = tape.gradient(loss, [w, b])

prints, in the order the reverse pass runs them (the reverse of execution order):

    backprop step 1: Mul 'Mul'  inputs float32[2,3], float32[3]  grad in float32[2,3] |g|=2.449
        rule math_ops._mul_grad -> float32[2,3], float32[3]

The reverse pass (`autodiff.backprop.backward`) calls an observer `observer(op, out_grads,
in_grads)` after each gradient rule. The reverse pass looks for per-thread observers in
`state.grad_observers` (when the core provides it); on a core without that slot the trace wraps
the registered gradient functions for the duration of the block instead (restoring them after,
and keeping any rule registered meanwhile). Gradients are symbolic in graph mode: their norm
prints as "?".
"""
import contextlib
import sys

import numpy as np

from ..framework import registry
from ..framework.context import state
from ..framework.tensor import array_of

__all__ = ["trace_backprop", "BackpropTrace"]


class BackpropTrace:
    """The lines printed (`.lines`) and the raw steps (`.steps`: dicts with op, rule, ...)."""

    def __init__(self, file=None, print_lines=True):
        self.file = file
        self.print_lines = print_lines
        self.lines = []
        self.steps = []

    def __call__(self, op, out_grads, in_grads):
        step = {"op": op, "rule": _rule_name(op), "input_specs": [_spec(t) for t in op.inputs],
                "grad_in": [_grad_text(g) for g in out_grads],
                "grads_out": [_spec(g) if g is not None else "None" for g in in_grads]}
        self.steps.append(step)
        line = (f"backprop step {len(self.steps)}: {op.type} '{op.name}'  inputs "
                f"{', '.join(step['input_specs']) or '()'}  grad in {', '.join(step['grad_in'])}"
                f"  rule {step['rule']} -> {', '.join(step['grads_out'])}")
        self.lines.append(line)
        if self.print_lines:
            print(line, file=self.file or sys.stdout)

    def __str__(self):
        return "\n".join(self.lines)


def _rule_name(op):
    fn = registry._GRADIENTS.get(op.gradient_override or op.type)
    fn = getattr(fn, "_traced_original", fn)
    if fn is None:
        return "none"
    module = getattr(fn, "__module__", "") or ""
    short = ".".join(module.split(".")[2:])  # below the layer: "math_ops", "nn.activations"
    name = getattr(fn, "__qualname__", None) or repr(fn)
    if name.endswith("<lambda>") and hasattr(fn, "__code__"):
        name += f":{fn.__code__.co_firstlineno}"  # which lambda: its line in the module
    return f"{short}.{name}" if short else name


def _spec(t):
    dtype = getattr(t, "dtype", None)
    shape = getattr(t, "shape", None)
    if dtype is None or shape is None:
        return type(t).__name__
    dims = "?" if shape.rank is None else ",".join("?" if d is None else str(d) for d in shape)
    return f"{dtype.name}[{dims}]"


def _grad_text(g):
    if g is None:
        return "None"
    value = array_of(g)
    if value is None or getattr(g, "graph", None) is not None:
        return f"{_spec(g)} |g|=?"
    norm = float(np.sqrt(np.sum(np.square(np.asarray(value, dtype=np.float64)))))
    return f"{_spec(g)} |g|={norm:.4g}"


@contextlib.contextmanager
def trace_backprop(file=None, print_lines=True):
    """Print each step of every reverse pass run in this block; yields a BackpropTrace."""
    trace = BackpropTrace(file, print_lines)
    if hasattr(type(state), "grad_observers"):
        previous = state.grad_observers
        state.grad_observers = previous + (trace,)
        try:
            yield trace
        finally:
            state.grad_observers = tuple(h for h in state.grad_observers if h is not trace)
        return
    with _wrapped_rules(trace):
        yield trace


@contextlib.contextmanager
def _wrapped_rules(trace):
    """Fallback for a core without `state.grad_observers`: wrap each gradient function."""
    originals = dict(registry._GRADIENTS)
    for op_type, fn in originals.items():
        if fn is not None:
            registry._GRADIENTS[op_type] = _wrap(fn, trace)
    try:
        yield
    finally:
        for op_type, fn in originals.items():
            current = registry._GRADIENTS.get(op_type)
            if getattr(current, "_traced_original", None) is fn:
                registry._GRADIENTS[op_type] = fn


def _wrap(fn, trace):
    def traced(op, *grads):
        result = fn(op, *grads)
        in_grads = result if type(result) in (tuple, list) else (result,)
        trace(op, grads, in_grads)
        return result
    traced._traced_original = fn
    traced.__name__ = getattr(fn, "__name__", "rule")
    return traced
