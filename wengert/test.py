"""`wengert.test`: TensorFlow's `tf.test`, `compute_gradient` (theoretical and numerical Jacobians
side by side; the code is in autodiff/numeric_jacobians.py). `wengert.testing` is wengert's own
derivative checker, `check_grads`."""
from .autodiff.numeric_jacobians import compute_gradient

__all__ = ["compute_gradient"]
