"""Eigen-decomposition of general (non-Hermitian) matrices: TensorFlow's "Eig" op, `linalg.eig`
and `linalg.eigvals`, whose results are complex even for real input.

A = V diag(e) V^{-1}, with each column of V of unit norm (LAPACK's geev, as NumPy and TensorFlow
compute it; the phase of each column is arbitrary, so only losses that do not depend on it have
a well-defined gradient). TensorFlow's gradient (_EigGrad), for distinct eigenvalues, with
F_ij = 1 / conj(e_j - e_i) off the diagonal and 0 on it:

    M = diag(e_bar) + F o (V^H V_bar - V^H V diag(real(diag(V^H V_bar))))
    A_bar = V^{-H} M V^H                        (solve(V^H, M V^H), not an inverse)

and for eigenvalues alone A_bar = V^{-H} diag(e_bar) V^H. A real input keeps the real part of
A_bar (the op reads only the real matrix). The rule is written in wengert ops, so it
differentiates again where the eigenvalues stay distinct.
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.registry import defop
from ...framework.tensor_shape import TensorShape
from ..cast_ops import cast
from ..broadcast_ops import zeros_like
from ..reshape_ops import expand_dims
from ..binary_math_ops import div_no_nan
from ..complex_parts import conj, real_part
from .common import adjoint, linalg_input, mm, square_rule
from .solves import solve
from ..matrix_ops import diag, diag_part, set_diag
from ..reduce_ops import reduce_sum

__all__ = ["eig", "eigvals"]

_COMPLEX_OF = {np.dtype(np.float32): np.complex64, np.dtype(np.float64): np.complex128,
               np.dtype(np.complex64): np.complex64, np.dtype(np.complex128): np.complex128}


def _eig_kernel(a, compute_v):
    out = _COMPLEX_OF[a.dtype]
    if not np.all(np.isfinite(a)):
        raise InvalidArgumentError("Eig: the input holds NaN or Inf; eigenvalues are undefined.")
    if a.shape[-1] == 0:
        return np.zeros(a.shape[:-1], out), np.zeros(a.shape, out)
    e, v = np.linalg.eig(a) if compute_v else (np.linalg.eigvals(a), np.zeros(a.shape, out))
    return e.astype(out, copy=False), v.astype(out, copy=False)


def _eig_rule(a, compute_v):
    square_rule(a)
    dtype = dtypes.as_dtype(_COMPLEX_OF[np.dtype(a.dtype.as_numpy_dtype)])
    shape = a.shape
    values = TensorShape(None) if shape.rank is None else TensorShape(shape.as_list()[:-1])
    return [(values, dtype), (shape, dtype)]


def _eig_jvp(primals, tangents, outputs, compute_v):
    """de = diag(V^{-1} dA V); dV = V (F o V^{-1} dA V), F_ij = 1 / (e_j - e_i) off the diagonal,
    less V real(diag(V^H dV)), which keeps each column of unit norm (as JAX's eig_jvp)."""
    (a,), (da,), (e, v) = primals, tangents, outputs
    if not compute_v:
        e, v = execute(EIG, (a,), {"compute_v": True})
    da = cast(da, v.dtype)
    inner = solve(v, mm(da, v))  # V^{-1} dA V
    de = diag_part(inner)
    if not compute_v:
        return de, zeros_like(outputs[1])
    gaps = expand_dims(e, -2) - expand_dims(e, -1)
    f = set_diag(div_no_nan(cast(1.0, gaps.dtype) + zeros_like(gaps), gaps), zeros_like(e))
    dv = mm(v, f * inner)
    norm_change = real_part(reduce_sum(conj(v) * dv, axis=-2, keepdims=True))
    return de, dv - v * cast(norm_change, v.dtype)


def _eig_grad(op, grad_e, grad_v):
    a, (e, v) = op.inputs[0], op.outputs
    if grad_e is None:
        grad_e = zeros_like(e)
    vh = adjoint(v)
    if op.get_attr("compute_v") and grad_v is not None:
        gaps = expand_dims(e, -2) - expand_dims(e, -1)  # e_j - e_i at (i, j)
        ones = cast(1.0, gaps.dtype) + zeros_like(gaps)
        f = conj(set_diag(div_no_nan(ones, gaps), zeros_like(e)))
        vgv = mm(vh, grad_v)
        real_diag = diag(cast(real_part(diag_part(vgv)), vgv.dtype))
        middle = diag(grad_e) + f * (vgv - mm(mm(vh, v), real_diag))
    else:
        if not op.get_attr("compute_v"):
            _, v = execute(EIG, (a,), {"compute_v": True})
            vh = adjoint(v)
        middle = diag(grad_e)
    grad_a = solve(vh, mm(middle, vh))
    return grad_a if a.dtype.is_complex else real_part(grad_a)


EIG = defop("Eig", _eig_kernel, shape=_eig_rule, grad=_eig_grad, jvp=_eig_jvp, num_outputs=2,
            raw=lambda input, Tout, compute_v=True, name=None: tuple(execute(  # noqa: N803
                EIG, (linalg_input(input, "Eig"),), {"compute_v": bool(compute_v)}, name)))


def eig(tensor, name=None):
    """(e, v): the eigenvalues and unit-norm eigenvectors (columns of v) of each square matrix
    of `tensor` [..., N, N], complex64 for float32 or complex64 input, complex128 otherwise."""
    x = linalg_input(tensor, "Eig")
    _eig_rule(x, True)
    return tuple(execute(EIG, (x,), {"compute_v": True}, name))


def eigvals(tensor, name=None):
    """The eigenvalues of each square matrix of `tensor` (complex; see `eig`)."""
    x = linalg_input(tensor, "Eig")
    _eig_rule(x, False)
    return execute(EIG, (x,), {"compute_v": False}, name)[0]

