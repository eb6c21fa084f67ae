"""`bitcast`: a tensor's bytes read as another dtype, TensorFlow's Bitcast.

With input dtype of s bytes per element and output dtype of t bytes:
- s == t: the same shape, every element's bytes reinterpreted;
- s > t: a new last axis of s / t elements (each input element becomes that many);
- s < t: the last axis must have exactly t / s elements, and it is consumed (each row of them
  becomes one output element).
The bytes are read in the machine's order (little-endian here, as TensorFlow on x86). Strings,
booleans and resources cannot be bitcast. Bitcast has no gradient (TensorFlow registers none:
reinterpreted bits carry no derivative), so a gradient through it raises LookupError.
"""
import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from ..framework.execute import execute
from ..framework.registry import defop
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape

__all__ = ["bitcast"]

_REFUSED = ("string", "bool", "resource", "variant")


def _sizes(in_dtype, out_dtype):
    return np.dtype(in_dtype).itemsize, np.dtype(out_dtype).itemsize


def _out_shape(shape, s, t):
    """The output shape from the input's (a TensorShape) and the two element sizes."""
    dims = shape.as_list() if shape.rank is not None else None
    if s == t or dims is None:
        return TensorShape(dims)
    if s > t:
        return TensorShape(dims + [s // t])
    if not dims or (dims[-1] is not None and dims[-1] != t // s):
        raise InvalidArgumentError(
            f"bitcast: cannot bitcast from {s}-byte to {t}-byte elements: the input's last "
            f"dimension must be {t // s}, got shape {shape}. Reshape the input so its last axis "
            f"holds {t // s} elements.")
    return TensorShape(dims[:-1])


def _bitcast_kernel(x, *, type):  # noqa: A002  (TensorFlow's attribute name)
    out = np.dtype(type)
    s, t = _sizes(x.dtype, out)
    x = np.ascontiguousarray(x)
    if s == t:
        return x.view(out)
    if s > t:
        return x.reshape(x.shape + (1,)).view(out)
    _out_shape(TensorShape(x.shape), s, t)
    return x.view(out).reshape(x.shape[:-1])


def _bitcast_rule(x, *, type):  # noqa: A002
    out = dtypes.as_dtype(type)
    return _out_shape(x.shape, *_sizes(x.dtype.as_numpy_dtype, out.as_numpy_dtype)), out


BITCAST = defop("Bitcast", _bitcast_kernel, shape=_bitcast_rule,
                raw=lambda input, type, name=None: bitcast(input, type, name))  # noqa: A002


def bitcast(input, type, name=None):  # noqa: A002  (TensorFlow's argument names)
    """The bytes of `input` as elements of dtype `type` (see the module docstring for shapes)."""
    x = convert_to_tensor(input)
    out = dtypes.as_dtype(type)
    for dt in (x.dtype, out):
        if dt.name in _REFUSED:
            raise InvalidArgumentError(f"bitcast: cannot bitcast {x.dtype.name} to {out.name}: {dt.name} "
                            f"has no fixed-size bit pattern; use tf.cast or tf.strings instead.")
    _out_shape(x.shape, *_sizes(x.dtype.as_numpy_dtype, out.as_numpy_dtype))
    return execute(BITCAST, (x,), {"type": out.as_numpy_dtype}, name)
