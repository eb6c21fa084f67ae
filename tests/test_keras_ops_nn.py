"""keras.ops.nn (wengert/keras/ops/nn.py and the modules it gathers) against Keras 3 on
TensorFlow 2.21: values and gradients of every differentiable name, eagerly and traced; and
without TensorFlow, values against NumPy and float64 gradients by finite differences."""
import numpy as np
import pytest

import wengert as tf
from tf_ops_reference import TFCase, check, run_tf_or_skip
from wengert.keras.ops import nn
from wengert.testing import check_grads

RNG = np.random.default_rng(2727)


def r(*shape, dtype=np.float64):
    return RNG.standard_normal(shape).astype(dtype)


def probs(*shape):
    e = np.exp(r(*shape))
    return e / e.sum(-1, keepdims=True)


def unary(name, expr_args="", fn_kwargs=None, x=None, **extra):
    fn = getattr(nn, name)
    kwargs = fn_kwargs or {}
    return TFCase(name + (expr_args and "_args"), f"keras.ops.nn.{name}(x0{expr_args})",
                  lambda t: fn(t, **kwargs), [r(3, 8) * 2 if x is None else x], wrt=[0], **extra)


ACTIVATIONS = [unary(n) for n in (
    "relu", "relu6", "sigmoid", "sparse_sigmoid", "tanh_shrink", "softplus", "softsign",
    "soft_shrink", "sparse_plus", "silu", "swish", "squareplus", "log_sigmoid", "leaky_relu",
    "hard_sigmoid", "hard_silu", "hard_swish", "elu", "selu", "gelu", "celu", "glu", "hard_tanh",
    "hard_shrink", "softmax", "log_softmax", "sparsemax")] + [
    unary("soft_shrink", ", threshold=0.3", {"threshold": 0.3}),
    unary("hard_shrink", ", threshold=0.8", {"threshold": 0.8}),
    unary("leaky_relu", ", negative_slope=0.1", {"negative_slope": 0.1}),
    unary("elu", ", alpha=0.5", {"alpha": 0.5}),
    unary("gelu", ", approximate=False", {"approximate": False}),
    unary("celu", ", alpha=2.0", {"alpha": 2.0}),
    unary("squareplus", ", b=1", {"b": 1}),
    unary("glu", ", axis=0", {"axis": 0}, x=r(4, 3)),
    unary("softmax", ", axis=(0, 2)", {"axis": (0, 2)}, x=r(2, 3, 4)),
    unary("log_softmax", ", axis=None", {"axis": None}, x=r(2, 3)),
    unary("sparsemax", ", axis=0", {"axis": 0}, x=r(5, 3)),
    TFCase("leaky_relu_int", "keras.ops.nn.leaky_relu(x0)", nn.leaky_relu,
           [np.arange(-3, 3, dtype=np.int32)]),
    TFCase("threshold", "keras.ops.nn.threshold(x0, 0.2, -1.0)",
           lambda x: nn.threshold(x, 0.2, -1.0), [r(3, 5)], wrt=[0]),
]

CONV = [
    TFCase("conv1d", "keras.ops.nn.conv(x0, x1)", nn.conv, [r(2, 9, 3), r(3, 3, 4)], wrt=[0, 1]),
    TFCase("conv2d_same_strided", "keras.ops.nn.conv(x0, x1, strides=2, padding='same')",
           lambda x, k: nn.conv(x, k, strides=2, padding="same"), [r(2, 7, 6, 3), r(3, 3, 3, 2)],
           wrt=[0, 1]),
    TFCase("conv2d_dilated_cf", "tf.transpose(keras.ops.nn.conv(tf.transpose(x0, [0, 2, 3, 1]), "
           "x1, dilation_rate=(2, 1)), [0, 3, 1, 2])",
           lambda x, k: nn.conv(x, k, data_format="channels_first", dilation_rate=(2, 1)),
           [r(2, 3, 8, 7), r(2, 3, 3, 4)], wrt=[0, 1]),
    TFCase("conv2d_grouped", "keras.ops.nn.conv(x0, x1)", nn.conv,
           [r(1, 6, 6, 4), r(3, 3, 2, 6)], wrt=[0, 1], rtol=1e-4),
    TFCase("conv3d", "keras.ops.nn.conv(x0, x1, padding='same')",
           lambda x, k: nn.conv(x, k, padding="same"), [r(1, 4, 5, 4, 2), r(2, 3, 2, 2, 3)],
           wrt=[0, 1]),
    TFCase("conv_transpose1d", "keras.ops.nn.conv_transpose(x0, x1, strides=2)",
           lambda x, k: nn.conv_transpose(x, k, strides=2), [r(2, 5, 3), r(3, 4, 3)],
           wrt=[0, 1]),
    TFCase("conv_transpose2d_same", "keras.ops.nn.conv_transpose(x0, x1, strides=2, "
           "padding='same')", lambda x, k: nn.conv_transpose(x, k, strides=2, padding="same"),
           [r(2, 4, 3, 3), r(3, 3, 2, 3)], wrt=[0, 1]),
    TFCase("conv_transpose2d_outpad", "tf.transpose(keras.ops.nn.conv_transpose(tf.transpose("
           "x0, [0, 2, 3, 1]), x1, strides=(2, 3), output_padding=1), [0, 3, 1, 2])",
           lambda x, k: nn.conv_transpose(x, k, strides=(2, 3), output_padding=1,
                                          data_format="channels_first"),
           [r(1, 3, 4, 3), r(2, 3, 2, 3)], wrt=[0, 1]),
    TFCase("conv_transpose3d", "keras.ops.nn.conv_transpose(x0, x1, padding='same')",
           lambda x, k: nn.conv_transpose(x, k, padding="same"),
           [r(1, 3, 4, 3, 2), r(2, 2, 2, 3, 2)], wrt=[0, 1]),
    TFCase("depthwise_conv2d", "keras.ops.nn.depthwise_conv(x0, x1, strides=2, padding='same')",
           lambda x, k: nn.depthwise_conv(x, k, strides=2, padding="same"),
           [r(2, 7, 7, 3), r(3, 3, 3, 2)], wrt=[0, 1]),
    TFCase("depthwise_conv1d_cf", "keras.ops.nn.depthwise_conv(x0, x1, "
           "data_format='channels_first')",
           lambda x, k: nn.depthwise_conv(x, k, data_format="channels_first"),
           [r(2, 3, 9), r(3, 3, 2)], wrt=[0, 1]),
    TFCase("depthwise_stride_dilation", "keras.ops.nn.depthwise_conv(x0, x1, strides=2, "
           "padding='same', dilation_rate=2)",
           lambda x, k: nn.depthwise_conv(x, k, strides=2, padding="same", dilation_rate=2),
           [r(1, 9, 8, 2), r(3, 3, 2, 1)], wrt=[0, 1]),
    TFCase("separable_conv2d", "keras.ops.nn.separable_conv(x0, x1, x2, padding='same')",
           lambda x, d, p: nn.separable_conv(x, d, p, padding="same"),
           [r(2, 6, 5, 3), r(3, 3, 3, 2), r(1, 1, 6, 4)], wrt=[0, 1, 2]),
    TFCase("separable_conv1d", "keras.ops.nn.separable_conv(x0, x1, x2, strides=2)",
           lambda x, d, p: nn.separable_conv(x, d, p, strides=2),
           [r(2, 9, 3), r(3, 3, 1), r(1, 3, 4)], wrt=[0, 1, 2]),
]

POOL = [
    TFCase("max_pool2d", "keras.ops.nn.max_pool(x0, 2)", lambda x: nn.max_pool(x, 2),
           [r(2, 6, 7, 3)], wrt=[0]),
    TFCase("max_pool1d_same", "keras.ops.nn.max_pool(x0, 3, strides=2, padding='same')",
           lambda x: nn.max_pool(x, 3, strides=2, padding="same"), [r(2, 9, 3)], wrt=[0]),
    TFCase("average_pool2d_cf", "keras.ops.nn.average_pool(x0, (2, 3), padding='same', "
           "data_format='channels_first')",
           lambda x: nn.average_pool(x, (2, 3), padding="same", data_format="channels_first"),
           [r(2, 3, 5, 7)], wrt=[0]),
    TFCase("average_pool3d", "keras.ops.nn.average_pool(x0, 2)",
           lambda x: nn.average_pool(x, 2), [r(1, 4, 4, 5, 2, dtype=np.float32)], wrt=[0],
           rtol=1e-4, atol=1e-5),
    TFCase("adaptive_average_pool2d", "keras.ops.nn.adaptive_average_pool(x0, (3, 4))",
           lambda x: nn.adaptive_average_pool(x, (3, 4)), [r(2, 7, 9, 3)], wrt=[0]),
    TFCase("adaptive_max_pool2d_cf", "keras.ops.nn.adaptive_max_pool(x0, 3, "
           "data_format='channels_first')",
           lambda x: nn.adaptive_max_pool(x, 3, data_format="channels_first"),
           [r(2, 3, 8, 5)], wrt=[0]),
    TFCase("adaptive_average_pool1d", "keras.ops.nn.adaptive_average_pool(x0, 4)",
           lambda x: nn.adaptive_average_pool(x, 4), [r(2, 10, 3)], wrt=[0]),
    TFCase("adaptive_max_pool3d", "keras.ops.nn.adaptive_max_pool(x0, (2, 3, 2))",
           lambda x: nn.adaptive_max_pool(x, (2, 3, 2)), [r(1, 5, 7, 4, 2, dtype=np.float32)],
           wrt=[0], rtol=1e-4, atol=1e-5),
    TFCase("unfold", "keras.ops.nn.unfold(x0, 3, dilation=(1, 2), padding=1, stride=2)",
           lambda x: nn.unfold(x, 3, dilation=(1, 2), padding=1, stride=2), [r(2, 3, 7, 8)],
           wrt=[0]),
    TFCase("fold", "keras.ops.nn.fold(x0, (4, 5), 2, padding=1, stride=2)",
           lambda x: nn.fold(x, (4, 5), 2, padding=1, stride=2), [r(1, 8, 9)], wrt=[0]),
    TFCase("depth_to_space", "keras.ops.nn.depth_to_space(x0, 2)",
           lambda x: nn.depth_to_space(x, 2), [r(2, 3, 4, 8)], wrt=[0]),
    TFCase("space_to_depth_cf", "keras.ops.nn.space_to_depth(x0, 2, "
           "data_format='channels_first')",
           lambda x: nn.space_to_depth(x, 2, data_format="channels_first"), [r(2, 3, 4, 6)],
           wrt=[0]),
]

LABELS = np.array([[0, 2, 1], [1, 1, 0]])
NORM_LOSS = [
    TFCase("moments", "keras.ops.nn.moments(x0, axes=[0, 2])",
           lambda x: nn.moments(x, axes=[0, 2]), [r(3, 4, 5)], wrt=[0]),
    TFCase("moments_keepdims", "keras.ops.nn.moments(x0, axes=[1], keepdims=True)",
           lambda x: nn.moments(x, axes=[1], keepdims=True), [r(3, 4)], wrt=[0]),
    TFCase("batch_normalization", "keras.ops.nn.batch_normalization(x0, x1, x2, axis=1, "
           "offset=x3, scale=x4)",
           lambda x, m, v, o, s: nn.batch_normalization(x, m, v, axis=1, offset=o, scale=s),
           [r(2, 3, 4), r(3), np.abs(r(3)) + .5, r(3), r(3)], wrt=[0, 1, 2, 3, 4]),
    TFCase("batch_normalization_last", "keras.ops.nn.batch_normalization(x0, x1, x2, axis=-1)",
           lambda x, m, v: nn.batch_normalization(x, m, v, axis=-1),
           [r(2, 3, 4), r(4), np.abs(r(4)) + .5], wrt=[0, 1, 2]),
    TFCase("layer_normalization", "keras.ops.nn.layer_normalization(x0, x1, x2)",
           nn.layer_normalization, [r(2, 3, 4), r(4), r(4)], wrt=[0, 1, 2]),
    TFCase("layer_normalization_axes", "keras.ops.nn.layer_normalization(x0, x1, axis=(1, 2), "
           "epsilon=1e-5)", lambda x, g: nn.layer_normalization(x, g, axis=(1, 2), epsilon=1e-5),
           [r(2, 3, 4), r(3, 4)], wrt=[0, 1]),
    TFCase("layer_normalization_rms_scaling", "keras.ops.nn.layer_normalization(x0, x1, "
           "rms_scaling=True)", lambda x, g: nn.layer_normalization(x, g, rms_scaling=True),
           [r(2, 3, 4), r(4)], wrt=[0, 1]),
    TFCase("rms_normalization", "keras.ops.nn.rms_normalization(x0, x1)",
           nn.rms_normalization, [r(2, 3, 4), r(4)], wrt=[0, 1]),
    TFCase("rms_normalization_axis", "keras.ops.nn.rms_normalization(x0, axis=1, epsilon=0.1)",
           lambda x: nn.rms_normalization(x, axis=1, epsilon=0.1), [r(2, 3, 4)], wrt=[0]),
    TFCase("normalize", "keras.ops.nn.normalize(x0)", nn.normalize, [r(3, 4)], wrt=[0]),
    TFCase("normalize_order1", "keras.ops.nn.normalize(x0, axis=0, order=1)",
           lambda x: nn.normalize(x, axis=0, order=1), [r(3, 4)], wrt=[0]),
    TFCase("binary_crossentropy", "keras.ops.nn.binary_crossentropy(x0, x1)",
           nn.binary_crossentropy, [RNG.uniform(size=(3, 4)), RNG.uniform(.05, .95, (3, 4))],
           wrt=[0, 1]),
    TFCase("binary_crossentropy_logits",
           "keras.ops.nn.binary_crossentropy(x0, x1, from_logits=True)",
           lambda t, o: nn.binary_crossentropy(t, o, from_logits=True),
           [RNG.uniform(size=(3, 4)), r(3, 4)], wrt=[0, 1]),
    TFCase("categorical_crossentropy", "keras.ops.nn.categorical_crossentropy(x0, x1)",
           nn.categorical_crossentropy, [probs(3, 5), probs(3, 5)], wrt=[0, 1]),
    TFCase("categorical_crossentropy_logits_axis",
           "keras.ops.nn.categorical_crossentropy(x0, x1, from_logits=True, axis=0)",
           lambda t, o: nn.categorical_crossentropy(t, o, from_logits=True, axis=0),
           [probs(4, 3).T.copy(), r(3, 4)], wrt=[0, 1]),
    TFCase("categorical_crossentropy_of_softmax",
           "keras.ops.nn.categorical_crossentropy(x0, keras.ops.nn.softmax(x1))",
           lambda t, o: nn.categorical_crossentropy(t, nn.softmax(o)),
           [probs(3, 5), r(3, 5)], wrt=[0, 1]),
    TFCase("sparse_categorical_crossentropy",
           "keras.ops.nn.sparse_categorical_crossentropy(x0, x1)",
           nn.sparse_categorical_crossentropy, [LABELS, probs(2, 3, 4)], wrt=[1]),
    TFCase("sparse_categorical_crossentropy_logits",
           "keras.ops.nn.sparse_categorical_crossentropy(x0, x1, from_logits=True)",
           lambda t, o: nn.sparse_categorical_crossentropy(t, o, from_logits=True),
           [LABELS[..., None], r(2, 3, 4)], wrt=[1]),
    TFCase("psnr", "keras.ops.nn.psnr(x0, x1, 2.0)", lambda a, b: nn.psnr(a, b, 2.0),
           [r(2, 4, 4, 3), r(2, 4, 4, 3)], wrt=[0, 1]),
    TFCase("one_hot", "keras.ops.nn.one_hot(x0, 4)", lambda x: nn.one_hot(x, 4),
           [np.array([[0, 3], [-1, 2]])]),
    TFCase("one_hot_axis_dtype", "keras.ops.nn.one_hot(x0, 3, axis=0, dtype='int32')",
           lambda x: nn.one_hot(x, 3, axis=0, dtype="int32"), [np.array([2, 0, 1, 1])]),
    TFCase("one_hot_bool", "keras.ops.nn.one_hot(x0, 3, dtype='bool')",
           lambda x: nn.one_hot(x, 3, dtype="bool"), [np.array([2, 0, 1])]),
    TFCase("multi_hot", "keras.ops.nn.multi_hot(x0, 5)", lambda x: nn.multi_hot(x, 5),
           [np.array([[0, 3, 3], [4, 1, 0]])]),
    TFCase("multi_hot_1d_bool", "keras.ops.nn.multi_hot(x0, num_classes=4, dtype='bool')",
           lambda x: nn.multi_hot(x, num_classes=4, dtype="bool"), [np.array([3, 1])]),
    TFCase("polar", "keras.ops.view_as_real(keras.ops.nn.polar(x0, x1))",
           lambda a, b: tf.stack([tf.math.real(nn.polar(a, b)), tf.math.imag(nn.polar(a, b))],
                                 axis=-1), [r(3), r(3)]),
    TFCase("polar_grad", "tf.math.real(keras.ops.nn.polar(x0, x1)) * 2 + "
           "tf.math.imag(keras.ops.nn.polar(x0, x1))",
           lambda a, b: tf.math.real(nn.polar(a, b)) * 2 + tf.math.imag(nn.polar(a, b)),
           [r(3), r(3)], wrt=[0, 1]),
]

ATTENTION = [
    TFCase("attention", "keras.ops.nn.dot_product_attention(x0, x1, x2)",
           nn.dot_product_attention, [r(2, 4, 3, 5), r(2, 6, 3, 5), r(2, 6, 3, 5)],
           wrt=[0, 1, 2]),
    TFCase("attention_causal_bias_scale", "keras.ops.nn.dot_product_attention(x0, x1, x2, "
           "bias=x3, scale=0.3, is_causal=True)",
           lambda q, k, v, b: nn.dot_product_attention(q, k, v, bias=b, scale=0.3,
                                                       is_causal=True),
           [r(2, 4, 2, 3), r(2, 4, 2, 3), r(2, 4, 2, 3), r(2, 2, 4, 4)], wrt=[0, 1, 2, 3]),
    TFCase("attention_mask_gqa", "keras.ops.nn.dot_product_attention(x0, x1, x2, "
           "mask=x3 > 0)",
           lambda q, k, v, m: nn.dot_product_attention(q, k, v, mask=m > 0),
           [r(1, 3, 4, 2), r(1, 5, 2, 2), r(1, 5, 2, 2), r(1, 4, 3, 5)], wrt=[0, 1, 2]),
]

CTC_LOGITS = r(2, 6, 5, dtype=np.float32)
CTC = [
    TFCase("ctc_loss", "keras.ops.nn.ctc_loss(x0, x1, x2, x3)", nn.ctc_loss,
           [np.array([[1, 2, 2], [3, 1, 0]], np.int32), CTC_LOGITS,
            np.array([3, 2], np.int32), np.array([6, 5], np.int32)], wrt=[1], rtol=1e-4,
           atol=1e-4),
    TFCase("ctc_loss_mask_last", "keras.ops.nn.ctc_loss(x0, x1, x2, x3, mask_index=4)",
           lambda t, o, tl, ol: nn.ctc_loss(t, o, tl, ol, mask_index=4),
           [np.array([[1, 2, 0], [3, 1, 0]], np.int32), CTC_LOGITS,
            np.array([3, 2], np.int32), np.array([6, 6], np.int32)], wrt=[1], rtol=1e-4,
           atol=1e-4),
    TFCase("ctc_decode_greedy", "keras.ops.nn.ctc_decode(x0, x1)", nn.ctc_decode,
           [CTC_LOGITS, np.array([6, 4], np.int32)], rtol=1e-5),
    TFCase("ctc_decode_beam", "keras.ops.nn.ctc_decode(x0, x1, strategy='beam_search', "
           "beam_width=8, top_paths=2)",
           lambda x, n: nn.ctc_decode(x, n, strategy="beam_search", beam_width=8, top_paths=2),
           [CTC_LOGITS, np.array([6, 5], np.int32)], rtol=1e-4, atol=1e-5),
]

CASES = ACTIVATIONS + CONV + POOL + NORM_LOSS + ATTENTION + CTC + [
    TFCase("traced_conv_softmax", "keras.ops.nn.softmax(keras.ops.nn.conv(x0, x1, "
           "padding='same'), axis=-1)",
           tf.function(lambda x, k: nn.softmax(nn.conv(x, k, padding="same"), axis=-1)),
           [r(2, 5, 5, 2), r(3, 3, 2, 3)], wrt=[0, 1]),
    TFCase("traced_layer_norm_gelu", "keras.ops.nn.gelu(keras.ops.nn.layer_normalization(x0, "
           "x1, x2))", tf.function(lambda x, g, b: nn.gelu(nn.layer_normalization(x, g, b))),
           [r(3, 6), r(6), r(6)], wrt=[0, 1, 2]),
]


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_against_keras(case, tf_results):
    check(case, tf_results[case.name], rtol=1e-5, atol=1e-6)


# -- without TensorFlow ----------------------------------------------------------------------
def _np_conv2d_valid(x, k):
    kh, kw = k.shape[:2]
    out = np.zeros((x.shape[0], x.shape[1] - kh + 1, x.shape[2] - kw + 1, k.shape[3]))
    for i in range(out.shape[1]):
        for j in range(out.shape[2]):
            out[:, i, j] = np.einsum("nhwc,hwco->no", x[:, i:i + kh, j:j + kw], k)
    return out


def test_values_against_numpy():
    assert nn.leaky_relu(np.array([-2, 3], np.int32)).dtype == tf.float32
    x = r(4, 6)
    e = np.exp(x - x.max(-1, keepdims=True))
    np.testing.assert_allclose(nn.softmax(x), e / e.sum(-1, keepdims=True), rtol=1e-12)
    np.testing.assert_allclose(nn.hard_sigmoid(x), np.clip(x + 3, 0, 6) / 6)
    np.testing.assert_allclose(nn.celu(x, 2.0), np.maximum(x, 0) + 2 * np.expm1(np.minimum(
        x, 0) / 2))
    np.testing.assert_allclose(nn.glu(x), x[:, :3] / (1 + np.exp(-x[:, 3:])), rtol=1e-12)
    np.testing.assert_allclose(nn.sparsemax(np.array([1.0, 3.0, 0.0])), [0.0, 1.0, 0.0])
    img, k = r(2, 6, 5, 3), r(3, 2, 3, 4)
    np.testing.assert_allclose(nn.conv(img, k), _np_conv2d_valid(img, k), rtol=1e-10)
    np.testing.assert_allclose(nn.max_pool(img, 2), img[:, :6, :4].reshape(2, 3, 2, 2, 2, 3)
                               .max(axis=(2, 4)))
    pooled = np.asarray(nn.adaptive_average_pool(r(1, 5, 1, 1) + 0 * img[:1, :5, :1, :1], (2, 1)))
    assert pooled.shape == (1, 2, 1, 1)
    y = r(2, 3, 4)
    mean, var = nn.moments(y, axes=[0, 1])
    np.testing.assert_allclose(mean, y.mean((0, 1)))
    np.testing.assert_allclose(var, y.var((0, 1)))
    ln = np.asarray(nn.layer_normalization(y, epsilon=1e-6))
    want = (y - y.mean(-1, keepdims=True)) / np.sqrt(y.var(-1, keepdims=True) + 1e-6)
    np.testing.assert_allclose(ln, want, rtol=1e-9)
    np.testing.assert_array_equal(nn.one_hot(np.array([1, -1]), 3), [[0, 1, 0], [0, 0, 0]])
    np.testing.assert_array_equal(nn.multi_hot(np.array([[0, 2, 2]]), 4), [[1, 0, 1, 0]])
    cols = np.asarray(nn.unfold(r(1, 2, 4, 4) + 0, 2, stride=2))
    assert cols.shape == (1, 8, 4)
    z = r(1, 2, 4, 4)
    np.testing.assert_allclose(nn.fold(nn.unfold(z, 2, stride=2), 4, 2, stride=2), z)


@pytest.mark.parametrize("fn, args", [
    (nn.sparsemax, [r(3, 5)]),
    (lambda x: nn.softmax(x, axis=(0, 1)), [r(2, 3)]),
    (nn.celu, [r(6)]),
    (lambda x, k: nn.conv(x, k, strides=2, padding="same"), [r(1, 5, 5, 2), r(3, 3, 2, 2)]),
    (lambda x, k: nn.conv_transpose(x, k, strides=2), [r(1, 3, 3, 2), r(2, 2, 3, 2)]),
    (lambda x, k: nn.depthwise_conv(x, k, strides=2, dilation_rate=2, padding="same"),
     [r(1, 7, 7, 2), r(2, 2, 2, 1)]),
    (lambda x: nn.adaptive_max_pool(x, 2), [r(1, 5, 3)]),
    (lambda x: nn.fold(x, 4, 2, stride=1), [r(1, 8, 9)]),
    (lambda x, g, b: nn.layer_normalization(x, g, b), [r(2, 4), r(4), r(4)]),
    (nn.rms_normalization, [r(2, 4)]),
    (lambda t, o: nn.binary_crossentropy(t, o, from_logits=True), [r(3), r(3)]),
    (lambda q, k, v: nn.dot_product_attention(q, k, v, is_causal=True),
     [r(1, 3, 2, 2), r(1, 3, 2, 2), r(1, 3, 2, 2)]),
], ids=["sparsemax", "softmax_axes", "celu", "conv", "conv_transpose", "depthwise_dilated",
        "adaptive_max_pool", "fold", "layer_norm", "rms_norm", "bce_logits", "attention"])
def test_gradients_by_finite_differences(fn, args):
    check_grads(fn, args, order=1)


@pytest.mark.parametrize("fn, shape", [
    (lambda x: nn.conv_transpose(x, np.ones((3, 3, 2, 3)), strides=2), [None, 4, 4, 3]),
    (lambda x: nn.softmax(x, axis=(1, 2)), [None, 3, 4]),
    (lambda x: nn.dot_product_attention(x, x, x, is_causal=True), [None, 4, 2, 3]),
    (lambda x: nn.adaptive_max_pool(x, 2), [None, 5, 5, 2]),
    (lambda x: nn.fold(nn.unfold(x, 2), 4, 2), [None, 2, 4, 4]),
], ids=["conv_transpose", "softmax_axes", "attention", "adaptive_max_pool", "fold_unfold"])
def test_traced_with_unknown_batch(fn, shape):
    traced_fn = tf.function(fn, input_signature=[tf.TensorSpec(shape, tf.float64)])
    x = tf.constant(r(*[2 if d is None else d for d in shape]))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        eager, graph = fn(x), traced_fn(x)
    np.testing.assert_allclose(graph, eager, rtol=1e-12)
    np.testing.assert_allclose(tape.gradient(graph, x), tape.gradient(eager, x), rtol=1e-12)
