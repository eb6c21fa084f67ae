"""`keras.applications.EfficientNetV2B0` ... `B3`, `S`, `M` and `L` (Tan and Le 2021), built as
Keras 3 builds them, with the same layer names, weights and parameter counts.

With `include_preprocessing` the model takes pixels in [0, 255]: the B variants divide by 255
and normalize by ImageNet's mean and variance (a Normalization layer with both given), S, M and
L map to [-1, 1] (x / 128 - 1); `preprocess_input` is the identity. A 3x3 stride-2 stem, then
stages of two block kinds, each convolution followed by batch normalization (momentum 0.9) and
swish where the paper puts it:
- Fused-MBConv: one kxk convolution expanding by `expand_ratio` (stride 2 where the stage
  starts), optional squeeze-and-excitation, and a 1x1 projection; with expand_ratio 1 the kxk
  convolution is the projection itself, followed by swish.
- MBConv: 1x1 expansion, kxk depthwise convolution ("same" padding), squeeze-and-excitation
  x * sigmoid(W2 swish(W1 mean(x))), and the linear 1x1 projection.
A block that keeps its shape adds its input back after per-sample dropout at a rate rising
linearly from 0 to 0.2 over the blocks (Keras names the argument survival_probability, but uses
it as a drop rate, and so does this). Widths scale by `width_coefficient` (rounded to multiples
of 8), repeats by `depth_coefficient` (rounded up); the top is a 1x1 convolution to round(1280)
channels, global average pooling, dropout 0.2 and the Dense classifier.
"""
import copy
import math

from .. import initializers, layers
from . import imagenet_utils
from .efficientnet import (CONV_KERNEL_INITIALIZER, _classifier, residual,
                           squeeze_excite)
from .model_frame import classifier_top, finish, image_input, pretrained_file

__all__ = ["EfficientNetV2B0", "EfficientNetV2B1", "EfficientNetV2B2", "EfficientNetV2B3",
           "EfficientNetV2S", "EfficientNetV2M", "EfficientNetV2L", "preprocess_input",
           "decode_predictions"]

_B = ((3, 1, 32, 16, 1, 0, 1, 1), (3, 2, 16, 32, 4, 0, 2, 1), (3, 2, 32, 48, 4, 0, 2, 1),
      (3, 3, 48, 96, 4, 0.25, 2, 0), (3, 5, 96, 112, 6, 0.25, 1, 0),
      (3, 8, 112, 192, 6, 0.25, 2, 0))
# (kernel, repeats, input filters, output filters, expansion, se ratio, strides, fused)
_STAGES = {
    "b0": _B, "b1": _B, "b2": _B, "b3": _B,
    "s": ((3, 2, 24, 24, 1, 0, 1, 1), (3, 4, 24, 48, 4, 0, 2, 1), (3, 4, 48, 64, 4, 0, 2, 1),
          (3, 6, 64, 128, 4, 0.25, 2, 0), (3, 9, 128, 160, 6, 0.25, 1, 0),
          (3, 15, 160, 256, 6, 0.25, 2, 0)),
    "m": ((3, 3, 24, 24, 1, 0, 1, 1), (3, 5, 24, 48, 4, 0, 2, 1), (3, 5, 48, 80, 4, 0, 2, 1),
          (3, 7, 80, 160, 4, 0.25, 2, 0), (3, 14, 160, 176, 6, 0.25, 1, 0),
          (3, 18, 176, 304, 6, 0.25, 2, 0), (3, 5, 304, 512, 6, 0.25, 1, 0)),
    "l": ((3, 4, 32, 32, 1, 0, 1, 1), (3, 7, 32, 64, 4, 0, 2, 1), (3, 7, 64, 96, 4, 0, 2, 1),
          (3, 10, 96, 192, 4, 0.25, 2, 0), (3, 19, 192, 224, 6, 0.25, 1, 0),
          (3, 25, 224, 384, 6, 0.25, 2, 0), (3, 7, 384, 640, 6, 0.25, 1, 0)),
}
DEFAULT_BLOCKS_ARGS = {
    f"efficientnetv2-{key}": [
        {"kernel_size": k, "num_repeat": r, "input_filters": fi, "output_filters": fo,
         "expand_ratio": e, "se_ratio": se, "strides": s, "conv_type": t}
        for k, r, fi, fo, e, se, s, t in stages] for key, stages in _STAGES.items()}
# (width, depth, default size) per variant
_VARIANTS = {"b0": (1.0, 1.0, 224), "b1": (1.0, 1.1, 240), "b2": (1.1, 1.2, 260),
             "b3": (1.2, 1.4, 300), "s": (1.0, 1.0, 384), "m": (1.0, 1.0, 480),
             "l": (1.0, 1.0, 480)}
_URL = "https://storage.googleapis.com/tensorflow/keras-applications/efficientnet_v2/"


def round_filters(filters, width_coefficient, min_depth, depth_divisor):
    """filters * width rounded to the nearest multiple of `depth_divisor` (at least
    `min_depth`)."""
    filters *= width_coefficient
    minimum = min_depth or depth_divisor
    return int(max(minimum, int(filters + depth_divisor / 2) // depth_divisor * depth_divisor))


def _bn(name, momentum):
    return layers.BatchNormalization(axis=3, momentum=momentum, name=name)


def _conv(filters, kernel_size, strides, name):
    return layers.Conv2D(filters, kernel_size=kernel_size, strides=strides, padding="same",
                         use_bias=False, kernel_initializer=CONV_KERNEL_INITIALIZER, name=name)


def MBConvBlock(input_filters, output_filters, expand_ratio=1, kernel_size=3,  # noqa: N802
                strides=1, se_ratio=0.0, bn_momentum=0.9, activation="swish",
                survival_probability=0.8, name=None):
    """An MBConv block as a function of its input (see the module docstring)."""
    def apply(inputs):
        filters = input_filters * expand_ratio
        x = inputs
        if expand_ratio != 1:
            x = _bn(f"{name}expand_bn", bn_momentum)(_conv(filters, 1, 1, f"{name}expand_conv")(x))
            x = layers.Activation(activation, name=f"{name}expand_activation")(x)
        x = layers.DepthwiseConv2D(kernel_size=kernel_size, strides=strides, padding="same",
                                   depthwise_initializer=CONV_KERNEL_INITIALIZER,
                                   use_bias=False, name=f"{name}dwconv2")(x)
        x = _bn(f"{name}bn", bn_momentum)(x)
        x = layers.Activation(activation, name=f"{name}activation")(x)
        if 0 < se_ratio <= 1:
            x = squeeze_excite(x, filters, input_filters, se_ratio, activation, name)
        x = _conv(output_filters, 1, 1, f"{name}project_conv")(x)
        x = _bn(f"{name}project_bn", bn_momentum)(x)
        if strides == 1 and input_filters == output_filters:
            x = residual(x, inputs, survival_probability, name)
        return x
    return apply


def FusedMBConvBlock(input_filters, output_filters, expand_ratio=1, kernel_size=3,  # noqa: N802
                     strides=1, se_ratio=0.0, bn_momentum=0.9, activation="swish",
                     survival_probability=0.8, name=None):
    """A Fused-MBConv block as a function of its input (see the module docstring)."""
    def apply(inputs):
        filters = input_filters * expand_ratio
        x = inputs
        if expand_ratio != 1:
            x = _conv(filters, kernel_size, strides, f"{name}expand_conv")(x)
            x = _bn(f"{name}expand_bn", bn_momentum)(x)
            x = layers.Activation(activation, name=f"{name}expand_activation")(x)
        if 0 < se_ratio <= 1:
            x = squeeze_excite(x, filters, input_filters, se_ratio, activation, name)
        fused = expand_ratio == 1
        x = _conv(output_filters, kernel_size if fused else 1, strides if fused else 1,
                  f"{name}project_conv")(x)
        x = _bn(f"{name}project_bn", bn_momentum)(x)
        if fused:
            x = layers.Activation(activation, name=f"{name}project_activation")(x)
        if strides == 1 and input_filters == output_filters:
            x = residual(x, inputs, survival_probability, name)
        return x
    return apply


def EfficientNetV2(width_coefficient, depth_coefficient, default_size,  # noqa: N802
                   dropout_rate=0.2, drop_connect_rate=0.2, depth_divisor=8, min_depth=8,
                   bn_momentum=0.9, activation="swish", blocks_args="default",
                   name="efficientnetv2", include_top=True, weights="imagenet",
                   input_tensor=None, input_shape=None, pooling=None, classes=1000,
                   classifier_activation="softmax", include_preprocessing=True,
                   weights_name=None):
    """The EfficientNetV2 family's builder (see the module docstring); `weights_name` picks
    the variant ("b0"..."b3", "-s", "-m", "-l")."""
    variant = f"efficientnetv2-{weights_name.lstrip('-')}"
    blocks_args = DEFAULT_BLOCKS_ARGS[variant] if blocks_args == "default" else blocks_args
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape, default_size=default_size, min_size=32, data_format="channels_last",
        require_flatten=include_top, weights=weights)
    file_name = name + (".h5" if include_top else "_notop.h5")
    weights_file = pretrained_file(name, weights, include_top, classes, _URL + file_name)
    img_input = image_input(input_tensor, input_shape)
    x = img_input
    if include_preprocessing:
        x = _preprocessing(x, variant, input_shape)
    stem = round_filters(blocks_args[0]["input_filters"], width_coefficient, min_depth,
                         depth_divisor)
    x = _bn("stem_bn", bn_momentum)(_conv(stem, 3, 2, "stem_conv")(x))
    x = layers.Activation(activation, name="stem_activation")(x)
    rounding = (width_coefficient, min_depth, depth_divisor)
    x = _stages(x, blocks_args, rounding, depth_coefficient, drop_connect_rate, bn_momentum,
                activation)
    x = _conv(round_filters(1280, *rounding), 1, 1, "top_conv")(x)
    x = _bn("top_bn", bn_momentum)(x)
    x = layers.Activation(activation, name="top_activation")(x)
    if include_top:
        x = _classifier(x, dropout_rate, classes, classifier_activation, weights,
                        bias_initializer=initializers.Constant(0.0))
    else:
        x = classifier_top(x, False, pooling, classes, None, weights)
    return finish(input_tensor, img_input, x, name, weights_file)


def _preprocessing(x, variant, input_shape):
    if variant.split("-")[-1].startswith("b") and input_shape[2] == 3:
        x = layers.Rescaling(scale=1.0 / 255)(x)
        return layers.Normalization(mean=[0.485, 0.456, 0.406],
                                    variance=[0.229 ** 2, 0.224 ** 2, 0.225 ** 2], axis=3)(x)
    return layers.Rescaling(scale=1.0 / 128.0, offset=-1)(x)


def _stages(x, blocks_args, rounding, depth, drop_connect_rate, bn_momentum, activation):
    blocks_args = copy.deepcopy(blocks_args)
    total = float(sum(args["num_repeat"] for args in blocks_args))
    b = 0
    for i, args in enumerate(blocks_args):
        if args["num_repeat"] <= 0:
            raise ValueError("EfficientNetV2: the number of repeats of every stage must be > 0; "
                             f"received num_repeat={args['num_repeat']}.")
        args["input_filters"] = round_filters(args["input_filters"], *rounding)
        args["output_filters"] = round_filters(args["output_filters"], *rounding)
        make = FusedMBConvBlock if args.pop("conv_type") else MBConvBlock
        for j in range(int(math.ceil(depth * args.pop("num_repeat")))):
            if j > 0:
                args["strides"], args["input_filters"] = 1, args["output_filters"]
            x = make(activation=activation, bn_momentum=bn_momentum,
                     survival_probability=drop_connect_rate * b / total,
                     name=f"block{i + 1}{chr(j + 97)}_", **args)(x)
            b += 1
    return x


def _variant(key, include_top, weights, input_tensor, input_shape, pooling, classes,
             classifier_activation, include_preprocessing, name):
    width, depth, size = _VARIANTS[key]
    return EfficientNetV2(width, depth, size, name=name, include_top=include_top,
                          weights=weights, input_tensor=input_tensor, input_shape=input_shape,
                          pooling=pooling, classes=classes,
                          classifier_activation=classifier_activation,
                          include_preprocessing=include_preprocessing,
                          weights_name=key if key.startswith("b") else "-" + key)


def EfficientNetV2B0(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                     input_shape=None, pooling=None, classes=1000,
                     classifier_activation="softmax", include_preprocessing=True,
                     name="efficientnetv2-b0"):
    """EfficientNetV2-B0: width 1.0, depth 1.0, 224x224."""
    return _variant("b0", include_top, weights, input_tensor, input_shape, pooling, classes,
                    classifier_activation, include_preprocessing, name)


def EfficientNetV2B1(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                     input_shape=None, pooling=None, classes=1000,
                     classifier_activation="softmax", include_preprocessing=True,
                     name="efficientnetv2-b1"):
    """EfficientNetV2-B1: width 1.0, depth 1.1, 240x240."""
    return _variant("b1", include_top, weights, input_tensor, input_shape, pooling, classes,
                    classifier_activation, include_preprocessing, name)


def EfficientNetV2B2(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                     input_shape=None, pooling=None, classes=1000,
                     classifier_activation="softmax", include_preprocessing=True,
                     name="efficientnetv2-b2"):
    """EfficientNetV2-B2: width 1.1, depth 1.2, 260x260."""
    return _variant("b2", include_top, weights, input_tensor, input_shape, pooling, classes,
                    classifier_activation, include_preprocessing, name)


def EfficientNetV2B3(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                     input_shape=None, pooling=None, classes=1000,
                     classifier_activation="softmax", include_preprocessing=True,
                     name="efficientnetv2-b3"):
    """EfficientNetV2-B3: width 1.2, depth 1.4, 300x300."""
    return _variant("b3", include_top, weights, input_tensor, input_shape, pooling, classes,
                    classifier_activation, include_preprocessing, name)


def EfficientNetV2S(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                    input_shape=None, pooling=None, classes=1000,
                    classifier_activation="softmax", include_preprocessing=True,
                    name="efficientnetv2-s"):
    """EfficientNetV2-S: 384x384."""
    return _variant("s", include_top, weights, input_tensor, input_shape, pooling, classes,
                    classifier_activation, include_preprocessing, name)


def EfficientNetV2M(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                    input_shape=None, pooling=None, classes=1000,
                    classifier_activation="softmax", include_preprocessing=True,
                    name="efficientnetv2-m"):
    """EfficientNetV2-M: 480x480."""
    return _variant("m", include_top, weights, input_tensor, input_shape, pooling, classes,
                    classifier_activation, include_preprocessing, name)


def EfficientNetV2L(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                    input_shape=None, pooling=None, classes=1000,
                    classifier_activation="softmax", include_preprocessing=True,
                    name="efficientnetv2-l"):
    """EfficientNetV2-L: 480x480."""
    return _variant("l", include_top, weights, input_tensor, input_shape, pooling, classes,
                    classifier_activation, include_preprocessing, name)


def preprocess_input(x, data_format=None):
    """The identity: EfficientNetV2 rescales (and normalizes) inside the model."""
    if data_format not in (None, "channels_last", "channels_first"):
        raise ValueError("preprocess_input: data_format must be None, 'channels_last' or "
                         f"'channels_first'; received {data_format!r}.")
    return x


def decode_predictions(preds, top=5):
    """The `top` (class id, name, score) triples of each row of ImageNet scores."""
    return imagenet_utils.decode_predictions(preds, top=top)
