"""Hyperbolic and inverse trigonometric functions: sinh, cosh, asin, acos, atan, asinh, acosh,
atanh, and the two-argument arctangent atan2.

Each is elementwise, so its gradient is the incoming gradient g times the derivative at each
element (y is the op's output, reused where it is the cheaper form, as TensorFlow does):

    sinh:  g cosh(x)            asin:  g / sqrt(1 - x^2)      asinh:  g / cosh(y)
    cosh:  g sinh(x)            acos: -g / sqrt(1 - x^2)      acosh:  g / sinh(y)
                                atan:  g / (1 + x^2)          atanh:  g / (1 - x^2)

and for z = atan2(y, x), the angle of the point (x, y):

    dz/dy = x / (x^2 + y^2),    dz/dx = -y / (x^2 + y^2)

(both infinite at the origin, as in TensorFlow). The derivatives are wengert ops, so each rule
differentiates again; `elementwise.unary` / `binary` build the VJP and the JVP from them.
All are defined for floating-point tensors only.
"""
import numpy as np

from ..framework.execute import binary_operands, execute
from . import elementwise, shape_rules
from .elementwise import call_float, float_op
from .math_ops import square
from .unary_ops import reciprocal, rsqrt

__all__ = ["sinh", "cosh", "asin", "acos", "atan", "asinh", "acosh", "atanh", "atan2"]


def _one_minus_square(x):
    return 1.0 - square(x)


SINH = float_op("Sinh", np.sinh, lambda x, y: cosh(x), onnx="Sinh", complex_ok=True, args=("x",))
COSH = float_op("Cosh", np.cosh, lambda x, y: sinh(x), onnx="Cosh", complex_ok=True, args=("x",))
ASIN = float_op("Asin", np.arcsin, lambda x, y: rsqrt(_one_minus_square(x)), onnx="Asin",
                complex_ok=True, args=("x",))
ACOS = float_op("Acos", np.arccos, lambda x, y: -rsqrt(_one_minus_square(x)), onnx="Acos",
                complex_ok=True, args=("x",))
ATAN = float_op("Atan", np.arctan, lambda x, y: reciprocal(1.0 + square(x)), onnx="Atan",
                complex_ok=True, args=("x",))
ASINH = float_op("Asinh", np.arcsinh, lambda x, y: reciprocal(cosh(y)), onnx="Asinh",
                 complex_ok=True, args=("x",))
ACOSH = float_op("Acosh", np.arccosh, lambda x, y: reciprocal(sinh(y)), onnx="Acosh",
                 complex_ok=True, args=("x",))
ATANH = float_op("Atanh", np.arctanh, lambda x, y: reciprocal(_one_minus_square(x)),
                 onnx="Atanh", complex_ok=True, args=("x",))


def sinh(x, name=None):
    """Hyperbolic sine (e^x - e^-x) / 2."""
    return call_float(SINH, x, name, kinds="fc")


def cosh(x, name=None):
    """Hyperbolic cosine (e^x + e^-x) / 2."""
    return call_float(COSH, x, name, kinds="fc")


def asin(x, name=None):
    """Inverse sine, in [-pi/2, pi/2] (NaN outside [-1, 1])."""
    return call_float(ASIN, x, name, kinds="fc")


def acos(x, name=None):
    """Inverse cosine, in [0, pi] (NaN outside [-1, 1])."""
    return call_float(ACOS, x, name, kinds="fc")


def atan(x, name=None):
    """Inverse tangent, in (-pi/2, pi/2)."""
    return call_float(ATAN, x, name, kinds="fc")


def asinh(x, name=None):
    """Inverse hyperbolic sine."""
    return call_float(ASINH, x, name, kinds="fc")


def acosh(x, name=None):
    """Inverse hyperbolic cosine (NaN below 1)."""
    return call_float(ACOSH, x, name, kinds="fc")


def atanh(x, name=None):
    """Inverse hyperbolic tangent (+-inf at +-1, NaN outside [-1, 1])."""
    return call_float(ATANH, x, name, kinds="fc")


def _atan2_partials(y, x, z):
    scale = reciprocal(square(y) + square(x))
    return x * scale, -y * scale


ATAN2 = elementwise.binary("Atan2", np.arctan2, _atan2_partials,
                           shape=elementwise.float_pair_rule("Atan2"), args=("y", "x"))


def atan2(y, x, name=None):
    """The angle in (-pi, pi] of the point (x, y) from the positive x axis, elementwise."""
    y, x = binary_operands(y, x, "Atan2")
    shape_rules.check_float(y, "atan2's input")
    return execute(ATAN2, (y, x), name=name)
