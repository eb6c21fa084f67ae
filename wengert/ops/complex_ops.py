"""The parts of a number: `real`, `imag`, `conj`, `angle`, on the real dtypes wengert has (complex
dtypes are not supported yet). As TensorFlow defines them for a real input x:
    real(x) = x,  conj(x) = x,  imag(x) = 0,  angle(x) = pi where x < 0, else 0
so their gradients are the identity's (real, conj) and zero (imag, angle)."""
import numpy as np

from ..framework.errors import InvalidArgumentError
from ..framework.tensor import convert_to_tensor
from .array_core import zeros_like
from .array_ops import identity, where

__all__ = ["real", "imag", "conj", "angle"]


def _numeric(input, what):  # noqa: A002 (TensorFlow's argument name)
    x = convert_to_tensor(input)
    if x.dtype.is_bool:
        raise InvalidArgumentError(f"{what}: expects a numeric tensor, got bool.")
    return x


def real(input, name=None):  # noqa: A002
    return identity(_numeric(input, "real"), name=name)


def conj(x, name=None):
    return identity(_numeric(x, "conj"), name=name)


def imag(input, name=None):  # noqa: A002
    return zeros_like(_numeric(input, "imag"))


def angle(input, name=None):  # noqa: A002
    x = _numeric(input, "angle")
    dtype = x.dtype.as_numpy_dtype
    return where(x < 0, np.asarray(np.pi, dtype), np.asarray(0, dtype))
