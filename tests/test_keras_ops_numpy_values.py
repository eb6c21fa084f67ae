"""wengert.keras.ops's NumPy-style functions without TensorFlow: values against NumPy, float64
gradients against central differences for a representative set, the behaviours where wengert
follows NumPy rather than Keras's TensorFlow backend, and the names it cannot support yet."""
import inspect

import numpy as np
import pytest

import wengert as tf
from keras_ops_checks import numeric_gradient_check
from wengert.keras import ops

RNG = np.random.default_rng(53)


def f64(*shape):
    return RNG.standard_normal(shape)


def pos(*shape):
    return RNG.uniform(0.5, 2.0, shape)


# name, wengert function, NumPy reference, inputs
VALUES = [
    ("sin", ops.sin, np.sin, [f64(3, 2)]),
    ("log2", ops.log2, np.log2, [pos(4)]),
    ("cbrt", ops.cbrt, np.cbrt, [f64(5)]),
    ("sinc", ops.sinc, np.sinc, [np.array([0.0, 0.5, -1.5])]),
    ("hypot", ops.hypot, np.hypot, [f64(3), f64(2, 3)]),
    ("logaddexp", ops.logaddexp, np.logaddexp, [f64(4), f64(4)]),
    ("fmod", ops.fmod, np.fmod, [f64(5) * 4, pos(5)]),
    ("heaviside", ops.heaviside, np.heaviside, [np.array([-1.0, 0.0, 2.0]), np.array(0.5)]),
    ("gcd", ops.gcd, np.gcd, [np.array([12, -18, 0, 7]), np.array([8, 27, 5, 0])]),
    ("lcm", ops.lcm, np.lcm, [np.array([4, -6, 0]), np.array([6, 4, 3])]),
    ("mean", lambda x: ops.mean(x, axis=(0, 2)), lambda x: x.mean(axis=(0, 2)), [f64(2, 3, 4)]),
    ("var", lambda x: ops.var(x, axis=1, keepdims=True),
     lambda x: x.var(axis=1, keepdims=True), [f64(3, 4)]),
    ("quantile", lambda x: ops.quantile(x, [0.1, 0.5, 0.8], axis=1),
     lambda x: np.quantile(x, [0.1, 0.5, 0.8], axis=1), [f64(3, 7)]),
    ("quantile_nearest", lambda x: ops.quantile(x, 0.4, method="nearest"),
     lambda x: np.quantile(x, 0.4, method="nearest"), [f64(9)]),
    ("nanmedian", lambda x: ops.nanmedian(x, axis=0),
     lambda x: np.nanmedian(x, axis=0), [np.array([[1.0, np.nan], [3.0, 4.0], [np.nan, 2.0]])]),
    ("nanstd", ops.nanstd, np.nanstd, [np.array([1.0, np.nan, 4.0, 2.0])]),
    ("cumprod", lambda x: ops.cumprod(x, axis=1), lambda x: np.cumprod(x, axis=1), [f64(2, 3)]),
    ("trapezoid", lambda y, x: ops.trapezoid(y, x), lambda y, x: np.trapezoid(y, x),
     [f64(2, 5), np.sort(f64(5))]),
    ("take_along_axis", lambda x, i: ops.take_along_axis(x, i, axis=1),
     lambda x, i: np.take_along_axis(x, i, axis=1), [f64(3, 4), RNG.integers(0, 4, (3, 5))]),
    ("kron", ops.kron, np.kron, [f64(2, 3), f64(2, 2)]),
    ("cross", ops.cross, np.cross, [f64(4, 3), f64(4, 3)]),
    ("correlate", lambda a, v: ops.correlate(a, v, mode="same"),
     lambda a, v: np.correlate(a, v, mode="same"), [f64(7), f64(3)]),
    ("corrcoef", ops.corrcoef, np.corrcoef, [f64(3, 8)]),
    ("rot90_k2", lambda x: ops.rot90(x, 2), lambda x: np.rot90(x, 2), [f64(2, 3, 4)]),
    ("rot90_k3", lambda x: ops.rot90(x, 3, (2, 0)), lambda x: np.rot90(x, 3, (2, 0)),
     [f64(2, 3, 4)]),
    ("trace", lambda x: ops.trace(x, 1, 1, 2), lambda x: np.trace(x, 1, 1, 2), [f64(2, 3, 4)]),
    ("vander", ops.vander, np.vander, [f64(4)]),
    ("unique_inverse", lambda x: ops.unique(x, return_inverse=True)[1],
     lambda x: np.unique(x, return_inverse=True)[1], [np.array([[3, 1], [3, 2]])]),
    ("unique_axis", lambda x: ops.unique(x, axis=1, return_counts=True)[0],
     lambda x: np.unique(x, axis=1), [np.array([[3, 1, 3], [2, 0, 2]])]),
    ("histogram", lambda x: ops.histogram(x, bins=5)[0],
     lambda x: np.histogram(x, bins=5)[0].astype(np.float64), [f64(30)]),
    ("geomspace", lambda: ops.geomspace(2.0, 32.0, 5), lambda: np.geomspace(2.0, 32.0, 5), []),
    ("blackman", lambda: ops.blackman(6), lambda: np.blackman(6), []),
    ("kaiser", lambda: ops.kaiser(6, 4.0), lambda: np.kaiser(6, 4.0), []),
]


@pytest.mark.parametrize("name,fn,ref,inputs", VALUES, ids=[v[0] for v in VALUES])
def test_values_match_numpy(name, fn, ref, inputs):
    out = fn(*[tf.constant(x) for x in inputs])
    np.testing.assert_allclose(np.asarray(out), ref(*inputs), rtol=1e-5, atol=1e-6)


GRADIENTS = [
    ("arctan2", ops.arctan2, [f64(3), pos(3)]),
    ("logaddexp2", ops.logaddexp2, [f64(4), f64(4)]),
    ("hypot", ops.hypot, [f64(3), f64(3)]),
    ("divide", ops.divide, [f64(2, 3), pos(3)]),
    ("power", ops.power, [pos(4), f64(4)]),
    ("std", lambda x: ops.std(x, axis=0), [f64(4, 3)]),
    ("average", lambda x, w: ops.average(x, axis=1, weights=w), [f64(3, 4), pos(4)]),
    ("quantile", lambda x: ops.quantile(x, [0.3, 0.6], axis=0), [f64(5, 2)]),
    ("nanmean", lambda x: ops.nanmean(x, axis=1), [f64(3, 4)]),
    ("matmul", ops.matmul, [f64(2, 3, 4), f64(4, 2)]),
    ("einsum", lambda a, b: ops.einsum("ij,kj->ik", a, b), [f64(2, 3), f64(4, 3)]),
    ("take_along_axis", lambda x: ops.take_along_axis(x, np.array([[0, 0], [2, 1]]), axis=1),
     [f64(2, 3)]),
    ("cross", ops.cross, [f64(2, 3), f64(2, 3)]),
    ("correlate", lambda a, v: ops.correlate(a, v, mode="full"), [f64(5), f64(3)]),
    ("corrcoef", ops.corrcoef, [f64(2, 5)]),
    ("tril", lambda x: ops.tril(x, -1), [f64(3, 3)]),
    ("sort", lambda x: ops.sort(x, axis=0), [f64(4, 2)]),
    ("cumprod", lambda x: ops.cumprod(x, axis=1), [f64(2, 3)]),
    ("rot90", lambda x: ops.rot90(x, 1, (0, 2)), [f64(2, 3, 2)]),
    ("vectorize", ops.vectorize(lambda a, b: tf.reduce_sum(a * b), signature="(n),(n)->()"),
     [f64(2, 4), f64(4)]),
]


@pytest.mark.parametrize("name,fn,inputs", GRADIENTS, ids=[g[0] for g in GRADIENTS])
def test_gradients_match_finite_differences(name, fn, inputs):
    numeric_gradient_check(fn, inputs, RNG)


def test_prod_honours_its_dtype():
    out = ops.prod(tf.constant([[1, 2], [3, 4]]), axis=0, dtype="float32")
    assert out.dtype.name == "float32"
    np.testing.assert_array_equal(out.numpy(), [3.0, 8.0])


def test_sparse_bincount_holds_the_nonzero_counts():
    out = ops.bincount(tf.constant([[1, 3, 1], [0, 0, 2]]), minlength=5, sparse=True)
    assert isinstance(out, tf.SparseTensor)
    np.testing.assert_array_equal(tf.sparse.to_dense(out).numpy(),
                                  [[0, 2, 0, 1, 0], [2, 0, 1, 0, 0]])


def test_argpartition_partitions_around_kth():
    x = RNG.permutation(10).astype(np.float32)
    idx = ops.argpartition(x, 3).numpy()
    parted = x[idx]
    assert parted[3] == np.sort(x)[3]
    assert (parted[:3] <= parted[3]).all() and (parted[4:] >= parted[3]).all()


def test_promotion_reaches_the_ops():
    i8, f16 = tf.constant([1, 2], dtype=tf.int8), tf.constant([1.0], dtype=tf.float16)
    assert ops.add(i8, 3).dtype == tf.int8
    assert ops.add(i8, 2.5).dtype == tf.float32
    assert ops.multiply(f16, i8).dtype == tf.float16
    assert ops.divide(i8, i8).dtype == tf.float32
    assert ops.mean(i8).dtype == tf.float32
    assert ops.arange(3).dtype == tf.int32 and ops.arange(3.0).dtype == tf.float32


def test_functions_trace_into_a_function():
    @tf.function
    def step(x):
        return ops.sum(ops.square(ops.subtract(x, ops.mean(x, axis=0))), axis=0)
    x = f64(5, 3)
    np.testing.assert_allclose(step(tf.constant(x)).numpy(),
                               ((x - x.mean(0)) ** 2).sum(0), rtol=1e-10)


def test_unsupported_names_say_why():
    with pytest.raises(NotImplementedError, match="bitcast"):
        ops.view(tf.constant([1.0]), "int32")
    assert ops.view(tf.constant([1.0]), "float32").dtype == tf.float32


def test_errors_name_the_function_and_the_fix():
    with pytest.raises(TypeError, match="ldexp.*integer"):
        ops.ldexp(tf.constant([1.0]), tf.constant([1.0]))
    with pytest.raises(ValueError, match="squeeze.*not 1"):
        ops.squeeze(tf.zeros([2, 3]), axis=0)
    with pytest.raises(ValueError, match="quantile.*method"):
        ops.quantile(tf.zeros([3]), 0.5, method="cubic")


KERAS_SIGNATURES = {  # inspect.signature in TensorFlow 2.21's keras.ops.numpy, for a sample
    "bitwise_and": "(x, y)", "add": "(x1, x2)", "mean": "(x, axis=None, keepdims=False)",
    "arange": "(start, stop=None, step=None, dtype=None)",
    "linspace": "(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0)",
    "quantile": "(x, q, axis=None, method='linear', keepdims=False)",
    "rot90": "(array, k=1, axes=(0, 1))", "trapezoid": "(y, x=None, dx=1.0, axis=-1)",
    "unique": "(x, sorted=True, return_index=False, return_inverse=False, return_counts=False, "
              "axis=None, size=None, fill_value=None)",
    "vectorize": "(pyfunc, *, excluded=None, signature=None)",
}


@pytest.mark.parametrize("name", sorted(KERAS_SIGNATURES))
def test_arguments_are_named_as_in_keras(name):
    assert str(inspect.signature(getattr(ops.numpy, name))) == KERAS_SIGNATURES[name]
