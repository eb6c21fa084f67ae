"""`cast`: a tensor's values in another dtype.

Cast is linear where it is differentiable: its gradient is the incoming gradient cast back to the
source dtype (from complex to real it keeps the real part, as TensorFlow's _CastGrad), and None
when either dtype is not a floating or complex one (integers carry no gradient).
"""
import numpy as np

from ..framework import dtypes
from ..framework.dispatch import elementwise_or_raise
from ..framework.execute import execute
from ..framework.registry import defop
from ..framework.tensor import convert_to_tensor

__all__ = ["cast"]


def _cast_grad(op, grad):
    """The gradient cast back to the source dtype: from complex to real it keeps the real part
    (a real source moves the output only along the real axis), as TensorFlow's _CastGrad."""
    source = op.inputs[0].dtype
    if not (source.is_differentiable and grad.dtype.is_differentiable):
        return None
    return cast(grad, source)


def _cast_rule(x, dtype):
    return x.shape, dtypes.as_dtype(dtype)


def _cast_jvp(primals, tangents, outputs, dtype):
    if not (primals[0].dtype.is_differentiable and np.dtype(dtype).kind in "fc"):
        return None
    return cast(tangents[0], dtype)


def _cast_kernel(x, dtype):
    """x.astype(dtype); complex to real keeps the real part (TensorFlow's Cast)."""
    if x.dtype.kind == "c" and np.dtype(dtype).kind != "c":
        x = x.real
    return x.astype(dtype)


CAST = defop("Cast", _cast_kernel, shape=_cast_rule, grad=_cast_grad,
             jvp=_cast_jvp, batch="safe",
             partial_value=lambda op, x: x if np.dtype(op.attrs["dtype"]).kind in "iu" else None,
             onnx=lambda ctx, op, x: ctx.cast(x, op.attrs["dtype"]),
             raw=lambda x, DstT, Truncate=False, name=None: cast(x, DstT, name))  # noqa: N803


def cast(x, dtype, name=None):
    """`x` converted to `dtype` (floats truncate toward zero when cast to integers)."""
    try:
        x = convert_to_tensor(x)
    except TypeError:
        return elementwise_or_raise(lambda v: cast(v, dtype, name), x)
    dtype = dtypes.as_dtype(dtype)
    if x.dtype is dtype:
        return x
    return execute(CAST, (x,), {"dtype": dtype.as_numpy_dtype}, name)
