"""`wengert.random`: TensorFlow's `tf.random` namespace (random draws and the global seed).

See wengert/ops/random_ops.py for the seed rules and the NumPy Generators behind them."""
from .ops.random_ops import normal, set_seed, truncated_normal, uniform

__all__ = ["normal", "uniform", "truncated_normal", "set_seed"]
