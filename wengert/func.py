"""`wengert.func`: JAX-style transforms of Python functions of wengert tensors (grad,
value_and_grad, vjp, jvp, jacfwd, jacrev, hessian, hvp); the code is in autodiff/transforms.py.

    from wengert import func
    func.grad(lambda x: tf.reduce_sum(tf.sin(x) * x))(x)
"""
from .autodiff.transforms import grad, hessian, hvp, jacfwd, jacrev, jvp, value_and_grad, vjp

__all__ = ["grad", "value_and_grad", "vjp", "jvp", "jacfwd", "jacrev", "hessian", "hvp"]
