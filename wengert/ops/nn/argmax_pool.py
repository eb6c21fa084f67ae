"""`tf.nn.max_pool_with_argmax`: max_pool2d that also returns, per output, the flat index of the
input element that won (the first maximum in row-major window order): ((b*H + y)*W + x)*C + c,
without the b term unless `include_batch_in_index`. NHWC inputs.

MaxPoolGradWithArgmax adds g at those indices (a scatter-add, linear in g);
MaxPoolGradGradWithArgmax reads a tensor of the input's shape at them (a gather, the scatter's
adjoint); each one's gradient in g is the other, as TensorFlow registers them, and their JVPs are
themselves applied to the tangent.
"""
import numpy as np

from ...framework import dtypes
from ...framework.execute import execute
from ...framework.registry import defop, linear_in
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ..broadcast_ops import zeros_like
from .pool import first_maxima, lowest, pool_layout
from .window_geometry import check_like, check_window_fits, dims_last, padding_attrs, spatial_tuple

__all__ = ["max_pool_with_argmax"]


def _flat_positions(shape, rows, cols, include_batch):
    """Flat input index of every [b, row, col, c] for the given row and column indices."""
    n, h, w, c = shape
    index = (rows[:, None] * w + cols[None, :])[None, :, :, None] * c + np.arange(c)
    if include_batch:
        index = index + (np.arange(n) * (h * w * c))[:, None, None, None]
    return index


def _argmax_pool_kernel(x, ksize, strides, padding, include_batch_in_index, Targmax):  # noqa: N803
    xp, windows, out, pads = pool_layout(x, ksize, strides, padding, (), lowest(x.dtype))
    y = np.array(xp[windows[0][1]])
    for _, index in windows[1:]:
        np.maximum(y, xp[index], out=y)
    argmax = np.zeros(y.shape, dtype=Targmax)
    for (offset, index), (_, hit) in zip(windows, first_maxima(xp, y, windows)):
        rows = np.arange(out[0]) * strides[0] + offset[0] - pads[0][0]
        cols = np.arange(out[1]) * strides[1] + offset[1] - pads[1][0]
        flat = _flat_positions(x.shape, rows, cols, include_batch_in_index)
        np.copyto(argmax, np.broadcast_to(flat, y.shape), where=hit)
    return y, argmax


def _absolute(argmax, shape, include_batch):
    """argmax as flat indices into the whole input (adding b*H*W*C when not included)."""
    argmax = argmax.astype(np.int64)
    if include_batch:
        return argmax
    per_image = int(np.prod(shape[1:]))
    return argmax + (np.arange(shape[0]) * per_image).reshape((-1,) + (1,) * (argmax.ndim - 1))


def _scatter_kernel(x, g, argmax, include_batch_in_index, **_):
    index = _absolute(argmax, x.shape, include_batch_in_index).reshape(-1)
    if index.size and (index.min() < 0 or index.max() >= x.size):
        raise ValueError("argmax holds an index outside the input")
    total = np.bincount(index, weights=g.reshape(-1).astype(np.float64), minlength=x.size)
    return total.astype(g.dtype).reshape(x.shape)


def _gather_kernel(x, gg, argmax, include_batch_in_index, **_):
    index = _absolute(argmax, x.shape, include_batch_in_index)
    return gg.reshape(-1)[index]


def _argmax_pool_rule(x, ksize, strides, padding, include_batch_in_index, Targmax):  # noqa: N803
    dims = dims_last(x, "NHWC", "input", 4)
    out = check_window_fits(dims[1:3], ksize, strides, padding, (), (1, 1), x.shape)
    shape = TensorShape([dims[0]] + out + [dims[3]])
    return [(shape, x.dtype), (shape, dtypes.as_dtype(Targmax))]


def _scatter_rule(x, g, argmax, **_):
    check_like(argmax, g, "argmax")
    return x.shape, g.dtype


def _gather_rule(x, gg, argmax, **_):
    check_like(gg, x, "the gradient of the gradient")
    return argmax.shape, gg.dtype


def _argmax_attrs(op):
    return {k: op.attrs[k] for k in ("ksize", "strides", "padding", "include_batch_in_index")}


def _raw_grad(op_def):
    """tf.raw_ops.MaxPoolGrad(Grad)WithArgmax: TensorFlow's arguments onto the op's."""
    def raw(input, grad, argmax, ksize, strides, padding,  # noqa: A002
            include_batch_in_index=False, name=None):
        attrs = {"ksize": _nhwc_pair(ksize, "ksize"), "strides": _nhwc_pair(strides, "strides"),
                 "padding": padding_attrs(padding, allow_explicit=False)[0],
                 "include_batch_in_index": bool(include_batch_in_index)}
        return execute(op_def(), tuple(convert_to_tensor(t) for t in (input, grad, argmax)),
                       attrs, name)
    return raw


def _grad_through(other):
    """The gradient of the scatter and the gather below, each linear in its input 1 (the
    input 0 and the argmax only place it): the other op applied to the incoming gradient."""
    return lambda op, g: (zeros_like(op.inputs[0]), execute(
        other(), (op.inputs[0], g, op.inputs[2]), op.attrs), None)


MAX_POOL_GRAD_WITH_ARGMAX = defop(
    "MaxPoolGradWithArgmax", _scatter_kernel, shape=_scatter_rule,
    grad=_grad_through(lambda: MAX_POOL_GRAD_GRAD_WITH_ARGMAX), jvp=linear_in(1),
    raw=_raw_grad(lambda: MAX_POOL_GRAD_WITH_ARGMAX))


MAX_POOL_GRAD_GRAD_WITH_ARGMAX = defop(
    "MaxPoolGradGradWithArgmax", _gather_kernel, shape=_gather_rule,
    grad=_grad_through(lambda: MAX_POOL_GRAD_WITH_ARGMAX), jvp=linear_in(1),
    raw=_raw_grad(lambda: MAX_POOL_GRAD_GRAD_WITH_ARGMAX))


MAX_POOL_WITH_ARGMAX = defop(
    "MaxPoolWithArgmax", _argmax_pool_kernel, shape=_argmax_pool_rule, num_outputs=2,
    grad=lambda op, g, g_argmax=None: execute(
        MAX_POOL_GRAD_WITH_ARGMAX, (op.inputs[0], g, op.outputs[1]), _argmax_attrs(op)),
    jvp=lambda primals, tangents, outputs, **attrs: (None if tangents[0] is None else execute(
        MAX_POOL_GRAD_GRAD_WITH_ARGMAX, (primals[0], tangents[0], outputs[1]), {
            k: attrs[k] for k in ("ksize", "strides", "padding", "include_batch_in_index")}),
        None),
    raw=lambda input, ksize, strides, padding, Targmax=dtypes.int64, include_batch_in_index=False,
    name=None: max_pool_with_argmax(input, ksize, strides, padding, "NHWC", Targmax,
                                    include_batch_in_index, name))


def _nhwc_pair(value, name):
    return spatial_tuple(value, name, "NHWC", nd=2)


def max_pool_with_argmax(input, ksize, strides, padding, data_format="NHWC",  # noqa: A002
                         output_dtype=dtypes.int64, include_batch_in_index=False, name=None):
    """(max_pool2d(input), argmax): argmax holds the flat index ((b*H + y)*W + x)*C + c (the b
    term only with include_batch_in_index) of each window's first maximum."""
    if data_format != "NHWC":
        raise ValueError(f"max_pool_with_argmax: data_format must be 'NHWC', got "
                         f"{data_format!r}.")
    index_dtype = dtypes.as_dtype(output_dtype)
    if index_dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"max_pool_with_argmax: output_dtype must be int32 or int64, got "
                        f"{index_dtype.name}.")
    x = convert_to_tensor(input)
    if not (x.dtype.is_floating or x.dtype.is_integer):
        raise TypeError(f"max_pool_with_argmax: input must be numeric, got {x.dtype.name}.")
    attrs = {"ksize": _nhwc_pair(ksize, "ksize"), "strides": _nhwc_pair(strides, "strides"),
             "padding": padding_attrs(padding, allow_explicit=False)[0],
             "include_batch_in_index": bool(include_batch_in_index),
             "Targmax": index_dtype.as_numpy_dtype}
    return execute(MAX_POOL_WITH_ARGMAX, (x,), attrs, name)
