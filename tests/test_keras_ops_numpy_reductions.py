"""wengert.keras.ops's reductions, scans, NaN-ignoring reductions and quantiles against
TensorFlow 2.21's Keras 3: values, output dtypes and gradients, in one TensorFlow subprocess."""
import numpy as np
import pytest

from keras_ops_checks import K, check_with_dtypes
from tf_ops_reference import TFCase, run_tf_or_skip
from wengert.keras import ops

RNG = np.random.default_rng(31)


def f32(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def ints(*shape, dtype=np.int32, low=-5, high=6):
    return RNG.integers(low, high, shape).astype(dtype)


def with_nans(*shape):
    x = f32(*shape)
    x[RNG.random(shape) < 0.3] = np.nan
    return x


REDUCTIONS = ["sum", "prod", "mean", "max", "min", "amax", "amin", "std", "var", "ptp"]
DIFFERENTIABLE = {"sum", "prod", "mean", "max", "min", "amax", "amin", "std", "var", "ptp",
                  "average", "cumsum", "cumprod", "trapezoid", "quantile", "percentile",
                  "median", "nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmax",
                  "nanmin", "nancumsum", "nancumprod", "nanquantile", "nanpercentile",
                  "nanmedian"}


def _weighted_average(tag, inputs, axis):
    return TFCase("average" + tag, f"keras.ops.average(x0, axis={axis}, weights=x1)",
                  lambda x, w: ops.average(x, axis=axis, weights=w), inputs, wrt=[0, 1],
                  rtol=1e-4)


def _reduction_cases():
    cases = []
    for op in REDUCTIONS:
        wrt = [0] if op in DIFFERENTIABLE else []
        cases += [K(op, [f32(3, 4)], wrt=wrt, rtol=1e-4),
                  K(op, [f32(2, 3, 4)], tag="_axis", wrt=wrt, rtol=1e-4, axis=1),
                  K(op, [f32(2, 3, 4)], tag="_axes_keep", wrt=wrt, rtol=1e-4, axis=(0, 2),
                    keepdims=True),
                  K(op, [ints(3, 4, low=1, high=4)], tag="_int32", rtol=1e-4, axis=0),
                  K(op, [ints(3, 4, dtype=np.int8, low=1, high=4)], tag="_int8", rtol=1e-4),
                  K(op, [ints(3, 4, dtype=np.uint8, low=1, high=4)], tag="_uint8", rtol=1e-4,
                    axis=-1)]
    cases += [K("sum", [np.array([[True, False], [True, True]])], tag="_bool", axis=0),
              K("mean", [f32(3, 2).astype(np.float16)], tag="_f16", rtol=1e-3, atol=1e-3),
              K("max", [f32(3, 2)], tag="_initial", wrt=[0], axis=0, initial=0.5),
              K("min", [ints(3, 2)], tag="_initial", axis=1, initial=-1),
              K("max", [np.array([True, False])], tag="_bool"),
              K("var", [ints(4, low=0, high=9, dtype=np.int64)], tag="_int64"),
              K("all", [f32(3, 4)], axis=1), K("any", [ints(3, 4, low=0, high=2)]),
              K("all", [ints(2, 3, low=0, high=2)], tag="_keep", keepdims=True),
              K("argmax", [f32(3, 4)]), K("argmin", [f32(3, 4)], axis=1),
              K("argmax", [f32(3, 4)], tag="_keep", axis=0, keepdims=True),
              K("argmin", [ints(3, 4)], tag="_keep", keepdims=True),
              K("count_nonzero", [ints(3, 4, low=-1, high=2)]),
              K("count_nonzero", [ints(3, 4, low=-1, high=2)], tag="_axis", axis=(0,)),
              K("average", [f32(3, 4)], wrt=[0], rtol=1e-4),
              _weighted_average("_weights", [f32(3, 4), f32(3, 4) ** 2 + 0.5], 1),
              _weighted_average("_weights_1d", [f32(3, 4), f32(4) ** 2 + 0.5], 1),
              _weighted_average("_weights_all", [f32(3, 4), f32(3, 4) ** 2 + 0.5], None),
              K("average", [ints(3, 4)], tag="_int", axis=0),
              K("cumsum", [f32(3, 4)], wrt=[0], rtol=1e-4),
              K("cumsum", [f32(3, 4)], tag="_axis", wrt=[0], rtol=1e-4, axis=1),
              K("cumsum", [np.array([True, True, False])], tag="_bool"),
              K("cumsum", [ints(3, dtype=np.int8)], tag="_dtype", dtype="float32"),
              K("cumprod", [f32(2, 3)], wrt=[0], rtol=1e-4, axis=0),
              K("cumprod", [ints(5, low=1, high=3)], tag="_int"),
              K("trapezoid", [f32(3, 5)], wrt=[0], rtol=1e-4),
              K("trapezoid", [f32(3, 5), np.sort(f32(5))], tag="_x", wrt=[0, 1], rtol=1e-4),
              K("trapezoid", [f32(4, 3)], tag="_dx_axis", wrt=[0], rtol=1e-4, dx=0.5, axis=0),
              K("trapezoid", [ints(5)], tag="_int")]
    return cases


def _quantile_cases():
    cases = []
    for method in ("linear", "lower", "higher", "nearest", "midpoint"):
        cases.append(K("quantile", [f32(3, 7)], 0.3, tag=f"_{method}", wrt=[0], rtol=1e-4,
                       axis=1, method=method))
    cases += [K("quantile", [f32(2, 3, 4), np.array([0.1, 0.5, 0.9])], tag="_vector",
                wrt=[0], rtol=1e-4, axis=(0, 2)),
              K("quantile", [f32(2, 3, 4), np.array([0.1, 0.9])], tag="_vector_keep",
                wrt=[0], rtol=1e-4, axis=1, keepdims=True),
              K("quantile", [f32(3, 4)], 0.75, tag="_all", wrt=[0], rtol=1e-4),
              K("quantile", [f32(3, 4)], 0.75, tag="_all_keep", wrt=[0], rtol=1e-4,
                keepdims=True),
              K("quantile", [ints(3, 4)], 0.5, tag="_int", axis=0),
              K("quantile", [with_nans(3, 4)], 0.5, tag="_nan", axis=1),
              K("percentile", [f32(4, 5)], 40, wrt=[0], rtol=1e-4, axis=0),
              K("median", [f32(3, 5)], wrt=[0], rtol=1e-4, axis=1),
              K("median", [f32(2, 4)], tag="_even", wrt=[0], rtol=1e-4),
              K("median", [ints(3, 4)], tag="_int", axis=0)]
    return cases


def _nan_cases():
    cases = []
    for op in ("nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmax", "nanmin",
               "nanargmax", "nanargmin", "nanmedian"):
        wrt = [0] if op in DIFFERENTIABLE else []
        cases += [K(op, [with_nans(4, 5)], wrt=wrt, rtol=1e-4, atol=1e-5),
                  K(op, [with_nans(4, 5)], tag="_axis", wrt=wrt, rtol=1e-4, atol=1e-5,
                    axis=1),
                  K(op, [with_nans(3, 4)], tag="_keep", rtol=1e-4, atol=1e-5, axis=0,
                    keepdims=True),
                  K(op, [ints(3, 4, low=1, high=4)], tag="_int", rtol=1e-4, axis=1)]
        if op == "nanmedian":
            cases.pop()
    all_nan = np.array([[np.nan, np.nan], [1.0, np.nan]], np.float32)
    for op in ("nanmax", "nanmin", "nanmean", "nanargmax", "nanargmin", "nanmedian", "nanvar"):
        cases.append(K(op, [all_nan], tag="_all_nan", axis=1))
    cases += [K("nancumsum", [with_nans(3, 4)], wrt=[0], rtol=1e-4, axis=1),
              K("nancumprod", [with_nans(3, 4)], wrt=[0], rtol=1e-4, axis=0),
              K("nancumsum", [with_nans(6)], tag="_flat", wrt=[0], rtol=1e-4),
              K("nanquantile", [with_nans(3, 6)], 0.3, wrt=[0], rtol=1e-4, axis=1),
              K("nanquantile", [with_nans(3, 6), np.array([0.2, 0.8])], tag="_vector",
                wrt=[0], rtol=1e-4, axis=1),
              K("nanpercentile", [with_nans(4, 3)], 60, wrt=[0], rtol=1e-4, axis=0),
              K("nansum", [np.array([True, False])], tag="_bool"),
              K("nanmean", [with_nans(3, 3).astype(np.float64)], tag="_f64", wrt=[0])]
    return cases


CASES = _reduction_cases() + _quantile_cases() + _nan_cases()
assert len({c.name for c in CASES}) == len(CASES), "case names must be unique"


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_matches_keras(case, tf_results):
    check_with_dtypes(case, tf_results[case.name])
