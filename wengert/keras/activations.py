"""Activation functions by name, as Keras 3's `keras.activations`, with Keras 3's arguments.

Each function is the keras.ops one (wengert/keras/ops/activations.py) with the default Keras's
activation module gives it, plus the three written here:

    relu(x, s, m, t) = x where x > t (relu(x) when t = 0), clipped to [0, m] when m is given,
                       minus s relu(t - x): Keras 3's composition, so x = t has gradient 0
                       (the plain form is relu, the m = 6 form relu6, the s-only form
                       leaky_relu, as Keras picks them; t and m are rounded through float32
                       first, as Keras's cast does, s is exact)
    exponential(x)   = exp(x)
    mish(x)          = x tanh(softplus(x))

gelu defaults to the exact erf form here (approximate=False), unlike keras.ops.gelu.
`get("relu")` returns the function; `get(None)` and `get("linear")` the identity; a callable is
returned as is; `serialize` gives an activation's Keras name ("silu" for swish, "hard_silu" for
hard_swish); get, serialize and deserialize are keras/registry.py's, over Keras 3's names.
"""
from ..ops.math_ops import clip_by_value
from ..ops.nn import activations as nn
from ..ops.array_ops import where
from ..ops.broadcast_ops import zeros_like
from ..framework.tensor import constant, is_tensor
from ..ops.cast_ops import cast
from ..ops.unary_ops import exp, softplus as _softplus, tanh as _tanh
from .ops import activations as kops
from .ops.core import convert_to_tensor
from .registry import Registry, lower

__all__ = ["relu", "leaky_relu", "relu6", "softmax", "celu", "elu", "selu", "softplus",
           "softsign", "squareplus", "soft_shrink", "sparse_plus", "silu", "swish", "gelu",
           "glu", "tanh", "tanh_shrink", "threshold", "sigmoid", "sparse_sigmoid",
           "exponential", "hard_sigmoid", "hard_silu", "hard_swish", "hard_tanh",
           "hard_shrink", "linear", "mish", "log_softmax", "log_sigmoid", "sparsemax", "get",
           "serialize", "deserialize"]


def _const(value, like):
    """`value` in the dtype of `like`; a Python number exactly (a float64 0.2 is not the float32
    one widened)."""
    return cast(value, like.dtype) if is_tensor(value) else constant(value, dtype=like.dtype)


def relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    """Rectified linear unit with Keras 3's slope below `threshold` and cap `max_value`."""
    x = convert_to_tensor(x)
    if negative_slope != 0.0 and max_value is None and threshold == 0:
        return kops.leaky_relu(x, negative_slope=negative_slope)
    negative = None
    if negative_slope != 0.0:
        negative = nn.relu(_const(threshold, x) - x) if threshold != 0 else nn.relu(-x)
    clip = max_value is not None
    if threshold != 0:
        out = where(x > cast(threshold, x.dtype), x, zeros_like(x))
    elif max_value == 6:
        out, clip = nn.relu6(x), False
    else:
        out = nn.relu(x)
    if clip:
        out = clip_by_value(out, _const(0.0, x), cast(max_value, x.dtype))
    if negative is not None:
        out = out - _const(negative_slope, x) * negative
    return out


def leaky_relu(x, negative_slope=0.2):
    """max(x, negative_slope x)."""
    return kops.leaky_relu(x, negative_slope=negative_slope)


def relu6(x):
    """min(max(x, 0), 6)."""
    return kops.relu6(x)


def softmax(x, axis=-1):
    """exp(x) / sum(exp(x)) over `axis` (an int, a tuple of axes, or None for all)."""
    return kops.softmax(x, axis=axis)


def log_softmax(x, axis=-1):
    """x - logsumexp(x) over `axis`."""
    return kops.log_softmax(x, axis=axis)


def celu(x, alpha=1.0):
    """max(x, 0) + alpha expm1(min(x, 0) / alpha)."""
    return kops.celu(x, alpha=alpha)


def elu(x, alpha=1.0):
    """x for x > 0, alpha (exp(x) - 1) otherwise."""
    return kops.elu(x, alpha=alpha)


def selu(x):
    """scale elu(x, alpha) with Klambauer et al.'s constants."""
    return kops.selu(x)


def softplus(x):
    """log(1 + exp(x))."""
    return kops.softplus(x)


def softsign(x):
    """x / (1 + |x|)."""
    return kops.softsign(x)


def squareplus(x, b=4):
    """(x + sqrt(x^2 + b)) / 2."""
    return kops.squareplus(x, b=b)


def soft_shrink(x, threshold=0.5):
    """x - threshold above it, x + threshold below -threshold, 0 between."""
    return kops.soft_shrink(x, threshold=threshold)


def sparse_plus(x):
    """0 for x <= -1, (x + 1)^2 / 4 for |x| < 1, x for x >= 1."""
    return kops.sparse_plus(x)


def silu(x):
    """x sigmoid(x)."""
    return kops.silu(x)


swish = silu


def gelu(x, approximate=False):
    """x Phi(x) (exact), or its tanh approximation when `approximate`."""
    return kops.gelu(x, approximate=approximate)


def glu(x, axis=-1):
    """a sigmoid(b), with (a, b) the two halves of x along `axis`."""
    return kops.glu(x, axis=axis)


def tanh(x):
    """The hyperbolic tangent."""
    return _tanh(convert_to_tensor(x))


def tanh_shrink(x):
    """x - tanh(x)."""
    return kops.tanh_shrink(x)


def threshold(x, threshold, default_value):
    """x where x > threshold, else default_value."""
    return kops.threshold(x, threshold, default_value)


def sigmoid(x):
    """1 / (1 + exp(-x))."""
    return kops.sigmoid(x)


def sparse_sigmoid(x):
    """0 for x <= -1, (x + 1) / 2 between, 1 for x >= 1."""
    return kops.sparse_sigmoid(x)


def exponential(x):
    """exp(x)."""
    return exp(convert_to_tensor(x))


def hard_sigmoid(x):
    """relu6(x + 3) / 6."""
    return kops.hard_sigmoid(x)


def hard_silu(x):
    """x hard_sigmoid(x)."""
    return kops.hard_silu(x)


hard_swish = hard_silu


def hard_tanh(x):
    """clip(x, -1, 1)."""
    return kops.hard_tanh(x)


def hard_shrink(x, threshold=0.5):
    """x where |x| > threshold, else 0."""
    return kops.hard_shrink(x, threshold=threshold)


def linear(x):
    """The identity."""
    return x


def mish(x):
    """x tanh(softplus(x))."""
    x = convert_to_tensor(x)
    return x * _tanh(_softplus(x))


def log_sigmoid(x):
    """log(sigmoid(x)) = -softplus(-x)."""
    return kops.log_sigmoid(x)


def sparsemax(x, axis=-1):
    """Keras 3's sparsemax along `axis` (see keras/ops/activations.py)."""
    return kops.sparsemax(x, axis=axis)


_BY_NAME = {name: globals()[name] for name in __all__
            if name not in ("get", "serialize", "deserialize", "swish", "hard_swish")}
_BY_NAME.update(swish=silu, hard_swish=hard_silu)
_REGISTRY = Registry("activation function", "keras.activations", _BY_NAME, folds=(lower,),
                     default=linear, functions_by_name=True, hint="pass a callable")
get, serialize, deserialize = _REGISTRY.get, _REGISTRY.serialize, _REGISTRY.deserialize
