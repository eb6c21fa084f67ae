"""Activation functions by name, as `keras.activations` (each is a wengert op or composition).

`get("relu")` returns the function; `get(None)` and `get("linear")` return the identity; a
callable is returned as is. softmax normalizes over the last axis.
"""
from ..ops.nn import activations as nn

__all__ = ["relu", "softmax", "sigmoid", "tanh", "linear", "elu", "selu", "softplus", "gelu",
           "swish", "silu", "leaky_relu", "relu6", "log_softmax", "get", "serialize"]


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


_BY_NAME = {name: globals()[name] for name in __all__ if name not in ("get", "serialize")}


def get(identifier):
    """The activation function for a name, None (linear) or a callable."""
    if identifier is None:
        return linear
    if callable(identifier):
        return identifier
    if isinstance(identifier, str):
        fn = _BY_NAME.get(identifier.lower())
        if fn is not None:
            return fn
        raise ValueError(f"Unknown activation function: {identifier!r}. Known: "
                         f"{', '.join(sorted(_BY_NAME))}, or pass a callable.")
    raise TypeError(f"Could not interpret activation function identifier: {identifier!r}.")


def serialize(fn):
    """The name of an activation (for get_config)."""
    for name, known in _BY_NAME.items():
        if known is fn:
            return name
    return getattr(fn, "__name__", repr(fn))

