"""`keras.applications.EfficientNetB0` ... `EfficientNetB7` (Tan and Le 2019), built as Keras 3
builds them, with the same layer names, weights and parameter counts.

Preprocessing is inside the model: pixels in [0, 255] are divided by 255 and normalized by a
Normalization layer (mean and variance variables, 0 and 1 until weights are loaded; with
`weights="imagenet"` Keras also divides by sqrt of ImageNet's standard deviations, a third
layer), so `preprocess_input` is the identity. Then a stride-2 3x3 stem convolution and seven
stages of MBConv blocks: 1x1 expansion by `expand_ratio` (when not 1), a depthwise convolution
(stride 2 after the centring zero padding), squeeze-and-excitation
x * sigmoid(W2 swish(W1 mean(x))) with W1 narrowing to filters_in * 0.25, and a linear 1x1
projection; batch normalization after each convolution, swish activations. A block that keeps
its shape adds its input back, after dropout of whole samples (noise shape (None, 1, 1, 1)) at a
rate rising linearly from 0 to `drop_connect_rate` over the blocks. A variant scales the widths
by `width_coefficient` (rounded to multiples of 8, never below 90%) and each stage's repeats by
`depth_coefficient` (rounded up). The top is a 1x1 convolution to round(1280) channels, global
average pooling, dropout and the Dense classifier.
"""
import copy
import math

from .. import layers
from . import imagenet_utils
from .model_frame import classifier_top, finish, image_input, pretrained_file

__all__ = ["EfficientNetB0", "EfficientNetB1", "EfficientNetB2", "EfficientNetB3",
           "EfficientNetB4", "EfficientNetB5", "EfficientNetB6", "EfficientNetB7",
           "preprocess_input", "decode_predictions"]

CONV_KERNEL_INITIALIZER = {"class_name": "VarianceScaling", "config": {
    "scale": 2.0, "mode": "fan_out", "distribution": "truncated_normal"}}
DENSE_KERNEL_INITIALIZER = {"class_name": "VarianceScaling", "config": {
    "scale": 1.0 / 3.0, "mode": "fan_out", "distribution": "uniform"}}
_STAGES = ((3, 1, 32, 16, 1, 1), (3, 2, 16, 24, 6, 2), (5, 2, 24, 40, 6, 2), (3, 3, 40, 80, 6, 2),
           (5, 3, 80, 112, 6, 1), (5, 4, 112, 192, 6, 2), (3, 1, 192, 320, 6, 1))
DEFAULT_BLOCKS_ARGS = [
    {"kernel_size": k, "repeats": r, "filters_in": fi, "filters_out": fo, "expand_ratio": e,
     "id_skip": True, "strides": s, "se_ratio": 0.25} for k, r, fi, fo, e, s in _STAGES]
IMAGENET_STDDEV_RGB = [0.229, 0.224, 0.225]
_URL = "https://storage.googleapis.com/keras-applications/"
# (width, depth, default size, dropout) per variant
_VARIANTS = {"b0": (1.0, 1.0, 224, 0.2), "b1": (1.0, 1.1, 240, 0.2), "b2": (1.1, 1.2, 260, 0.3),
             "b3": (1.2, 1.4, 300, 0.3), "b4": (1.4, 1.8, 380, 0.4), "b5": (1.6, 2.2, 456, 0.4),
             "b6": (1.8, 2.6, 528, 0.5), "b7": (2.0, 3.1, 600, 0.5)}


def _round_filters(filters, width, divisor=8):
    filters *= width
    rounded = max(divisor, int(filters + divisor / 2) // divisor * divisor)
    return int(rounded + divisor if rounded < 0.9 * filters else rounded)


def EfficientNet(width_coefficient, depth_coefficient, default_size, dropout_rate=0.2,  # noqa: N802
                 drop_connect_rate=0.2, depth_divisor=8, activation="swish",
                 blocks_args="default", name="efficientnet", include_top=True,
                 weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
                 classes=1000, classifier_activation="softmax", weights_name=None):
    """The EfficientNet family's builder (see the module docstring)."""
    blocks_args = DEFAULT_BLOCKS_ARGS if blocks_args == "default" else blocks_args
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape, default_size=default_size, min_size=32, data_format="channels_last",
        require_flatten=include_top, weights=weights)
    file_name = name + (".h5" if include_top else "_notop.h5")
    weights_file = pretrained_file(name, weights, include_top, classes, _URL + file_name)
    img_input = image_input(input_tensor, input_shape)
    x = layers.Rescaling(1.0 / 255.0)(img_input)
    x = layers.Normalization(axis=3)(x)
    if weights == "imagenet":
        x = layers.Rescaling([1.0 / math.sqrt(s) for s in IMAGENET_STDDEV_RGB])(x)
    x = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, 3), name="stem_conv_pad")(x)
    x = layers.Conv2D(_round_filters(32, width_coefficient, depth_divisor), 3, strides=2,
                      padding="valid", use_bias=False,
                      kernel_initializer=CONV_KERNEL_INITIALIZER, name="stem_conv")(x)
    x = layers.BatchNormalization(axis=3, name="stem_bn")(x)
    x = layers.Activation(activation, name="stem_activation")(x)
    x = _stages(x, blocks_args, width_coefficient, depth_coefficient, depth_divisor,
                drop_connect_rate, activation)
    x = layers.Conv2D(_round_filters(1280, width_coefficient, depth_divisor), 1, padding="same",
                      use_bias=False, kernel_initializer=CONV_KERNEL_INITIALIZER,
                      name="top_conv")(x)
    x = layers.BatchNormalization(axis=3, name="top_bn")(x)
    x = layers.Activation(activation, name="top_activation")(x)
    if include_top:
        x = _classifier(x, dropout_rate, classes, classifier_activation, weights)
    else:
        x = classifier_top(x, False, pooling, classes, None, weights)
    return finish(input_tensor, img_input, x, name, weights_file)


def _classifier(x, dropout_rate, classes, classifier_activation, weights, **dense):
    x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
    if dropout_rate > 0:
        x = layers.Dropout(dropout_rate, name="top_dropout")(x)
    imagenet_utils.validate_activation(classifier_activation, weights)
    return layers.Dense(classes, activation=classifier_activation,
                        kernel_initializer=DENSE_KERNEL_INITIALIZER, name="predictions",
                        **dense)(x)


def _stages(x, blocks_args, width, depth, divisor, drop_connect_rate, activation):
    blocks_args = copy.deepcopy(blocks_args)
    total = float(sum(int(math.ceil(depth * args["repeats"])) for args in blocks_args))
    b = 0
    for i, args in enumerate(blocks_args):
        if args["repeats"] <= 0:
            raise ValueError("EfficientNet: the number of repeats of every stage must be > 0; "
                             f"received repeats={args['repeats']}.")
        args["filters_in"] = _round_filters(args["filters_in"], width, divisor)
        args["filters_out"] = _round_filters(args["filters_out"], width, divisor)
        for j in range(int(math.ceil(depth * args.pop("repeats")))):
            if j > 0:
                args["strides"], args["filters_in"] = 1, args["filters_out"]
            x = block(x, activation, drop_connect_rate * b / total,
                      name=f"block{i + 1}{chr(j + 97)}_", **args)
            b += 1
    return x


def squeeze_excite(x, filters, filters_in, se_ratio, activation, name):
    """x * sigmoid(W2 activation(W1 mean(x))), W1 narrowing to max(1, filters_in * se_ratio)."""
    se = layers.GlobalAveragePooling2D(name=f"{name}se_squeeze")(x)
    se = layers.Reshape((1, 1, filters), name=f"{name}se_reshape")(se)
    se = layers.Conv2D(max(1, int(filters_in * se_ratio)), 1, padding="same",
                       activation=activation, kernel_initializer=CONV_KERNEL_INITIALIZER,
                       name=f"{name}se_reduce")(se)
    se = layers.Conv2D(filters, 1, padding="same", activation="sigmoid",
                       kernel_initializer=CONV_KERNEL_INITIALIZER, name=f"{name}se_expand")(se)
    return layers.multiply([x, se], name=f"{name}se_excite")


def residual(x, inputs, rate, name):
    """inputs + x, x first dropped as whole samples at `rate` while training (when rate > 0)."""
    if rate:
        x = layers.Dropout(rate, noise_shape=(None, 1, 1, 1), name=f"{name}drop")(x)
    return layers.add([x, inputs], name=f"{name}add")


def block(inputs, activation="swish", drop_rate=0.0, name="", filters_in=32, filters_out=16,
          kernel_size=3, strides=1, expand_ratio=1, se_ratio=0.0, id_skip=True):
    """One MBConv block (see the module docstring)."""
    filters = filters_in * expand_ratio
    x = inputs
    if expand_ratio != 1:
        x = layers.Conv2D(filters, 1, padding="same", use_bias=False,
                          kernel_initializer=CONV_KERNEL_INITIALIZER,
                          name=f"{name}expand_conv")(x)
        x = layers.BatchNormalization(axis=3, name=f"{name}expand_bn")(x)
        x = layers.Activation(activation, name=f"{name}expand_activation")(x)
    padding = "same"
    if strides == 2:
        x = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, kernel_size),
                                 name=f"{name}dwconv_pad")(x)
        padding = "valid"
    x = layers.DepthwiseConv2D(kernel_size, strides=strides, padding=padding, use_bias=False,
                               depthwise_initializer=CONV_KERNEL_INITIALIZER,
                               name=f"{name}dwconv")(x)
    x = layers.BatchNormalization(axis=3, name=f"{name}bn")(x)
    x = layers.Activation(activation, name=f"{name}activation")(x)
    if 0 < se_ratio <= 1:
        x = squeeze_excite(x, filters, filters_in, se_ratio, activation, name)
    x = layers.Conv2D(filters_out, 1, padding="same", use_bias=False,
                      kernel_initializer=CONV_KERNEL_INITIALIZER, name=f"{name}project_conv")(x)
    x = layers.BatchNormalization(axis=3, name=f"{name}project_bn")(x)
    if id_skip and strides == 1 and filters_in == filters_out:
        x = residual(x, inputs, drop_rate, name)
    return x


def _variant(key, include_top, weights, input_tensor, input_shape, pooling, classes,
             classifier_activation, name):
    width, depth, size, dropout = _VARIANTS[key]
    return EfficientNet(width, depth, size, dropout, name=name, include_top=include_top,
                        weights=weights, input_tensor=input_tensor, input_shape=input_shape,
                        pooling=pooling, classes=classes,
                        classifier_activation=classifier_activation, weights_name=key)


def EfficientNetB0(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                   input_shape=None, pooling=None, classes=1000,
                   classifier_activation="softmax", name="efficientnetb0"):
    """EfficientNet-B0: width 1.0, depth 1.0, 224x224, dropout 0.2."""
    return _variant("b0", include_top, weights, input_tensor, input_shape, pooling, classes,
                    classifier_activation, name)


def EfficientNetB1(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                   input_shape=None, pooling=None, classes=1000,
                   classifier_activation="softmax", name="efficientnetb1"):
    """EfficientNet-B1: width 1.0, depth 1.1, 240x240, dropout 0.2."""
    return _variant("b1", include_top, weights, input_tensor, input_shape, pooling, classes,
                    classifier_activation, name)


def EfficientNetB2(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                   input_shape=None, pooling=None, classes=1000,
                   classifier_activation="softmax", name="efficientnetb2"):
    """EfficientNet-B2: width 1.1, depth 1.2, 260x260, dropout 0.3."""
    return _variant("b2", include_top, weights, input_tensor, input_shape, pooling, classes,
                    classifier_activation, name)


def EfficientNetB3(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                   input_shape=None, pooling=None, classes=1000,
                   classifier_activation="softmax", name="efficientnetb3"):
    """EfficientNet-B3: width 1.2, depth 1.4, 300x300, dropout 0.3."""
    return _variant("b3", include_top, weights, input_tensor, input_shape, pooling, classes,
                    classifier_activation, name)


def EfficientNetB4(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                   input_shape=None, pooling=None, classes=1000,
                   classifier_activation="softmax", name="efficientnetb4"):
    """EfficientNet-B4: width 1.4, depth 1.8, 380x380, dropout 0.4."""
    return _variant("b4", include_top, weights, input_tensor, input_shape, pooling, classes,
                    classifier_activation, name)


def EfficientNetB5(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                   input_shape=None, pooling=None, classes=1000,
                   classifier_activation="softmax", name="efficientnetb5"):
    """EfficientNet-B5: width 1.6, depth 2.2, 456x456, dropout 0.4."""
    return _variant("b5", include_top, weights, input_tensor, input_shape, pooling, classes,
                    classifier_activation, name)


def EfficientNetB6(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                   input_shape=None, pooling=None, classes=1000,
                   classifier_activation="softmax", name="efficientnetb6"):
    """EfficientNet-B6: width 1.8, depth 2.6, 528x528, dropout 0.5."""
    return _variant("b6", include_top, weights, input_tensor, input_shape, pooling, classes,
                    classifier_activation, name)


def EfficientNetB7(include_top=True, weights="imagenet", input_tensor=None,  # noqa: N802
                   input_shape=None, pooling=None, classes=1000,
                   classifier_activation="softmax", name="efficientnetb7"):
    """EfficientNet-B7: width 2.0, depth 3.1, 600x600, dropout 0.5."""
    return _variant("b7", include_top, weights, input_tensor, input_shape, pooling, classes,
                    classifier_activation, name)


def preprocess_input(x, data_format=None):
    """The identity: EfficientNet rescales and normalizes inside the model."""
    if data_format not in (None, "channels_last", "channels_first"):
        raise ValueError("preprocess_input: data_format must be None, 'channels_last' or "
                         f"'channels_first'; received {data_format!r}.")
    return x


def decode_predictions(preds, top=5):
    """The `top` (class id, name, score) triples of each row of ImageNet scores."""
    return imagenet_utils.decode_predictions(preds, top=top)
