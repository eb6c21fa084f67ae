"""The four linear maps between complex numbers and their parts: `Complex`, `Real`, `Imag`, `Conj`.

For z = x + iy (x, y real):

    complex(x, y) = x + iy      real(z) = x      imag(z) = y      conj(z) = x - iy

Gradients follow TensorFlow's convention for complex numbers. For a real loss L of a complex
tensor z = x + iy, the gradient TensorFlow returns is

    dL/dx + i dL/dy          (twice the Wirtinger derivative dL/d conj(z))

and an op's vector-Jacobian product maps the gradient g of its output w to the gradient of its
input z as  g_z = conj(dw/dz) g  for holomorphic w (so `elementwise` multiplies g by the
*conjugate* of the derivative, and `Mul` gives g conj(y)). For the four maps here:

    Complex:  (x, y) <- (real(g), imag(g))        Real:  z <- complex(g, 0)
    Imag:     z <- complex(0, g)                  Conj:  z <- conj(g)

Each map is linear (over the reals), so its JVP applies the map to the tangents. They sit below
`elementwise` because every gradient rule of complex-capable math conjugates through
`conj_if_complex`, which is free for real dtypes.
"""
import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from ..framework.execute import execute
from ..framework.registry import defop, linear
from ..framework.tensor import convert_to_tensor
from . import shape_rules

__all__ = ["complex", "real_part", "imag_part", "conj", "conj_if_complex", "CONJ", "REAL",
           "IMAG", "COMPLEX", "zero_of"]

_COMPLEX_OF = {"float32": dtypes.complex64, "float64": dtypes.complex128}


def zero_of(dtype):
    """A scalar 0 of `dtype` (a constant in a graph), broadcast by the op that takes it."""
    return convert_to_tensor(np.zeros((), dtypes.as_dtype(dtype).as_numpy_dtype))


# -- shape rules ----------------------------------------------------------------------------------
def _complex_rule(real, imag, **_):
    if real.dtype != imag.dtype or real.dtype.name not in _COMPLEX_OF:
        raise InvalidArgumentError(
            f"the real and imaginary parts must both be float32 or both float64, got "
            f"{real.dtype.name} and {imag.dtype.name}; cast them first.")
    return shape_rules.broadcast_shapes(real.shape, imag.shape), _COMPLEX_OF[real.dtype.name]


def _part_rule(x, **_):
    if x.dtype.is_bool or x.dtype.name == "string":
        raise InvalidArgumentError(f"expects a numeric tensor, got {x.dtype.name}.")
    return x.shape, x.dtype.real_dtype


def _complex_kernel(real, imag):
    out = np.empty(np.broadcast_shapes(np.shape(real), np.shape(imag)),
                   np.complex64 if real.dtype == np.float32 else np.complex128)
    out.real, out.imag = real, imag
    return out


def _real_kernel(x):
    return x.real if x.dtype.kind == "c" else x


def _imag_kernel(x):
    return x.imag if x.dtype.kind == "c" else np.zeros_like(x)


# -- the ops --------------------------------------------------------------------------------------
COMPLEX = defop("Complex", _complex_kernel, shape=_complex_rule, jvp=linear, batch="safe",
                grad=lambda op, g: (real_part(g), imag_part(g)),
                raw=lambda real, imag, Tout=dtypes.complex64, name=None: complex(  # noqa: N803
                    real, imag, name))
REAL = defop("Real", _real_kernel, shape=_part_rule, jvp=linear, batch="safe", returns_view=True,
             grad=lambda op, g: complex(g, zero_of(g.dtype)),
             raw=lambda input, Tout=dtypes.float32, name=None: real_part(input, name))  # noqa: N803
IMAG = defop("Imag", _imag_kernel, shape=_part_rule, jvp=linear, batch="safe", returns_view=True,
             grad=lambda op, g: complex(zero_of(g.dtype), g),
             raw=lambda input, Tout=dtypes.float32, name=None: imag_part(input, name))  # noqa: N803
CONJ = defop("Conj", np.conj, shape=shape_rules.same, jvp=linear, batch="safe",
             grad=lambda op, g: conj(g), args=("input",))


def complex(real, imag, name=None):  # noqa: A001 (TensorFlow's name)
    """real + i imag (float32 parts give complex64, float64 parts complex128), broadcasting."""
    real, imag = convert_to_tensor(real), convert_to_tensor(imag)
    try:
        _complex_rule(real, imag)
    except InvalidArgumentError as err:
        raise InvalidArgumentError(f"complex: {err.message}") from None
    return execute(COMPLEX, (real, imag), name=name)


def real_part(x, name=None):
    """The real part of a complex tensor (x itself, as a tensor, for a real one)."""
    x = convert_to_tensor(x)
    return execute(REAL, (x,), name=name) if x.dtype.is_complex else x


def imag_part(x, name=None):
    return execute(IMAG, (convert_to_tensor(x),), name=name)


def conj(x, name=None):
    x = convert_to_tensor(x)
    return execute(CONJ, (x,), name=name) if x.dtype.is_complex else x


def conj_if_complex(t):
    """conj(t) for a complex tensor, t itself otherwise: the factor every gradient rule of
    complex-capable math applies to a derivative before multiplying the incoming gradient."""
    return execute(CONJ, (t,)) if t.dtype.is_complex else t
