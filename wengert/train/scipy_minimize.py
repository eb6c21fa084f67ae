"""`wengert.optimize`: SciPy's optimizers (`scipy.optimize.minimize`) with exact derivatives from
wengert, for solving a whole minimization problem in one call: `minimize(fn, x0, method=...)`.
Not to be confused with `wengert.optimizers` (TensorFlow 2 / Keras optimizer objects that update
Variables one training step at a time) or `wengert.train` (TensorFlow 1's optimizers, whose
`minimize` adds update ops to a graph, and checkpoints).

    def rosenbrock(x):
        return tf.reduce_sum(100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)
    result = wengert.optimize.minimize(rosenbrock, [-1.2, 1.0], method="trust-ncg")
    result.x   # [1., 1.]

`fn` takes a float64 Tensor shaped like `x0` and returns a scalar tensor. Each evaluation runs
it under a GradientTape, so SciPy gets the value and the exact gradient together (`jac=True`).
The second-order methods get Hessian-vector products: Newton-CG, trust-ncg, trust-krylov and
trust-constr get `hessp(x, p) = d/dx <grad f(x), p>` (reverse over reverse: an outer tape
differentiates the inner tape's gradient dotted with p), costing about two gradient
evaluations; dogleg and trust-exact, which need the whole matrix, get `hess(x)` as the
Jacobian of the gradient. Everything runs in float64; `fn` may be a `wengert.function`.

SciPy is an optional dependency (`pip install "wengert[scipy]"`), imported on first use.
"""
import numpy as np

from ..autodiff.tape import GradientTape
from ..framework import dtypes
from ..framework.tensor import Tensor, constant, convert_to_tensor
from ..ops.math_ops import cast
from ..ops.reduce_ops import reduce_sum

__all__ = ["minimize", "value_and_gradient", "hessian_vector_product"]

_HESSP_METHODS = ("newton-cg", "trust-ncg", "trust-krylov", "trust-constr")
_HESS_METHODS = ("dogleg", "trust-exact")


def _scipy_optimize():
    try:
        import scipy.optimize  # imported when first needed
    except ImportError:
        raise ImportError("wengert.optimize needs SciPy, an optional dependency: "
                          'pip install "wengert[scipy]" (or pip install scipy).') from None
    return scipy.optimize


def _scalar(value, fn):
    value = convert_to_tensor(value)
    if value.shape.rank != 0 and value.shape.num_elements() != 1:
        raise ValueError(f"minimize: fn must return a scalar, but {getattr(fn, '__name__', fn)} "
                         f"returned shape {value.shape}; reduce it (e.g. reduce_sum).")
    if not value.dtype.is_floating:
        raise TypeError(f"minimize: fn must return a floating-point scalar, got "
                        f"{value.dtype.name}.")
    return value if value.dtype is dtypes.float64 else cast(value, dtypes.float64)


def _point(x, shape):
    return constant(np.asarray(x, dtype=np.float64).reshape(shape))


def _flat_gradient(grad, x):
    if grad is None:  # fn does not depend on x: the gradient is zero
        return np.zeros(x.shape.num_elements())
    return np.asarray(grad.numpy(), dtype=np.float64).ravel()


def _value_and_grad(fn, x, args):
    """(f(x), grad f(x)) as tensors (the gradient None where fn does not depend on x); a tape
    that watches x records the gradient too, so it can differentiate it again."""
    with GradientTape() as tape:
        tape.watch(x)
        value = _scalar(fn(x, *args), fn)
    return value, tape.gradient(value, x)


def value_and_gradient(fn, x, shape=None, args=()):
    """(f(x), grad f(x)) as (float, flat float64 array), x reshaped to `shape`."""
    shape = np.shape(x) if shape is None else shape
    x = _point(x, shape)
    value, grad = _value_and_grad(fn, x, args)
    return float(value.numpy()), _flat_gradient(grad, x)


def hessian_vector_product(fn, x, p, shape=None, args=()):
    """H(x) p, the Hessian of fn at x times p, by reverse over reverse (flat float64)."""
    shape = np.shape(x) if shape is None else shape
    x, p = _point(x, shape), _point(p, shape)
    with GradientTape() as outer:
        outer.watch(x)
        _, grad = _value_and_grad(fn, x, args)
        if grad is None:
            return np.zeros(x.shape.num_elements())
        directional = reduce_sum(grad * p)
    return _flat_gradient(outer.gradient(directional, x), x)


def _hessian(fn, x, shape, args):
    x = _point(x, shape)
    with GradientTape() as outer:
        outer.watch(x)
        _, grad = _value_and_grad(fn, x, args)
    n = x.shape.num_elements()
    if grad is None:
        return np.zeros((n, n))
    jac = outer.jacobian(grad, x)
    return np.zeros((n, n)) if jac is None else np.asarray(jac.numpy()).reshape(n, n)


def minimize(fn, x0, method="L-BFGS-B", jac=True, hessp=None, hess=None, args=(),
             **scipy_kwargs):
    """`scipy.optimize.minimize` of fn (Tensor -> scalar Tensor) from x0, with wengert's exact
    gradient (jac=True) and, for second-order methods, Hessian-vector products (or the Hessian
    for dogleg/trust-exact). Pass jac=False (or your own callable; likewise hessp/hess) to
    override. Returns SciPy's OptimizeResult, with `x` shaped like x0."""
    optimize = _scipy_optimize()
    x0 = np.asarray(x0.numpy() if isinstance(x0, Tensor) else x0, dtype=np.float64)
    shape = x0.shape
    name = str(method).lower() if isinstance(method, str) else ""

    if jac is True:
        def fun(x, *a):
            return value_and_gradient(fn, x, shape, a)
    else:
        def fun(x, *a):
            return float(_scalar(fn(_point(x, shape), *a), fn).numpy())

    if hessp is None and hess is None and jac is True:
        if name in _HESSP_METHODS:
            def hessp(x, p, *a):
                return hessian_vector_product(fn, x, p, shape, a)
        elif name in _HESS_METHODS:
            def hess(x, *a):
                return _hessian(fn, x, shape, a)
    extra = {}
    if hessp is not None:
        extra["hessp"] = hessp
    if hess is not None:
        extra["hess"] = hess
    result = optimize.minimize(fun, x0.ravel(), args=tuple(args), method=method, jac=jac,
                               **extra, **scipy_kwargs)
    result.x = np.asarray(result.x).reshape(shape)
    return result
