"""`keras.applications.imagenet_utils`: the ImageNet input conventions the pretrained
networks were trained with, and the checks every application makes of its input shape.

`preprocess_input(x, data_format=None, mode="caffe")` maps pixels in [0, 255] to what a network
expects, per channel c:
- "caffe": RGB -> BGR, then x_c - mean_c with mean = (103.939, 116.779, 123.68) (BGR order),
  no scaling (VGG, ResNet v1);
- "tf": x / 127.5 - 1, into [-1, 1] (Inception, Xception, ResNet v2, NASNet, MobileNet);
- "torch": (x / 255 - mean_c) / std_c with mean = (0.485, 0.456, 0.406) and
  std = (0.229, 0.224, 0.225) (DenseNet).
A NumPy array of floats is changed in place, as in Keras (a copy keeps the input); integers are
cast to floatx first; the constants go to the first three entries of the channel axis. A tensor gives a new tensor; a symbolic input of a functional model gets
a Lambda layer doing the same.

`decode_predictions(preds, top=5)` turns a (samples, 1000) score array into, per sample, the
`top` (class id, description, score) triples by decreasing score, from ImageNet's class index
(`imagenet_class_index.json`), read from Keras's cache (`$KERAS_HOME/models`, default
`~/.keras/models`); nothing is downloaded here, so a missing file is an error naming the URL
Keras fetches it from and where to put it.

`obtain_input_shape` validates `input_shape` against the network's default and minimum sizes
(and 3 channels and the default size for `weights="imagenet"` with the top), `correct_pad` is
the asymmetric padding of a stride-2 convolution on an even input, and `validate_activation`
allows only softmax or no activation with pretrained weights. Only `channels_last` networks are
built (wengert's Keras has no channels_first image setting); preprocess_input takes either.
"""
import json
import os
import warnings

import numpy as np

from ...framework.tensor import array_of, convert_to_tensor
from .. import activations, backend
from .. import backend_ops as K
from ..layers.core import Lambda
from ..layers.keras_tensor import KerasTensor

__all__ = ["preprocess_input", "decode_predictions"]

CLASS_INDEX = None
CLASS_INDEX_PATH = ("https://storage.googleapis.com/download.tensorflow.org/"
                    "data/imagenet_class_index.json")
_CAFFE_MEAN = (103.939, 116.779, 123.68)
_TORCH_MEAN, _TORCH_STD = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)
_FORMATS = ("channels_first", "channels_last")


def image_data_format():
    """The image layout the applications build: always "channels_last" in wengert."""
    return "channels_last"


def preprocess_input(x, data_format=None, mode="caffe"):
    """Preprocess a batch (4-D) or one image (3-D) of pixels in [0, 255] the ImageNet way of
    `mode` ("caffe", "tf" or "torch"; see the module docstring). Returns float32 values
    (floatx); a NumPy float array is modified in place."""
    if mode not in ("caffe", "tf", "torch"):
        raise ValueError("preprocess_input: mode must be one of 'caffe', 'tf' or 'torch'; "
                         f"received mode={mode!r}.")
    if data_format is None:
        data_format = image_data_format()
    elif data_format not in _FORMATS:
        raise ValueError("preprocess_input: data_format must be 'channels_first' or "
                         f"'channels_last'; received data_format={data_format!r}.")
    if isinstance(x, np.ndarray):
        return _preprocess_numpy(x, data_format, mode)
    if isinstance(x, KerasTensor):
        return Lambda(lambda t: _preprocess_tensor(t, data_format, mode))(x)
    return _preprocess_tensor(x, data_format, mode)


def _channel_shape(ndim, data_format):
    """The broadcast shape of a per-channel constant for an image or batch of rank `ndim`."""
    if data_format == "channels_last":
        return (1,) * (ndim - 1) + (3,)
    return (3, 1, 1) if ndim == 3 else (1, 3) + (1,) * (ndim - 2)


def _channel_axis(ndim, data_format):
    if data_format == "channels_last":
        return ndim - 1
    return 0 if ndim == 3 else 1


def _statistics(mode):
    if mode == "torch":
        return _TORCH_MEAN, _TORCH_STD
    return _CAFFE_MEAN, None


def _preprocess_numpy(x, data_format, mode):
    if not issubclass(x.dtype.type, np.floating):
        x = x.astype(backend.floatx(), copy=False)
    if mode == "tf":
        x /= 127.5
        x -= 1.0
        return x
    if mode == "torch":
        x /= 255.0
    else:
        x = np.flip(x, axis=_channel_axis(x.ndim, data_format))
    mean, std = _statistics(mode)
    axis = _channel_axis(x.ndim, data_format)
    for c in range(3):
        channel = (slice(None),) * axis + (c,)
        x[channel] -= mean[c]
        if std is not None:
            x[channel] /= std[c]
    return x


def _preprocess_tensor(x, data_format, mode):
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        x = K.cast(x, backend.floatx())
    ndim = len(x.shape)
    dtype = x.dtype.as_numpy_dtype
    if mode == "tf":
        return x / np.asarray(127.5, dtype) - np.asarray(1.0, dtype)
    if mode == "torch":
        x = x / np.asarray(255.0, dtype)
    else:
        x = K.reverse(x, [_channel_axis(ndim, data_format)])
    mean, std = _statistics(mode)
    shape = _channel_shape(ndim, data_format)
    x = x - np.reshape(np.asarray(mean, dtype), shape)
    if std is not None:
        x = x / np.reshape(np.asarray(std, dtype), shape)
    return x


def keras_cache_path(file_name):
    """Where Keras's get_file keeps a downloaded model file: $KERAS_HOME/models/<file_name>
    (KERAS_HOME defaults to ~/.keras)."""
    home = os.environ.get("KERAS_HOME") or os.path.join(os.path.expanduser("~"), ".keras")
    return os.path.join(home, "models", file_name)


def _class_index():
    global CLASS_INDEX
    if CLASS_INDEX is None:
        path = keras_cache_path("imagenet_class_index.json")
        if not os.path.exists(path):
            raise FileNotFoundError(
                "decode_predictions: ImageNet's class index imagenet_class_index.json is not in "
                f"Keras's cache ({path}) and wengert downloads nothing. Download it from "
                f"{CLASS_INDEX_PATH} and save it at that path (or set KERAS_HOME).")
        with open(path) as f:
            CLASS_INDEX = json.load(f)
    return CLASS_INDEX


def decode_predictions(preds, top=5):
    """Per sample of a (samples, 1000) array of ImageNet scores, the `top` triples
    (class id, description, score) by decreasing score."""
    preds = np.asarray(array_of(preds) if not isinstance(preds, np.ndarray) else preds)
    if preds.ndim != 2 or preds.shape[1] != 1000:
        raise ValueError("decode_predictions: expects a batch of predictions (a 2-D array of "
                         f"shape (samples, 1000)); received preds of shape {preds.shape}.")
    index = _class_index()
    results = []
    for pred in preds:
        best = pred.argsort()[-top:][::-1]
        result = [tuple(index[str(i)]) + (pred[i],) for i in best]
        result.sort(key=lambda item: item[2], reverse=True)
        results.append(result)
    return results


def obtain_input_shape(input_shape, default_size, min_size, data_format, require_flatten,
                       weights=None):
    """The input shape (without batch) of a network: `input_shape` checked, or the default
    ((default_size, default_size, 3) with the top, (None, None, 3) without)."""
    channels_last = data_format == "channels_last"
    if weights != "imagenet" and input_shape and len(input_shape) == 3:
        channels = input_shape[-1] if channels_last else input_shape[0]
        if channels not in (1, 3):
            warnings.warn("This model usually expects 1 or 3 input channels. However, it was "
                          f"passed an input_shape with {channels} input channels.", stacklevel=3)
        default = ((default_size, default_size, channels) if channels_last
                   else (channels, default_size, default_size))
    else:
        default = (default_size, default_size, 3) if channels_last else (3, default_size,
                                                                         default_size)
    if weights == "imagenet" and require_flatten:
        if input_shape is not None and tuple(input_shape) != default:
            raise ValueError("When setting `include_top=True` and loading `imagenet` weights, "
                             f"`input_shape` should be {default}. Received: "
                             f"input_shape={input_shape}")
        return default
    if input_shape:
        _check_input_shape(tuple(input_shape), min_size, channels_last, weights)
        input_shape = tuple(input_shape)
    elif require_flatten:
        input_shape = default
    else:
        input_shape = (None, None, 3) if channels_last else (3, None, None)
    if require_flatten and None in input_shape:
        raise ValueError("If `include_top` is True, you should specify a static `input_shape`. "
                         f"Received: input_shape={input_shape}")
    return input_shape


def _check_input_shape(input_shape, min_size, channels_last, weights):
    if len(input_shape) != 3:
        raise ValueError("`input_shape` must be a tuple of three integers; received "
                         f"input_shape={input_shape}.")
    channels = input_shape[-1] if channels_last else input_shape[0]
    sizes = input_shape[:2] if channels_last else input_shape[1:]
    if channels != 3 and weights == "imagenet":
        raise ValueError(f"The input must have 3 channels; Received `input_shape={input_shape}`")
    if any(s is not None and s < min_size for s in sizes):
        raise ValueError(f"Input size must be at least {min_size}x{min_size}; Received: "
                         f"input_shape={input_shape}")


def correct_pad(inputs, kernel_size):
    """((top, bottom), (left, right)) zero padding that centres a stride-2 convolution of
    `kernel_size` on `inputs` (a channels_last KerasTensor): one less before on an even side."""
    size = tuple(inputs.shape)[1:3]
    if isinstance(kernel_size, int):
        kernel_size = (kernel_size, kernel_size)
    adjust = (1, 1) if size[0] is None else (1 - size[0] % 2, 1 - size[1] % 2)
    correct = (kernel_size[0] // 2, kernel_size[1] // 2)
    return ((correct[0] - adjust[0], correct[0]), (correct[1] - adjust[1], correct[1]))


def validate_activation(classifier_activation, weights):
    """With pretrained weights (`weights` not None) the classifier's activation may only be
    softmax or none."""
    if weights is None:
        return
    activation = activations.get(classifier_activation)
    if activation not in (activations.get("softmax"), activations.get(None)):
        raise ValueError("Only `None` and `softmax` activations are allowed for the "
                         "`classifier_activation` argument when using pretrained weights, with "
                         f"`include_top=True`; Received: classifier_activation="
                         f"{classifier_activation}")
