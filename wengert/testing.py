"""`wengert.testing`: checking derivatives with `check_grads`, for users' own ops, gradient rules
and functions (wengert's own, after JAX's `check_grads`; TensorFlow's `tf.test.compute_gradient`
is `wengert.test`).

    from wengert.testing import check_grads
    check_grads(my_fn, [np.random.randn(3, 4)], order=2, modes=("fwd", "rev"))

compares, along random directions, the derivatives wengert computes (reverse mode: a
GradientTape's vector-Jacobian product; forward mode: a ForwardAccumulator's Jacobian-vector
product) with central finite differences, and the same again for the derivative functions up to
`order` (at order 2 with both modes: reverse over reverse, forward over reverse, reverse over
forward, forward over forward). It raises `GradientCheckError` (an AssertionError) naming the
order and modes that disagree. Give float64 inputs; see autodiff/checker.py for the method.
"""
from .autodiff.checker import GradientCheckError, numerical_jvp
from .autodiff.checker import check_grads_both_modes as check_grads

__all__ = ["check_grads", "GradientCheckError", "numerical_jvp"]
