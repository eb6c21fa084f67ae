"""Activation layers: LeakyReLU, PReLU, ELU, ReLU, Softmax, ThresholdedReLU (Keras 3's math).

    LeakyReLU(a):     x if x >= 0 else a x                    (a = negative_slope, 0.3)
    ReLU(m, a, t):    keras.activations.relu(x, a, m, t): x above the threshold t (capped at
                      m), a (x - t) at or below it
    ELU(a):           keras.activations.elu: x if x > 0 else a (exp(x) - 1)
    PReLU:            relu(x) - alpha relu(-x), alpha a learned weight of the input's shape
                      without the batch axis (size 1 along `shared_axes`), zeros at first
    Softmax(axis):    exp(x) / sum exp(x) over axis; with a mask, masked entries are set to
                      -1e9 before and to 0 after (Keras 3)
    ThresholdedReLU(t): x if x > t else 0 (Keras 2's layer; Keras 3 dropped it)
Gradients come from the composed ops (at kinks: the side TensorFlow's ops take).
"""
from ...framework.tensor_shape import TensorShape
from .. import activations, backend_ops as K
from .base import Layer
from .weight_options import add_weight_with_options, set_weight_options, weight_options_config

__all__ = ["LeakyReLU", "PReLU", "ELU", "ReLU", "Softmax", "ThresholdedReLU"]


class _Elementwise(Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape)


def _nonnegative(value, name):
    value = float(value)
    if value < 0:
        raise ValueError(f"The {name} value of a ReLU layer cannot be negative. Received: "
                         f"{name}={value}")
    return value


class LeakyReLU(_Elementwise):
    """x if x >= 0 else negative_slope * x."""

    def __init__(self, negative_slope=0.3, **kwargs):
        if "alpha" in kwargs:
            negative_slope = kwargs.pop("alpha")
        super().__init__(**kwargs)
        if negative_slope is None or negative_slope < 0:
            raise ValueError("The negative_slope value of a Leaky ReLU layer cannot be None or "
                             f"negative value. Expected a float. Received: negative_slope="
                             f"{negative_slope}")
        self.negative_slope = float(negative_slope)

    def call(self, inputs):
        return K.leaky_relu(inputs, alpha=self.negative_slope)

    def get_config(self):
        config = super().get_config()
        config["negative_slope"] = self.negative_slope
        return config


class ReLU(_Elementwise):
    """Rectified linear unit with an optional cap, slope below the threshold and threshold."""

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, **kwargs):
        super().__init__(**kwargs)
        self.max_value = None if max_value is None else _nonnegative(max_value, "max_value")
        self.negative_slope = _nonnegative(negative_slope, "negative_slope")
        self.threshold = _nonnegative(threshold, "threshold")

    def call(self, inputs):
        return activations.relu(inputs, negative_slope=self.negative_slope,
                                max_value=self.max_value, threshold=self.threshold)

    def get_config(self):
        config = super().get_config()
        config.update(max_value=self.max_value, negative_slope=self.negative_slope,
                      threshold=self.threshold)
        return config


class ELU(_Elementwise):
    """x if x > 0 else alpha * (exp(x) - 1)."""

    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        self.alpha = float(alpha)

    def call(self, inputs):
        return activations.elu(inputs, alpha=self.alpha)

    def get_config(self):
        config = super().get_config()
        config["alpha"] = self.alpha
        return config


class PReLU(_Elementwise):
    """Parametric ReLU: relu(x) - alpha * relu(-x), alpha learned."""

    def __init__(self, alpha_initializer="Zeros", alpha_regularizer=None, alpha_constraint=None,
                 shared_axes=None, **kwargs):
        super().__init__(**kwargs)
        set_weight_options(self, "alpha", alpha_initializer, alpha_regularizer, alpha_constraint)
        self.shared_axes = None if shared_axes is None else (
            [shared_axes] if isinstance(shared_axes, int) else list(shared_axes))

    def build(self, input_shape):
        shape = list(TensorShape(input_shape))[1:]
        for axis in self.shared_axes or ():
            shape[axis - 1] = 1
        self.alpha = add_weight_with_options(self, "alpha", tuple(shape))
        self.built = True

    def call(self, inputs):
        return K.relu(inputs) - self.alpha * K.relu(-inputs)

    def get_config(self):
        config = super().get_config()
        config.update(weight_options_config(self, "alpha"), shared_axes=self.shared_axes)
        return config


class Softmax(_Elementwise):
    """Softmax over `axis`; masked entries get zero probability."""

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, inputs, mask=None):
        x = inputs
        if mask is not None:
            mask = K.cast(mask, "bool") if mask.dtype.name == "bool" else K.greater(
                mask, K.cast(0.5, mask.dtype))
            x = K.where(mask, x, K.cast(-3e4 if x.dtype.name == "float16" else -1e9, x.dtype))
        if isinstance(self.axis, (list, tuple)) and len(self.axis) > 1:
            out = K.exp(x - K.reduce_logsumexp(x, axis=list(self.axis), keepdims=True))
        else:
            axis = self.axis[0] if isinstance(self.axis, (list, tuple)) else self.axis
            out = K.softmax(x, axis=axis)
        if mask is not None:
            out = K.where(mask, out, K.zeros_like(out))
        return out

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config


class ThresholdedReLU(_Elementwise):
    """x if x > theta else 0 (Keras 2)."""

    def __init__(self, theta=1.0, **kwargs):
        super().__init__(**kwargs)
        if theta is None or theta < 0:
            raise ValueError(f"The theta value of a Thresholded ReLU layer should be >= 0. "
                             f"Received: theta={theta}")
        self.theta = float(theta)

    def call(self, inputs):
        return inputs * K.cast(K.greater(inputs, K.cast(self.theta, inputs.dtype)),
                               inputs.dtype)

    def get_config(self):
        config = super().get_config()
        config["theta"] = self.theta
        return config
