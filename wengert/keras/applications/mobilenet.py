"""`keras.applications.MobileNet`: MobileNet V1 (Howard et al. 2017), built as Keras 3 builds
it, with the same layer names, weights and parameter counts.

The network is a 3x3 stride-2 convolution followed by thirteen depthwise-separable blocks: a 3x3
depthwise convolution (stride 1 or 2), batch normalization and ReLU6, then a 1x1 pointwise
convolution, batch normalization and ReLU6. `alpha` scales every block's width
(filters = int(filters * alpha)); `depth_multiplier` is the number of depthwise outputs per input
channel. A stride-2 block pads its input by one row and column at the bottom and right, then
convolves with "valid" padding. The top is global average pooling kept as a 1x1 image, dropout,
a 1x1 convolution to `classes` logits ("conv_preds"), a reshape and the classifier activation.
`preprocess_input` scales pixels from [0, 255] to [-1, 1] (mode "tf").
"""
from .. import layers
from . import imagenet_utils
from .model_frame import classifier_top, finish, image_input, pretrained_file

__all__ = ["MobileNet", "preprocess_input", "decode_predictions"]

_BLOCKS = ((64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2), (512, 1), (512, 1),
           (512, 1), (512, 1), (512, 1), (1024, 2), (1024, 1))
_SIZES = (128, 160, 192, 224)
_URL = "https://storage.googleapis.com/tensorflow/keras-applications/mobilenet/"


def MobileNet(input_shape=None, alpha=1.0, depth_multiplier=1, dropout=1e-3,  # noqa: N802
              include_top=True, weights="imagenet", input_tensor=None, pooling=None,
              classes=1000, classifier_activation="softmax", name=None):
    """MobileNet V1 as a functional model (see the module docstring)."""
    size = 224
    if input_shape is not None and input_shape[0] == input_shape[1] and input_shape[0] in _SIZES:
        size = input_shape[0]
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape, default_size=size, min_size=32, data_format="channels_last",
        require_flatten=include_top, weights=weights)
    rows = input_shape[0]
    if weights == "imagenet":
        _check_pretrained(alpha, depth_multiplier)
        rows = rows if rows == input_shape[1] and rows in _SIZES else 224
    alpha_text = {1.0: "1_0", 0.75: "7_5", 0.5: "5_0"}.get(alpha, "2_5")
    file_name = f"mobilenet_{alpha_text}_{rows}_tf{'' if include_top else '_no_top'}.h5"
    weights_file = pretrained_file("MobileNet", weights, include_top, classes, _URL + file_name)
    img_input = image_input(input_tensor, input_shape)
    x = _conv_block(img_input, int(32 * alpha))
    for block_id, (filters, stride) in enumerate(_BLOCKS, start=1):
        x = _depthwise_block(x, int(filters * alpha), depth_multiplier, stride, block_id)
    if include_top:
        x = layers.GlobalAveragePooling2D(keepdims=True)(x)
        x = layers.Dropout(dropout, name="dropout")(x)
        x = layers.Conv2D(classes, (1, 1), padding="same", name="conv_preds")(x)
        x = layers.Reshape((classes,), name="reshape_2")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Activation(classifier_activation, name="predictions")(x)
    else:
        x = classifier_top(x, False, pooling, classes, None, weights, pool_names=(None, None))
    return finish(input_tensor, img_input, x, name or f"mobilenet_{alpha:0.2f}_{rows}",
                  weights_file)


def _check_pretrained(alpha, depth_multiplier):
    if depth_multiplier != 1:
        raise ValueError("MobileNet: imagenet weights need depth_multiplier=1; received "
                         f"depth_multiplier={depth_multiplier}.")
    if alpha not in (0.25, 0.5, 0.75, 1.0):
        raise ValueError("MobileNet: imagenet weights exist for alpha 0.25, 0.50, 0.75 or 1.0 "
                         f"only; received alpha={alpha}.")


def _conv_block(x, filters):
    x = layers.Conv2D(filters, (3, 3), padding="same", use_bias=False, strides=(2, 2),
                      name="conv1")(x)
    x = layers.BatchNormalization(axis=-1, name="conv1_bn")(x)
    return layers.ReLU(6.0, name="conv1_relu")(x)


def _depthwise_block(x, filters, depth_multiplier, stride, block_id):
    if stride != 1:
        x = layers.ZeroPadding2D(((0, 1), (0, 1)), name=f"conv_pad_{block_id}")(x)
    x = layers.DepthwiseConv2D((3, 3), padding="same" if stride == 1 else "valid",
                               depth_multiplier=depth_multiplier, strides=(stride, stride),
                               use_bias=False, name=f"conv_dw_{block_id}")(x)
    x = layers.BatchNormalization(axis=-1, name=f"conv_dw_{block_id}_bn")(x)
    x = layers.ReLU(6.0, name=f"conv_dw_{block_id}_relu")(x)
    x = layers.Conv2D(filters, (1, 1), padding="same", use_bias=False, strides=(1, 1),
                      name=f"conv_pw_{block_id}")(x)
    x = layers.BatchNormalization(axis=-1, name=f"conv_pw_{block_id}_bn")(x)
    return layers.ReLU(6.0, name=f"conv_pw_{block_id}_relu")(x)


def preprocess_input(x, data_format=None):
    """Pixels in [0, 255] to [-1, 1] (imagenet_utils.preprocess_input, mode "tf")."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    """The `top` (class id, name, score) triples of each row of ImageNet scores."""
    return imagenet_utils.decode_predictions(preds, top=top)
