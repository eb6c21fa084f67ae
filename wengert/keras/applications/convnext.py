"""`keras.applications.ConvNeXtTiny`, `Small`, `Base`, `Large` and `XLarge` (Liu et al. 2022),
built as Keras 3 builds them, with the same layer names, weights and parameter counts.

With `include_preprocessing` (and 3 channels) a Normalization layer maps pixels in [0, 255] by
ImageNet's mean and standard deviation (times 255), so `preprocess_input` is the identity. Four
stages follow, each opened by a downsampling Sequential (the stem: a 4x4 stride-4 convolution
then layer normalization; later stages: layer normalization then a 2x2 stride-2 convolution),
then `depths[i]` ConvNeXt blocks of width `projection_dims[i]`:

    y = x + drop_path(gamma * W2 gelu(W1 layernorm(dwconv7x7(x))))

with the depthwise 7x7 convolution written as a Conv2D with groups equal to its channels, W1
and W2 Dense layers widening to 4x and back, `gamma` a per-channel LayerScale vector (init
1e-6), and drop_path StochasticDepth (whole samples dropped with the block's rate while
training; the public variants use rate 0, and Keras then puts a linear Activation named
"..._identity" there). layer norms use epsilon 1e-6. The head is global average pooling,
layer normalization and the Dense classifier; without the top, optional pooling and a layer
normalization. `y = x + ...` is a Keras operation node, here the Add operation layer
(saving/op_layers.py).
"""
import numpy as np

from .. import initializers, layers
from ..layers.base import Layer
from ..layers.layer_utils import random_dropout
from ..models import Sequential
from ..saving import op_layers
from . import imagenet_utils
from .model_frame import finish, image_input, pretrained_file

__all__ = ["ConvNeXtTiny", "ConvNeXtSmall", "ConvNeXtBase", "ConvNeXtLarge", "ConvNeXtXLarge",
           "LayerScale", "StochasticDepth", "preprocess_input", "decode_predictions"]

MODEL_CONFIGS = {
    "tiny": {"depths": [3, 3, 9, 3], "projection_dims": [96, 192, 384, 768]},
    "small": {"depths": [3, 3, 27, 3], "projection_dims": [96, 192, 384, 768]},
    "base": {"depths": [3, 3, 27, 3], "projection_dims": [128, 256, 512, 1024]},
    "large": {"depths": [3, 3, 27, 3], "projection_dims": [192, 384, 768, 1536]},
    "xlarge": {"depths": [3, 3, 27, 3], "projection_dims": [256, 512, 1024, 2048]},
}
_URL = "https://storage.googleapis.com/tensorflow/keras-applications/convnext/"


class StochasticDepth(Layer):
    """Drops whole samples of a residual branch while training: x / keep * floor(keep + U),
    keep = 1 - drop_path_rate, U uniform per sample; the identity at inference."""

    def __init__(self, drop_path_rate, **kwargs):
        super().__init__(**kwargs)
        self.drop_path_rate = drop_path_rate

    def call(self, x, training=None):
        if training and self.drop_path_rate:
            return random_dropout(self, x, self.drop_path_rate,
                                  noise_shape=(None,) + (1,) * (x.shape.rank - 1))
        return x

    def get_config(self):
        return {**super().get_config(), "drop_path_rate": self.drop_path_rate}


class LayerScale(Layer):
    """x * gamma, gamma a trainable vector of `projection_dim` entries starting at
    `init_values` (Keras names the variable "variable")."""

    def __init__(self, init_values, projection_dim, **kwargs):
        super().__init__(**kwargs)
        self.init_values, self.projection_dim = init_values, projection_dim

    def build(self, _):
        self.gamma = self.add_weight(name="variable", shape=(self.projection_dim,),
                                     initializer=initializers.Constant(self.init_values),
                                     trainable=True)
        self.built = True

    def call(self, x):
        return x * self.gamma

    def get_config(self):
        return {**super().get_config(), "init_values": self.init_values,
                "projection_dim": self.projection_dim}


def ConvNeXtBlock(projection_dim, drop_path_rate=0.0,  # noqa: N802
                  layer_scale_init_value=1e-6, name=None):
    """One ConvNeXt block as a function of its input (see the module docstring)."""
    def apply(inputs):
        x = layers.Conv2D(projection_dim, kernel_size=7, padding="same", groups=projection_dim,
                          name=f"{name}_depthwise_conv")(inputs)
        x = layers.LayerNormalization(epsilon=1e-6, name=f"{name}_layernorm")(x)
        x = layers.Dense(4 * projection_dim, name=f"{name}_pointwise_conv_1")(x)
        x = layers.Activation("gelu", name=f"{name}_gelu")(x)
        x = layers.Dense(projection_dim, name=f"{name}_pointwise_conv_2")(x)
        if layer_scale_init_value is not None:
            x = LayerScale(layer_scale_init_value, projection_dim,
                           name=f"{name}_layer_scale")(x)
        if drop_path_rate:
            x = StochasticDepth(drop_path_rate, name=f"{name}_stochastic_depth")(x)
        else:
            x = layers.Activation("linear", name=f"{name}_identity")(x)
        return op_layers.Add()(inputs, x)
    return apply


def _downsampling(name, projection_dims):
    stem = Sequential([
        layers.Conv2D(projection_dims[0], kernel_size=4, strides=4, name=f"{name}_stem_conv"),
        layers.LayerNormalization(epsilon=1e-6, name=f"{name}_stem_layernorm")],
        name=f"{name}_stem")
    return [stem] + [Sequential([
        layers.LayerNormalization(epsilon=1e-6, name=f"{name}_downsampling_layernorm_{i}"),
        layers.Conv2D(projection_dims[i + 1], kernel_size=2, strides=2,
                      name=f"{name}_downsampling_conv_{i}")],
        name=f"{name}_downsampling_block_{i}") for i in range(3)]


def ConvNeXt(depths, projection_dims, drop_path_rate=0.0,  # noqa: N802
             layer_scale_init_value=1e-6, default_size=224, name="convnext",
             include_preprocessing=True, include_top=True, weights=None, input_tensor=None,
             input_shape=None, pooling=None, classes=1000, classifier_activation="softmax",
             weights_name=None):
    """The ConvNeXt family's builder (see the module docstring)."""
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape, default_size=default_size, min_size=32, data_format="channels_last",
        require_flatten=include_top, weights=weights)
    if weights == "imagenet":
        _check_pretrained(weights_name, depths, projection_dims, name)
    file_name = name + (".h5" if include_top else "_notop.h5")
    weights_file = pretrained_file(name, weights, include_top, classes, _URL + file_name)
    img_input = image_input(input_tensor, input_shape)
    x = img_input
    if include_preprocessing and input_shape[2] == 3:
        x = layers.Normalization(
            mean=[0.485 * 255, 0.456 * 255, 0.406 * 255],
            variance=[(0.229 * 255) ** 2, (0.224 * 255) ** 2, (0.225 * 255) ** 2],
            name=f"{name}_prestem_normalization")(x)
    rates = [float(r) for r in np.linspace(0.0, drop_path_rate, sum(depths))]
    cur = 0
    for i, downsample in enumerate(_downsampling(name, projection_dims)):
        x = downsample(x)
        for j in range(depths[i]):
            x = ConvNeXtBlock(projection_dims[i], rates[cur + j], layer_scale_init_value,
                              name=f"{name}_stage_{i}_block_{j}")(x)
        cur += depths[i]
    if include_top:
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.GlobalAveragePooling2D(name=f"{name}_head_gap")(x)
        x = layers.LayerNormalization(epsilon=1e-6, name=f"{name}_head_layernorm")(x)
        x = layers.Dense(classes, activation=classifier_activation,
                         name=f"{name}_head_dense")(x)
    else:
        if pooling in ("avg", "max"):
            pool = layers.GlobalAveragePooling2D if pooling == "avg" else layers.GlobalMaxPooling2D
            x = pool()(x)
        x = layers.LayerNormalization(epsilon=1e-6)(x)
    return finish(input_tensor, img_input, x, name, weights_file)


def _check_pretrained(weights_name, depths, projection_dims, name):
    expected = MODEL_CONFIGS[weights_name.split("convnext_")[-1]]
    if depths != expected["depths"] or projection_dims != expected["projection_dims"]:
        raise ValueError(f"ConvNeXt: the {weights_name} weights need depths "
                         f"{expected['depths']} and projection_dims "
                         f"{expected['projection_dims']}; received {depths} and "
                         f"{projection_dims}.")
    if weights_name not in name:
        raise ValueError(f"ConvNeXt: with imagenet weights the model name must contain "
                         f"{weights_name!r}; received name={name!r}.")


def _variant(key, include_top, include_preprocessing, weights, input_tensor, input_shape,
             pooling, classes, classifier_activation, name):
    config = MODEL_CONFIGS[key]
    return ConvNeXt(config["depths"], config["projection_dims"], 0.0, 1e-6, 224, name=name,
                    include_preprocessing=include_preprocessing, include_top=include_top,
                    weights=weights, input_tensor=input_tensor, input_shape=input_shape,
                    pooling=pooling, classes=classes,
                    classifier_activation=classifier_activation,
                    weights_name=f"convnext_{key}")


def ConvNeXtTiny(include_top=True, include_preprocessing=True, weights="imagenet",  # noqa: N802
                 input_tensor=None, input_shape=None, pooling=None, classes=1000,
                 classifier_activation="softmax", name="convnext_tiny"):
    """ConvNeXt-T: depths 3, 3, 9, 3; widths 96 to 768."""
    return _variant("tiny", include_top, include_preprocessing, weights, input_tensor,
                    input_shape, pooling, classes, classifier_activation, name)


def ConvNeXtSmall(include_top=True, include_preprocessing=True, weights="imagenet",  # noqa: N802
                  input_tensor=None, input_shape=None, pooling=None, classes=1000,
                  classifier_activation="softmax", name="convnext_small"):
    """ConvNeXt-S: depths 3, 3, 27, 3; widths 96 to 768."""
    return _variant("small", include_top, include_preprocessing, weights, input_tensor,
                    input_shape, pooling, classes, classifier_activation, name)


def ConvNeXtBase(include_top=True, include_preprocessing=True, weights="imagenet",  # noqa: N802
                 input_tensor=None, input_shape=None, pooling=None, classes=1000,
                 classifier_activation="softmax", name="convnext_base"):
    """ConvNeXt-B: depths 3, 3, 27, 3; widths 128 to 1024."""
    return _variant("base", include_top, include_preprocessing, weights, input_tensor,
                    input_shape, pooling, classes, classifier_activation, name)


def ConvNeXtLarge(include_top=True, include_preprocessing=True, weights="imagenet",  # noqa: N802
                  input_tensor=None, input_shape=None, pooling=None, classes=1000,
                  classifier_activation="softmax", name="convnext_large"):
    """ConvNeXt-L: depths 3, 3, 27, 3; widths 192 to 1536."""
    return _variant("large", include_top, include_preprocessing, weights, input_tensor,
                    input_shape, pooling, classes, classifier_activation, name)


def ConvNeXtXLarge(include_top=True, include_preprocessing=True, weights="imagenet",  # noqa: N802
                   input_tensor=None, input_shape=None, pooling=None, classes=1000,
                   classifier_activation="softmax", name="convnext_xlarge"):
    """ConvNeXt-XL: depths 3, 3, 27, 3; widths 256 to 2048."""
    return _variant("xlarge", include_top, include_preprocessing, weights, input_tensor,
                    input_shape, pooling, classes, classifier_activation, name)


def preprocess_input(x, data_format=None):
    """The identity: ConvNeXt normalizes inside the model."""
    if data_format not in (None, "channels_last", "channels_first"):
        raise ValueError("preprocess_input: data_format must be None, 'channels_last' or "
                         f"'channels_first'; received {data_format!r}.")
    return x


def decode_predictions(preds, top=5):
    """The `top` (class id, name, score) triples of each row of ImageNet scores."""
    return imagenet_utils.decode_predictions(preds, top=top)
