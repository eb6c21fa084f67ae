"""`keras.applications.MobileNetV3Small` and `MobileNetV3Large` (Howard et al. 2019), built as
Keras 3 builds them, with the same layer names, weights and parameter counts.

The input is rescaled from [0, 255] to [-1, 1] inside the model (`include_preprocessing`, so
`preprocess_input` is the identity), then a 3x3 stride-2 convolution with 16 filters and a stack
of inverted residual blocks: 1x1 expand convolution, depthwise convolution (3x3 or 5x5, stride 2
after the centring zero padding), an optional squeeze-and-excite gate, and a linear 1x1
projection, with batch normalization (epsilon 1e-3, momentum 0.999) after each convolution and a
residual sum where shapes agree. The activations are ReLU and hard swish,
x * relu6(x + 3) / 6; the squeeze-and-excite gate multiplies the features by
hard_sigmoid(W2 relu(W1 mean(x))), hard_sigmoid(z) = relu6(z + 3) / 6. `minimalistic` drops the
gates and hard swish and uses 3x3 kernels only. Widths are `alpha` times the paper's, rounded
to multiples of 8 (`make_divisible`). The top is a 1x1 convolution on the pooled features
(1024 channels for Small, 1280 for Large, scaled when alpha > 1), dropout, a 1x1 convolution to
the logits, Flatten and the classifier activation.

`x + 3` and `* (1 / 6)` are Keras operation nodes in Keras 3 (not among `model.layers`); here
they are the Add and Multiply operation layers that rebuild such nodes (saving/op_layers.py).
"""
from .. import backend_ops as K
from .. import layers
from ..saving import op_layers
from . import imagenet_utils
from .model_frame import classifier_top, finish, image_input, pretrained_file
from .mobilenet_v2 import make_divisible

__all__ = ["MobileNetV3Small", "MobileNetV3Large", "preprocess_input", "decode_predictions"]

_BN = {"axis": -1, "epsilon": 1e-3, "momentum": 0.999}
# (expansion, filters, kernel or None for the variant's kernel, stride, squeeze-excite,
#  hard swish (else ReLU))
_SMALL = ((1, 16, 3, 2, True, False), (72 / 16, 24, 3, 2, False, False),
          (88 / 24, 24, 3, 1, False, False), (4, 40, None, 2, True, True),
          (6, 40, None, 1, True, True), (6, 40, None, 1, True, True),
          (3, 48, None, 1, True, True), (3, 48, None, 1, True, True),
          (6, 96, None, 2, True, True), (6, 96, None, 1, True, True),
          (6, 96, None, 1, True, True))
_LARGE = ((1, 16, 3, 1, False, False), (4, 24, 3, 2, False, False), (3, 24, 3, 1, False, False),
          (3, 40, None, 2, True, False), (3, 40, None, 1, True, False),
          (3, 40, None, 1, True, False), (6, 80, 3, 2, False, True),
          (2.5, 80, 3, 1, False, True), (2.3, 80, 3, 1, False, True),
          (2.3, 80, 3, 1, False, True), (6, 112, 3, 1, True, True),
          (6, 112, 3, 1, True, True), (6, 160, None, 2, True, True),
          (6, 160, None, 1, True, True), (6, 160, None, 1, True, True))
_URL = "https://storage.googleapis.com/tensorflow/keras-applications/mobilenet_v3/"


def MobileNetV3Small(input_shape=None, alpha=1.0, minimalistic=False,  # noqa: N802
                     include_top=True, weights="imagenet", input_tensor=None, classes=1000,
                     pooling=None, dropout_rate=0.2, classifier_activation="softmax",
                     include_preprocessing=True, name="MobileNetV3Small"):
    """MobileNetV3Small as a functional model (see the module docstring)."""
    return _mobilenet_v3("small", _SMALL, 1024, locals())


def MobileNetV3Large(input_shape=None, alpha=1.0, minimalistic=False,  # noqa: N802
                     include_top=True, weights="imagenet", input_tensor=None, classes=1000,
                     pooling=None, dropout_rate=0.2, classifier_activation="softmax",
                     include_preprocessing=True, name="MobileNetV3Large"):
    """MobileNetV3Large as a functional model (see the module docstring)."""
    return _mobilenet_v3("large", _LARGE, 1280, locals())


def _mobilenet_v3(model_type, blocks, last_point, args):
    fn = f"MobileNetV3{model_type.title()}"
    alpha, minimalistic, weights = args["alpha"], args["minimalistic"], args["weights"]
    input_shape = _input_shape(fn, args["input_shape"], args["input_tensor"])
    if weights == "imagenet" and (alpha != 1.0 if minimalistic else alpha not in (0.75, 1.0)):
        raise ValueError(f"{fn}: imagenet weights exist for alpha 0.75 or 1.0 (1.0 only when "
                         f"minimalistic); received alpha={alpha}, minimalistic={minimalistic}.")
    file_name = (f"weights_mobilenet_v3_{model_type}{'_minimalistic' if minimalistic else ''}"
                 f"_224_{alpha}_float{'' if args['include_top'] else '_no_top_v2'}.h5")
    weights_file = pretrained_file(fn, weights, args["include_top"], args["classes"],
                                   _URL + file_name)
    img_input = image_input(args["input_tensor"], input_shape)
    activation = relu if minimalistic else hard_swish
    x = img_input
    if args["include_preprocessing"]:
        x = layers.Rescaling(scale=1.0 / 127.5, offset=-1.0)(x)
    x = layers.Conv2D(16, kernel_size=3, strides=(2, 2), padding="same", use_bias=False,
                      name="conv")(x)
    x = activation(layers.BatchNormalization(name="conv_bn", **_BN)(x))
    for block_id, block in enumerate(blocks):
        x = _block(x, block, alpha, minimalistic, block_id)
    last_conv = make_divisible(x.shape[-1] * 6)
    if alpha > 1.0:
        last_point = make_divisible(last_point * alpha)
    x = layers.Conv2D(last_conv, kernel_size=1, padding="same", use_bias=False, name="conv_1")(x)
    x = activation(layers.BatchNormalization(name="conv_1_bn", **_BN)(x))
    if args["include_top"]:
        x = _top(x, activation, last_point, args)
    else:
        x = classifier_top(x, False, args["pooling"], None, None, weights)
    return finish(args["input_tensor"], img_input, x, args["name"], weights_file)


def _input_shape(fn, input_shape, input_tensor):
    if input_shape is None and input_tensor is not None:
        rows, cols = tuple(input_tensor.shape)[1:3]
        input_shape = (cols, rows, 3)
    input_shape = tuple(input_shape) if input_shape is not None else (None, None, 3)
    rows, cols = input_shape[0], input_shape[1]
    if rows and cols and (rows < 32 or cols < 32):
        raise ValueError(f"{fn}: input size must be at least 32x32; received "
                         f"input_shape={input_shape}.")
    return input_shape


def _top(x, activation, last_point, args):
    x = layers.GlobalAveragePooling2D(keepdims=True)(x)
    x = layers.Conv2D(last_point, kernel_size=1, padding="same", use_bias=True, name="conv_2")(x)
    x = activation(x)
    if args["dropout_rate"] > 0:
        x = layers.Dropout(args["dropout_rate"])(x)
    x = layers.Conv2D(args["classes"], kernel_size=1, padding="same", name="logits")(x)
    x = layers.Flatten()(x)
    imagenet_utils.validate_activation(args["classifier_activation"], args["weights"])
    return layers.Activation(args["classifier_activation"], name="predictions")(x)


def relu(x):
    return layers.ReLU()(x)


def hard_sigmoid(x):
    """relu6(x + 3) / 6, as Keras writes it: two operation nodes around a ReLU(6) layer."""
    return op_layers.Multiply()(layers.ReLU(6.0)(op_layers.Add()(x, 3.0)), 1.0 / 6.0)


def _hard_swish(x):
    return x * K.relu6(x + 3.0) * (1.0 / 6.0)


def hard_swish(x):
    return layers.Activation(_hard_swish)(x)


def _block(x, block, alpha, minimalistic, block_id):
    expansion, filters, kernel, stride, squeeze, swish = block
    kernel = kernel or (3 if minimalistic else 5)
    activation = hard_swish if swish and not minimalistic else relu
    return _inverted_res_block(x, expansion, make_divisible(filters * alpha), kernel, stride,
                               squeeze and not minimalistic, activation, block_id)


def _se_block(inputs, filters, prefix):
    x = layers.GlobalAveragePooling2D(keepdims=True, name=f"{prefix}squeeze_excite_avg_pool")(
        inputs)
    x = layers.Conv2D(make_divisible(filters * 0.25), kernel_size=1, padding="same",
                      name=f"{prefix}squeeze_excite_conv")(x)
    x = layers.ReLU(name=f"{prefix}squeeze_excite_relu")(x)
    x = layers.Conv2D(filters, kernel_size=1, padding="same",
                      name=f"{prefix}squeeze_excite_conv_1")(x)
    return layers.Multiply(name=f"{prefix}squeeze_excite_mul")([inputs, hard_sigmoid(x)])


def _inverted_res_block(x, expansion, filters, kernel_size, stride, squeeze, activation,
                        block_id):
    shortcut, infilters = x, x.shape[-1]
    prefix = "expanded_conv_"
    if block_id:
        prefix = f"expanded_conv_{block_id}_"
        x = layers.Conv2D(make_divisible(infilters * expansion), kernel_size=1, padding="same",
                          use_bias=False, name=f"{prefix}expand")(x)
        x = activation(layers.BatchNormalization(name=f"{prefix}expand_bn", **_BN)(x))
    if stride == 2:
        x = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, kernel_size),
                                 name=f"{prefix}depthwise_pad")(x)
    x = layers.DepthwiseConv2D(kernel_size, strides=stride, use_bias=False,
                               padding="same" if stride == 1 else "valid",
                               name=f"{prefix}depthwise")(x)
    x = activation(layers.BatchNormalization(name=f"{prefix}depthwise_bn", **_BN)(x))
    if squeeze:
        x = _se_block(x, make_divisible(infilters * expansion), prefix)
    x = layers.Conv2D(filters, kernel_size=1, padding="same", use_bias=False,
                      name=f"{prefix}project")(x)
    x = layers.BatchNormalization(name=f"{prefix}project_bn", **_BN)(x)
    if stride == 1 and infilters == filters:
        x = layers.Add(name=f"{prefix}add")([shortcut, x])
    return x


def preprocess_input(x, data_format=None):
    """The identity: MobileNetV3 rescales its input inside the model (a Rescaling layer)."""
    if data_format not in (None, "channels_last", "channels_first"):
        raise ValueError("preprocess_input: data_format must be None, 'channels_last' or "
                         f"'channels_first'; received {data_format!r}.")
    return x


def decode_predictions(preds, top=5):
    """The `top` (class id, name, score) triples of each row of ImageNet scores."""
    return imagenet_utils.decode_predictions(preds, top=top)
