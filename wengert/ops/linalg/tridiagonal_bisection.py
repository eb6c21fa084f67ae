"""The eigenvalues of a Hermitian tridiagonal matrix by bisection, as TensorFlow's
eigh_tridiagonal computes them when it is given a tolerance `tol`.

For a diagonal alpha [n] and subdiagonal beta [n - 1], the Sturm sequence
q_0 = alpha_0 - x, q_i = alpha_i - |beta_{i-1}|^2 / q_{i-1} - x counts, by its non-positive terms,
the eigenvalues below x. Every wanted eigenvalue (all, the indices [lo, hi], or those in
(lo, hi]) is searched for at once: each search starts from the Gershgorin interval widened by
2.1 n eps |T| and halves it (keeping the half whose count brackets the eigenvalue's index) until
the widest interval is below max(tol, eps |T|) or after mantissa-bits + 1 steps; the answer is
each interval's midpoint. The same arithmetic in the input's precision gives TensorFlow's numbers.
"""
import numpy as np

__all__ = ["bisection_eigenvalues"]

_FUDGE = 2.1


def _sturm_counts(alpha, beta_sq, pivmin, alpha0_perturbation, x):
    """How many eigenvalues lie below each x (TensorFlow's guarded recurrence)."""
    q = alpha[0] - x
    count = (q < 0).astype(np.int32)
    q = np.where(alpha[0] == x, alpha0_perturbation, q)
    for i in range(1, alpha.shape[0]):
        q = alpha[i] - beta_sq[i - 1] / q - x
        low = q <= pivmin
        count = np.where(low, count + 1, count)
        q = np.where(low, np.minimum(q, -pivmin), q)
    return count


def bisection_eigenvalues(alpha, beta, tol, select="a", select_range=None):
    """The selected eigenvalues (ascending) of the tridiagonal matrix, to within `tol`."""
    beta_sq = (np.conj(beta) * beta).real if np.iscomplexobj(beta) else np.square(beta)
    alpha = alpha.real if np.iscomplexobj(alpha) else alpha
    real = alpha.dtype.type
    finfo = np.finfo(alpha.dtype)
    beta_abs = np.sqrt(beta_sq)
    row_sums = np.concatenate([beta_abs[:1], beta_abs[:-1] + beta_abs[1:], beta_abs[-1:]])
    top = np.minimum(finfo.max, np.max(alpha + row_sums))
    bottom = np.maximum(finfo.min, np.min(alpha - row_sums))
    t_norm = np.maximum(np.abs(bottom), np.abs(top))
    one = real(1)
    pivmin = np.maximum(one / finfo.max, (one + finfo.eps) * finfo.tiny) * np.maximum(
        one, np.max(beta_sq) if beta_sq.size else one)
    perturbation = np.square(finfo.eps * beta_abs[0]) if beta_abs.size else real(0)
    abs_tol = np.maximum(real(tol), finfo.eps * t_norm)
    slack = real(alpha.shape[0]) * real(_FUDGE) * finfo.eps * t_norm
    if select == "v":
        lower = real(select_range[0]) - slack - real(2 * _FUDGE) * pivmin
        upper = real(select_range[1]) + slack + real(_FUDGE) * pivmin
        first, last = (int(_sturm_counts(alpha, beta_sq, pivmin, perturbation, np.array(b)))
                       for b in (lower, upper))
        targets = np.arange(first, last)
    else:
        lower = bottom - slack - real(2 * _FUDGE) * pivmin
        upper = top + slack + real(_FUDGE) * pivmin
        targets = (np.arange(alpha.shape[0]) if select == "a" else
                   np.arange(int(select_range[0]), int(select_range[1]) + 1))
    lower = np.full(targets.shape, np.maximum(lower, finfo.min), alpha.dtype)
    upper = np.full(targets.shape, np.minimum(upper, finfo.max), alpha.dtype)
    half = real(0.5)
    for _ in range(finfo.nmant + 1):
        if not targets.size or not abs_tol < np.max(upper - lower):
            break
        mid = half * lower + half * upper
        counts = _sturm_counts(alpha, beta_sq, pivmin, perturbation, mid)
        lower = np.where(counts <= targets, mid, lower)
        upper = np.where(counts > targets, mid, upper)
    return (half * lower + half * upper).astype(alpha.dtype)
