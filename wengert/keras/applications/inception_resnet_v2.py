"""`keras.applications.inception_resnet_v2`: InceptionResNetV2, the network of Szegedy et al.,
"Inception-v4, Inception-ResNet and the Impact of Residual Connections on Learning" (2016),
built as Keras builds it: the same layers created in the same order, so that the automatic
names and the weights files agree.

`conv2d_bn` is Conv2D without bias, BatchNormalization without scale and ReLU (or, for a
block's closing 1x1 convolution, a Conv2D with bias alone). After InceptionV3's stem and an
Inception module (mixed_5b), three kinds of residual Inception blocks follow, each computing
x <- act(x + scale * conv1x1(concat(branches(x)))) with `CustomScaleLayer` doing the scaled sum:
- block35 (x10, scale 0.17): 1x1 | 1x1 -> 3x3 | 1x1 -> 3x3 -> 3x3;
- block17 (x20, scale 0.1): 1x1 | 1x1 -> 1x7 -> 7x1;
- block8 (x10, scale 0.2, the last with scale 1 and no activation): 1x1 | 1x1 -> 1x3 -> 3x1;
separated by the grid reductions mixed_6a and mixed_7a, and closed by a 1x1 convolution to 1536
channels (conv_7b). Default input 299x299, at least 75x75; preprocessed the "tf" way.
"""
from .. import layers
from ..layers.base import Layer
from . import imagenet_utils
from .model_frame import classifier_top, finish, image_input, pretrained_file

__all__ = ["InceptionResNetV2", "preprocess_input", "decode_predictions"]

_BASE = ("https://storage.googleapis.com/tensorflow/keras-applications/inception_resnet_v2/"
         "inception_resnet_v2_weights_tf_dim_ordering_tf_kernels")


class CustomScaleLayer(Layer):
    """inputs[0] + scale * inputs[1]: the scaled residual sum of an Inception-ResNet block."""

    def __init__(self, scale, **kwargs):
        super().__init__(**kwargs)
        self.scale = scale

    def call(self, inputs):
        return inputs[0] + inputs[1] * self.scale

    def compute_output_shape(self, input_shape):
        return input_shape[0]

    def get_config(self):
        return {**super().get_config(), "scale": self.scale}


def conv2d_bn(x, filters, kernel_size, strides=1, padding="same", activation="relu",
              use_bias=False, name=None):
    """Conv2D, then (without bias) BatchNormalization without scale, then `activation`."""
    x = layers.Conv2D(filters, kernel_size, strides=strides, padding=padding,
                      use_bias=use_bias, name=name)(x)
    if not use_bias:
        bn_name = None if name is None else f"{name}_bn"
        x = layers.BatchNormalization(axis=3, scale=False, name=bn_name)(x)
    if activation is not None:
        ac_name = None if name is None else f"{name}_ac"
        x = layers.Activation(activation, name=ac_name)(x)
    return x


def _chain(x, specs):
    """conv2d_bn applied in turn for each (filters, kernel[, strides, padding])."""
    for spec in specs:
        x = conv2d_bn(x, *spec)
    return x


_BRANCHES = {
    "block35": [[(32, 1)], [(32, 1), (32, 3)], [(32, 1), (48, 3), (64, 3)]],
    "block17": [[(192, 1)], [(128, 1), (160, [1, 7]), (192, [7, 1])]],
    "block8": [[(192, 1)], [(192, 1), (224, [1, 3]), (256, [3, 1])]],
}


def inception_resnet_block(x, scale, block_type, block_idx, activation="relu"):
    """One residual Inception block of `block_type` ("block35", "block17" or "block8")."""
    if block_type not in _BRANCHES:
        raise ValueError("inception_resnet_block: block_type must be 'block35', 'block17' or "
                         f"'block8'; received {block_type!r}.")
    branches = [_chain(x, specs) for specs in _BRANCHES[block_type]]
    block_name = f"{block_type}_{block_idx}"
    mixed = layers.Concatenate(axis=3, name=f"{block_name}_mixed")(branches)
    up = conv2d_bn(mixed, x.shape[3], 1, activation=None, use_bias=True,
                   name=f"{block_name}_conv")
    x = CustomScaleLayer(scale)([x, up])
    if activation is not None:
        x = layers.Activation(activation, name=f"{block_name}_ac")(x)
    return x


def _reduction(x, chains, name):
    branches = [_chain(x, specs) for specs in chains]
    branches.append(layers.MaxPooling2D(3, strides=2, padding="valid")(x))
    return layers.Concatenate(axis=3, name=name)(branches)


def _features(x):
    x = _chain(x, [(32, 3, 2, "valid"), (32, 3, 1, "valid"), (64, 3)])
    x = layers.MaxPooling2D(3, strides=2)(x)
    x = _chain(x, [(80, 1, 1, "valid"), (192, 3, 1, "valid")])
    x = layers.MaxPooling2D(3, strides=2)(x)
    branches = [_chain(x, [(96, 1)]), _chain(x, [(48, 1), (64, 5)]),
                _chain(x, [(64, 1), (96, 3), (96, 3)])]
    pooled = layers.AveragePooling2D(3, strides=1, padding="same")(x)
    branches.append(conv2d_bn(pooled, 64, 1))
    x = layers.Concatenate(axis=3, name="mixed_5b")(branches)
    for i in range(1, 11):
        x = inception_resnet_block(x, scale=0.17, block_type="block35", block_idx=i)
    x = _reduction(x, [[(384, 3, 2, "valid")], [(256, 1), (256, 3), (384, 3, 2, "valid")]],
                   "mixed_6a")
    for i in range(1, 21):
        x = inception_resnet_block(x, scale=0.1, block_type="block17", block_idx=i)
    x = _reduction(x, [[(256, 1), (384, 3, 2, "valid")], [(256, 1), (288, 3, 2, "valid")],
                       [(256, 1), (288, 3), (320, 3, 2, "valid")]], "mixed_7a")
    for i in range(1, 10):
        x = inception_resnet_block(x, scale=0.2, block_type="block8", block_idx=i)
    x = inception_resnet_block(x, scale=1.0, activation=None, block_type="block8",
                               block_idx=10)
    return conv2d_bn(x, 1536, 1, name="conv_7b")


def InceptionResNetV2(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                      input_shape=None, pooling=None, classes=1000,
                      classifier_activation="softmax", name="inception_resnet_v2"):
    """InceptionResNetV2, as keras.applications.InceptionResNetV2 (module docstring)."""
    url = f"{_BASE}.h5" if include_top else f"{_BASE}_notop.h5"
    weights_file = pretrained_file(name, weights, include_top, classes, url)
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape, default_size=299, min_size=75, data_format="channels_last",
        require_flatten=include_top, weights=weights)
    img_input = image_input(input_tensor, input_shape)
    x = _features(img_input)
    x = classifier_top(x, include_top, pooling, classes, classifier_activation, weights,
                       pool_names=(None, None))
    return finish(input_tensor, img_input, x, name, weights_file)


def preprocess_input(x, data_format=None):
    """InceptionResNetV2's preprocessing: imagenet_utils.preprocess_input in "tf" mode."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    """imagenet_utils.decode_predictions."""
    return imagenet_utils.decode_predictions(preds, top=top)
