"""wengert.keras.ops's NumPy-style functions against TensorFlow 2.21's Keras 3 (keras.ops, TF
backend): values, output dtypes (Keras's promotion) and gradients, all cases of the module in one
TensorFlow subprocess."""
import numpy as np
import pytest

from keras_ops_checks import K, check_with_dtypes
from tf_ops_reference import run_tf_or_skip

RNG = np.random.default_rng(27)


def f32(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def f64(*shape):
    return RNG.standard_normal(shape)


def pos(*shape):
    return RNG.uniform(0.5, 2.0, shape).astype(np.float32)


def unit(*shape):
    return RNG.uniform(-0.9, 0.9, shape).astype(np.float32)


def ints(*shape, dtype=np.int32, low=-5, high=6):
    return RNG.integers(low, high, shape).astype(dtype)


UNARY_FLOAT = ["sin", "cos", "tan", "arctan", "sinh", "cosh", "tanh", "arcsinh", "exp", "expm1",
               "exp2", "abs", "absolute", "fabs", "sign", "square", "negative", "copy", "cbrt",
               "deg2rad", "rad2deg", "trunc", "round", "real", "conj", "conjugate", "signbit",
               "isfinite", "isinf", "isnan", "isneginf", "isposinf", "isreal", "nan_to_num",
               "ceil", "floor", "sinc", "i0", "angle", "imag"]
UNARY_POSITIVE = ["log", "log1p", "log2", "log10", "sqrt", "reciprocal", "arccosh"]
UNARY_UNIT = ["arcsin", "arccos", "arctanh"]
BINARY_FLOAT = ["add", "subtract", "multiply", "divide", "true_divide", "divide_no_nan",
                "maximum", "minimum", "fmax", "fmin", "arctan2", "hypot", "logaddexp",
                "logaddexp2", "floor_divide", "mod", "fmod", "heaviside", "nextafter", "equal",
                "not_equal", "greater", "greater_equal", "less", "less_equal", "isclose",
                "allclose", "logical_and", "logical_or", "logical_xor"]
DIFFERENTIABLE = set(UNARY_POSITIVE + UNARY_UNIT) - {"reciprocal"} | {
    "sin", "cos", "tan", "arctan", "sinh", "cosh", "tanh", "arcsinh", "exp", "expm1", "exp2",
    "abs", "absolute", "fabs", "square", "negative", "copy", "deg2rad", "rad2deg", "sinc",
    "add", "subtract", "multiply", "divide", "true_divide", "maximum", "minimum", "fmax", "fmin",
    "arctan2", "hypot", "logaddexp", "logaddexp2", "cbrt", "nan_to_num", "real", "conj"}


def _math_cases():
    cases = []
    for op in UNARY_FLOAT:
        wrt = [0] if op in DIFFERENTIABLE else []
        cases.append(K(op, [f32(2, 3)], wrt=wrt, rtol=1e-4))
        if op not in ("angle", "imag", "real", "conj", "conjugate", "isreal", "i0"):
            cases.append(K(op, [ints(2, 3)], tag="_int32"))
    for op in UNARY_POSITIVE:
        x = pos(3, 2) + (1.0 if op == "arccosh" else 0.0)
        cases.append(K(op, [x], wrt=[] if op == "reciprocal" else [0], rtol=1e-4))
        cases.append(K(op, [f64(3) ** 2 + 1.5], tag="_f64", wrt=[0]))
    for op in UNARY_UNIT:
        cases.append(K(op, [unit(4)], wrt=[0], rtol=1e-4))
    cases += [K("sqrt", [ints(3, low=1, high=9, dtype=np.int64)], tag="_int64"),
              K("sin", [ints(3, dtype=np.int8)], tag="_int8"),
              K("exp", [np.array([True, False])], tag="_bool"),
              K("abs", [ints(3, low=0, high=9, dtype=np.uint8)], tag="_uint8"),
              K("sign", [ints(3, low=0, high=9, dtype=np.uint8)], tag="_uint8"),
              K("round", [f32(5) * 50], 1, tag="_decimals", rtol=1e-4),
              K("round", [ints(5, low=-500, high=500)], -2, tag="_int_neg"),
              K("nan_to_num", [np.array([np.nan, np.inf, -np.inf, 1.0], np.float32)], 0.5,
                tag="_values", posinf=9.0, neginf=-9.0),
              K("signbit", [np.array([-0.0, 0.0, -1.0, 2.0])], tag="_zero"),
              K("angle", [f32(3) + 1j * f32(3)], tag="_complex", rtol=1e-4),
              K("real", [(f32(3) + 1j * f32(3)).astype(np.complex64)], tag="_complex"),
              K("imag", [(f32(3) + 1j * f32(3)).astype(np.complex64)], tag="_complex"),
              K("sin", [f32(3).astype(np.float16)], tag="_f16", rtol=1e-3, atol=1e-3),
              K("isnan", [np.array([np.nan, 1.0], np.float32)], tag="_nan")]
    return cases


def _binary_cases():
    cases = []
    for op in BINARY_FLOAT:
        wrt = [0, 1] if op in DIFFERENTIABLE else []
        b = pos(3) if op in ("mod", "fmod", "floor_divide", "divide", "true_divide") else f32(3)
        cases.append(K(op, [f32(2, 3), b], wrt=wrt, rtol=1e-4))
        cases.append(K(op, [ints(2, 3), ints(3, low=1)], tag="_int32"))
        cases.append(K(op, [ints(2, 3, dtype=np.int8), pos(3)], tag="_int8_f32"))
    for op in ("add", "subtract", "multiply", "divide", "maximum", "minimum", "power",
               "floor_divide", "fmax", "fmin"):
        cases.append(K(op, [ints(3, dtype=np.int8, low=1)], 3, tag="_weak_int"))
        cases.append(K(op, [f32(3).astype(np.float16)], 2.0, tag="_weak_float", rtol=1e-3))
        cases.append(K(op, [ints(3, dtype=np.int16, low=1)], 2.5, tag="_int_weak_float"))
        cases.append(K(op, [ints(3, dtype=np.uint8, low=1)], [1, 2, 3], tag="_list"))
    cases += [K("power", [pos(3), f32(3)], wrt=[0, 1], rtol=1e-4),
              K("power", [ints(3, low=1, high=4), ints(3, low=0, high=3)], tag="_int"),
              K("power", [ints(3, low=1, high=4, dtype=np.uint8),
                          ints(3, low=0, high=3, dtype=np.uint8)], tag="_uint8"),
              K("ldexp", [f32(3), ints(3)], wrt=[0], rtol=1e-4),
              K("gcd", [ints(5, low=-30, high=30), ints(5, low=-30, high=30)]),
              K("lcm", [ints(5, low=-12, high=12), ints(5, low=-12, high=12)]),
              K("mod", [np.array([True, False]), np.array([True, True])], tag="_bool"),
              K("equal", [ints(3, dtype=np.uint8), ints(3, dtype=np.int8)], tag="_mixed"),
              K("logical_not", [f32(4)]),
              K("isclose", [f32(3), f32(3)], tag="_tol", rtol=0.5, atol=0.1),
              K("isin", [ints(2, 3), ints(4)]),
              K("isin", [ints(2, 3), ints(4)], tag="_invert", invert=True)]
    for op in ("bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
               "bitwise_right_shift", "left_shift", "right_shift"):
        cases.append(K(op, [ints(4, low=0, high=60), ints(4, low=0, high=4)]))
        cases.append(K(op, [ints(4, low=0, high=60, dtype=np.uint8),
                            ints(4, low=0, high=4, dtype=np.int16)], tag="_mixed"))
    cases += [K("bitwise_left_shift", [ints(4, low=0, high=60, dtype=np.int8)], 2, tag="_scalar"),
              K("bitwise_invert", [ints(4, dtype=np.int16)]),
              K("bitwise_not", [ints(4, low=0, high=60, dtype=np.uint8)])]
    return cases


CASES = _math_cases() + _binary_cases()
assert len({c.name for c in CASES}) == len(CASES), "case names must be unique"


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_matches_keras(case, tf_results):
    check_with_dtypes(case, tf_results[case.name])
