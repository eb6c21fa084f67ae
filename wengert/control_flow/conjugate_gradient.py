"""`wengert.linalg.experimental`: TensorFlow's `tf.linalg.experimental` (conjugate_gradient).

Conjugate gradients for A x = rhs with A Hermitian positive definite, as TensorFlow runs it: from
r0 = rhs - A x0 and p0 = M r0 (M the preconditioner, identity by default), each step takes
    alpha = gamma / <p, A p>,  x += alpha p,  r -= alpha A p,  q = M r,
    gamma' = <r, q>,  p = q + (gamma' / gamma) p,
until every |r| <= tol |rhs| or max_iter steps; batches of systems run together. The loop is a
`while_loop` (a Python loop eagerly, one While op in graphs), so it is differentiable.
"""
import collections

from ..framework.context import op_scope
from ..framework.tensor import convert_to_tensor, is_tensor
from ..ops.broadcast_ops import broadcast_to, zeros_like
from ..ops.linalg.common import conj_if_complex
from ..ops.linalg.norms import norm
from ..ops.math_ops import logical_and
from ..ops.matmul_ops import matvec
from ..ops.reduce_ops import reduce_any, reduce_sum
from ..ops.reshape_ops import expand_dims
from .while_loop import while_loop

__all__ = ["conjugate_gradient"]

CGState = collections.namedtuple("CGState", ["i", "x", "r", "p", "gamma"])


def _apply(operator, v):
    """operator @ v for a LinearOperator-like object (its `matvec`) or a dense matrix."""
    if hasattr(operator, "matvec") and not is_tensor(operator):
        return operator.matvec(v)
    return matvec(operator, v)


def _dot(x, y):
    return reduce_sum(conj_if_complex(x) * y, axis=-1)


def conjugate_gradient(operator, rhs, preconditioner=None, x=None, tol=1e-5, max_iter=20,
                       name="conjugate_gradient"):
    """Solve operator @ x = rhs by conjugate gradients; returns CGState(i, x, r, p, gamma).
    `operator` (and `preconditioner`) is an object with `matvec` or a dense [..., N, N] matrix
    (Hermitian positive definite). Its ops are built under the name scope `name`."""
    with op_scope(name, "conjugate_gradient"):
        return _solve(operator, rhs, preconditioner, x, tol, max_iter)


def _solve(operator, rhs, preconditioner, x, tol, max_iter):
    b = convert_to_tensor(rhs)
    if not hasattr(operator, "matvec"):
        operator = convert_to_tensor(operator, dtype=b.dtype)
    r0 = b
    if not hasattr(operator, "matvec") and operator.shape.rank is not None:
        batch = tuple(operator.shape[:-2])
        if batch and tuple(b.shape[:-1]) != batch and None not in batch:
            r0 = broadcast_to(b, batch + tuple(b.shape[-1:]))
    tol = tol * norm(r0, axis=-1)
    if x is None:
        x = zeros_like(r0)
    else:
        x = convert_to_tensor(x, dtype=b.dtype)
        r0 = r0 - _apply(operator, x)
    p0 = r0 if preconditioner is None else _apply(preconditioner, r0)
    start = CGState(convert_to_tensor(0), x, r0, p0, _dot(r0, p0))

    def keep_going(i, state):
        return logical_and(i < max_iter, reduce_any(norm(state.r, axis=-1) > tol))

    def step(i, state):
        z = _apply(operator, state.p)
        alpha = expand_dims(state.gamma / _dot(state.p, z), -1)
        x_next = state.x + alpha * state.p
        r = state.r - alpha * z
        q = r if preconditioner is None else _apply(preconditioner, r)
        gamma = _dot(r, q)
        p = q + expand_dims(gamma / state.gamma, -1) * state.p
        return i + 1, CGState(i + 1, x_next, r, p, gamma)

    _, final = while_loop(keep_going, step, [start.i, start])
    return final
