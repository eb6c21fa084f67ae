"""`keras.applications.nasnet`: NASNetMobile and NASNetLarge, the architectures found by search
in Zoph et al., "Learning Transferable Architectures for Scalable Image Recognition" (2018),
built as Keras builds them: the same layers created in the same order, so that the names (given
and automatic) and the weights files agree.

A NASNet-A stacks two kinds of cells, each taking the outputs of the two previous cells (x, p):
- `_adjust_block` first fits p to x: after a reduction, p (twice x's resolution) becomes the
  concatenation of two 1x1 convolutions of relu(p) average-pooled with stride 2, the second
  shifted by one pixel (pad bottom-right, crop top-left), then batch norm; with another channel
  count, a relu -> 1x1 conv -> bn projection;
- a normal cell sums pairs of branches of h = bn(conv1x1(relu(x))) and p (separable conv blocks
  relu -> sepconv -> bn -> relu -> sepconv -> bn of 3x3 or 5x5, 3x3 average pools, identities)
  and concatenates p and the five sums;
- a reduction cell does the same with stride-2 branches (5x5 and 7x7 separable convolutions,
  3x3 max and average pools on h padded by `correct_pad`) and concatenates four sums.
The stem is a 3x3 stride-2 convolution and two reduction cells; then `num_blocks` normal cells,
a reduction, `num_blocks` normal cells, a reduction and `num_blocks` normal cells (filters
penultimate_filters / 24, doubled at each reduction), and a final ReLU. NASNetMobile: 4 blocks,
1056 penultimate filters, 32 stem filters, default input 224; NASNetLarge: 6 blocks, 4032, 96,
default 331 (at least 32x32 for both). Inputs are preprocessed the "tf" way.
"""
from .. import layers
from . import imagenet_utils
from .model_frame import classifier_top, finish, image_input, pretrained_file

__all__ = ["NASNetMobile", "NASNetLarge", "preprocess_input", "decode_predictions"]

BASE_WEIGHTS_PATH = "https://storage.googleapis.com/tensorflow/keras-applications/nasnet/"
_FILES = {(224, True): ("NASNet-mobile.h5", "nasnet_mobile.h5"),
          (224, False): ("NASNet-mobile-no-top.h5", "nasnet_mobile_no_top.h5"),
          (331, True): ("NASNet-large.h5", "nasnet_large.h5"),
          (331, False): ("NASNet-large-no-top.h5", "nasnet_large_no_top.h5")}


def _bn(name=None):
    return layers.BatchNormalization(axis=-1, momentum=0.9997, epsilon=1e-3, name=name)


def _conv1x1(filters, name):
    return layers.Conv2D(filters, (1, 1), strides=(1, 1), padding="same", use_bias=False,
                         name=name, kernel_initializer="he_normal")


def _separable_conv_block(ip, filters, kernel_size=(3, 3), strides=(1, 1), block_id=None):
    """relu -> separable conv (of `strides`) -> bn -> relu -> separable conv -> bn."""
    x = layers.Activation("relu")(ip)
    padding = "same"
    if strides == (2, 2):
        x = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, kernel_size),
                                 name=f"separable_conv_1_pad_{block_id}")(x)
        padding = "valid"
    x = layers.SeparableConv2D(filters, kernel_size, strides=strides,
                               name=f"separable_conv_1_{block_id}", padding=padding,
                               use_bias=False)(x)
    x = _bn(f"separable_conv_1_bn_{block_id}")(x)
    x = layers.Activation("relu")(x)
    x = layers.SeparableConv2D(filters, kernel_size, name=f"separable_conv_2_{block_id}",
                               padding="same", use_bias=False)(x)
    return _bn(f"separable_conv_2_bn_{block_id}")(x)


def _adjust_block(p, ip, filters, block_id=None):
    """p fitted to ip's resolution and `filters` channels (see the module docstring)."""
    if p is None:
        return ip
    if p.shape[-2] != ip.shape[-2]:
        p = layers.Activation("relu", name=f"adjust_relu_1_{block_id}")(p)
        p1 = layers.AveragePooling2D((1, 1), strides=(2, 2), padding="valid",
                                     name=f"adjust_avg_pool_1_{block_id}")(p)
        p1 = _conv1x1(filters // 2, f"adjust_conv_1_{block_id}")(p1)
        p2 = layers.ZeroPadding2D(padding=((0, 1), (0, 1)))(p)
        p2 = layers.Cropping2D(cropping=((1, 0), (1, 0)))(p2)
        p2 = layers.AveragePooling2D((1, 1), strides=(2, 2), padding="valid",
                                     name=f"adjust_avg_pool_2_{block_id}")(p2)
        p2 = _conv1x1(filters // 2, f"adjust_conv_2_{block_id}")(p2)
        p = layers.concatenate([p1, p2], axis=-1)
        return _bn(f"adjust_bn_{block_id}")(p)
    if p.shape[-1] != filters:
        p = layers.Activation("relu")(p)
        p = _conv1x1(filters, f"adjust_conv_projection_{block_id}")(p)
        return _bn(f"adjust_bn_{block_id}")(p)
    return p


def _cell_input(ip, p, filters, kind, block_id):
    p = _adjust_block(p, ip, filters, block_id)
    h = layers.Activation("relu")(ip)
    h = _conv1x1(filters, f"{kind}_conv_1_{block_id}")(h)
    return p, _bn(f"{kind}_bn_1_{block_id}")(h)


def _avg3(name, strides=(1, 1), padding="same"):
    return layers.AveragePooling2D((3, 3), strides=strides, padding=padding, name=name)


def _normal_a_cell(ip, p, filters, block_id=None):
    """A normal cell: (output, ip as the next cell's p)."""
    p, h = _cell_input(ip, p, filters, "normal", block_id)
    x1 = layers.add([_separable_conv_block(h, filters, (5, 5),
                                           block_id=f"normal_left1_{block_id}"),
                     _separable_conv_block(p, filters, block_id=f"normal_right1_{block_id}")],
                    name=f"normal_add_1_{block_id}")
    x2 = layers.add([_separable_conv_block(p, filters, (5, 5),
                                           block_id=f"normal_left2_{block_id}"),
                     _separable_conv_block(p, filters, (3, 3),
                                           block_id=f"normal_right2_{block_id}")],
                    name=f"normal_add_2_{block_id}")
    x3 = layers.add([_avg3(f"normal_left3_{block_id}")(h), p], name=f"normal_add_3_{block_id}")
    x4 = layers.add([_avg3(f"normal_left4_{block_id}")(p),
                     _avg3(f"normal_right4_{block_id}")(p)], name=f"normal_add_4_{block_id}")
    x5 = layers.add([_separable_conv_block(h, filters, block_id=f"normal_left5_{block_id}"), h],
                    name=f"normal_add_5_{block_id}")
    x = layers.concatenate([p, x1, x2, x3, x4, x5], axis=-1, name=f"normal_concat_{block_id}")
    return x, ip


def _reduction_a_cell(ip, p, filters, block_id=None):
    """A reduction cell, halving the resolution: (output, ip as the next cell's p)."""
    p, h = _cell_input(ip, p, filters, "reduction", block_id)
    h3 = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(h, 3),
                              name=f"reduction_pad_1_{block_id}")(h)
    stride2 = {"strides": (2, 2)}
    x1 = layers.add([_separable_conv_block(h, filters, (5, 5), **stride2,
                                           block_id=f"reduction_left1_{block_id}"),
                     _separable_conv_block(p, filters, (7, 7), **stride2,
                                           block_id=f"reduction_right1_{block_id}")],
                    name=f"reduction_add_1_{block_id}")
    left2 = layers.MaxPooling2D((3, 3), strides=(2, 2), padding="valid",
                                name=f"reduction_left2_{block_id}")(h3)
    x2 = layers.add([left2, _separable_conv_block(p, filters, (7, 7), **stride2,
                                                  block_id=f"reduction_right2_{block_id}")],
                    name=f"reduction_add_2_{block_id}")
    left3 = _avg3(f"reduction_left3_{block_id}", (2, 2), "valid")(h3)
    x3 = layers.add([left3, _separable_conv_block(p, filters, (5, 5), **stride2,
                                                  block_id=f"reduction_right3_{block_id}")],
                    name=f"reduction_add3_{block_id}")
    x4 = layers.add([x2, _avg3(f"reduction_left4_{block_id}")(x1)])
    left5 = _separable_conv_block(x1, filters, (3, 3), block_id=f"reduction_left4_{block_id}")
    right5 = layers.MaxPooling2D((3, 3), strides=(2, 2), padding="valid",
                                 name=f"reduction_right5_{block_id}")(h3)
    x5 = layers.add([left5, right5], name=f"reduction_add4_{block_id}")
    x = layers.concatenate([x2, x3, x4, x5], axis=-1, name=f"reduction_concat_{block_id}")
    return x, ip


def NASNet(input_shape=None, penultimate_filters=4032, num_blocks=6,  # noqa: N802
           stem_block_filters=96, skip_reduction=True, filter_multiplier=2, include_top=True,
           weights="imagenet", input_tensor=None, pooling=None, classes=1000,
           default_size=None, classifier_activation="softmax", name="NASNet"):
    """A NASNet-A network (see the module docstring); ImageNet weights exist for the mobile
    (default_size 224) and large (331) configurations only."""
    default_size = default_size or 331
    if isinstance(input_shape, tuple) and None in input_shape and weights == "imagenet":
        raise ValueError("When specifying the input shape of a NASNet and loading `ImageNet` "
                         "weights, the input_shape argument must be static (no None entries). "
                         f"Got: `input_shape={input_shape}`.")
    url, file_name = _imagenet_file(weights, default_size, include_top)
    weights_file = pretrained_file(name, weights, include_top, classes, url, file_name)
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape, default_size=default_size, min_size=32, data_format="channels_last",
        require_flatten=include_top, weights=weights)
    if penultimate_filters % (24 * (filter_multiplier ** 2)) != 0:
        raise ValueError("For NASNet-A models, the `penultimate_filters` must be a multiple of "
                         f"24 * (`filter_multiplier` ** 2). Current value: "
                         f"{penultimate_filters}")
    img_input = image_input(input_tensor, input_shape)
    x = _features(img_input, penultimate_filters // 24, num_blocks, stem_block_filters,
                  skip_reduction, filter_multiplier)
    x = classifier_top(x, include_top, pooling, classes, classifier_activation, weights,
                       top_pool=None, pool_names=(None, None))
    return finish(input_tensor, img_input, x, name, weights_file)


def _imagenet_file(weights, default_size, include_top):
    """(URL, cache name) of the ImageNet weights of this configuration."""
    if (default_size, include_top) not in _FILES:
        if weights == "imagenet":
            raise ValueError("ImageNet weights can only be loaded with NASNetLarge or "
                             "NASNetMobile")
        return "", None
    remote, cached = _FILES[(default_size, include_top)]
    return BASE_WEIGHTS_PATH + remote, cached


def _features(img_input, filters, num_blocks, stem_block_filters, skip_reduction, multiplier):
    x = layers.Conv2D(stem_block_filters, (3, 3), strides=(2, 2), padding="valid",
                      use_bias=False, name="stem_conv1", kernel_initializer="he_normal")(img_input)
    x = _bn("stem_bn1")(x)
    x, p = _reduction_a_cell(x, None, filters // (multiplier ** 2), block_id="stem_1")
    x, p = _reduction_a_cell(x, p, filters // multiplier, block_id="stem_2")
    for stage in range(3):
        first = stage * num_blocks + (1 if stage else 0)
        if stage:
            x, p0 = _reduction_a_cell(x, p, filters * multiplier ** stage,
                                      block_id=f"reduce_{stage * num_blocks}")
            p = p if skip_reduction else p0
        for i in range(num_blocks):
            x, p = _normal_a_cell(x, p, filters * multiplier ** stage, block_id=f"{first + i}")
    return layers.Activation("relu")(x)


def NASNetMobile(input_shape=None, include_top=True, weights="imagenet",  # noqa: N802
                 input_tensor=None, pooling=None, classes=1000,
                 classifier_activation="softmax", name="nasnet_mobile"):
    """NASNetMobile, as keras.applications.NASNetMobile (224x224 by default)."""
    if not include_top and input_shape is None:
        input_shape = (224, 224, 3)
    return NASNet(input_shape, penultimate_filters=1056, num_blocks=4, stem_block_filters=32,
                  skip_reduction=False, filter_multiplier=2, include_top=include_top,
                  weights=weights, input_tensor=input_tensor, pooling=pooling, classes=classes,
                  default_size=224, classifier_activation=classifier_activation, name=name)


def NASNetLarge(input_shape=None, include_top=True, weights="imagenet",  # noqa: N802
                input_tensor=None, pooling=None, classes=1000,
                classifier_activation="softmax", name="nasnet_large"):
    """NASNetLarge, as keras.applications.NASNetLarge (331x331 by default)."""
    return NASNet(input_shape, penultimate_filters=4032, num_blocks=6, stem_block_filters=96,
                  skip_reduction=True, filter_multiplier=2, include_top=include_top,
                  weights=weights, input_tensor=input_tensor, pooling=pooling, classes=classes,
                  default_size=331, classifier_activation=classifier_activation, name=name)


def preprocess_input(x, data_format=None):
    """NASNet's preprocessing: imagenet_utils.preprocess_input in "tf" mode."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    """imagenet_utils.decode_predictions."""
    return imagenet_utils.decode_predictions(preds, top=top)
