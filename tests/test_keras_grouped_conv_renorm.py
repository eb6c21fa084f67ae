"""Conv1D/2D/3D(groups=) and BatchNormalization(renorm=, renorm_clipping=, renorm_momentum=,
synchronized=, and a mask) against TensorFlow 2.21's Keras 3: outputs and gradients of the
layer call (with training=True for renorm), and the moving statistics after training steps. Without
TensorFlow: the grouped convolution equals the concatenation of per-group convolutions, renorm
with r = 1, d = 0 equals plain batch normalization, argument errors, configs."""
import numpy as np
import pytest

import wengert as tf
from keras_tf_eval import tf_eval
from tf_reference import Case, assert_matches, run_tf, tf_python

L = tf.keras.layers
RNG = np.random.default_rng(2741)
X3 = RNG.normal(size=(2, 9, 6))
X4 = RNG.normal(size=(2, 7, 6, 4))
X5 = RNG.normal(size=(2, 5, 6, 4, 6))
B2 = RNG.normal(size=(8, 3)) * 2.0 + 1.0
B4 = RNG.normal(size=(4, 3, 5, 2)) * 1.5 - 0.5
F64 = {"dtype": "float64"}
CLIP = {"rmax": 1.2, "rmin": 0.9, "dmax": 0.1}
S3 = RNG.normal(size=(3, 5, 4)) * 2.0 + 0.5
SMASK = RNG.uniform(size=(3, 5)) > 0.4
SMASK[:, 0] = True


def _cases():
    return [
        Case("conv1d-groups", L.Conv1D(4, 3, groups=2, **F64), [X3]),
        Case("conv1d-groups-causal", L.Conv1D(6, 2, groups=3, padding="causal",
                                              dilation_rate=2, **F64), [X3]),
        Case("conv2d-groups", L.Conv2D(6, 3, groups=2, padding="same", strides=2, **F64), [X4]),
        Case("conv2d-depthwise-groups", L.Conv2D(8, (2, 3), groups=4, **F64), [X4]),
        Case("conv3d-groups", L.Conv3D(4, 2, groups=2, **F64), [X5]),
        Case("bn-renorm-inference", L.BatchNormalization(renorm=True, **F64), [B2]),
        Case("bn-synchronized", L.BatchNormalization(synchronized=True, **F64), [B2],
             training=True),
        Case("bn-masked", L.BatchNormalization(**F64), [S3], mask=SMASK, training=True),
        Case("bn-masked-inference", L.BatchNormalization(**F64), [S3], mask=SMASK),
    ]


def test_matches_tensorflow_keras():
    cases = _cases()
    results = run_tf(cases, tf_python())
    for case in cases:
        assert_matches(case, results[case.name], rtol=1e-9, atol=1e-9)


_STEPS = """
bn = keras.layers.BatchNormalization(axis={axis}, momentum=0.6, renorm=True,
                                     renorm_clipping={clip}, renorm_momentum=0.7,
                                     center={center}, scale={center}, dtype="float64")
bn.build(A["x"].shape)
for x in (A["x"], A["x2"], A["x3"]):
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = bn(x, training=True)
        total = tf.reduce_sum(y * A["seed"])
    out["y"] = y
    grads = tape.gradient(total, [x] + bn.trainable_weights)
for i, g in enumerate(grads):
    out[f"grad{{i}}"] = g
for w in bn.weights:
    out[w.path.split("/")[-1]] = w.numpy()
"""


@pytest.mark.parametrize("axis,clip,x,center", [(-1, CLIP, B2, True), (1, CLIP, B4, True),
                                                (-1, None, B2, True), (-1, CLIP, B2, False)])
def test_renorm_steps_match_tensorflow(axis, clip, x, center):
    """Three training steps: the last output, its gradients for the input, gamma and beta
    (through the batch statistics, with r and d held), and every statistic afterwards."""
    batches = [x, x * 0.5 + 0.3, x * 1.5 - 0.2]
    seed = np.random.default_rng(5).normal(size=x.shape)
    want = tf_eval(_STEPS.format(axis=axis, clip=clip, center=center),
                   {"x": batches[0], "x2": batches[1], "x3": batches[2], "seed": seed})
    bn = L.BatchNormalization(axis=axis, momentum=0.6, renorm=True, renorm_clipping=clip,
                              renorm_momentum=0.7, center=center, scale=center, dtype="float64")
    for batch in batches:
        batch = tf.constant(batch)
        with tf.GradientTape() as tape:
            tape.watch(batch)
            y = bn(batch, training=True)
            total = tf.reduce_sum(y * seed)
        grads = tape.gradient(total, [batch] + bn.trainable_weights)
    np.testing.assert_allclose(y.numpy(), want["y"], rtol=1e-10, atol=1e-12)
    for i, g in enumerate(grads):
        np.testing.assert_allclose(g.numpy(), want[f"grad{i}"], rtol=1e-9, atol=1e-11)
    for w in bn.weights:
        name = w.name.split("/")[-1].split(":")[0]
        np.testing.assert_allclose(w.numpy(), want[name], rtol=1e-10, atol=1e-12, err_msg=name)


def test_grouped_conv_is_per_group_convolutions():
    layer = L.Conv2D(6, 3, groups=2, use_bias=False, **F64)
    y = layer(X4).numpy()
    kernel = layer.kernel.numpy()
    for g in range(2):
        single = L.Conv2D(3, 3, use_bias=False, **F64)
        single(X4[..., 2 * g:2 * g + 2])
        single.set_weights([kernel[..., 3 * g:3 * g + 3]])
        np.testing.assert_allclose(y[..., 3 * g:3 * g + 3],
                                   single(X4[..., 2 * g:2 * g + 2]).numpy(), rtol=1e-12)


def test_grouped_conv_arguments_and_config():
    assert L.Conv1D(4, 3, groups=2).get_config()["groups"] == 2
    assert L.Conv2D.from_config(L.Conv2D(4, 3, groups=4).get_config()).groups == 4
    with pytest.raises(ValueError, match="filters must be evenly divisible"):
        L.Conv2D(5, 3, groups=2)
    with pytest.raises(ValueError, match="input channels must be evenly divisible"):
        L.Conv2D(6, 3, groups=3)(X4)
    with pytest.raises(ValueError, match="positive integer"):
        L.Conv1D(4, 3, groups=0)
    with pytest.raises(TypeError, match="no `groups`"):
        L.Conv2DTranspose(4, 3, groups=2)


def test_renorm_with_unit_corrections_is_batch_normalization():
    """At the first step renorm_mean = 0, renorm_stddev = 1; with rmin = rmax = 1 and dmax = 0
    the corrections are r = 1, d = 0 and the output is plain batch normalization's."""
    plain = L.BatchNormalization(**F64)
    renorm = L.BatchNormalization(renorm=True, renorm_clipping={"rmin": 1.0, "rmax": 1.0,
                                                                "dmax": 0.0}, **F64)
    np.testing.assert_allclose(renorm(B2, training=True).numpy(),
                               plain(B2, training=True).numpy(), rtol=1e-12)


def test_renorm_arguments_are_checked_and_kept():
    with pytest.raises(ValueError, match="invalid keys"):
        L.BatchNormalization(renorm=True, renorm_clipping={"rmaxx": 1.0})
    with pytest.raises(ValueError, match="rmax should be greater"):
        L.BatchNormalization(renorm=True, renorm_clipping={"rmax": 0.5, "rmin": 1.0})
    with pytest.raises(ValueError, match="dmax should be non-negative"):
        L.BatchNormalization(renorm=True, renorm_clipping={"dmax": -1.0})
    config = L.BatchNormalization(renorm=True, renorm_clipping=CLIP, renorm_momentum=0.5,
                                  synchronized=True).get_config()
    assert (config["renorm"], config["renorm_clipping"], config["renorm_momentum"],
            config["synchronized"]) == (True, CLIP, 0.5, True)
    clone = L.BatchNormalization.from_config(config)
    clone(B2)
    assert [w.name for w in clone.weights] == [
        "gamma", "beta", "moving_mean", "moving_variance", "moving_stddev", "renorm_mean",
        "renorm_stddev"]


def test_renorm_statistics_update_inside_compiled_fit():
    model = tf.keras.Sequential([tf.keras.Input((3,)),
                                 L.BatchNormalization(renorm=True, momentum=0.5)])
    model.compile(optimizer="sgd", loss="mse")
    model.fit(B2.astype("float32"), B2.astype("float32"), epochs=2, batch_size=4, verbose=0)
    bn = model.layers[0]
    assert not np.allclose(bn.renorm_mean.numpy(), 0.0)
    np.testing.assert_allclose(bn.moving_variance.numpy(),
                               np.maximum(bn.moving_stddev.numpy() ** 2 - 1e-3, 0), rtol=1e-5)


def test_masked_batch_statistics_are_over_kept_positions():
    bn = L.BatchNormalization(momentum=0.0, epsilon=0.0, center=False, scale=False, **F64)
    y = bn(S3, mask=tf.constant(SMASK), training=True).numpy()
    kept = S3[SMASK]
    mean, var = kept.mean(0), kept.var(0)
    np.testing.assert_allclose(bn.moving_mean.numpy(), mean, rtol=1e-6)
    np.testing.assert_allclose(bn.moving_variance.numpy(), var, rtol=1e-6)
    np.testing.assert_allclose(y, (S3 - mean) / np.sqrt(var), rtol=1e-5)
    with pytest.raises(ValueError, match="one dimension less than the inputs"):
        bn(S3, mask=tf.constant(SMASK[:, :, None]), training=True)
