"""`keras.applications.inception_v3`: InceptionV3, the network of Szegedy et al., "Rethinking
the Inception Architecture for Computer Vision" (2015), built as Keras builds it: the same
layers created in the same order, so that the automatic names (conv2d, conv2d_1, ...) and the
weights files agree.

Every convolution is `conv2d_bn`: Conv2D without bias, BatchNormalization without scale,
ReLU. The stem (3x3 stride 2, 3x3, 3x3, max pool, 1x1, 3x3, max pool) reduces the image 8
times; then Inception modules, each concatenating parallel branches along channels:
- mixed0-2 (35x35 at 299 px): 1x1 | 1x1 -> 5x5 | 1x1 -> 3x3 -> 3x3 | avg pool -> 1x1;
- mixed3: a grid reduction, 3x3 stride 2 | 1x1 -> 3x3 -> 3x3 stride 2 | max pool;
- mixed4-7 (17x17): 1x1 | 1x1 -> 1x7 -> 7x1 | 1x1 -> 7x1 -> 1x7 -> 7x1 -> 1x7 | avg pool ->
  1x1, the factorized 7x7 convolutions;
- mixed8: a grid reduction, 1x1 -> 3x3 stride 2 | 1x1 -> 1x7 -> 7x1 -> 3x3 stride 2 | max pool;
- mixed9-10 (8x8): 1x1 | 1x1 -> (1x3 | 3x1) | 1x1 -> 3x3 -> (1x3 | 3x1) | avg pool -> 1x1.
Default input 299x299, at least 75x75. Inputs are preprocessed the "tf" way.
"""
from .. import layers
from . import imagenet_utils
from .model_frame import classifier_top, finish, image_input, pretrained_file

__all__ = ["InceptionV3", "preprocess_input", "decode_predictions"]

_BASE = ("https://storage.googleapis.com/tensorflow/keras-applications/inception_v3/"
         "inception_v3_weights_tf_dim_ordering_tf_kernels")


def conv2d_bn(x, filters, num_row, num_col, padding="same", strides=(1, 1), name=None):
    """Conv2D (no bias) -> BatchNormalization (no scale) -> ReLU; `name` + "_conv"/"_bn"."""
    conv_name, bn_name = (f"{name}_conv", f"{name}_bn") if name is not None else (None, None)
    x = layers.Conv2D(filters, (num_row, num_col), strides=strides, padding=padding,
                      use_bias=False, name=conv_name)(x)
    x = layers.BatchNormalization(axis=3, scale=False, name=bn_name)(x)
    return layers.Activation("relu", name=name)(x)


def _chain(x, specs):
    """conv2d_bn applied in turn for each (filters, rows, cols[, strides, padding])."""
    for spec in specs:
        filters, rows, cols = spec[:3]
        strides, padding = spec[3:] if len(spec) > 3 else ((1, 1), "same")
        x = conv2d_bn(x, filters, rows, cols, padding=padding, strides=strides)
    return x


def _avg_branch(x, filters):
    pooled = layers.AveragePooling2D((3, 3), strides=(1, 1), padding="same")(x)
    return conv2d_bn(pooled, filters, 1, 1)


def _module_a(x, pool_filters, name):
    branches = [_chain(x, [(64, 1, 1)]),
                _chain(x, [(48, 1, 1), (64, 5, 5)]),
                _chain(x, [(64, 1, 1), (96, 3, 3), (96, 3, 3)]),
                _avg_branch(x, pool_filters)]
    return layers.concatenate(branches, axis=3, name=name)


def _module_c(x, c, name):
    branches = [_chain(x, [(192, 1, 1)]),
                _chain(x, [(c, 1, 1), (c, 1, 7), (192, 7, 1)]),
                _chain(x, [(c, 1, 1), (c, 7, 1), (c, 1, 7), (c, 7, 1), (192, 1, 7)]),
                _avg_branch(x, 192)]
    return layers.concatenate(branches, axis=3, name=name)


def _module_e(x, i):
    branch1x1 = conv2d_bn(x, 320, 1, 1)
    branch3x3 = conv2d_bn(x, 384, 1, 1)
    branch3x3 = layers.concatenate([conv2d_bn(branch3x3, 384, 1, 3),
                                    conv2d_bn(branch3x3, 384, 3, 1)],
                                   axis=3, name=f"mixed9_{i}")
    dbl = _chain(x, [(448, 1, 1), (384, 3, 3)])
    dbl = layers.concatenate([conv2d_bn(dbl, 384, 1, 3), conv2d_bn(dbl, 384, 3, 1)], axis=3)
    branches = [branch1x1, branch3x3, dbl, _avg_branch(x, 192)]
    return layers.concatenate(branches, axis=3, name=f"mixed{9 + i}")


def _features(x):
    valid2 = ((2, 2), "valid")
    x = _chain(x, [(32, 3, 3) + valid2, (32, 3, 3, (1, 1), "valid"), (64, 3, 3)])
    x = layers.MaxPooling2D((3, 3), strides=(2, 2))(x)
    x = _chain(x, [(80, 1, 1, (1, 1), "valid"), (192, 3, 3, (1, 1), "valid")])
    x = layers.MaxPooling2D((3, 3), strides=(2, 2))(x)
    for i, pool_filters in enumerate((32, 64, 64)):
        x = _module_a(x, pool_filters, f"mixed{i}")
    branches = [_chain(x, [(384, 3, 3) + valid2]),
                _chain(x, [(64, 1, 1), (96, 3, 3), (96, 3, 3) + valid2]),
                layers.MaxPooling2D((3, 3), strides=(2, 2))(x)]
    x = layers.concatenate(branches, axis=3, name="mixed3")
    for i, c in enumerate((128, 160, 160, 192)):
        x = _module_c(x, c, f"mixed{4 + i}")
    branches = [_chain(x, [(192, 1, 1), (320, 3, 3) + valid2]),
                _chain(x, [(192, 1, 1), (192, 1, 7), (192, 7, 1), (192, 3, 3) + valid2]),
                layers.MaxPooling2D((3, 3), strides=(2, 2))(x)]
    x = layers.concatenate(branches, axis=3, name="mixed8")
    for i in range(2):
        x = _module_e(x, i)
    return x


def InceptionV3(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                input_shape=None, pooling=None, classes=1000,
                classifier_activation="softmax", name="inception_v3"):
    """InceptionV3, as keras.applications.InceptionV3 (see the module docstring)."""
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
    """InceptionV3's preprocessing: imagenet_utils.preprocess_input in "tf" mode."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    """imagenet_utils.decode_predictions."""
    return imagenet_utils.decode_predictions(preds, top=top)
