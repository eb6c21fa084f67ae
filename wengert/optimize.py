"""`wengert.optimize`: SciPy's optimizers (`scipy.optimize.minimize`) with exact derivatives from
wengert, for solving a whole minimization problem in one call (the code is in
train/scipy_minimize.py). Not to be confused with `wengert.optimizers` (Keras optimizer objects
that update Variables one step at a time) or `wengert.train` (TensorFlow 1's optimizers)."""
from .train.scipy_minimize import hessian_vector_product, minimize, value_and_gradient

__all__ = ["minimize", "value_and_gradient", "hessian_vector_product"]
