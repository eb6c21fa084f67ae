"""Automatic differentiation: the reverse pass, GradientTape, and (later) forward mode."""
from .forward import ForwardAccumulator  # noqa: F401,E402  (tf.autodiff.ForwardAccumulator)
