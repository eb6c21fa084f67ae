"""Finite-difference checks for functions of complex tensors, in TensorFlow's convention.

For a real loss L of z = x + iy, TensorFlow's gradient is dL/dx + i dL/dy. An output gradient g
(complex where the output is) stands for the real loss L = Re(sum(conj(g) * f(z))), so
`tape.gradient(f(z), z, output_gradients=g)` must equal that loss's derivatives along the real
and imaginary part of each element, which central differences give. Second order checks the
gradient of Re(sum(conj(v) * grad)) the same way; forward mode checks J u against the central
difference of f along the (complex) direction u.
"""
import numpy as np

import wengert as tf


def random_like(shape, complex_, rng):
    real = rng.standard_normal(shape)
    return real + 1j * rng.standard_normal(shape) if complex_ else real


def _loss(f, arrays, g):
    out = np.asarray(f(*[tf.constant(a) for a in arrays]).numpy())
    return float(np.real(np.sum(np.conj(g) * out)))


def numeric_gradient(f, arrays, g, eps=1e-6):
    """dL/dx + i dL/dy for each input (only dL/dx for a real input)."""
    grads = []
    for k, a in enumerate(arrays):
        grad = np.zeros_like(a)
        for direction in ((1.0, 1j) if np.iscomplexobj(a) else (1.0,)):
            for idx in np.ndindex(a.shape):
                plus, minus = [b.copy() for b in arrays], [b.copy() for b in arrays]
                plus[k][idx] += eps * direction
                minus[k][idx] -= eps * direction
                slope = (_loss(f, plus, g) - _loss(f, minus, g)) / (2 * eps)
                grad[idx] += slope * direction
        grads.append(grad)
    return grads


def tape_gradient(f, arrays, g):
    xs = [tf.constant(a) for a in arrays]
    with tf.GradientTape() as tape:
        for x in xs:
            tape.watch(x)
        out = f(*xs)
    return [r.numpy() for r in tape.gradient(out, xs, output_gradients=tf.constant(g),
                                             unconnected_gradients="zero")]


def output_cotangent(f, arrays, rng):
    out = np.asarray(f(*[tf.constant(a) for a in arrays]).numpy())
    return random_like(out.shape, np.iscomplexobj(out), rng)


def check_gradient(f, arrays, rng, rtol=1e-6, atol=1e-7):
    g = output_cotangent(f, arrays, rng)
    for got, want in zip(tape_gradient(f, arrays, g), numeric_gradient(f, arrays, g)):
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


def check_second_order(f, arrays, rng, rtol=1e-5, atol=1e-6):
    """The gradient of Re(sum(conj(v) * gradient)) w.r.t. each input, against differences."""
    g = output_cotangent(f, arrays, rng)
    vs = [random_like(a.shape, np.iscomplexobj(a), rng) for a in arrays]

    def gradient_loss(*xs):
        with tf.GradientTape() as tape:
            for x in xs:
                tape.watch(x)
            out = f(*xs)
        grads = tape.gradient(out, list(xs), output_gradients=tf.constant(g),
                              unconnected_gradients="zero")
        return tf.add_n([tf.math.real(tf.reduce_sum(tf.math.conj(tf.constant(v)) * d))
                         for v, d in zip(vs, grads)])
    check_gradient(gradient_loss, arrays, rng, rtol=rtol, atol=atol)


def check_jvp(f, arrays, rng, eps=1e-6, rtol=1e-6, atol=1e-7):
    us = [random_like(a.shape, np.iscomplexobj(a), rng) for a in arrays]
    xs = [tf.constant(a) for a in arrays]
    with tf.autodiff.ForwardAccumulator(xs, [tf.constant(u) for u in us]) as acc:
        out = f(*xs)
    got = acc.jvp(out).numpy()
    plus = f(*[tf.constant(a + eps * u) for a, u in zip(arrays, us)]).numpy()
    minus = f(*[tf.constant(a - eps * u) for a, u in zip(arrays, us)]).numpy()
    np.testing.assert_allclose(got, (plus - minus) / (2 * eps), rtol=rtol, atol=atol)
