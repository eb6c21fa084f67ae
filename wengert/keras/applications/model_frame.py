"""What every `keras.applications` network shares around its own layers: the arguments it
checks, the input it starts from, the classifier or pooling on top, and the weights it ends with.

A network function (ResNet50, VGG16, ...) calls, in this order:
1. `pretrained_file(fn, weights, include_top, classes, url)`: before building anything, checks
   `weights` (None, "imagenet" or the path of an existing file) and `classes` (1000 with
   ImageNet's top), and returns the file to load or None. For "imagenet" that is the file in
   Keras's download cache (`$KERAS_HOME/models`) when it is there; wengert downloads nothing, so
   otherwise the error names the URL Keras would fetch and says to download it and pass its path.
2. `image_input(input_tensor, input_shape)`: a fresh `keras.Input`, or the given KerasTensor.
3. the network's layers, then `classifier_top(...)`: with `include_top`, global average pooling
   and a `classes`-way Dense "predictions" layer; without, the optional `pooling` ("avg" or
   "max") to a flat feature vector.
4. `finish(input_tensor, inputs, outputs, name, weights_file)`: the functional Model (whose
   inputs are the sources of `input_tensor` when one was given) with the file's weights loaded:
   Keras 3's `.weights.h5` and `.keras` through Model.load_weights, Keras 2's layer-ordered
   `.h5` (the format of Keras's published ImageNet weights) through legacy_weights.py.
"""
import os

from ..layers.input_layer import Input, InputLayer
from ..layers.keras_tensor import KerasTensor
from .. import layers
from ..models import Model
from .imagenet_utils import keras_cache_path, validate_activation
from .legacy_weights import is_legacy_h5, load_legacy_weights

__all__ = ["pretrained_file", "image_input", "classifier_top", "finish"]


def pretrained_file(fn, weights, include_top, classes, url, file_name=None):
    """The weights file `fn` will load (None for weights=None), checked before any layer is
    made. url: where Keras fetches the ImageNet weights for this configuration; file_name: the
    name Keras caches them under (default: the URL's last part)."""
    if weights is None:
        return None
    if isinstance(weights, os.PathLike):
        weights = os.fspath(weights)
    if not isinstance(weights, str) or (weights != "imagenet" and not os.path.exists(weights)):
        raise ValueError(
            f"{fn}: The `weights` argument should be either `None` (random initialization), "
            "'imagenet' (pre-training on ImageNet), or the path to the weights file to be "
            f"loaded. Received: weights={weights!r}, which is not an existing file.")
    if weights == "imagenet" and include_top and classes != 1000:
        raise ValueError(f"{fn}: If using `weights='imagenet'` with `include_top=True`, "
                         f"`classes` should be 1000. Received classes={classes}")
    if weights != "imagenet":
        return weights
    cached = keras_cache_path(file_name or url.rsplit("/", 1)[-1])
    if os.path.exists(cached):
        return cached
    raise FileNotFoundError(
        f"{fn}(weights='imagenet'): wengert downloads nothing, and the ImageNet weights are not "
        f"in Keras's cache ({cached}). Download them from {url} and pass the file's path as "
        "`weights=`, or save it at that cache path.")


def image_input(input_tensor, input_shape):
    """The tensor a network starts from: keras.Input(shape=input_shape), or `input_tensor`."""
    if input_tensor is None:
        return Input(shape=input_shape)
    if not isinstance(input_tensor, KerasTensor):
        raise ValueError("`input_tensor` must be a symbolic Keras tensor (the output of "
                         "keras.Input or of a layer called on one); received "
                         f"{type(input_tensor).__name__}. Pass its shape as `input_shape` "
                         "instead, and call the model on the values.")
    return input_tensor


def classifier_top(x, include_top, pooling, classes, classifier_activation, weights,
                   top_pool="avg_pool", pool_names=("avg_pool", "max_pool")):
    """The head: global average pooling (named `top_pool`) and the Dense "predictions" layer
    with the top; else `pooling` "avg"/"max" (layer names `pool_names`) or nothing."""
    if include_top:
        x = layers.GlobalAveragePooling2D(name=top_pool)(x)
        validate_activation(classifier_activation, weights)
        return layers.Dense(classes, activation=classifier_activation, name="predictions")(x)
    if pooling == "avg":
        return layers.GlobalAveragePooling2D(name=pool_names[0])(x)
    if pooling == "max":
        return layers.GlobalMaxPooling2D(name=pool_names[1])(x)
    return x


def source_inputs(tensor):
    """The keras.Input tensors that `tensor` was computed from, in order found."""
    found, seen, stack = [], set(), [tensor]
    while stack:
        t = stack.pop()
        if id(t) in seen:
            continue
        seen.add(id(t))
        layer, node, _ = t._keras_history
        if isinstance(layer, InputLayer):
            found.append(t)
        else:
            stack.extend(reversed(node.input_tensors))
    return found


def finish(input_tensor, img_input, outputs, name, weights_file):
    """The functional model from the network's inputs to `outputs`, with weights loaded."""
    inputs = img_input
    if input_tensor is not None:
        sources = source_inputs(input_tensor)
        inputs = sources[0] if len(sources) == 1 else sources
    model = Model(inputs, outputs, name=name)
    if weights_file is not None:
        load_file(model, weights_file)
    return model


def load_file(model, path):
    """Load a weights file Keras wrote: Keras 2's layer-ordered `.h5`, else model.load_weights
    (`.weights.h5`, `.keras`)."""
    if is_legacy_h5(path):
        load_legacy_weights(model, path)
    else:
        model.load_weights(path)
