"""erf's two kernels agree: scipy.special.erf (used for float32/float64 where SciPy is installed)
and the pure-NumPy Cody evaluation (float16, bfloat16, and every dtype without SciPy)."""
import math

import numpy as np
import pytest

from wengert.ops import unary_ops


def _values(dtype):
    x = np.concatenate([np.linspace(-30, 30, 2001), [0.0, -0.0, 0.46875, -0.46875, 4.0, -4.0,
                                                     26.6, np.inf, -np.inf, np.nan]])
    return x.astype(dtype)


@pytest.fixture
def numpy_only(monkeypatch):
    monkeypatch.setattr(unary_ops, "_SCIPY_SPECIAL", [None])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_scipy_and_numpy_kernels_agree(dtype, monkeypatch):
    x = _values(dtype)
    fast = unary_ops._erf_kernel(x)
    monkeypatch.setattr(unary_ops, "_SCIPY_SPECIAL", [None])
    slow = unary_ops._erf_kernel(x)
    assert fast.dtype == slow.dtype == dtype
    np.testing.assert_allclose(fast, slow, rtol=4 * np.finfo(dtype).eps, atol=1e-300)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_numpy_kernel_matches_math_erf(dtype, numpy_only):
    x = _values(dtype)
    got = unary_ops._erf_kernel(x)
    want = np.array([math.erf(v) if not math.isnan(v) else math.nan
                     for v in x.astype(np.float64)]).astype(dtype)
    assert got.dtype == dtype
    np.testing.assert_allclose(got, want, rtol=2 * np.finfo(dtype).eps, atol=1e-300)


def test_public_erf_uses_the_fast_kernel_for_float32():
    import wengert as tf
    x = np.linspace(-3, 3, 13).astype(np.float32)
    got = tf.math.erf(x).numpy()
    want = np.array([math.erf(v) for v in x.astype(np.float64)], np.float32)
    np.testing.assert_allclose(got, want, rtol=1e-7, atol=1e-7)
