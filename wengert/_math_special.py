"""`wengert.math.special`: TensorFlow's `tf.math.special` namespace (Bessel functions, Dawson's
integral, the exponential integral, Fresnel integrals, Spence's function)."""
from .ops.bessel_ops import *  # noqa: F401,F403
