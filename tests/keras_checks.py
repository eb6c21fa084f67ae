"""Shared checks for Keras layer tests: gradients of a layer (with respect to its float inputs
and every trainable weight) against central finite differences of the layer's own forward
pass in float64 (the forward pass itself is checked against NumPy in each test)."""
import numpy as np

import wengert as tf
from wengert.util import nest


def _call(layer, tensors, kwargs, mode):
    if mode == "single":
        return layer(tensors[0], **kwargs)
    if mode == "list":
        return layer(list(tensors), **kwargs)
    return layer(tensors[0], *tensors[1:], **kwargs)  # "positional"


def _total(outputs, seeds):
    return tf.add_n([tf.reduce_sum(tf.cast(o, tf.float64) * s)
                     for o, s in zip(outputs, seeds)])


def check_layer_gradients(layer, inputs, kwargs=None, mode="single", eps=1e-6, rtol=1e-5,
                          atol=1e-7, seed=0):
    """`inputs`: arrays passed as one input ("single"), one list ("list") or positional
    arguments ("positional"); float inputs are differentiated."""
    kwargs = kwargs or {}
    arrays = [np.array(x, dtype=np.float64) if np.asarray(x).dtype.kind == "f"
              else np.asarray(x) for x in inputs]
    outputs = [o for o in nest.flatten(_call(layer, [tf.constant(a) for a in arrays], kwargs,
                                             mode)) if o.dtype.is_floating]
    rng = np.random.default_rng(seed)
    seeds = [rng.normal(size=tuple(o.shape)) for o in outputs]

    def evaluate():
        out = nest.flatten(_call(layer, [tf.constant(a) for a in arrays], kwargs, mode))
        return float(_total([o for o in out if o.dtype.is_floating], seeds))

    floats = [k for k, a in enumerate(arrays) if a.dtype.kind == "f"]
    tensors = [tf.constant(a) for a in arrays]
    with tf.GradientTape() as tape:
        for k in floats:
            tape.watch(tensors[k])
        out = nest.flatten(_call(layer, tensors, kwargs, mode))
        total = _total([o for o in out if o.dtype.is_floating], seeds)
    weights = layer.trainable_weights
    grads = tape.gradient(total, [tensors[k] for k in floats] + weights)
    values = layer.get_weights()
    position = {id(w): i for i, w in enumerate(layer.weights)}
    targets = [arrays[k] for k in floats] + [values[position[id(w)]] for w in weights]
    for n, (got, target) in enumerate(zip(grads, targets)):
        is_weight = n >= len(floats)
        want = np.zeros(target.shape)
        flat, w = target.reshape(-1), want.reshape(-1)
        for j in range(flat.size):
            old = flat[j]
            for sign in (1, -1):
                flat[j] = old + sign * eps
                if is_weight:
                    layer.set_weights(values)
                w[j] += sign * evaluate() / (2 * eps)
            flat[j] = old
        if is_weight:
            layer.set_weights(values)
        got = np.zeros(target.shape) if got is None else np.asarray(tf.convert_to_tensor(got))
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol,
                                   err_msg=f"{layer.name}: gradient {n}")
