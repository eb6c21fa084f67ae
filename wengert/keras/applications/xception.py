"""`keras.applications.xception`: Xception, the network of Chollet, "Xception: Deep Learning
with Depthwise Separable Convolutions" (2017), built as Keras builds it: the same layers created
in the same order, so that the names (given and automatic) and the weights files agree.

Depthwise separable convolutions (SeparableConv2D, no bias) with batch normalization throughout:
- entry flow: 3x3 stride-2 and 3x3 convolutions (32, 64 filters), then blocks 2-4 (128, 256,
  728 filters), each relu -> sepconv -> bn -> relu -> sepconv -> bn -> 3x3 stride-2 max pool,
  added to a 1x1 stride-2 convolution (with bn) of the block's input (block 2 starts without
  the first ReLU);
- middle flow: blocks 5-12, x <- x + (relu -> sepconv 728 -> bn) three times;
- exit flow: block 13 (728 then 1024 filters, pooled, with its strided 1x1 shortcut) and
  block 14 (sepconv 1536 and 2048, each with bn and relu).
Default input 299x299, at least 71x71; preprocessed the "tf" way.
"""
from .. import layers
from . import imagenet_utils
from .model_frame import classifier_top, finish, image_input, pretrained_file

__all__ = ["Xception", "preprocess_input", "decode_predictions"]

_BASE = ("https://storage.googleapis.com/tensorflow/keras-applications/xception/"
         "xception_weights_tf_dim_ordering_tf_kernels")


def _sepconv_bn(x, filters, name):
    x = layers.SeparableConv2D(filters, (3, 3), padding="same", use_bias=False, name=name)(x)
    return layers.BatchNormalization(axis=-1, name=f"{name}_bn")(x)


def _shortcut(x, filters):
    residual = layers.Conv2D(filters, (1, 1), strides=(2, 2), padding="same",
                             use_bias=False)(x)
    return layers.BatchNormalization(axis=-1)(residual)


def _pooled_block(x, filters, block, first_relu=True):
    """An entry or exit block: two separable convolutions, max pooling, strided shortcut."""
    residual = _shortcut(x, filters[1])
    if first_relu:
        x = layers.Activation("relu", name=f"block{block}_sepconv1_act")(x)
    x = _sepconv_bn(x, filters[0], f"block{block}_sepconv1")
    x = layers.Activation("relu", name=f"block{block}_sepconv2_act")(x)
    x = _sepconv_bn(x, filters[1], f"block{block}_sepconv2")
    x = layers.MaxPooling2D((3, 3), strides=(2, 2), padding="same",
                            name=f"block{block}_pool")(x)
    return layers.add([x, residual])


def _middle_block(x, block):
    residual = x
    for i in (1, 2, 3):
        x = layers.Activation("relu", name=f"block{block}_sepconv{i}_act")(x)
        x = _sepconv_bn(x, 728, f"block{block}_sepconv{i}")
    return layers.add([x, residual])


def _features(x):
    x = layers.Conv2D(32, (3, 3), strides=(2, 2), use_bias=False, name="block1_conv1")(x)
    x = layers.BatchNormalization(axis=-1, name="block1_conv1_bn")(x)
    x = layers.Activation("relu", name="block1_conv1_act")(x)
    x = layers.Conv2D(64, (3, 3), use_bias=False, name="block1_conv2")(x)
    x = layers.BatchNormalization(axis=-1, name="block1_conv2_bn")(x)
    x = layers.Activation("relu", name="block1_conv2_act")(x)
    x = _pooled_block(x, (128, 128), 2, first_relu=False)
    x = _pooled_block(x, (256, 256), 3)
    x = _pooled_block(x, (728, 728), 4)
    for block in range(5, 13):
        x = _middle_block(x, block)
    x = _pooled_block(x, (728, 1024), 13)
    x = _sepconv_bn(x, 1536, "block14_sepconv1")
    x = layers.Activation("relu", name="block14_sepconv1_act")(x)
    x = _sepconv_bn(x, 2048, "block14_sepconv2")
    return layers.Activation("relu", name="block14_sepconv2_act")(x)


def Xception(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
             input_shape=None, pooling=None, classes=1000, classifier_activation="softmax",
             name="xception"):
    """Xception, as keras.applications.Xception (see the module docstring)."""
    url = f"{_BASE}.h5" if include_top else f"{_BASE}_notop.h5"
    weights_file = pretrained_file(name, weights, include_top, classes, url)
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape, default_size=299, min_size=71, data_format="channels_last",
        require_flatten=include_top, weights=weights)
    img_input = image_input(input_tensor, input_shape)
    x = _features(img_input)
    x = classifier_top(x, include_top, pooling, classes, classifier_activation, weights,
                       pool_names=(None, None))
    return finish(input_tensor, img_input, x, name, weights_file)


def preprocess_input(x, data_format=None):
    """Xception's preprocessing: imagenet_utils.preprocess_input in "tf" mode."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    """imagenet_utils.decode_predictions."""
    return imagenet_utils.decode_predictions(preds, top=top)
