"""The parts of a number: `real`, `imag`, `conj`, `angle`, `complex` and the modulus `abs`, for
real and complex tensors, with TensorFlow's gradients (the convention is in complex_parts.py).

For z = x + iy:  angle(z) = atan2(y, x),  |z| = sqrt(x^2 + y^2). Their gradients for a real
incoming gradient g are the complex numbers dL/dx + i dL/dy:

    ComplexAbs:  g z / |z|   (0 at z = 0)      Angle:  -g / (y + ix) = g (-y + ix) / |z|^2

and their JVPs are d|z| = real(conj(z) dz) / |z| and d angle = imag(dz / z).
For a real input TensorFlow defines real(x) = x, conj(x) = x, imag(x) = 0 and
angle(x) = pi where x < 0, else 0: gradients of the identity (real, conj) and zero (imag, angle).
"""
import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from ..framework.execute import execute
from ..framework.registry import defop
from ..framework.tensor import convert_to_tensor
from .broadcast_ops import zeros_like
from .array_ops import identity, where
from .binary_math_ops import div_no_nan
from .complex_parts import CONJ, IMAG, REAL, complex, conj_if_complex, zero_of
from .unary_ops import abs as _real_abs, reciprocal

__all__ = ["real", "imag", "conj", "angle", "complex", "complex_abs", "abs"]

_COMPLEX_DTYPES = (dtypes.complex64, dtypes.complex128, np.complex64, np.complex128)


def _numeric(input, what):  # noqa: A002 (TensorFlow's argument name)
    x = convert_to_tensor(input)
    if x.dtype.is_bool or x.dtype.name == "string":
        raise InvalidArgumentError(f"{what}: expects a numeric tensor, got {x.dtype.name}.")
    return x


def real(input, name=None):  # noqa: A002
    """The real part of `input` (for a real tensor, the tensor itself)."""
    x = _numeric(input, "real")
    return execute(REAL, (x,), name=name) if x.dtype.is_complex else identity(x, name=name)


def imag(input, name=None):  # noqa: A002
    """The imaginary part of `input` (zeros for a real tensor)."""
    x = _numeric(input, "imag")
    return execute(IMAG, (x,), name=name) if x.dtype.is_complex else zeros_like(x)


def conj(x, name=None):
    """The complex conjugate x - iy (for a real tensor, the tensor itself)."""
    x = _numeric(x, "conj")
    return execute(CONJ, (x,), name=name) if x.dtype.is_complex else identity(x, name=name)


# -- modulus and argument of complex numbers ------------------------------------------------------
def _complex_to_real_rule(op_type):
    def rule(x, **_):
        if not x.dtype.is_complex:
            raise InvalidArgumentError(f"{op_type} needs a complex tensor, got {x.dtype.name}.")
        return x.shape, x.dtype.real_dtype
    return rule


def _complex_abs_grad(op, grad):
    z, modulus = op.inputs[0], op.outputs[0]
    return div_no_nan(complex(grad, zero_of(grad.dtype)) * z,
                      complex(modulus, zero_of(modulus.dtype)))


def _complex_abs_jvp(primals, tangents, outputs):
    (z,), (dz,), (modulus,) = primals, tangents, outputs
    return div_no_nan(execute(REAL, (conj_if_complex(z) * dz,)), modulus)


def _angle_grad(op, grad):
    z = op.inputs[0]
    swapped = complex(execute(IMAG, (z,)), execute(REAL, (z,)))  # y + ix
    return -complex(grad, zero_of(grad.dtype)) * reciprocal(swapped)


COMPLEX_ABS = defop("ComplexAbs", lambda z: np.abs(z), shape=_complex_to_real_rule("ComplexAbs"),
                    grad=_complex_abs_grad, jvp=_complex_abs_jvp, batch="safe",
                    raw=lambda x, Tout=dtypes.float32, name=None: complex_abs(  # noqa: N803
                        x, name))
ANGLE = defop("Angle", lambda z: np.angle(z), shape=_complex_to_real_rule("Angle"),
              grad=_angle_grad, batch="safe",
              jvp=lambda primals, tangents, outputs: execute(IMAG, (tangents[0] / primals[0],)),
              raw=lambda input, Tout=dtypes.float32, name=None: angle(input, name))  # noqa: N803


def complex_abs(x, name=None):
    """|x| of a complex tensor, as a real tensor (TensorFlow's ComplexAbs)."""
    return execute(COMPLEX_ABS, (convert_to_tensor(x),), name=name)


def angle(input, name=None):  # noqa: A002
    """The argument atan2(imag, real) of each element (pi or 0 for a real tensor, by sign)."""
    x = _numeric(input, "angle")
    if x.dtype.is_complex:
        return execute(ANGLE, (x,), name=name)
    dtype = x.dtype.as_numpy_dtype
    return where(x < 0, np.asarray(np.pi, dtype), np.asarray(0, dtype))


def abs(x, name=None):  # noqa: A001 (TensorFlow's name)
    """|x| elementwise: for a complex tensor its modulus, a real tensor (ComplexAbs); otherwise
    the Abs op, whose gradient at 0 is 0."""
    if getattr(x, "dtype", None) in _COMPLEX_DTYPES:
        return complex_abs(x, name=name)
    return _real_abs(x, name=name)
