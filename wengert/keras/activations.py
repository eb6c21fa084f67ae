"""Activation functions by name, as `keras.activations` (each is a wengert op or composition).

`get("relu")` returns the function; `get(None)` and `get("linear")` return the identity; a
callable is returned as is; `serialize` gives an activation's name (get, serialize and
deserialize are keras/registry.py's). softmax normalizes over the last axis.
"""
from ..ops.nn import activations as nn
from .registry import Registry, lower

__all__ = ["relu", "softmax", "sigmoid", "tanh", "linear", "elu", "selu", "softplus", "gelu",
           "swish", "silu", "leaky_relu", "relu6", "log_softmax", "get", "serialize",
           "deserialize"]


def relu(x, alpha=0.0, max_value=None, threshold=0.0):
    if alpha == 0.0 and max_value is None and threshold == 0.0:
        return nn.relu(x)
    if max_value == 6.0 and alpha == 0.0 and threshold == 0.0:
        return nn.relu6(x)
    raise NotImplementedError("relu: only the plain form (and max_value=6) is available; "
                              "use leaky_relu for a negative slope.")


def softmax(x, axis=-1):
    return nn.softmax(x, axis=axis)


def log_softmax(x, axis=-1):
    return nn.log_softmax(x, axis=axis)


def sigmoid(x):
    return nn.sigmoid(x)


def tanh(x):
    return nn.tanh(x)


def linear(x):
    return x


def elu(x, alpha=1.0):
    if alpha != 1.0:
        raise NotImplementedError("elu: only alpha=1.0 is available.")
    return nn.elu(x)


def selu(x):
    return nn.selu(x)


def softplus(x):
    return nn.softplus(x)


def gelu(x, approximate=False):
    return nn.gelu(x, approximate=approximate)


def swish(x):
    return nn.silu(x)


silu = swish


def leaky_relu(x, alpha=0.2):
    return nn.leaky_relu(x, alpha=alpha)


def relu6(x):
    return nn.relu6(x)


_BY_NAME = {name: globals()[name] for name in __all__
            if name not in ("get", "serialize", "deserialize")}
_REGISTRY = Registry("activation function", "keras.activations", _BY_NAME, folds=(lower,),
                     default=linear, functions_by_name=True, hint="pass a callable")
get, serialize, deserialize = _REGISTRY.get, _REGISTRY.serialize, _REGISTRY.deserialize
