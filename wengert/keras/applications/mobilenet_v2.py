"""`keras.applications.MobileNetV2` (Sandler et al. 2018), built as Keras 3 builds it, with the
same layer names, weights and parameter counts.

A 3x3 stride-2 convolution, then seventeen inverted residual blocks: a 1x1 "expand" convolution
to `expansion` times the input channels (skipped in the first block), a 3x3 depthwise
convolution (stride 1, or 2 after zero padding that centres it, `correct_pad`), and a linear 1x1
"project" convolution, each followed by batch normalization (epsilon 1e-3, momentum 0.999) and,
but for the projection, ReLU6; a block whose input and output agree in shape adds its input
back. Widths are `alpha` times the paper's, rounded to a multiple of 8 (never below 90% of the
unrounded width: `make_divisible`); the last 1x1 convolution has 1280 channels, scaled only when
`alpha > 1`. `preprocess_input` scales pixels from [0, 255] to [-1, 1] (mode "tf").
"""
from .. import layers
from . import imagenet_utils
from .model_frame import classifier_top, finish, image_input, pretrained_file

__all__ = ["MobileNetV2", "preprocess_input", "decode_predictions"]

_BLOCKS = ((16, 1, 1), (24, 2, 6), (24, 1, 6), (32, 2, 6), (32, 1, 6), (32, 1, 6), (64, 2, 6),
           (64, 1, 6), (64, 1, 6), (64, 1, 6), (96, 1, 6), (96, 1, 6), (96, 1, 6), (160, 2, 6),
           (160, 1, 6), (160, 1, 6), (320, 1, 6))
_SIZES = (96, 128, 160, 192, 224)
_URL = "https://storage.googleapis.com/tensorflow/keras-applications/mobilenet_v2/"
_BN = {"axis": -1, "epsilon": 1e-3, "momentum": 0.999}


def make_divisible(value, divisor=8, min_value=None):
    """`value` rounded to the nearest multiple of `divisor` (at least `min_value`, default
    `divisor`), rounded up a step when that lost more than 10%."""
    min_value = divisor if min_value is None else min_value
    rounded = max(min_value, int(value + divisor / 2) // divisor * divisor)
    return rounded + divisor if rounded < 0.9 * value else rounded


def MobileNetV2(input_shape=None, alpha=1.0, include_top=True, weights="imagenet",  # noqa: N802
                input_tensor=None, pooling=None, classes=1000, classifier_activation="softmax",
                name=None):
    """MobileNetV2 as a functional model (see the module docstring)."""
    shape = input_shape if input_shape is not None else (
        tuple(input_tensor.shape)[1:] if input_tensor is not None else None)
    size = 224
    if shape is not None and shape[0] == shape[1] and shape[0] in _SIZES:
        size = shape[0]
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape, default_size=size, min_size=32, data_format="channels_last",
        require_flatten=include_top, weights=weights)
    rows = input_shape[0]
    if weights == "imagenet":
        if alpha not in (0.35, 0.5, 0.75, 1.0, 1.3, 1.4):
            raise ValueError("MobileNetV2: imagenet weights exist for alpha 0.35, 0.50, 0.75, "
                             f"1.0, 1.3 or 1.4 only; received alpha={alpha}.")
        rows = rows if rows == input_shape[1] and rows in _SIZES else 224
    file_name = (f"mobilenet_v2_weights_tf_dim_ordering_tf_kernels_{float(alpha)}_{rows}"
                 f"{'' if include_top else '_no_top'}.h5")
    weights_file = pretrained_file("MobileNetV2", weights, include_top, classes,
                                   _URL + file_name)
    img_input = image_input(input_tensor, input_shape)
    x = layers.Conv2D(make_divisible(32 * alpha, 8), kernel_size=3, strides=(2, 2),
                      padding="same", use_bias=False, name="Conv1")(img_input)
    x = layers.BatchNormalization(name="bn_Conv1", **_BN)(x)
    x = layers.ReLU(6.0, name="Conv1_relu")(x)
    for block_id, (filters, stride, expansion) in enumerate(_BLOCKS):
        x = _inverted_res_block(x, expansion, stride, alpha, filters, block_id)
    last = make_divisible(1280 * alpha, 8) if alpha > 1.0 else 1280
    x = layers.Conv2D(last, kernel_size=1, use_bias=False, name="Conv_1")(x)
    x = layers.BatchNormalization(name="Conv_1_bn", **_BN)(x)
    x = layers.ReLU(6.0, name="out_relu")(x)
    x = classifier_top(x, include_top, pooling, classes, classifier_activation, weights,
                       top_pool=None, pool_names=(None, None))
    return finish(input_tensor, img_input, x, name or f"mobilenetv2_{alpha:0.2f}_{rows}",
                  weights_file)


def _inverted_res_block(inputs, expansion, stride, alpha, filters, block_id):
    in_channels = inputs.shape[-1]
    pointwise_filters = make_divisible(int(filters * alpha), 8)
    x = inputs
    prefix = f"block_{block_id}_"
    if block_id:
        x = layers.Conv2D(expansion * in_channels, kernel_size=1, padding="same",
                          use_bias=False, name=f"{prefix}expand")(x)
        x = layers.BatchNormalization(name=f"{prefix}expand_BN", **_BN)(x)
        x = layers.ReLU(6.0, name=f"{prefix}expand_relu")(x)
    else:
        prefix = "expanded_conv_"
    if stride == 2:
        x = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, 3), name=f"{prefix}pad")(x)
    x = layers.DepthwiseConv2D(kernel_size=3, strides=stride, use_bias=False,
                               padding="same" if stride == 1 else "valid",
                               name=f"{prefix}depthwise")(x)
    x = layers.BatchNormalization(name=f"{prefix}depthwise_BN", **_BN)(x)
    x = layers.ReLU(6.0, name=f"{prefix}depthwise_relu")(x)
    x = layers.Conv2D(pointwise_filters, kernel_size=1, padding="same", use_bias=False,
                      name=f"{prefix}project")(x)
    x = layers.BatchNormalization(name=f"{prefix}project_BN", **_BN)(x)
    if in_channels == pointwise_filters and stride == 1:
        return layers.Add(name=f"{prefix}add")([inputs, x])
    return x


def preprocess_input(x, data_format=None):
    """Pixels in [0, 255] to [-1, 1] (imagenet_utils.preprocess_input, mode "tf")."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    """The `top` (class id, name, score) triples of each row of ImageNet scores."""
    return imagenet_utils.decode_predictions(preds, top=top)
