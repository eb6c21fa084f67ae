"""Automatic differentiation (TensorFlow's `tf.autodiff`): the one reverse pass (backprop.py),
GradientTape, forward mode (`ForwardAccumulator`), Jacobians, custom gradients, and the
derivative checker behind `wengert.testing`."""
from .forward import ForwardAccumulator  # noqa: F401,E402  (tf.autodiff.ForwardAccumulator)
