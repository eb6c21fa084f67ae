"""keras.ops' core, control-flow, math and Fourier ops (wengert/keras/ops/core.py, control_flow.py,
math.py, spectral.py) against Keras 3 on TensorFlow 2.21 (values and gradients), and without
TensorFlow: values against NumPy/SciPy, float64 gradients by finite differences, control flow
differentiated eagerly and inside tf.function."""
import numpy as np
import pytest
import scipy.special

import wengert as tf
from tf_ops_reference import TFCase, check, run_tf_or_skip
from wengert.keras.ops import control_flow as C, core, math as M, spectral as S
from wengert.keras.ops.rearrange import rearrange
from wengert.testing import check_grads

RNG = np.random.default_rng(27)


def r(*shape, dtype=np.float64):
    return RNG.standard_normal(shape).astype(dtype)


def traced(fn):
    return tf.function(fn)


def _scan_body(c, x):
    return c * 0.5 + x, c * x


def _affine(p, q):
    return p[0] * q[0], q[0] * p[1] + q[1]


AFFINE = "lambda p, q: (p[0] * q[0], q[0] * p[1] + q[1])"
SCAN = "lambda c, x: (c * 0.5 + x, c * x)"
CASES = [
    TFCase("cast", "keras.ops.cast(x0, 'int32')", lambda x: core.cast(x, "int32"),
           [r(3, 4) * 4]),
    TFCase("saturate_cast", "keras.ops.saturate_cast(x0 * 200, 'uint8')",
           lambda x: core.saturate_cast(x * 200, "uint8"), [r(3, 4)]),
    TFCase("stop_gradient", "keras.ops.stop_gradient(x0) * x0",
           lambda x: core.stop_gradient(x) * x, [r(3)], wrt=[0]),
    TFCase("custom_gradient", "keras.ops.custom_gradient(lambda x: (tf.math.log1p(tf.exp(x)), "
           "lambda *a, upstream=None: (a[0] if upstream is None else upstream) * 3.0))(x0)",
           core.custom_gradient(lambda x: (tf.math.log1p(tf.exp(x)), lambda *a, upstream=None:
                                           (a[0] if upstream is None else upstream) * 3.0)),
           [r(4)], wrt=[0]),
    TFCase("unstack", "keras.ops.unstack(x0, axis=1)", lambda x: core.unstack(x, axis=1),
           [r(2, 3)], wrt=[0]),
    TFCase("slice", "keras.ops.slice(x0, [1, 0], [2, 3])",
           lambda x: core.slice(x, [1, 0], [2, 3]), [r(4, 5)], wrt=[0]),
    TFCase("slice_update", "keras.ops.slice_update(x0, [1, 2], x1)",
           lambda x, u: core.slice_update(x, [1, 2], u), [r(4, 5), r(2, 2)]),
    TFCase("slice_update_clamped", "keras.ops.slice_update(x0, [3, 4], x1)",
           lambda x, u: core.slice_update(x, [3, 4], u), [r(4, 5), r(2, 2)]),
    TFCase("scatter", "keras.ops.scatter(x1, x0, (4, 3))",
           lambda v, i: core.scatter(i, v, (4, 3)), [r(3, 3), np.array([[0], [2], [0]])],
           wrt=[0]),
    TFCase("scatter_update", "keras.ops.scatter_update(x0, x2, x1)",
           lambda x, u, i: core.scatter_update(x, i, u),
           [r(4, 3), r(2), np.array([[0, 1], [3, 2]])], wrt=[0, 1]),
    TFCase("scatter_update_add", "keras.ops.scatter_update(x0, x2, x1, reduction='add')",
           lambda x, u, i: core.scatter_update(x, i, u, reduction="add"),
           [r(4, 3), r(3), np.array([[0, 1], [3, 2], [0, 1]])], wrt=[0, 1]),
    TFCase("scatter_update_mul", "keras.ops.scatter_update(x0, x2, x1, reduction='mul')",
           lambda x, u, i: core.scatter_update(x, i, u, reduction="mul"),
           [r(4, 3), r(3), np.array([[0, 1], [3, 2], [0, 1]])]),
    TFCase("scatter_update_max", "keras.ops.scatter_update(x0, x2, x1, reduction='max')",
           lambda x, u, i: core.scatter_update(x, i, u, reduction="max"),
           [r(4, 3), r(2), np.array([[0, 1], [3, 2]])]),
    TFCase("cond", "keras.ops.cond(tf.reduce_sum(x0) > 0, lambda: x0 * 2, lambda: -x0)",
           lambda x: C.cond(tf.reduce_sum(x) > 0, lambda: x * 2, lambda: -x), [r(3)], wrt=[0]),
    TFCase("cond_traced", "keras.ops.cond(tf.reduce_sum(x0) > 0, lambda: x0 * 2, lambda: -x0)",
           traced(lambda x: C.cond(tf.reduce_sum(x) > 0, lambda: x * 2, lambda: -x)), [r(3)],
           wrt=[0]),
    TFCase("switch", "keras.ops.switch(2, [lambda a: a + 1, lambda a: a * a], x0)",
           lambda x: C.switch(2, [lambda a: a + 1, lambda a: a * a], x), [r(3)], wrt=[0]),
    TFCase("switch_traced", "keras.ops.switch(1, [lambda a: a + 1, lambda a: a * a], x0)",
           traced(lambda x: C.switch(tf.constant(1), [lambda a: a + 1, lambda a: a * a], x)),
           [r(3)], wrt=[0]),
    TFCase("while_loop", "keras.ops.while_loop(lambda i, a: i < 3, "
           "lambda i, a: (i + 1, a * x0), (0, x0))",
           lambda x: C.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * x), (0, x)),
           [r(3)], wrt=[0]),
    TFCase("while_loop_single", "keras.ops.while_loop(lambda a: tf.reduce_sum(a) < 50., "
           "lambda a: a * 2., x0 * x0 + 1.)",
           traced(lambda x: C.while_loop(lambda a: tf.reduce_sum(a) < 50., lambda a: a * 2.,
                                         x * x + 1.)), [r(3)], wrt=[0]),
    TFCase("fori_loop", "keras.ops.fori_loop(0, 4, lambda i, v: v * x0 + tf.cast(i, v.dtype), x0)",
           lambda x: C.fori_loop(0, 4, lambda i, v: v * x + tf.cast(i, v.dtype), x), [r(3)],
           wrt=[0]),
    TFCase("fori_loop_traced",
           "keras.ops.fori_loop(1, 3, lambda i, v: tf.sin(v) * x0, x0)",
           traced(lambda x: C.fori_loop(1, 3, lambda i, v: tf.sin(v) * x, x)), [r(3)],
           wrt=[0]),
    TFCase("scan", f"keras.ops.scan({SCAN}, x0, x1)", lambda c, x: C.scan(_scan_body, c, x),
           [r(2), r(5, 2)], wrt=[0, 1]),
    TFCase("scan_reverse", f"keras.ops.scan({SCAN}, x0, x1, reverse=True)",
           lambda c, x: C.scan(_scan_body, c, x, reverse=True), [r(2), r(5, 2)], wrt=[0, 1]),
    TFCase("scan_traced", f"keras.ops.scan({SCAN}, x0, x1)",
           traced(lambda c, x: C.scan(_scan_body, c, x)), [r(2), r(4, 2)], wrt=[0, 1]),
    TFCase("scan_length", "keras.ops.scan(lambda c, _: (c * x0, c), x0, length=3)",
           lambda c: C.scan(lambda a, _: (a * c, a), c, length=3), [r(2)], wrt=[0]),
    TFCase("map", "keras.ops.map(lambda v: v * tf.reduce_sum(v), x0)",
           lambda x: C.map(lambda v: v * tf.reduce_sum(v), x), [r(4, 3)], wrt=[0]),
    TFCase("associative_scan", f"keras.ops.associative_scan({AFFINE}, (x0, x1))",
           lambda a, b: C.associative_scan(_affine, (a, b)), [r(7, 2), r(7, 2)],
           wrt=[0, 1]),
    TFCase("associative_scan_matmul",
           "keras.ops.associative_scan(lambda a, b: tf.matmul(a, b), x0, axis=0)",
           lambda x: C.associative_scan(lambda a, b: tf.matmul(a, b), x, axis=0),
           [r(6, 2, 2)], wrt=[0]),
    TFCase("associative_scan_reverse_axis",
           "keras.ops.associative_scan(lambda a, b: a + b, x0, reverse=True, axis=1)",
           traced(lambda x: C.associative_scan(lambda a, b: a + b, x, reverse=True, axis=1)),
           [r(2, 9)], wrt=[0]),
    TFCase("vectorized_map", "keras.ops.vectorized_map(lambda v: tf.tanh(v) * v, x0)",
           lambda x: C.vectorized_map(lambda v: tf.tanh(v) * v, x), [r(4, 3)], wrt=[0]),
    TFCase("segment_sum", "keras.ops.segment_sum(x0, x1)", M.segment_sum,
           [r(5, 2), np.array([0, 1, 0, 2, 1])], wrt=[0]),
    TFCase("segment_sum_sorted", "keras.ops.segment_sum(x0, x1, sorted=True)",
           lambda d, i: M.segment_sum(d, i, sorted=True), [r(5), np.array([0, 0, 1, 3, 3])],
           wrt=[0]),
    TFCase("segment_max", "keras.ops.segment_max(x0, x1, num_segments=4)",
           lambda d, i: M.segment_max(d, i, num_segments=4),
           [r(5, 2), np.array([0, 1, 0, 2, 1])], wrt=[0]),
    TFCase("segment_min", "keras.ops.segment_min(x0, x1)", M.segment_min,
           [r(5), np.array([2, 1, 0, 2, 1])], wrt=[0]),
    TFCase("segment_prod", "keras.ops.segment_prod(x0, x1, sorted=True)",
           lambda d, i: M.segment_prod(d, i, sorted=True), [r(5), np.array([0, 0, 1, 1, 1])],
           wrt=[0]),
    TFCase("top_k", "keras.ops.top_k(x0, 3)", lambda x: M.top_k(x, 3), [r(2, 6)], wrt=[0]),
    TFCase("top_k_unsorted_values", "tf.sort(keras.ops.top_k(x0, 2, sorted=False)[0])",
           lambda x: tf.sort(M.top_k(x, 2, sorted=False)[0]), [r(2, 6)], wrt=[0]),
    TFCase("in_top_k", "keras.ops.in_top_k(x1, x0, 2)", lambda p, t: M.in_top_k(t, p, 2),
           [r(4, 5, dtype=np.float32), np.array([0, 4, 2, 1], np.int32)]),
    TFCase("logsumexp", "keras.ops.logsumexp(x0, axis=1, keepdims=True)",
           lambda x: M.logsumexp(x, axis=1, keepdims=True), [r(3, 4)], wrt=[0]),
    TFCase("logsumexp_all", "keras.ops.logsumexp(x0)", M.logsumexp, [r(3, 4)], wrt=[0]),
    TFCase("erf", "keras.ops.erf(x0)", M.erf, [r(5)], wrt=[0]),
    TFCase("erfc", "keras.ops.erfc(x0)", M.erfc, [r(5)], wrt=[0]),
    TFCase("erfinv", "keras.ops.erfinv(x0)", M.erfinv, [np.tanh(r(5)) * 0.9], wrt=[0]),
    TFCase("rsqrt", "keras.ops.rsqrt(x0)", M.rsqrt, [np.abs(r(5)) + 0.5], wrt=[0]),
    TFCase("logdet", "keras.ops.logdet(x0)", M.logdet,
           [np.eye(3) * 3 + np.full((3, 3), 0.5)], wrt=[0]),
    TFCase("cdist", "keras.ops.cdist(x0, x1)", M.cdist, [r(2, 3, 4), r(2, 5, 4)], wrt=[0, 1]),
    TFCase("extract_sequences", "keras.ops.extract_sequences(x0, 4, 3)",
           lambda x: M.extract_sequences(x, 4, 3), [r(2, 13)], wrt=[0]),
    TFCase("view_as_complex", "keras.ops.view_as_real(keras.ops.view_as_complex(x0))",
           lambda x: M.view_as_real(M.view_as_complex(x)), [r(3, 2)]),
    TFCase("view_as_real_of_real", "keras.ops.view_as_real(x0)", M.view_as_real, [r(3)]),
    TFCase("fft", "keras.ops.fft((x0, x1))", lambda a, b: S.fft((a, b)), [r(2, 8), r(2, 8)],
           wrt=[0, 1]),
    TFCase("fft2", "keras.ops.fft2((x0, x1))", lambda a, b: S.fft2((a, b)),
           [r(2, 4, 6), r(2, 4, 6)], wrt=[0, 1]),
    TFCase("ifft2", "keras.ops.ifft2((x0, x1))", lambda a, b: S.ifft2((a, b)),
           [r(4, 6), r(4, 6)], wrt=[0, 1]),
    TFCase("rfft", "keras.ops.rfft(x0)", S.rfft, [r(2, 10)], wrt=[0]),
    TFCase("rfft_length", "keras.ops.rfft(x0, fft_length=16)",
           lambda x: S.rfft(x, fft_length=16), [r(2, 10)], wrt=[0]),
    TFCase("irfft", "keras.ops.irfft((x0, x1))", lambda a, b: S.irfft((a, b)),
           [r(2, 6), r(2, 6)], wrt=[0, 1]),
    TFCase("irfft_length", "keras.ops.irfft((x0, x1), fft_length=9)",
           lambda a, b: S.irfft((a, b), fft_length=9), [r(5), r(5)], wrt=[0, 1]),
    TFCase("stft", "keras.ops.stft(x0, 8, 4, 16)", lambda x: S.stft(x, 8, 4, 16),
           [r(2, 40)], wrt=[0]),
    TFCase("stft_hamming_nocenter", "keras.ops.stft(x0, 10, 3, 10, window='hamming', "
           "center=False)", lambda x: S.stft(x, 10, 3, 10, window="hamming", center=False),
           [r(37)], wrt=[0]),
    TFCase("stft_nowindow", "keras.ops.stft(x0, 6, 2, 8, window=None)",
           lambda x: S.stft(x, 6, 2, 8, window=None), [r(2, 20)], wrt=[0]),
    TFCase("istft", "keras.ops.istft((x0, x1), 8, 4, 16)",
           lambda a, b: S.istft((a, b), 8, 4, 16), [r(2, 9, 9), r(2, 9, 9)], wrt=[0, 1]),
    TFCase("istft_length_nocenter", "keras.ops.istft((x0, x1), 8, 4, 8, length=20, "
           "center=False)", lambda a, b: S.istft((a, b), 8, 4, 8, length=20, center=False),
           [r(7, 5), r(7, 5)], wrt=[0, 1]),
    TFCase("istft_nocenter", "keras.ops.istft((x0, x1), 8, 4, 8, center=False)",
           lambda a, b: S.istft((a, b), 8, 4, 8, center=False), [r(7, 5), r(7, 5)],
           wrt=[0, 1]),
    TFCase("rearrange_split", "keras.ops.rearrange(x0, 'b (h w) c -> b h w c', h=4)",
           lambda x: rearrange(x, "b (h w) c -> b h w c", h=4), [r(2, 12, 3)], wrt=[0]),
    TFCase("rearrange_merge", "keras.ops.rearrange(x0, 'b h w c -> c (b w) h')",
           lambda x: rearrange(x, "b h w c -> c (b w) h"), [r(2, 3, 4, 5)], wrt=[0]),
    TFCase("rearrange_both", "keras.ops.rearrange(x0, 'b (h p) (w q) -> (b p q) h w', p=2, "
           "q=3)", lambda x: rearrange(x, "b (h p) (w q) -> (b p q) h w", p=2, q=3),
           [r(2, 4, 9)], wrt=[0]),
]


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_against_keras(case, tf_results):
    check(case, tf_results[case.name], rtol=1e-5, atol=1e-5)


# -- without TensorFlow ----------------------------------------------------------------------
def test_shape_dtype_convert():
    x = tf.constant(r(2, 3))
    assert core.shape(x) == (2, 3) and core.dtype(x) == "float64"
    assert core.convert_to_tensor([1, 2], dtype="float32").dtype == tf.float32
    assert core.convert_to_tensor(np.array([1.5]), dtype="int32").dtype == tf.int32
    np.testing.assert_array_equal(core.convert_to_numpy(x), np.asarray(x))
    assert core.is_tensor(x) and not core.is_tensor(np.zeros(2))

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def dims(t):
        d = core.shape(t)
        assert d[1] == 3 and tf.is_tensor(d[0])
        return d[0]
    assert int(dims(tf.zeros([5, 3]))) == 5


def test_slice_update_and_scatter_values():
    x = r(4, 5)
    out = np.asarray(core.slice_update(x, [1, 2], np.ones((2, 2))))
    want = x.copy()
    want[1:3, 2:4] = 1
    np.testing.assert_array_equal(out, want)
    got = np.asarray(core.scatter([[0], [2], [0]], [1., 2., 3.], [4]))
    np.testing.assert_array_equal(got, [4., 0., 2., 0.])
    with pytest.raises(ValueError, match="reduction"):
        core.scatter_update(x, [[0, 0]], [1.], reduction="avg")


def test_math_values_against_numpy_scipy():
    x = r(3, 4)
    np.testing.assert_allclose(M.logsumexp(x, axis=1), scipy.special.logsumexp(x, axis=1))
    np.testing.assert_allclose(M.erf(x), scipy.special.erf(x), rtol=1e-12)
    np.testing.assert_allclose(M.erfinv(np.tanh(x)), scipy.special.erfinv(np.tanh(x)),
                               rtol=1e-10)
    a, b = r(3, 4), r(5, 4)
    np.testing.assert_allclose(M.cdist(a, b), np.linalg.norm(a[:, None] - b[None], axis=-1))
    np.testing.assert_allclose(M.segment_sum(x, np.array([0, 1, 0])),
                               [x[0] + x[2], x[1]])
    values, indices = M.top_k(x, 2)
    np.testing.assert_array_equal(indices, np.argsort(-x, axis=1)[:, :2])
    re, im = S.fft((x, np.zeros_like(x)))
    np.testing.assert_allclose(np.asarray(re) + 1j * np.asarray(im), np.fft.fft(x), atol=1e-12)
    re, im = S.ifft2((x, x))
    np.testing.assert_allclose(np.asarray(re) + 1j * np.asarray(im), np.fft.ifft2(x + 1j * x),
                               atol=1e-12)
    sig = r(64)
    np.testing.assert_allclose(np.asarray(S.istft(S.stft(sig, 16, 4, 16), 16, 4, 16))[8:-8],
                               sig[8:-8], atol=1e-10)


@pytest.mark.parametrize("fn, args", [
    (lambda x: M.logsumexp(x, axis=0), [r(3, 4)]),
    (lambda x, y: M.cdist(x, y), [r(3, 2), r(4, 2)]),
    (lambda x: S.rfft(x)[0] + S.rfft(x)[1], [r(2, 8)]),
    (lambda x: S.stft(x, 8, 4, 8)[1], [r(24)]),
    (lambda x, u: core.slice_update(x, [0, 1], u), [r(3, 4), r(2, 2)]),
    (lambda c, x: C.scan(_scan_body, c, x)[1], [r(2), r(3, 2)]),
    (lambda x: C.associative_scan(lambda a, b: a * b, x), [r(5)]),
], ids=["logsumexp", "cdist", "rfft", "stft", "slice_update", "scan", "associative_scan"])
def test_gradients_by_finite_differences(fn, args):
    check_grads(fn, args, order=1)


def _loop_loss(x):
    carry, ys = C.scan(_scan_body, x[0], x)
    total = C.fori_loop(0, 3, lambda i, v: v * 0.5 + tf.reduce_sum(ys), tf.reduce_sum(carry))
    total = C.cond(total > -1e9, lambda: total * 2.0, lambda: total)
    return total + tf.reduce_sum(C.associative_scan(lambda a, b: a + b, x))


def test_control_flow_gradients_eager_and_traced():
    x = tf.constant(r(4, 2))
    grads = []
    for fn in (_loop_loss, tf.function(_loop_loss)):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        grads.append(np.asarray(tape.gradient(y, x)))
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-12)
    check_grads(_loop_loss, [np.asarray(x)], order=1)


def test_rearrange_against_numpy():
    x = r(2, 6, 3)
    want = x.reshape(2, 2, 3, 3).transpose(3, 0, 2, 1).reshape(3, 6, 2)
    np.testing.assert_array_equal(rearrange(x, "b (h w) c -> c (b w) h", w=3), want)
    with pytest.raises(ValueError, match="same axes"):
        rearrange(x, "b n c -> b n")
