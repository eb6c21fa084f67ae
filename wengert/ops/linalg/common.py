"""Helpers shared by the linear algebra op families (decompositions, eig, solves, least_squares,
matrix_functions, tridiagonal, composite): shape rules, batched LAPACK kernels that name the
failing matrix, and the small matrix expressions gradient rules are written with.

Shape rules: a batch of square matrices [..., N, N] (`square_rule`; `square_input` checks a
public function's argument with it), and the solve of batched systems A X = B (`solve_batch`):
B's rows must be A's, and the batch dimensions of A and B broadcast (or, for MatrixSolve and
MatrixSolveLs, must agree).

Kernels work on stacks of matrices [..., M, N]: NumPy's LAPACK wrappers take the stack whole;
SciPy's routines (imported inside the kernel that needs them) run once per matrix. When LAPACK
reports a singular or non-positive-definite matrix, the error names the op and the batch index of
the first such matrix (TensorFlow's InvalidArgumentError, raised before anything is returned).

Rule helpers are wengert ops, so rules built from them differentiate again: `adjoint` (the
conjugate transpose of the last two axes), `mm` (a matrix product with adjoint flags),
`eye_like` (identity matrices batched like a given tensor, from its shape when the graph runs),
`safe_reciprocal` (x / (x^2 + 1e-20), TensorFlow's Lorentz-broadened 1/x, so equal eigenvalues
or singular values give 0 rather than inf in the rules of eigh and svd).
"""
import numpy as np

from ...framework.errors import InvalidArgumentError
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ..complex_parts import conj_if_complex, real_part  # noqa: F401 (re-exported)
from ..broadcast_ops import ones_like, zeros_like
from ..matmul_ops import matmul, matrix_transpose
from ..matrix_ops import diag_part, set_diag
from ..shape_rules import broadcast_shapes

__all__ = ["square_rule", "check_linalg_input", "linalg_input", "square_input", "batch_label",
           "loop_matrices", "first_failure", "succeeds", "adjoint", "mm", "eye_like",
           "safe_reciprocal", "matrix_dims", "solve_batch", "real_part", "singular_error",
           "conj_if_complex"]


# -- shape rules ----------------------------------------------------------------------------------
def matrix_dims(x, what="input"):
    """(batch shape, rows, cols) of a tensor of rank >= 2; rank unknown gives (None, None, None)."""
    if x.shape.rank is None:
        return None, None, None
    if x.shape.rank < 2:
        raise InvalidArgumentError(f"{what} must have rank >= 2 (a matrix or a batch of "
                                   f"matrices), got shape {x.shape}.")
    return x.shape[:-2], x.shape[-2], x.shape[-1]


def solve_batch(batch_a, rows_a, rhs, mismatch, same_batch=None):
    """The shape rule of batched systems A X = B, for A of batch shape `batch_a` with `rows_a`
    rows (None where unknown) and B = `rhs` [..., rows, K]: (X's batch shape, rows, K). B's rows
    must be A's (else InvalidArgumentError(mismatch), with {rows} filled in). The batch shapes
    broadcast or, given `same_batch` (the message otherwise), must agree; either unknown gives
    a batch shape of unknown rank."""
    batch_b, rows, k = matrix_dims(rhs, "rhs")
    if rows_a is not None and rows is not None and rows_a != rows:
        raise InvalidArgumentError(mismatch.format(rows=rows))
    if batch_a is None or batch_b is None:
        return TensorShape(None), rows, k
    batch_a, batch_b = TensorShape(batch_a), TensorShape(batch_b)
    if same_batch is None:
        return broadcast_shapes(batch_a, batch_b), rows, k
    if not batch_a.is_compatible_with(batch_b):
        raise InvalidArgumentError(same_batch)
    return batch_a.merge_with(batch_b), rows, k


def square_rule(x, **_):
    """Same shape and dtype as a batch of square matrices."""
    check_linalg_input(x)
    _, m, n = matrix_dims(x)
    if m is not None and n is not None and m != n:
        raise InvalidArgumentError(f"input must be a batch of square matrices, got shape "
                                   f"{x.shape}.")
    return x.shape, x.dtype


def check_linalg_input(x, what="input"):
    if not (x.dtype.is_floating or getattr(x.dtype, "is_complex", False)):
        raise InvalidArgumentError(f"{what} must be floating point or complex, got "
                                   f"{x.dtype.name}; cast it.")


def linalg_input(value, op_type, what="input"):
    """A tensor of a linear algebra dtype (TypeError naming the op otherwise)."""
    x = convert_to_tensor(value)
    if not (x.dtype.is_floating or getattr(x.dtype, "is_complex", False)):
        raise TypeError(f"{op_type}: {what} must be float16/32/64 or complex, got "
                        f"{x.dtype.name} (shape {x.shape}); cast it first.")
    return x


def square_input(value, op_type, what="input"):
    """A batch of square matrices [..., N, N] of a linear algebra dtype, checked before the op
    `op_type` runs (TypeError naming the op for a dtype, InvalidArgumentError for a shape)."""
    x = linalg_input(value, op_type, what)
    square_rule(x)
    return x


def with_shape(shape, dtype):
    return TensorShape(shape), dtype


# -- kernels ----------------------------------------------------------------------------------------
def batch_label(batch_shape, flat_index):
    """How an error names a matrix of a batch: 'batch index (1, 0)', or '' for a single one."""
    if not batch_shape:
        return ""
    index = tuple(int(i) for i in np.unravel_index(flat_index, batch_shape))
    return f" at batch index {index if len(index) > 1 else index[0]}"


def loop_matrices(fn, *arrays, empty=None):
    """fn applied to each matrix of a stack (arrays share their batch dimensions: broadcast them
    first); the results (an array or a tuple of arrays) stacked back. fn(*matrices, flat_index).
    An empty batch returns `empty(batch_shape)`."""
    batch = arrays[0].shape[:-2]
    count = int(np.prod(batch)) if batch else 1
    if count == 0:
        return empty(batch)
    flats = [a.reshape((count,) + a.shape[-2:]) for a in arrays]
    results = [fn(*[f[i] for f in flats], i) for i in range(count)]
    if isinstance(results[0], tuple):
        return tuple(np.stack(parts).reshape(batch + parts[0].shape)
                     for parts in zip(*results))
    return np.stack(results).reshape(batch + results[0].shape)


def first_failure(test, stack):
    """The flat index of the first matrix of `stack` for which test(matrix) is False."""
    flat = stack.reshape((-1,) + stack.shape[-2:])
    for i, matrix in enumerate(flat):
        if not test(matrix):
            return i
    return 0


def succeeds(factorization):
    """A test for first_failure: whether NumPy's `factorization` (np.linalg.inv, cholesky, ...)
    of a matrix succeeds."""
    def test(matrix):
        try:
            factorization(matrix)
        except np.linalg.LinAlgError:
            return False
        return True
    return test


def singular_error(op_type, stack, what="is not invertible"):
    index = first_failure(succeeds(np.linalg.inv), stack)
    return InvalidArgumentError(
        f"{op_type}: the input matrix{batch_label(stack.shape[:-2], index)} {what} "
        f"(shape {stack.shape}): it is singular to working precision. Check it, or "
        "regularize it (add a small multiple of the identity).")


# -- rule helpers (wengert ops) ---------------------------------------------------------------------
def adjoint(x):
    """The conjugate transpose of the last two axes."""
    return matrix_transpose(x, conjugate=True)


def mm(a, b, adjoint_a=False, adjoint_b=False, name=None):
    return matmul(a, b, adjoint_a=adjoint_a, adjoint_b=adjoint_b, name=name)


def eye_like(x):
    """Identity matrices of x's shape [..., N, N] (x square), built from x's shape."""
    zeros = zeros_like(x)
    return set_diag(zeros, ones_like(diag_part(zeros)))




def safe_reciprocal(x, epsilon=1e-20):
    return x / (x * x + epsilon)
