"""Helpers for the keras.ops tests: a TFCase for `keras.ops.<op>(x0, ..., consts, **kw)` in both
TensorFlow's Keras 3 and wengert.keras.ops, a check that adds the output dtypes to
tf_ops_reference.check, and a float64 central-difference gradient check independent of
TensorFlow."""
import numpy as np

import wengert as tf
from tf_ops_reference import TFCase, check
from wengert.keras import ops


def K(op, inputs, *consts, wrt=(), tag="", rtol=None, atol=None, **kw):
    """The case `keras.ops.<op>(x0, x1, ..., *consts, **kw)`, named op + tag."""
    args = [f"x{i}" for i in range(len(inputs))] + [repr(c) for c in consts]
    args += [f"{k}={v!r}" for k, v in kw.items()]
    expr = f"keras.ops.{op}({', '.join(args)})"

    def fn(*xs):
        return getattr(ops, op)(*xs, *consts, **kw)
    return TFCase(op + tag, expr, fn, inputs, wrt=wrt, rtol=rtol, atol=atol)


def check_with_dtypes(case, result):
    """tf_ops_reference.check, then each output's dtype against Keras's."""
    check(case, result)
    outputs = tf.nest.flatten(case.fn(*[tf.constant(x) for x in case.inputs]))
    for k, (mine, theirs) in enumerate(zip(outputs, result["outputs"])):
        assert np.asarray(mine).dtype == theirs.dtype, \
            f"{case.name}: output {k} dtype {np.asarray(mine).dtype} vs Keras's {theirs.dtype}"


def numeric_gradient_check(fn, arrays, rng, eps=1e-6, rtol=1e-5, atol=1e-7):
    """The tape's gradient of sum(fn(*xs) * seed) against central differences in float64."""
    xs = [tf.constant(a) for a in arrays]
    with tf.GradientTape() as tape:
        for x in xs:
            tape.watch(x)
        out = fn(*xs)
        seed = rng.standard_normal(np.shape(out))
        total = tf.reduce_sum(out * tf.constant(seed))
    grads = tape.gradient(total, xs)
    for i, (a, g) in enumerate(zip(arrays, grads)):
        numeric = np.zeros_like(a)
        for idx in np.ndindex(a.shape):
            plus, minus = [b.copy() for b in arrays], [b.copy() for b in arrays]
            plus[i][idx] += eps
            minus[i][idx] -= eps
            f_plus = np.sum(np.asarray(fn(*[tf.constant(b) for b in plus])) * seed)
            f_minus = np.sum(np.asarray(fn(*[tf.constant(b) for b in minus])) * seed)
            numeric[idx] = (f_plus - f_minus) / (2 * eps)
        np.testing.assert_allclose(np.asarray(g), numeric, rtol=rtol, atol=atol,
                                   err_msg=f"gradient {i}")
