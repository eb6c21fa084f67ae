"""keras.layers for images and ids: Conv2D, pooling, BatchNormalization, Embedding, Dropout.

Output shapes and parameter counts as Keras; forward values against NumPy references; gradients;
batch normalization's training vs inference behaviour and its moving statistics (eager, inside a
compiled fit, in checkpoints)."""
import warnings

import numpy as np
import pytest

import wengert as tf
from wengert import keras
from wengert.keras import layers
from wengert.train import Checkpoint


@pytest.fixture(autouse=True)
def _fresh_names():
    keras.backend.clear_session()
    keras.utils.set_random_seed(0)


def _images(shape, seed=0, dtype=np.float32):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


# -- NumPy references ---------------------------------------------------------------------------
def _pad_same(x, windows, strides, dilations=(1, 1), value=0.0):
    pads = []
    for i in range(2):
        n, k, s, d = x.shape[1 + i], windows[i], strides[i], dilations[i]
        effective = (k - 1) * d + 1
        total = max((-(-n // s) - 1) * s + effective - n, 0)
        pads.append((total // 2, total - total // 2))
    return np.pad(x, [(0, 0), pads[0], pads[1], (0, 0)], constant_values=value)


def conv2d_reference(x, k, strides=(1, 1), padding="valid", dilations=(1, 1)):
    if padding == "same":
        x = _pad_same(x, k.shape[:2], strides, dilations)
    kh, kw = k.shape[:2]
    (sh, sw), (dh, dw) = strides, dilations
    oh = (x.shape[1] - (kh - 1) * dh - 1) // sh + 1
    ow = (x.shape[2] - (kw - 1) * dw - 1) // sw + 1
    out = np.zeros((x.shape[0], oh, ow, k.shape[3]))
    for i in range(kh):
        for j in range(kw):
            patch = x[:, i * dh: i * dh + sh * (oh - 1) + 1: sh,
                      j * dw: j * dw + sw * (ow - 1) + 1: sw, :]
            out += patch @ k[i, j]
    return out


def pool_reference(x, size, strides, padding, reduce):
    if padding == "same":
        x = _pad_same(x, size, strides, value=np.nan)
    oh = (x.shape[1] - size[0]) // strides[0] + 1
    ow = (x.shape[2] - size[1]) // strides[1] + 1
    out = np.zeros((x.shape[0], oh, ow, x.shape[3]))
    for i in range(oh):
        for j in range(ow):
            window = x[:, i * strides[0]: i * strides[0] + size[0],
                       j * strides[1]: j * strides[1] + size[1], :]
            out[:, i, j, :] = reduce(window, axis=(1, 2))
    return out


# -- Conv2D -------------------------------------------------------------------------------------
@pytest.mark.parametrize("kwargs, expected", [
    (dict(), (2, 7, 6, 4)),
    (dict(padding="same"), (2, 9, 8, 4)),
    (dict(strides=2), (2, 4, 3, 4)),
    (dict(strides=(2, 3), padding="same"), (2, 5, 3, 4)),
    (dict(dilation_rate=2), (2, 5, 4, 4)),
    (dict(dilation_rate=(2, 1), padding="same"), (2, 9, 8, 4)),
])
def test_conv2d_output_shape_and_values(kwargs, expected):
    x = _images((2, 9, 8, 3))
    conv = layers.Conv2D(4, 3, **kwargs)
    y = conv(x)
    assert tuple(y.shape) == expected and y.dtype == tf.float32
    assert tuple(conv.compute_output_shape((None, 9, 8, 3))) == (None,) + expected[1:]
    assert conv.kernel.shape == (3, 3, 3, 4) and conv.bias.shape == (4,)
    strides = conv.strides
    reference = conv2d_reference(x.astype(np.float64), conv.kernel.numpy().astype(np.float64),
                                 strides, conv.padding, conv.dilation_rate)
    np.testing.assert_allclose(y.numpy(), reference, rtol=1e-4, atol=1e-5)


def test_conv2d_bias_activation_and_params():
    conv = layers.Conv2D(2, (2, 3), activation="relu", bias_initializer="ones")
    x = _images((1, 5, 5, 3), seed=1)
    y = conv(x).numpy()
    assert conv.count_params() == 2 * 3 * 3 * 2 + 2
    reference = conv2d_reference(x, conv.kernel.numpy()) + 1.0
    np.testing.assert_allclose(y, np.maximum(reference, 0), rtol=1e-4, atol=1e-5)
    no_bias = layers.Conv2D(2, 3, use_bias=False)
    no_bias(x)
    assert [v.path for v in no_bias.weights] == [f"{no_bias.name}/kernel"]
    assert no_bias.count_params() == 54


def test_conv2d_kernel_is_glorot_uniform_over_receptive_field():
    conv = layers.Conv2D(64, 5)
    conv(np.zeros((1, 8, 8, 32), np.float32))
    limit = np.sqrt(6.0 / (5 * 5 * 32 + 5 * 5 * 64))
    kernel = conv.kernel.numpy()
    assert np.abs(kernel).max() <= limit and np.abs(kernel).max() > 0.9 * limit


def test_conv2d_gradients():
    conv = layers.Conv2D(3, 3, padding="same", activation="tanh")
    x = tf.constant(_images((2, 6, 5, 2), seed=2))
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(conv(x) ** 2)
    gx, gk, gb = tape.gradient(loss, [x, conv.kernel, conv.bias])
    assert gx.shape == x.shape and gk.shape == (3, 3, 2, 3) and gb.shape == (3,)
    # the kernel's gradient against a central difference in one entry
    k0 = conv.kernel.numpy().astype(np.float64)
    xs = x.numpy().astype(np.float64)
    b = conv.bias.numpy().astype(np.float64)

    def f(k):
        return np.sum(np.tanh(conv2d_reference(xs, k, padding="same") + b) ** 2)
    eps, idx = 1e-4, (1, 2, 0, 1)
    up, down = k0.copy(), k0.copy()
    up[idx] += eps
    down[idx] -= eps
    np.testing.assert_allclose(gk.numpy()[idx], (f(up) - f(down)) / (2 * eps), rtol=1e-3)


def test_conv2d_rejects_bad_input_and_arguments():
    with pytest.raises(ValueError, match="ndim=4"):
        layers.Conv2D(2, 3)(np.zeros((2, 5, 5), np.float32))
    with pytest.raises(ValueError, match="padding"):
        layers.Conv2D(2, 3, padding="full")
    with pytest.raises(ValueError, match="kernel_size"):
        layers.Conv2D(2, (3, 0))
    with pytest.raises(ValueError, match="data_format"):
        layers.Conv2D(2, 3, data_format="NHWC")
    first = layers.Conv2D(2, 3, data_format="channels_first")  # transposed in and out
    last = layers.Conv2D(2, 3)
    x = np.random.default_rng(0).normal(size=(2, 6, 6, 3)).astype(np.float32)
    last(x)
    first(x.transpose(0, 3, 1, 2))
    first.set_weights(last.get_weights())
    np.testing.assert_allclose(np.asarray(first(x.transpose(0, 3, 1, 2))),
                               np.asarray(last(x)).transpose(0, 3, 1, 2), rtol=1e-5, atol=1e-6)


# -- pooling ------------------------------------------------------------------------------------
@pytest.mark.parametrize("cls, reduce", [(layers.MaxPooling2D, np.nanmax),
                                         (layers.AveragePooling2D, np.nanmean)])
@pytest.mark.parametrize("kwargs, expected", [
    (dict(), (2, 3, 3, 3)),
    (dict(pool_size=3, strides=1), (2, 5, 5, 3)),
    (dict(padding="same"), (2, 4, 4, 3)),
    (dict(pool_size=(3, 2), strides=(2, 1), padding="same"), (2, 4, 7, 3)),
])
def test_pooling_shapes_and_values(cls, reduce, kwargs, expected):
    x = _images((2, 7, 7, 3), seed=3)
    pool = cls(**kwargs)
    y = pool(x)
    assert tuple(y.shape) == expected
    assert tuple(pool.compute_output_shape((None, 7, 7, 3))) == (None,) + expected[1:]
    reference = pool_reference(x, pool.pool_size, pool.strides, pool.padding, reduce)
    np.testing.assert_allclose(y.numpy(), reference, rtol=1e-5, atol=1e-6)
    assert pool.weights == [] and pool.count_params() == 0


def test_pooling_gradients():
    x = tf.constant(np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        top = tf.reduce_sum(layers.MaxPooling2D()(x))
        mean = tf.reduce_sum(layers.AveragePooling2D()(x))
    expected = np.zeros((4, 4), np.float32)
    expected[1::2, 1::2] = 1.0  # each window's maximum is its bottom-right corner
    np.testing.assert_array_equal(tape.gradient(top, x).numpy()[0, :, :, 0], expected)
    np.testing.assert_allclose(tape.gradient(mean, x).numpy(), np.full((1, 4, 4, 1), 0.25))


def test_global_average_pooling():
    x = _images((2, 3, 4, 5), seed=4)
    y = layers.GlobalAveragePooling2D()(x)
    assert tuple(y.shape) == (2, 5)
    np.testing.assert_allclose(y.numpy(), x.mean(axis=(1, 2)), rtol=1e-5, atol=1e-6)
    kept = layers.GlobalAveragePooling2D(keepdims=True)
    assert tuple(kept(x).shape) == (2, 1, 1, 5)
    assert tuple(kept.compute_output_shape((None, 3, 4, 5))) == (None, 1, 1, 5)


def test_cnn_summary_counts_like_keras():
    model = keras.Sequential([
        layers.Conv2D(16, 3, activation="relu", input_shape=(28, 28, 1)),
        layers.MaxPooling2D(),
        layers.Conv2D(32, 3, activation="relu"),
        layers.MaxPooling2D(),
        layers.BatchNormalization(),
        layers.GlobalAveragePooling2D(),
        layers.Dense(10),
    ])
    lines = []
    model.summary(print_fn=lines.append)
    text = "\n".join(lines)
    assert [tuple(layer.output_shape) for layer in model.layers] == [
        (None, 26, 26, 16), (None, 13, 13, 16), (None, 11, 11, 32), (None, 5, 5, 32),
        (None, 5, 5, 32), (None, 32), (None, 10)]
    assert [layer.count_params() for layer in model.layers] == [160, 0, 4640, 0, 128, 0, 330]
    assert "Total params: 5,258" in text and "Trainable params: 5,194" in text
    assert "Non-trainable params: 64" in text
    assert tuple(model(np.zeros((3, 28, 28, 1), np.float32)).shape) == (3, 10)


# -- BatchNormalization -------------------------------------------------------------------------
def test_batch_norm_weights():
    bn = layers.BatchNormalization()
    bn(np.zeros((4, 3, 3, 5), np.float32))
    assert [v.path for v in bn.trainable_weights] == ["batch_normalization/gamma",
                                                      "batch_normalization/beta"]
    assert [v.name for v in bn.non_trainable_weights] == ["moving_mean", "moving_variance"]
    assert all(v.shape == (5,) for v in bn.weights) and bn.count_params() == 20
    np.testing.assert_array_equal(bn.moving_variance.numpy(), np.ones(5))
    bare = layers.BatchNormalization(center=False, scale=False)
    bare(np.zeros((4, 5), np.float32))
    assert bare.trainable_weights == [] and len(bare.non_trainable_weights) == 2


def test_batch_norm_training_uses_batch_statistics_and_updates_moving_ones():
    x = _images((8, 4, 4, 3), seed=5) * 3.0 + 2.0
    bn = layers.BatchNormalization(momentum=0.9, epsilon=1e-3)
    y = bn(x, training=True).numpy()
    mean, var = x.mean(axis=(0, 1, 2)), x.var(axis=(0, 1, 2))
    np.testing.assert_allclose(y, (x - mean) / np.sqrt(var + 1e-3), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(bn.moving_mean.numpy(), 0.1 * mean, rtol=1e-5)
    np.testing.assert_allclose(bn.moving_variance.numpy(), 0.9 + 0.1 * var, rtol=1e-5)
    bn(x, training=True)
    np.testing.assert_allclose(bn.moving_mean.numpy(), 0.1 * mean + 0.09 * mean, rtol=1e-5)


def test_batch_norm_inference_uses_moving_statistics_and_updates_nothing():
    x = _images((6, 5), seed=6) + 1.0
    bn = layers.BatchNormalization(epsilon=0.01)
    bn(x)
    bn.set_weights([np.full(5, 2.0), np.full(5, 0.5), np.full(5, 1.0), np.full(5, 4.0)])
    expected = 2.0 * (x - 1.0) / np.sqrt(4.0 + 0.01) + 0.5
    for training in (False, None):
        np.testing.assert_allclose(bn(x, training=training).numpy(), expected, rtol=1e-5)
    np.testing.assert_array_equal(bn.moving_mean.numpy(), np.full(5, 1.0))
    bn.trainable = False  # a frozen layer runs in inference mode even when training (Keras 2)
    np.testing.assert_allclose(bn(x, training=True).numpy(), expected, rtol=1e-5)
    np.testing.assert_array_equal(bn.moving_variance.numpy(), np.full(5, 4.0))


def test_batch_norm_channels_first_axis():
    x = _images((4, 3, 2, 2), seed=7)
    bn = layers.BatchNormalization(axis=1, momentum=0.0)
    y = bn(x, training=True).numpy()
    assert bn.gamma.shape == (3,)
    mean = x.mean(axis=(0, 2, 3), keepdims=True)
    var = x.var(axis=(0, 2, 3), keepdims=True)
    np.testing.assert_allclose(y, (x - mean) / np.sqrt(var + 1e-3), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(bn.moving_mean.numpy(), mean.ravel(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(bn(x).numpy(), y, rtol=1e-4, atol=1e-4)  # momentum 0: same


def test_batch_norm_gradients_flow_through_batch_statistics():
    bn = layers.BatchNormalization()
    x = tf.constant(_images((6, 3), seed=8))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = bn(x, training=True)
        loss = tf.reduce_sum(y * tf.constant(np.arange(3, dtype=np.float32)))
    gx, gamma, beta = tape.gradient(loss, [x, bn.gamma, bn.beta])
    # a normalized column sums to zero whatever x is, so d/dx of its sum is zero...
    np.testing.assert_allclose(gx.numpy()[:, 0], 0.0, atol=1e-5)
    np.testing.assert_allclose(beta.numpy(), 6.0 * np.arange(3), rtol=1e-6)
    # ... and gamma's gradient is the column weight times sum(x_hat) = 0
    np.testing.assert_allclose(gamma.numpy(), 0.0, atol=1e-4)


def test_batch_norm_moving_statistics_update_inside_compiled_fit():
    model = keras.Sequential([layers.BatchNormalization(momentum=0.5, input_shape=(3,)),
                              layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    x = (_images((16, 3), seed=9) * 2.0 + 5.0)
    y = np.zeros((16, 1), np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no fallback to an eager step
        model.fit(x, y, batch_size=16, epochs=3, verbose=0, shuffle=False)
    bn = model.layers[0]
    np.testing.assert_allclose(bn.moving_mean.numpy(), (1 - 0.5 ** 3) * x.mean(axis=0),
                               rtol=1e-4)
    assert model._train_step_fn.traced is not None  # the step ran compiled


def test_batch_norm_checkpoint_includes_moving_statistics(tmp_path):
    bn = layers.BatchNormalization()
    bn(_images((4, 3), seed=10) + 3.0, training=True)
    children = bn._checkpoint_children()
    assert list(children) == ["gamma", "beta", "moving_mean", "moving_variance"]
    model = keras.Sequential([layers.Dense(3, input_shape=(2,)), bn])
    path = Checkpoint(model=model).write(str(tmp_path / "bn"))
    fresh = keras.Sequential([layers.Dense(3, input_shape=(2,), name=model.layers[0].name),
                              layers.BatchNormalization(name=bn.name)])
    Checkpoint(model=fresh).read(path)
    for saved, restored in zip(model.weights, fresh.weights):
        np.testing.assert_array_equal(saved.numpy(), restored.numpy())
    assert np.abs(fresh.layers[1].moving_mean.numpy()).sum() > 0


# -- Embedding ----------------------------------------------------------------------------------
def test_embedding_lookup_shapes_and_values():
    emb = layers.Embedding(10, 4)
    ids = np.array([[1, 2, 3], [4, 4, 9]])
    y = emb(ids)
    assert tuple(y.shape) == (2, 3, 4) and y.dtype == tf.float32
    table = emb.embeddings.numpy()
    np.testing.assert_array_equal(y.numpy(), table[ids])
    assert np.abs(table).max() <= 0.05
    assert emb.count_params() == 40 and emb.embeddings.name == "embeddings"
    np.testing.assert_array_equal(emb(ids.astype(np.float32)).numpy(), table[ids])
    assert tuple(emb.compute_output_shape((None, 3))) == (None, 3, 4)


def test_embedding_gradient_is_indexed_slices():
    emb = layers.Embedding(6, 2)
    ids = tf.constant([0, 3, 3])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(emb(ids) * tf.constant([[1.0, 2.0]]))
    grad = tape.gradient(loss, emb.embeddings)
    assert isinstance(grad, tf.IndexedSlices)
    dense = np.zeros((6, 2), np.float32)
    dense[0] = [1, 2]
    dense[3] = [2, 4]
    np.testing.assert_allclose(tf.convert_to_tensor(grad).numpy(), dense)


def test_embedding_model_trains_with_fit():
    rng = np.random.default_rng(11)
    ids = rng.integers(0, 20, (64, 5))
    labels = (ids[:, 0] >= 10).astype(np.int64)       # learnable from the first id alone
    model = keras.Sequential([layers.Embedding(20, 8, input_length=5), layers.Flatten(),
                              layers.Dense(2)])
    model.compile(optimizer=keras.optimizers.Adam(0.05),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    before = model.layers[0].embeddings.numpy().copy()
    history = model.fit(ids, labels, batch_size=16, epochs=15, verbose=0)
    assert history.history["accuracy"][-1] >= 0.95
    unused = sorted(set(range(20)) - set(ids.ravel().tolist()))
    after = model.layers[0].embeddings.numpy()
    np.testing.assert_array_equal(after[unused], before[unused])  # sparse updates only


# -- Dropout ------------------------------------------------------------------------------------
def test_dropout_statistics_and_inference_identity():
    drop = layers.Dropout(0.25, seed=3)
    x = np.ones((200, 100), np.float32)
    y = drop(x, training=True).numpy()
    kept = y != 0
    assert abs(kept.mean() - 0.75) < 0.02
    np.testing.assert_allclose(y[kept], 1.0 / 0.75, rtol=1e-6)
    np.testing.assert_array_equal(drop(x).numpy(), x)
    np.testing.assert_array_equal(drop(x, training=False).numpy(), x)


def test_dropout_noise_shape_shares_the_mask():
    drop = layers.Dropout(0.5, noise_shape=(None, 1, 4), seed=1)
    y = drop(np.ones((3, 5, 4), np.float32), training=True).numpy()
    assert (y == y[:, :1, :]).all()


def test_dropout_in_traced_function_draws_fresh_masks():
    drop = layers.Dropout(0.5, seed=5)

    @tf.function
    def f(x):
        return drop(x, training=True)
    x = tf.constant(np.ones((40, 50), np.float32))
    first, second = f(x).numpy(), f(x).numpy()
    assert set(np.unique(first)) == {0.0, 2.0}
    assert abs((first == 0).mean() - 0.5) < 0.05
    assert (first != second).any()  # a random op in the graph, not a mask fixed at tracing
    np.testing.assert_array_equal(tf.function(lambda t: drop(t))(x).numpy(), x.numpy())
