"""The common layer set (issue 19 item 3): convolutions 1-D/3-D/transposed/separable/depthwise,
pooling, up-sampling, padding, cropping, activation layers, noise layers, merge layers,
Permute/RepeatVector/Identity. Outputs against NumPy references, gradients against finite
differences, configs round-tripped, and every layer against TensorFlow 2.21's Keras (outputs and
gradients, when TensorFlow is installed)."""
import numpy as np
import pytest

import wengert as tf
from keras_checks import check_layer_gradients
from tf_reference import Case, assert_matches, run_tf, tf_python

L = tf.keras.layers
RNG = np.random.default_rng(11)
X2 = RNG.normal(size=(2, 4))
X3 = RNG.normal(size=(2, 7, 3))
X4 = RNG.normal(size=(2, 6, 5, 3))
X5 = RNG.normal(size=(2, 5, 6, 4, 3))
F64 = {"dtype": "float64"}


def _conv1d_numpy(x, k, stride=1, dilation=1):
    kw = k.shape[0]
    out_len = (x.shape[1] - (kw - 1) * dilation - 1) // stride + 1
    out = np.zeros((x.shape[0], out_len, k.shape[2]))
    for i in range(kw):
        out += x[:, i * dilation:i * dilation + stride * (out_len - 1) + 1:stride] @ k[i]
    return out


def _conv3d_numpy(x, k):
    kd, kh, kw = k.shape[:3]
    od, oh, ow = (x.shape[1] - kd + 1, x.shape[2] - kh + 1, x.shape[3] - kw + 1)
    out = np.zeros((x.shape[0], od, oh, ow, k.shape[4]))
    for a in range(kd):
        for b in range(kh):
            for c in range(kw):
                out += x[:, a:a + od, b:b + oh, c:c + ow] @ k[a, b, c]
    return out


def test_conv1d_and_conv3d_match_numpy():
    conv = L.Conv1D(4, 3, dilation_rate=2, **F64)
    kernel, bias = (conv(X3), conv.get_weights())[1]
    np.testing.assert_allclose(np.asarray(conv(X3)), _conv1d_numpy(X3, kernel, 1, 2) + bias,
                               rtol=1e-10)
    causal = L.Conv1D(2, 3, padding="causal", **F64)
    out = np.asarray(causal(X3))
    kernel, bias = causal.get_weights()
    padded = np.pad(X3, [(0, 0), (2, 0), (0, 0)])
    np.testing.assert_allclose(out, _conv1d_numpy(padded, kernel) + bias, rtol=1e-10)
    conv3 = L.Conv3D(2, (2, 3, 2), **F64)
    kernel, bias = (conv3(X5), conv3.get_weights())[1]
    np.testing.assert_allclose(np.asarray(conv3(X5)), _conv3d_numpy(X5, kernel) + bias,
                               rtol=1e-10)


def test_transposed_convolutions_are_adjoints():
    """<conv_transpose(y), x> == <y, conv(x)> for the same kernel (no bias): the defining
    property of the transposed convolution."""
    for forward, transpose, x in (
            (L.Conv1D(4, 3, strides=2, use_bias=False, **F64),
             L.Conv1DTranspose(3, 3, strides=2, use_bias=False, **F64), X3[:, :7]),
            (L.Conv2D(4, 3, strides=2, use_bias=False, **F64),
             L.Conv2DTranspose(3, 3, strides=2, use_bias=False, **F64), X4[:, :5, :5]),
            (L.Conv3D(4, 3, strides=2, use_bias=False, **F64),
             L.Conv3DTranspose(3, 3, strides=2, use_bias=False, **F64), X5[:, :5, :5, :3])):
        y = np.asarray(forward(x))
        dy = RNG.normal(size=y.shape)
        transpose(dy)
        transpose.set_weights(forward.get_weights())
        back = np.asarray(transpose(dy))
        assert back.shape == x.shape
        np.testing.assert_allclose(np.sum(back * x), np.sum(dy * y), rtol=1e-10)


def test_depthwise_and_separable_match_numpy():
    dw = L.DepthwiseConv2D(3, depth_multiplier=2, use_bias=False, **F64)
    kernel = (dw(X4), dw.get_weights()[0])[1]
    out = np.asarray(dw(X4))
    for c in range(3):
        for m in range(2):
            from test_keras_conv_layers import conv2d_reference
            want = conv2d_reference(X4[..., c:c + 1], kernel[:, :, c:c + 1, m:m + 1])
            np.testing.assert_allclose(out[..., c * 2 + m:c * 2 + m + 1], want, rtol=1e-10)
    sep = L.SeparableConv2D(4, 3, depth_multiplier=2, **F64)
    sep(X4)
    depthwise, pointwise, bias = sep.get_weights()
    dw.set_weights([depthwise])
    want = np.asarray(dw(X4)) @ pointwise[0, 0] + bias
    np.testing.assert_allclose(np.asarray(sep(X4)), want, rtol=1e-10)


def test_pooling_upsampling_padding_cropping_match_numpy():
    np.testing.assert_allclose(np.asarray(L.MaxPooling1D(2, **F64)(X3)),
                               np.maximum(X3[:, 0:6:2], X3[:, 1:7:2]))
    np.testing.assert_allclose(np.asarray(L.GlobalAveragePooling3D(**F64)(X5)),
                               X5.mean((1, 2, 3)))
    np.testing.assert_allclose(np.asarray(L.GlobalMaxPooling1D(**F64)(X3)), X3.max(1))
    mask = np.array([[1, 1, 1, 0, 0, 0, 0], [1] * 7], bool)
    np.testing.assert_allclose(np.asarray(L.GlobalAveragePooling1D(**F64)(
        X3, mask=tf.constant(mask))), [X3[0, :3].mean(0), X3[1].mean(0)])
    np.testing.assert_allclose(np.asarray(L.UpSampling2D((2, 3), **F64)(X4)),
                               X4.repeat(2, axis=1).repeat(3, axis=2))
    np.testing.assert_allclose(np.asarray(L.ZeroPadding2D(((1, 0), (2, 1)), **F64)(X4)),
                               np.pad(X4, [(0, 0), (1, 0), (2, 1), (0, 0)]))
    np.testing.assert_allclose(np.asarray(L.Cropping3D(1, **F64)(X5)), X5[:, 1:-1, 1:-1, 1:-1])
    np.testing.assert_allclose(np.asarray(L.Permute((2, 1), **F64)(X3)),
                               X3.transpose(0, 2, 1))
    np.testing.assert_allclose(np.asarray(L.RepeatVector(3, **F64)(X2)),
                               np.repeat(X2[:, None], 3, 1))


def test_activation_layers_match_numpy():
    x = X3
    np.testing.assert_allclose(np.asarray(L.LeakyReLU(0.2, **F64)(x)), np.where(x >= 0, x,
                                                                                 0.2 * x))
    np.testing.assert_allclose(np.asarray(L.ELU(0.5, **F64)(x)),
                               np.where(x > 0, x, 0.5 * np.expm1(x)))
    relu = np.asarray(L.ReLU(max_value=1.0, negative_slope=0.1, threshold=0.2, **F64)(x))
    np.testing.assert_allclose(relu, np.where(x >= 1.0, 1.0, np.where(x > 0.2, x,
                                                                      0.1 * (x - 0.2))))
    np.testing.assert_allclose(np.asarray(L.ThresholdedReLU(0.5, **F64)(x)),
                               np.where(x > 0.5, x, 0))
    prelu = L.PReLU(alpha_initializer="ones", shared_axes=[1], **F64)
    out = np.asarray(prelu(x))
    assert prelu.alpha.shape == (1, 3)
    np.testing.assert_allclose(out, np.where(x > 0, x, x))
    soft = np.asarray(L.Softmax(axis=1, **F64)(x, mask=tf.constant(x > 0)))
    e = np.where(x > 0, np.exp(x), 0)
    np.testing.assert_allclose(soft, e / np.maximum(e.sum(1, keepdims=True), 1e-300))


def test_merge_layers_match_numpy():
    a, b = X3, -X3 * 0.5
    np.testing.assert_allclose(np.asarray(L.add([a, b], **F64)), a + b)
    np.testing.assert_allclose(np.asarray(L.subtract([a, b], **F64)), a - b)
    np.testing.assert_allclose(np.asarray(L.multiply([a, b], **F64)), a * b)
    np.testing.assert_allclose(np.asarray(L.average([a, b], **F64)), (a + b) / 2)
    np.testing.assert_allclose(np.asarray(L.maximum([a, b], **F64)), np.maximum(a, b))
    np.testing.assert_allclose(np.asarray(L.minimum([a, b], **F64)), np.minimum(a, b))
    np.testing.assert_allclose(np.asarray(L.concatenate([a, b], axis=1, **F64)),
                               np.concatenate([a, b], 1))
    np.testing.assert_allclose(np.asarray(L.dot([a, b], axes=(1, 1), **F64)),
                               np.einsum("bti,btj->bij", a, b))
    with pytest.raises(ValueError, match="exactly 2"):
        L.Subtract()([a, b, a])


def test_noise_layers_train_only():
    x = tf.constant(np.ones((200, 50)))
    for layer in (L.GaussianNoise(0.5, seed=1, **F64), L.GaussianDropout(0.3, seed=1, **F64),
                  L.AlphaDropout(0.3, seed=1, **F64), L.SpatialDropout1D(0.5, seed=1, **F64)):
        data = x if not isinstance(layer, L.SpatialDropout1D) else tf.ones((4, 10, 50),
                                                                           tf.float64)
        np.testing.assert_array_equal(np.asarray(layer(data)), np.asarray(data))
        assert not np.allclose(np.asarray(layer(data, training=True)), np.asarray(data))
    dropped = np.asarray(L.SpatialDropout2D(0.5, seed=3)(tf.ones((2, 4, 4, 8)), training=True))
    per_map = dropped.reshape(2, 16, 8)
    assert np.all(per_map.min(1) == per_map.max(1))  # whole feature maps kept or dropped
    reg = L.ActivityRegularization(l1=0.1, l2=0.2, **F64)
    reg(X3)
    np.testing.assert_allclose(float(reg.losses[0]), (0.1 * np.abs(X3).sum() + 0.2 * (
        X3 ** 2).sum()) / 2)


@pytest.mark.parametrize("make, inputs, mode", [
    (lambda: L.Conv1D(2, 2, strides=2, padding="same", **F64), [X3[:, :5, :2]], "single"),
    (lambda: L.Conv3D(2, 2, **F64), [X5[:1, :3, :3, :3, :2]], "single"),
    (lambda: L.Conv2DTranspose(2, 2, strides=2, **F64), [X4[:1, :2, :2, :2]], "single"),
    (lambda: L.Conv3DTranspose(2, 2, strides=2, padding="same", **F64),
     [X5[:1, :2, :2, :2, :2]], "single"),
    (lambda: L.SeparableConv1D(2, 2, **F64), [X3[:, :4, :2]], "single"),
    (lambda: L.DepthwiseConv2D(2, **F64), [X4[:1, :3, :3, :2]], "single"),
    (lambda: L.PReLU(**F64), [X3[:, :3]], "single"),
    (lambda: L.UpSampling2D(2, interpolation="bilinear", **F64), [X4[:1, :2, :3, :1]],
     "single"),
    (lambda: L.Dot(axes=2, normalize=True, **F64), [X3[:, :3], X3[:, :3] * 2], "list")])
def test_gradients(make, inputs, mode):
    check_layer_gradients(make(), inputs, mode=mode)


@pytest.mark.parametrize("make", [
    lambda: L.Conv1D(3, 2, padding="causal", activation="relu", kernel_regularizer="l2"),
    lambda: L.Conv3DTranspose(2, 3, strides=2, padding="same", output_padding=1),
    lambda: L.SeparableConv2D(3, 2, depth_multiplier=2),
    lambda: L.DepthwiseConv1D(2),
    lambda: L.MaxPooling3D(2, padding="same"),
    lambda: L.GlobalAveragePooling1D(keepdims=True),
    lambda: L.UpSampling2D(2, interpolation="bilinear"),
    lambda: L.ZeroPadding3D(((1, 0), (0, 1), (2, 2))),
    lambda: L.Cropping2D(((1, 0), (0, 1))),
    lambda: L.PReLU(shared_axes=[1, 2]),
    lambda: L.ReLU(max_value=2.0),
    lambda: L.Dot(axes=[1, 2], normalize=True),
    lambda: L.SpatialDropout3D(0.2),
    lambda: L.ActivityRegularization(0.1)])
def test_configs_round_trip(make):
    layer = make()
    config = layer.get_config()
    clone = type(layer).from_config(config)
    assert clone.get_config() == config


def test_conv2d_channels_first_equals_channels_last():
    """(TensorFlow's CPU Conv2D refuses NCHW, so this is checked against NHWC, not TF.)"""
    first = L.Conv2D(2, 3, data_format="channels_first", **F64)
    last = L.Conv2D(2, 3, **F64)
    x = X4.transpose(0, 3, 1, 2)
    first(x)
    last(X4)
    last.set_weights(first.get_weights())
    np.testing.assert_allclose(np.asarray(first(x)), np.asarray(last(X4)).transpose(0, 3, 1, 2),
                               rtol=1e-12)


def _tf_cases():
    f32 = {"dtype": "float32"}
    return [
        Case("conv1d", L.Conv1D(4, 3, **F64), [X3]),
        Case("conv1d-causal", L.Conv1D(4, 2, padding="causal", dilation_rate=2, **F64), [X3]),
        Case("conv1d-same-stride", L.Conv1D(4, 3, strides=2, padding="same", **F64), [X3]),
        Case("conv3d", L.Conv3D(2, (2, 3, 2), **F64), [X5]),
        Case("conv3d-same-stride", L.Conv3D(2, 3, strides=2, padding="same", **F64), [X5]),
        Case("conv3d-dilated", L.Conv3D(2, 2, dilation_rate=2, **F64), [X5]),
        Case("conv1d-transpose", L.Conv1DTranspose(3, 3, strides=2, **F64), [X3]),
        Case("conv1d-transpose-same", L.Conv1DTranspose(3, 3, strides=2, padding="same",
                                                        **F64), [X3]),
        Case("conv2d-transpose", L.Conv2DTranspose(2, 3, strides=2, **F64), [X4]),
        Case("conv2d-transpose-output-padding", L.Conv2DTranspose(
            2, 3, strides=2, padding="same", output_padding=1, **F64), [X4]),
        Case("conv2d-transpose-wide-stride", L.Conv2DTranspose(2, 2, strides=3, **F64), [X4]),
        Case("conv3d-transpose", L.Conv3DTranspose(2, 3, strides=2, **F64), [X5]),
        Case("conv3d-transpose-same", L.Conv3DTranspose(2, 3, strides=2, padding="same", **F64),
             [X5]),
        Case("conv3d-transpose-unit-stride", L.Conv3DTranspose(2, (2, 3, 3), **F64), [X5]),
        Case("separable1d", L.SeparableConv1D(4, 3, depth_multiplier=2, **F64), [X3]),
        Case("separable2d", L.SeparableConv2D(4, 3, padding="same", **F64), [X4]),
        Case("depthwise1d", L.DepthwiseConv1D(3, depth_multiplier=2, **F64), [X3]),
        Case("depthwise2d", L.DepthwiseConv2D(3, strides=2, padding="same", **F64), [X4]),
        Case("maxpool1d", L.MaxPooling1D(2, **F64), [X3]),
        Case("avgpool1d-same", L.AveragePooling1D(3, strides=2, padding="same", **F64), [X3]),
        Case("maxpool3d", L.MaxPooling3D(2, **f32), [X5.astype("float32")]),
        Case("avgpool3d", L.AveragePooling3D(2, padding="same", **f32), [X5.astype("float32")]),
        Case("global-max1d", L.GlobalMaxPooling1D(**F64), [X3]),
        Case("global-avg1d-mask", L.GlobalAveragePooling1D(**F64), [X3],
             mask=np.array([[1, 1, 1, 0, 0, 0, 0], [1] * 7], bool)),
        Case("global-max2d-keepdims", L.GlobalMaxPooling2D(keepdims=True, **F64), [X4]),
        Case("global-avg3d", L.GlobalAveragePooling3D(**F64), [X5]),
        Case("upsampling1d", L.UpSampling1D(3, **F64), [X3]),
        Case("upsampling2d", L.UpSampling2D((2, 3), **F64), [X4]),
        Case("upsampling2d-bilinear", L.UpSampling2D(2, interpolation="bilinear", **F64), [X4]),
        Case("upsampling3d", L.UpSampling3D(2, **F64), [X5]),
        Case("zeropadding1d", L.ZeroPadding1D((1, 2), **F64), [X3]),
        Case("zeropadding2d", L.ZeroPadding2D(((1, 0), (2, 1)), **F64), [X4]),
        Case("zeropadding3d", L.ZeroPadding3D(1, **F64), [X5]),
        Case("cropping1d", L.Cropping1D((1, 2), **F64), [X3]),
        Case("cropping2d", L.Cropping2D(((1, 0), (2, 1)), **F64), [X4]),
        Case("cropping3d", L.Cropping3D(1, **F64), [X5]),
        Case("permute", L.Permute((2, 1), **F64), [X3]),
        Case("repeat-vector", L.RepeatVector(3, **F64), [X2]),
        Case("identity", L.Identity(**F64), [X2]),
        Case("leaky-relu", L.LeakyReLU(0.2, **F64), [X3]),
        Case("prelu", L.PReLU(alpha_initializer="ones", shared_axes=[1], **F64), [X3]),
        Case("elu", L.ELU(0.5, **F64), [X3]),
        Case("relu", L.ReLU(max_value=1.0, negative_slope=0.1, threshold=0.2, **F64), [X3]),
        Case("softmax", L.Softmax(axis=1, **F64), [X3]),
        Case("add", L.Add(**F64), [X3, X3 * 2], list_input=True),
        Case("subtract", L.Subtract(**F64), [X3, X3 * 2], list_input=True),
        Case("multiply", L.Multiply(**F64), [X3, X3 * 2], list_input=True),
        Case("average", L.Average(**F64), [X3, X3 * 2], list_input=True),
        Case("maximum", L.Maximum(**F64), [X3, -X3], list_input=True),
        Case("minimum", L.Minimum(**F64), [X3, -X3], list_input=True),
        Case("concatenate", L.Concatenate(axis=1, **F64), [X3, X3], list_input=True),
        Case("dot", L.Dot(axes=(1, 1), **F64), [X3, X3], list_input=True),
        Case("dot-normalize", L.Dot(axes=2, normalize=True, **F64), [X3, X3], list_input=True),
        Case("activity-regularization", L.ActivityRegularization(0.1, 0.2, **F64), [X3]),
        Case("gaussian-noise-inference", L.GaussianNoise(0.1, **F64), [X3]),
        Case("alpha-dropout-inference", L.AlphaDropout(0.1, **F64), [X3]),
        Case("spatial-dropout-inference", L.SpatialDropout2D(0.3, **F64), [X4]),
    ]


def test_matches_tensorflow_keras():
    cases = _tf_cases()
    results = run_tf(cases, tf_python())
    # TensorFlow computes these in float32 somewhere (attributes such as LeakyRelu's alpha are
    # float32, resize works in float32, channels-first and 3-D pools are float32 cases)
    loose = {"leaky-relu", "relu", "upsampling2d-bilinear", "maxpool3d", "avgpool3d"}
    for case in cases:
        tol = 1e-5 if case.name in loose else 1e-9
        assert_matches(case, results[case.name], rtol=tol, atol=tol)
