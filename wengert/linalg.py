"""`wengert.linalg`: TensorFlow's `tf.linalg` namespace.

Deliberately absent: the `LinearOperator*` classes (TensorFlow's structured-matrix framework, a
library of its own built on these ops; `experimental.conjugate_gradient` accepts any object with
a `matvec` method, or a dense matrix).
"""
from .ops.matmul_ops import *  # noqa: F403
from .ops.matmul_ops import matrix_transpose as transpose  # noqa: F401,E402

# -- issue 17: tf.linalg's decompositions, solves, matrix functions and structure ops ----------
from .ops.matrix_ops import (band_part, cross, diag, diag_part, set_diag,  # noqa: F401,E402
                             tensor_diag, tensor_diag_part)
from .ops.linalg.solves import (banded_triangular_solve, cholesky_solve, inv,  # noqa: E402
                                   solve, triangular_solve)
from .ops.linalg.decompositions import cholesky, eigh, eigvalsh, lu, qr, svd  # noqa: F401,E402
from .ops.linalg.eig import eig, eigvals  # noqa: F401,E402
from .ops.linalg.matrix_functions import det, expm, logdet, logm, slogdet, sqrtm  # noqa: F401,E402
from .ops.linalg.least_squares import lstsq, matrix_rank, pinv  # noqa: F401,E402
from .ops.linalg.norms import norm, normalize  # noqa: F401,E402
from .ops.linalg.composite import (eigh_tridiagonal, lu_matrix_inverse,  # noqa: F401,E402
                                       lu_reconstruct, lu_solve)
from .ops.linalg.tridiagonal import tridiagonal_matmul, tridiagonal_solve  # noqa: F401,E402
from .ops.creation_ops import eye  # noqa: F401,E402
from .ops.nn.clip import global_norm  # noqa: F401,E402
from .ops.nn.activations import l2_normalize  # noqa: F401,E402  (one implementation, tf.nn's)
from .control_flow import conjugate_gradient as experimental  # noqa: F401,E402


def adjoint(matrix, name=None):
    """The conjugate transpose of the last two dimensions of `matrix`."""
    return matrix_transpose(matrix, name=name or "adjoint", conjugate=True)  # noqa: F405
