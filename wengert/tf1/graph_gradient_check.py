"""TensorFlow 1's gradient check of a graph, `tf.compat.v1.test.compute_gradient(x, x_shape, y,
y_shape)`: the Jacobian of y with respect to x two ways, in the default session, as two
(x_size, y_size) arrays. Theoretical: for each element j of y, the gradient ops of y weighted
by the one-hot seed e_j (fed to a placeholder), evaluated at x = x_init_value, give column j.
Numerical: for each element i of x, column-wise central differences
(y(x + delta e_i) - y(x - delta e_i)) / (2 delta), x fed perturbed, give row i.
`compute_gradient_error` is the largest absolute difference between the two."""
import numpy as np

from ..autodiff.gradients import gradients
from ..framework.context import default_session
from ..graph.graph import placeholder

__all__ = ["compute_gradient", "compute_gradient_error"]


def compute_gradient(x, x_shape, y, y_shape, x_init_value=None, delta=1e-3, init_targets=None,
                     extra_feed_dict=None):
    """(theoretical, numerical) Jacobians of y by x, each (x_size, y_size); a list of pairs
    when x is a list."""
    session = default_session()
    if session is None:
        raise ValueError("compute_gradient: run it inside `with tf.Session():` (or a test's "
                         "self.session()); the Jacobians are computed in the default session.")
    for init in init_targets or ():
        session.run(init)
    feeds = dict(extra_feed_dict or {})
    if isinstance(x, list):
        values = x_init_value if x_init_value is not None else [None] * len(x)
        pairs = []
        for k, (xk, shape, value) in enumerate(zip(x, x_shape, values)):
            others = {xj: np.asarray(vj) for j, (xj, vj) in enumerate(zip(x, values))
                      if j != k and vj is not None}
            pairs.append(_jacobians(session, xk, shape, y, y_shape, value, delta,
                                    {**feeds, **others}))
        return pairs
    return _jacobians(session, x, x_shape, y, y_shape, x_init_value, delta, feeds)


def compute_gradient_error(x, x_shape, y, y_shape, x_init_value=None, delta=1e-3,
                           init_targets=None, extra_feed_dict=None):
    """max |theoretical - numerical| over the Jacobians of compute_gradient."""
    grads = compute_gradient(x, x_shape, y, y_shape, x_init_value, delta, init_targets,
                             extra_feed_dict)
    error = 0.0
    for theoretical, numerical in grads if isinstance(grads, list) else [grads]:
        if theoretical.size or numerical.size:
            error = max(error, float(np.abs(theoretical - numerical).max()))
    return error


def _jacobians(session, x, x_shape, y, y_shape, x_init_value, delta, feeds):
    if x.dtype.is_complex or y.dtype.is_complex:
        raise NotImplementedError("compute_gradient: complex x or y is not supported; check "
                                  "the real and imaginary parts as real tensors.")
    x_shape, y_shape = tuple(int(d) for d in x_shape), tuple(int(d) for d in y_shape)
    dtype = x.dtype.as_numpy_dtype
    if x_init_value is None:
        x_data = np.random.random_sample(x_shape).astype(dtype)
    else:
        x_data = np.asarray(x_init_value, dtype)
        if x_data.shape != x_shape:
            raise ValueError(f"x_init_value has shape {x_data.shape}, x_shape is {x_shape}.")
    seed = placeholder(y.dtype, y_shape)
    dx = gradients(y, x, seed)[0]
    x_size, y_size = int(np.prod(x_shape)), int(np.prod(y_shape))
    theoretical = np.zeros((x_size, y_size), dtype)
    onehot = np.zeros(y_size, y.dtype.as_numpy_dtype)
    for j in range(y_size):
        onehot[j] = 1
        if dx is not None:
            value = session.run(dx, {**feeds, x: x_data, seed: onehot.reshape(y_shape)})
            theoretical[:, j] = _dense(value, x_shape).ravel()
        onehot[j] = 0
    numerical = np.zeros((x_size, y_size), dtype)
    for i in range(x_size):
        step = np.zeros(x_size, dtype)
        step[i] = delta
        up = session.run(y, {**feeds, x: x_data + step.reshape(x_shape)})
        down = session.run(y, {**feeds, x: x_data - step.reshape(x_shape)})
        numerical[i, :] = ((np.asarray(up) - np.asarray(down)) / (2 * delta)).ravel()
    return theoretical, numerical


def _dense(value, shape):
    """A gradient value as a dense array (IndexedSlices values summed into their rows)."""
    if hasattr(value, "indices") and hasattr(value, "values"):
        out = np.zeros(shape, np.asarray(value.values).dtype)
        np.add.at(out, np.asarray(value.indices), np.asarray(value.values))
        return out
    return np.asarray(value)
