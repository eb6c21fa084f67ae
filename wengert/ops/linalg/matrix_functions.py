"""Matrix functions: "MatrixDeterminant", "LogMatrixDeterminant", "MatrixExponential",
"MatrixSquareRoot", and the Sylvester solve that sqrtm's derivative needs.

Derivatives (dA a tangent, G an incoming gradient):
- det: d det(A) = det(A) tr(A^{-1} dA), so grad A = g det(A) A^{-H} (TensorFlow's rule, which
  inverts A: a singular A raises, as there). slogdet: d log|det A| = Re tr(A^{-1} dA), grad A =
  g A^{-H}; the sign has no derivative (TensorFlow ignores its gradient). `logdet` of a Hermitian
  positive definite matrix is 2 sum(log diag(cholesky(A))), differentiated through Cholesky, as
  TensorFlow computes it.
- expm: the Fréchet derivative L(A, E) is the upper-right block of expm([[A, E], [0, A]])
  (Higham, "Functions of Matrices" 3.2), so dexpm = L(A, dA) and grad A = L(A^H, G): both
  exponentials again, differentiable to any order.
- sqrtm: R = sqrtm(A) satisfies R R = A, so R dR + dR R = dA: dR solves a Sylvester equation,
  and grad A = Y solving R^H Y + Y R^H = G (the same equation, adjoint; TensorFlow solves it as
  a Kronecker-product linear system of size n^2, which this solves directly).
- The Sylvester solve X = sylvester(A, B, C) with A X + X B = C ("SylvesterSolve") has
  dX = sylvester(A, B, dC - dA X - X dB); with Y = sylvester(A^H, B^H, G):
  grad C = Y, grad A = -Y X^H, grad B = -X^H Y.
A real matrix without a real square root (a negative eigenvalue) gives NaNs, as TensorFlow's.
"""
import collections
import warnings

import numpy as np

from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.registry import defop, needs_grad
from ...framework.tensor_shape import TensorShape
from .. import shape_rules
from ..array_ops import concat, split
from ..broadcast_ops import zeros_like
from ..cast_ops import cast
from ..matrix_ops import diag_part
from ..reduce_ops import reduce_sum
from ..reshape_ops import expand_dims
from ..unary_ops import log
from .common import adjoint, linalg_input, loop_matrices, mm, real_part, square_input, square_rule
from .decompositions import cholesky
from .solves import inv, solve

__all__ = ["det", "slogdet", "logdet", "expm", "sqrtm", "matrix_determinant",
           "log_matrix_determinant", "matrix_exponential", "matrix_square_root"]


def _batch_rule(a):
    square_rule(a)
    if a.shape.rank is None:
        return TensorShape(None), a.dtype
    return TensorShape(tuple(a.shape[:-2])), a.dtype


def _expand2(x):
    return expand_dims(expand_dims(x, -1), -1)


def _trace_solve(a, da):
    """tr(A^{-1} dA) for each matrix."""
    return reduce_sum(diag_part(solve(a, da)), axis=-1)


# -- MatrixDeterminant ----------------------------------------------------------------------------
def _det_grad(op, grad):
    return _expand2(grad * op.outputs[0]) * inv(op.inputs[0], adjoint=True)


DET = defop("MatrixDeterminant", lambda a: np.linalg.det(a).astype(a.dtype, copy=False),
            shape=_batch_rule, grad=_det_grad,
            jvp=lambda primals, tangents, outputs: outputs[0] * _trace_solve(primals[0],
                                                                             tangents[0]),
            args=("input",))


def det(input, name=None):  # noqa: A002
    """The determinant of each square matrix of `input` [..., N, N]: shape [...]."""
    x = square_input(input, "MatrixDeterminant")
    return execute(DET, (x,), name=name)


matrix_determinant = det


# -- LogMatrixDeterminant -------------------------------------------------------------------------
_SLOGDET = collections.namedtuple("LogMatrixDeterminant", ["sign", "log_abs_determinant"])


def _slogdet_kernel(a):
    sign, logabs = np.linalg.slogdet(a)
    return sign.astype(a.dtype, copy=False), logabs.astype(np.abs(a[..., :0, :0]).dtype,
                                                          copy=False)


def _slogdet_rule(a):
    shape, dtype = _batch_rule(a)
    return [(shape, dtype), (shape, getattr(dtype, "real_dtype", dtype))]


def _slogdet_grad(op, grad_sign, grad_logabs):
    a = op.inputs[0]
    g = grad_logabs if grad_logabs.dtype == a.dtype else _complex_like(grad_logabs, a)
    return _expand2(g) * inv(a, adjoint=True)


def _complex_like(x, like):
    return cast(x, like.dtype)


def _slogdet_jvp(primals, tangents, outputs):
    return None, real_part(_trace_solve(primals[0], tangents[0]))


SLOGDET = defop("LogMatrixDeterminant", _slogdet_kernel, shape=_slogdet_rule,
                grad=_slogdet_grad, jvp=_slogdet_jvp, num_outputs=2,
                raw=lambda input, name=None: slogdet(input, name))


def slogdet(input, name=None):  # noqa: A002
    """(sign, log_abs_determinant) of each square matrix: det = sign * exp(log_abs_determinant),
    without overflow. The sign has no gradient."""
    x = square_input(input, "LogMatrixDeterminant")
    return _SLOGDET(*execute(SLOGDET, (x,), name=name))


log_matrix_determinant = slogdet


def logdet(matrix, name=None):
    """log(det(matrix)) of each Hermitian positive definite matrix, through its Cholesky factor:
    2 * sum(log(diag(L)))."""
    chol = cholesky(matrix)
    return 2.0 * reduce_sum(log(real_part(diag_part(chol))), axis=-1, name=name)


# -- MatrixExponential ----------------------------------------------------------------------------
def _expm_kernel(a):
    from scipy.linalg import expm as scipy_expm  # imported when first needed
    return loop_matrices(lambda m, _: scipy_expm(m).astype(a.dtype, copy=False), a,
                         empty=lambda batch: np.zeros(a.shape, a.dtype))


def _frechet_expm(a, e):
    """L(A, E): the upper-right block of expm([[A, E], [0, A]])."""
    block = concat([concat([a, e], -1), concat([zeros_like(a), a], -1)], -2)
    top, _ = split(execute(EXPM, (block,)), 2, axis=-2)  # halves: sizes known only at run time
    return split(top, 2, axis=-1)[1]


def _expm_grad(op, grad):
    return _frechet_expm(adjoint(op.inputs[0]), grad)


EXPM = defop("MatrixExponential", _expm_kernel, shape=square_rule, grad=_expm_grad,
             jvp=lambda primals, tangents, outputs: _frechet_expm(primals[0], tangents[0]),
             args=("input",))


def expm(input, name=None):  # noqa: A002
    """The matrix exponential of each square matrix of `input` (SciPy's scaling and squaring)."""
    x = square_input(input, "MatrixExponential")
    return execute(EXPM, (x,), name=name)


matrix_exponential = expm


# -- SylvesterSolve and MatrixSquareRoot ----------------------------------------------------------
def _sylvester_kernel(a, b, c):
    from scipy.linalg import solve_sylvester  # imported when first needed
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2], c.shape[:-2])
    a, b, c = (np.broadcast_to(t, batch + t.shape[-2:]) for t in (a, b, c))
    return loop_matrices(lambda x, y, z, _: solve_sylvester(x, y, z).astype(c.dtype, copy=False),
                         a, b, c, empty=lambda shape: np.zeros(c.shape, c.dtype))


def _sylvester_rule(a, b, c):
    shape_rules.check_same_dtype(a, b, c)
    if c.shape.rank is None or a.shape.rank is None or b.shape.rank is None:
        return TensorShape(None), c.dtype
    batch = shape_rules.broadcast_shapes(shape_rules.broadcast_shapes(a.shape[:-2], b.shape[:-2]),
                                    c.shape[:-2])
    return TensorShape(tuple(batch) + tuple(c.shape[-2:])), c.dtype


def sylvester(a, b, c):
    """X with A X + X B = C (batched, broadcasting)."""
    return execute(SYLVESTER, (a, b, c))


def _sylvester_grad(op, grad):
    a, b, _ = op.inputs
    x = op.outputs[0]
    y = sylvester(adjoint(a), adjoint(b), grad)
    return (-mm(y, x, adjoint_b=True) if needs_grad(op, 0) else None,
            -mm(x, y, adjoint_a=True) if needs_grad(op, 1) else None, y)


def _sylvester_jvp(primals, tangents, outputs):
    a, b, _ = primals
    da, db, dc = tangents
    x = outputs[0]
    rhs = dc if dc is not None else zeros_like(x)
    if da is not None:
        rhs = rhs - mm(da, x)
    if db is not None:
        rhs = rhs - mm(x, db)
    return sylvester(a, b, rhs)


SYLVESTER = defop("SylvesterSolve", _sylvester_kernel, shape=_sylvester_rule,
                  grad=_sylvester_grad, jvp=_sylvester_jvp, batch="safe")


def _sqrtm_kernel(a):
    from scipy.linalg import sqrtm as scipy_sqrtm  # imported when first needed

    def one(matrix, _):
        root = np.asarray(scipy_sqrtm(matrix))
        if np.iscomplexobj(root) and not np.iscomplexobj(matrix):
            scale = max(np.abs(root).max(), 1.0)
            if np.abs(root.imag).max() > 1e3 * np.finfo(matrix.dtype).eps * scale:
                return np.full(matrix.shape, np.nan, matrix.dtype)  # no real square root
            root = root.real
        return root.astype(matrix.dtype, copy=False)
    return loop_matrices(one, a, empty=lambda batch: np.zeros(a.shape, a.dtype))


def _sqrtm_grad(op, grad):
    root_h = adjoint(op.outputs[0])
    return sylvester(root_h, root_h, grad)


SQRTM = defop("MatrixSquareRoot", _sqrtm_kernel, shape=square_rule, grad=_sqrtm_grad,
              jvp=lambda primals, tangents, outputs: sylvester(outputs[0], outputs[0],
                                                               tangents[0]),
              batch="safe", args=("input",))


def sqrtm(input, name=None):  # noqa: A002
    """The principal square root R (R @ R = input) of each square matrix; NaNs where a real
    matrix has no real square root."""
    x = square_input(input, "MatrixSquareRoot")
    return execute(SQRTM, (x,), name=name)


matrix_square_root = sqrtm


# -- MatrixLogarithm: complex input only, and no gradient, as in TensorFlow ---------------------
def _logm_kernel(a):
    from scipy.linalg import logm as scipy_logm  # imported when first needed
    return loop_matrices(lambda m, _: np.asarray(_quiet(scipy_logm, m), a.dtype), a,
                         empty=lambda batch: np.zeros(a.shape, a.dtype))


def _quiet(function, m):
    """function(m) without SciPy's RuntimeWarning ('logm result may be inaccurate'), which
    TensorFlow's kernel does not give."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return function(m)


def _logm_rule(a):
    if not a.dtype.is_complex:
        raise InvalidArgumentError(f"needs a complex64 or complex128 tensor, got {a.dtype.name} "
                                   "(as TensorFlow's); cast it with tf.cast(x, tf.complex128).")
    return square_rule(a)


# No gradient is registered: TensorFlow has none either (its tape raises LookupError naming
# MatrixLogarithm, and so does wengert's).
LOGM = defop("MatrixLogarithm", _logm_kernel, shape=_logm_rule, args=("input",))


def logm(input, name=None):  # noqa: A002
    """The principal matrix logarithm L (expm(L) = input) of each square complex matrix."""
    x = linalg_input(input, "MatrixLogarithm")
    try:
        _logm_rule(x)
    except InvalidArgumentError as err:
        raise InvalidArgumentError(f"MatrixLogarithm: {err.message}") from None
    return execute(LOGM, (x,), name=name)
