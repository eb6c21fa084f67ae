"""`wengert.linalg`: TensorFlow's `tf.linalg` namespace (the code is in ops/matmul_ops.py,
ops/einsum_ops.py, ops/matrix_ops.py and ops/linalg/).

Deliberately absent: the `LinearOperator*` classes (TensorFlow's structured-matrix framework, a
library of its own built on these ops; `experimental.conjugate_gradient` accepts any object with
a `matvec` method, or a dense matrix).
"""
# products and structure
from .ops.matmul_ops import *  # noqa: F403  matmul, matvec, matrix_transpose, trace, diagonals
from .ops.matmul_ops import adjoint, matrix_transpose as transpose
from .ops.einsum_ops import einsum, tensordot
from .ops.matrix_ops import (band_part, cross, diag, diag_part, set_diag, tensor_diag,
                             tensor_diag_part)
from .ops.creation_ops import eye
# decompositions, solves and matrix functions
from .ops.linalg.decompositions import cholesky, eigh, eigvalsh, lu, qr, svd
from .ops.linalg.eig import eig, eigvals
from .ops.linalg.solves import (banded_triangular_solve, cholesky_solve, inv, solve,
                                triangular_solve)
from .ops.linalg.composite import eigh_tridiagonal, lu_matrix_inverse, lu_reconstruct, lu_solve
from .ops.linalg.tridiagonal import tridiagonal_matmul, tridiagonal_solve
from .ops.linalg.matrix_functions import det, expm, logdet, logm, slogdet, sqrtm
from .ops.linalg.least_squares import lstsq, matrix_rank, pinv
# norms
from .ops.linalg.norms import norm, normalize
from .ops.nn.clip import global_norm
from .ops.nn.activations import l2_normalize  # one implementation, tf.nn's
# tf.linalg.experimental: conjugate gradients
from .control_flow import conjugate_gradient as experimental
