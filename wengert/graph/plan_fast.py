"""Fast paths for optimized plans: hot kernels written out in the generated code, in-place
updates, and fusing a sum of scattered slice gradients.

A few hot kernels are written out in the plan itself with what is known when it is compiled
(indices, axes, constants of the right dtype), and elementwise ufuncs write into an input that
dies at that step when nothing else refers to its array (checked when the line runs). Every
specialized line computes exactly what the op's kernel computes (tested: optimized and
unoptimized plans give equal results). Unoptimized plans (`Session(optimize=False)`) use none
of this.
"""
import sys

import numpy as np

from ..ops.array_core import ADD_N, SUM_TO_SHAPE, static_shape
from ..ops.indexing_ops import STRIDED_SLICE, STRIDED_SLICE_GRAD
# Operator kernels are written as the ufuncs they call on arrays, so they too may write into
# a dying input.
from ..ops.math_ops import OPERATOR_UFUNCS
from ..ops.nn_ops import RELU, RELU_GRAD
from ..ops.unary_ops import TANH_GRAD

__all__ = ["fast_line", "fuse_scatter_sums", "unshared"]


# -- in-place updates ----------------------------------------------------------------------------
def _count_refs(array):
    return sys.getrefcount(array)


def _call_refs():
    array = np.zeros(1)  # one holder: this local
    return _count_refs(array) - 1


_CALL_REFS = _call_refs()  # references that calling `unshared` itself adds


def unshared(array, holders):
    """True when at most `holders` references to `array` exist besides this call's own (count
    the caller's local variable as one): then no tensor, fetched value, plan slot or view can
    see it change, and it may be updated in place."""
    return sys.getrefcount(array) - _CALL_REFS <= holders



# -- specialized lines (optimized plans only) -----------------------------------------------------
# A few hot kernels are written out in the plan itself with what is known when it is compiled
# (indices, axes, constants of the right dtype), and elementwise ufuncs write into an input that
# dies at that step when nothing else refers to its array (checked when the line runs). Every
# specialized line computes exactly what the op's kernel computes (tested: optimized and
# unoptimized plans give equal results).
_IN_PLACE_MIN_SIZE = 1 << 14  # smaller arrays are cheap to allocate; the check would cost more


def _own(array):
    """True when the plan's slot is the only reference to an array that owns writable memory."""
    return (type(array) is np.ndarray and array.base is None and unshared(array, 2)
            and array.flags.writeable)


def _static(tensor):
    """(shape tuple, numpy dtype) when the shape is fully known, else None."""
    shape = static_shape(tensor)
    if shape is None or None in shape:
        return None
    return shape, tensor.dtype.as_numpy_dtype


def _slice_key(spec, shape, kernel):
    """The NumPy index of a StridedSlice `spec`, if indexing a probe array of `shape` with it
    gives what `kernel(probe, spec)` gives (else None: the spec format is not understood)."""
    try:
        key = tuple(slice(*s) if type(s) is tuple else s for s in spec)
        probe = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
        ok = np.array_equal(probe[key], kernel(probe, spec=spec))
    except Exception:  # noqa: BLE001 - then the kernel itself runs, as unoptimized
        return None
    return key if ok else None


def _relu(step, args, g):
    zero = g(step.op.outputs[0].dtype.as_numpy_dtype(0), "a")
    return np.maximum, [args[0], zero], (0,)


def _relu_grad(step, args, g):  # the kernel: g * (y > 0)
    return np.multiply, [args[0], f"({args[1]} > 0)"], (0,)


def _tanh_grad(step, args, g):  # the kernel: dy - (dy * y) * y
    return f"{args[1]} - {args[1]} * {args[0]} * {args[0]}"


def _strided_slice(step, args, g):
    static = _static(step.op.inputs[0])
    if static is None or np.prod(static[0]) > 1e5:
        return None
    key = _slice_key(step.attrs["spec"], static[0], step.kernel)
    return None if key is None else f"{args[0]}[{g(key, 'a')}]"


def _sum_to_shape(step, args, g):  # the kernel with its axes worked out now
    static = _static(step.op.inputs[0])
    shape = tuple(step.attrs["shape"])
    if static is None or None in shape:
        return None
    source = static[0]
    lead = len(source) - len(shape)
    if lead < 0 or any(t not in (s, 1) for s, t in zip(source[lead:], shape)):
        return None  # the kernel raises the error
    if not shape:
        return f"{g(np.add.reduce, 'k')}({args[0]}, axis=None)"
    axes = tuple(range(lead)) + tuple(lead + i for i, d in enumerate(shape)
                                      if d == 1 and source[lead + i] != 1)
    if not axes:
        return f"{args[0]}.reshape({g(shape, 'a')})"
    return f"{g(np.add.reduce, 'k')}({args[0]}, axis={g(axes, 'a')}).reshape({g(shape, 'a')})"


_SPECIAL = {RELU: _relu, RELU_GRAD: _relu_grad, TANH_GRAD: _tanh_grad,
            STRIDED_SLICE: _strided_slice, SUM_TO_SHAPE: _sum_to_shape}


def fast_line(step, ref, global_name):
    """A specialized line for `step`, or None to call its kernel."""
    op = step.op
    if step.stateful or len(step.outputs) != 1 or step.outputs[0] is None or any(
            type(i) is not int for i in step.inputs):
        return None
    args = [ref(i) for i in step.inputs]
    special = _SPECIAL.get(op.op_def)
    if special is not None:
        form = special(step, args, global_name)
    elif isinstance(ufunc := OPERATOR_UFUNCS.get(step.kernel, step.kernel), np.ufunc) and (
            not step.attrs and ufunc.nout == 1):
        form = ufunc, args, tuple(range(len(args)))
    else:
        return None
    if form is None:
        return None
    target = f"s{step.outputs[0]}"
    if isinstance(form, str):
        return f"{target} = {form}  # {op.name}"
    ufunc, uargs, writable = form
    call = f"{global_name(ufunc, 'k')}({', '.join(uargs)}"
    slot = _reusable_input(step, writable)
    if slot is None:
        return f"{target} = {call})  # {op.name}"
    own = global_name(_own, "k")
    return f"{target} = {call}, out=s{slot}) if {own}(s{slot}) else {call})  # {op.name}"


def _reusable_input(step, writable):
    """An input slot the step may write its result into: it dies here, and has the output's
    (fully known, large enough) shape and dtype."""
    out = _static(step.op.outputs[0])
    if out is None or np.prod(out[0]) < _IN_PLACE_MIN_SIZE:
        return None
    for index in writable:
        slot = step.inputs[index]
        if slot in step.frees and _static(step.op.inputs[index]) == out:
            return slot
    return None


# -- fusing a sum of scattered slices ---------------------------------------------------------
def _scatter_sum(*grads, shape, dtype, keys):
    """AddN of StridedSliceGrad(grad_k, shape, spec_k): zeros, then each slice gets its grad
    added in order (equal to the sum of the zero-padded arrays)."""
    out = np.zeros(shape, dtype)
    for key, grad in zip(keys, grads):
        out[key] += grad
    return out


def fuse_scatter_sums(steps, fetch_slots):
    """Replace AddN(StridedSliceGrad(g_0, ...), ..., StridedSliceGrad(g_n, ...)) (the gradient of
    a variable read by many slices, as in `w[i]` in a loop) by one `_scatter_sum` step."""
    uses = {}
    for step in steps:
        for slot in step.inputs:
            if type(slot) is int:  # not a Variable (read and assign steps take those)
                uses[slot] = uses.get(slot, 0) + 1
    for slot in fetch_slots:
        uses[slot] = uses.get(slot, 0) + 2
    producer = {step.outputs[0]: step for step in steps
                if step.op.op_def is STRIDED_SLICE_GRAD and len(step.outputs) == 1}
    drop = set()
    for index, step in enumerate(steps):
        if step.op.op_def is not ADD_N or len(step.inputs) < 2:
            continue
        parts = [producer.get(slot) for slot in step.inputs]
        if any(p is None or uses.get(p.outputs[0]) != 1 for p in parts):
            continue
        out = _static(step.op.outputs[0])
        if out is None or any(tuple(p.attrs["shape"]) != out[0] or
                              _static(p.op.inputs[0]) is None for p in parts):
            continue
        keys = [_scatter_key(p, out[0]) for p in parts]
        if any(k is None for k in keys):
            continue
        # a Step (executor.py, which imports this module, defines the class)
        fused = type(step)(step.op, [p.inputs[0] for p in parts], step.outputs)
        fused.kernel = _scatter_sum
        fused.attrs = {"shape": out[0], "dtype": out[1], "keys": tuple(keys)}
        steps[index] = fused
        drop.update(id(p) for p in parts)
    return [step for step in steps if id(step) not in drop] if drop else steps


def _scatter_key(step, shape):
    """The NumPy index a StridedSliceGrad step scatters into, checked on a probe like
    `_slice_key` (None when its spec is not understood)."""
    if np.prod(shape) > 1e5:
        return None
    try:
        key = tuple(slice(*s) if type(s) is tuple else s for s in step.attrs["spec"])
        grad = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)[key] + 1.0
        expected = np.zeros(shape)
        expected[key] = grad
        got = step.kernel(grad, shape=shape, spec=step.attrs["spec"])
    except Exception:  # noqa: BLE001 - then the kernels run, as unoptimized
        return None
    return key if np.array_equal(got, expected) else None


