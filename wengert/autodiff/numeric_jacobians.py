"""TensorFlow's `tf.test.compute_gradient` (`wengert.test`): theoretical and numerical Jacobians
side by side, as TensorFlow's tests use them. (`wengert.testing` is wengert's own
derivative checker, `check_grads`, for users' ops and functions.)

    theoretical, numerical = tf.test.compute_gradient(f, [x])
    np.testing.assert_allclose(theoretical[0], numerical[0], rtol=1e-3)

For y = f(*xs), each Jacobian is a 2-d NumPy array with one row per element of y and one column
per element of the argument, J[i, j] = d y_i / d x_j (TensorFlow's layout: "y_size" rows and
"x_size" columns, in the dtype of the argument). The theoretical one comes from reverse mode (one
reverse pass per element of y over one recording); the numerical one from central differences
(f(x + delta e_j) - f(x - delta e_j)) / (2 delta), computed in the argument's own dtype as
TensorFlow does, so float32 arguments give float32 differences. The default delta, 1/1024, is
exactly representable in binary, which keeps rounding out of x +- delta.
"""
import numpy as np

from .tape import GradientTape
from ..framework.tensor import Tensor, convert_to_tensor

__all__ = ["compute_gradient"]


def compute_gradient(f, x, delta=None):
    """(theoretical, numerical): tuples with one (y_size, x_size) Jacobian per argument in x."""
    if not isinstance(x, (list, tuple)):
        raise ValueError(f"`x` must be a list or tuple of values convertible to a Tensor "
                         f"(arguments to `f`), not a {type(x).__name__}.")
    delta = 1.0 / 1024 if delta is None else delta
    xs = [convert_to_tensor(v) for v in x]
    for i, t in enumerate(xs):
        if not t.dtype.is_floating:
            raise TypeError(f"compute_gradient: argument {i} has dtype {t.dtype.name}; only "
                            "floating-point arguments can be differentiated (cast it first).")
    theoretical = _theoretical(f, xs)
    numerical = tuple(_numerical(f, xs, i, delta) for i in range(len(xs)))
    return theoretical, numerical


def _output(f, xs):
    y = convert_to_tensor(f(*xs))
    if not y.dtype.is_floating:
        raise TypeError(f"compute_gradient: f returned dtype {y.dtype.name}; its output must be "
                        "floating-point.")
    return y


def _theoretical(f, xs):
    with GradientTape(persistent=True) as tape:
        tape.watch(xs)
        y = _output(f, xs)
    y_size = int(np.prod(tuple(y.shape), dtype=np.int64))
    jacobians = tape.jacobian(y, xs, unconnected_gradients="zero")
    return tuple(np.asarray(j.numpy(), dtype=x.dtype.as_numpy_dtype).reshape(
        y_size, int(np.prod(tuple(x.shape), dtype=np.int64))) for j, x in zip(jacobians, xs))


def _numerical(f, xs, param, delta):
    x = xs[param]
    base = x.numpy() if isinstance(x.numpy(), np.ndarray) else np.asarray(x.numpy())
    dtype = base.dtype
    y_size = int(np.prod(tuple(_output(f, xs).shape), dtype=np.int64))
    jacobian = np.zeros((y_size, base.size), dtype=dtype)
    step = dtype.type(delta)
    for j in range(base.size):
        values = []
        for sign in (1, -1):
            moved = base.copy().reshape(-1)
            moved[j] = moved[j] + sign * step
            args = list(xs)
            args[param] = Tensor(moved.reshape(base.shape))
            values.append(np.asarray(_output(f, args).numpy(), dtype=dtype).reshape(-1))
        jacobian[:, j] = (values[0] - values[1]) / (2 * step)
    return jacobian
