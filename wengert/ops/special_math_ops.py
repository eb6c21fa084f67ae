"""Special functions of tf.math: erfc, erfinv, ndtri, erfcinv, lgamma, digamma, polygamma, the
regularized incomplete gamma functions igamma / igammac, the regularized incomplete beta function
betainc, the Hurwitz zeta function and lbeta.

Values come from SciPy (`scipy.special`, imported when a kernel first runs); float16 inputs are
evaluated in float32 and rounded back. A one-input function of a large array runs its slices on
all cores (framework/intra_op_threads.split_map; the same values). Derivatives are TensorFlow's, written in wengert ops so
they differentiate again (psi is digamma, psi_n polygamma, P = igamma, Q = igammac = 1 - P):

    erfc:   -2/sqrt(pi) exp(-x^2)         erfinv:  sqrt(pi)/2 exp(y^2)
    ndtri:  sqrt(2 pi) exp(y^2 / 2)       lgamma:  psi(x)          digamma:  psi_1(x)
    polygamma(n, x):  d/dx = psi_{n+1}(x), and no gradient for the order n
    igamma(a, x):     d/dx = exp(-x + (a - 1) log x - lgamma(a)),  d/da = IgammaGradA(a, x)
    igammac(a, x):    minus those of igamma
    betainc(a, b, x): d/dx = exp(xlog1py(b - 1, -x) + xlogy(a - 1, x) - log B(a, b)),
                      and no gradient for a and b (as in TensorFlow)
    zeta(x, q):       d/dq = -x zeta(x + 1, q), and no gradient for x

TensorFlow has no derivative of IgammaGradA itself, so a second derivative of igamma that passes
through d/da raises LookupError, as it does there. IgammaGradA, dP/da, is computed the way
TensorFlow (Eigen) and Cephes compute P: for x <= 1 or x <= a from the power series

    P(a, x) = x^a e^-x / Gamma(a + 1) * sum_n c_n,    c_0 = 1,  c_n = c_{n-1} x / (a + n),

otherwise from Q's continued fraction (Cephes `igamc`); each recurrence is carried along with its
derivative in a (forward mode on the recurrence), e.g. dc_n = (dc_{n-1} - c_{n-1} / (a + n))
x / (a + n), and the prefactor contributes log x - psi(a + 1).
"""
import numpy as np

from ..framework.errors import InvalidArgumentError
from ..framework.execute import execute
from ..framework.intra_op_threads import split_map
from ..framework.registry import defop, needs_grad
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.context import op_scope
from . import shape_rules
from .binary_math_ops import xlog1py, xlogy
from .elementwise import call_float, float_op
from .math_ops import square
from .reduce_ops import reduce_sum
from .unary_ops import exp, log

__all__ = ["erfc", "erfinv", "ndtri", "erfcinv", "lgamma", "digamma", "polygamma", "igamma",
           "igammac", "betainc", "zeta", "lbeta"]

_SQRT_PI = float(np.sqrt(np.pi))
_SQRT_2PI = float(np.sqrt(2.0 * np.pi))


def scipy_special():
    """scipy.special, imported on first use (SciPy is a runtime dependency of these kernels)."""
    try:
        import scipy.special  # imported when first needed
    except ImportError:  # pragma: no cover - SciPy is installed with wengert
        raise ImportError("wengert's special functions need SciPy: pip install scipy") from None
    return scipy.special


def scipy_kernel(fn_name):
    """A kernel applying scipy.special.<fn_name> and keeping the inputs' float dtype."""
    def kernel(*arrays):
        dtype = arrays[0].dtype
        work = np.float32 if dtype == np.float16 else dtype
        fn = getattr(scipy_special(), fn_name)
        with np.errstate(all="ignore"):
            if len(arrays) == 1:  # the cores share a large array (GELU's erfc: 22 ms a 1M)
                out = split_map(fn, np.asarray(arrays[0], work))
            else:
                out = fn(*[np.asarray(a, work) for a in arrays])
        return np.asarray(out).astype(dtype, copy=False)
    kernel.__name__ = fn_name
    return kernel


def float_rule(op_type):
    """Shape rule of an elementwise op on floats of one dtype, any number of inputs."""
    def rule(*inputs, **_):
        for t in inputs:
            shape_rules.check_float(t, f"{op_type}'s input")
        shape_rules.check_same_dtype(*inputs)
        out = inputs[0].shape
        for t in inputs[1:]:
            out = shape_rules.broadcast_shapes(out, t.shape)
        return out, inputs[0].dtype
    return rule


def float_operands(op_type, *values):
    """Tensors of one float dtype for an elementwise op: values that are not tensors (Python
    numbers, arrays) take the dtype of the first tensor among them."""
    anchor = next((v for v in values if isinstance(v, Tensor) or hasattr(v, "_as_tensor")),
                  values[0])
    dtype = convert_to_tensor(anchor).dtype
    out = tuple(convert_to_tensor(v) if isinstance(v, Tensor) or hasattr(v, "_as_tensor")
                else convert_to_tensor(np.asarray(v, dtype.as_numpy_dtype)) for v in values)
    for t in out:
        shape_rules.check_float(t, f"{op_type}'s input")
    try:
        shape_rules.check_same_dtype(*out)
    except InvalidArgumentError as err:
        raise InvalidArgumentError(f"{op_type}: {err.message}") from None
    return out


# -- error function family -----------------------------------------------------------------------
ERFC = float_op("Erfc", scipy_kernel("erfc"),
                 lambda x, y: exp(-square(x)) * (-2.0 / _SQRT_PI), args=("x",),
                 onnx=lambda ctx, op, x: ctx.node(  # ONNX has no Erfc: 1 - Erf(x)
                     "Sub", [ctx.scalar_like(1, op.inputs[0]), ctx.node("Erf", [x])]))
ERFINV = float_op("Erfinv", scipy_kernel("erfinv"),
                   lambda x, y: exp(square(y)) * (_SQRT_PI / 2.0), args=("x",))
NDTRI = float_op("Ndtri", scipy_kernel("ndtri"),
                  lambda x, y: exp(square(y) * 0.5) * _SQRT_2PI, args=("x",))


def erfc(x, name=None):
    """The complementary error function 1 - erf(x), accurate where erf(x) is near 1."""
    return call_float(ERFC, x, name)


def erfinv(x, name=None):
    """The inverse of erf on (-1, 1) (+-inf at +-1)."""
    return call_float(ERFINV, x, name)


def ndtri(x, name=None):
    """The inverse of the standard normal CDF, the quantile function, on (0, 1)."""
    return call_float(NDTRI, x, name)


def erfcinv(x, name=None):
    """The inverse of erfc on (0, 2): -ndtri(x / 2) / sqrt(2)."""
    with op_scope(name, "erfcinv"):
        x = convert_to_tensor(x)
        return ndtri(x * 0.5) * (-1.0 / np.sqrt(2.0))


# -- gamma family ----------------------------------------------------------------------------------
def _polygamma_kernel(n, x):
    special = scipy_special()
    work = np.float32 if x.dtype == np.float16 else x.dtype
    order = np.asarray(n, work)
    valid = (order == np.floor(order)) & (order >= 0)
    safe = np.where(valid, order, 0).astype(np.int64)
    with np.errstate(all="ignore"):
        out = np.where(valid, special.polygamma(safe, np.asarray(x, work)), np.nan)
    return out.astype(x.dtype, copy=False)


LGAMMA = float_op("Lgamma", scipy_kernel("gammaln"), lambda x, y: digamma(x), args=("x",))
DIGAMMA = float_op("Digamma", scipy_kernel("psi"),
                    lambda x, y: polygamma(np.ones((), x.dtype.as_numpy_dtype), x), args=("x",))


def _polygamma_grad(op, grad):
    n, x = op.inputs
    return None, grad * polygamma(n + 1.0, x)


def _polygamma_jvp(primals, tangents, outputs):
    (n, x), (_, t_x) = primals, tangents
    return None if t_x is None else t_x * polygamma(n + 1.0, x)


POLYGAMMA = defop("Polygamma", _polygamma_kernel, shape=float_rule("Polygamma"),
                  grad=_polygamma_grad, jvp=_polygamma_jvp, batch="safe", args=("a", "x"))


def lgamma(x, name=None):
    """log |Gamma(x)|."""
    return call_float(LGAMMA, x, name)


def digamma(x, name=None):
    """psi(x) = d/dx log Gamma(x)."""
    return call_float(DIGAMMA, x, name)


def polygamma(a, x, name=None):
    """psi_a(x), the a-th derivative of digamma; `a` a non-negative integer held in a float
    tensor (NaN elsewhere). No gradient with respect to a."""
    return execute(POLYGAMMA, float_operands("Polygamma", a, x), name=name)


# -- incomplete gamma ------------------------------------------------------------------------------
_EPS = np.finfo(np.float64).eps
_BIG, _BIG_INV = 4503599627370496.0, 2.22044604925031308085e-16
_MAX_TERMS = 20000


def _series_da(a, x):
    """dP/da from the power series of P (x <= 1 or x <= a), forward mode on its recurrence."""
    special = scipy_special()
    r, c, dc = a.copy(), np.ones_like(a), np.zeros_like(a)
    total, dtotal = np.ones_like(a), np.zeros_like(a)
    active = np.ones(a.shape, bool)
    for _ in range(_MAX_TERMS):
        if not active.any():
            break
        r = r + 1.0
        ratio = x / r
        dc = np.where(active, (dc - c / r) * ratio, 0.0)
        c = np.where(active, c * ratio, 0.0)
        total, dtotal = total + c, dtotal + dc
        active &= (np.abs(c) > _EPS * np.abs(total)) | (np.abs(dc) > _EPS * np.abs(dtotal))
    log_prefactor = a * np.log(x) - x - special.gammaln(a + 1.0)
    return np.exp(log_prefactor) * (dtotal + total * (np.log(x) - special.psi(a + 1.0)))


def _continued_fraction_da(a, x):
    """dQ/da from Cephes' continued fraction of Q (x > 1 and x > a), forward mode on it."""
    special = scipy_special()
    y, z, c = 1.0 - a, x + 2.0 - a, np.zeros_like(a)
    p2, q2, p1, q1 = np.ones_like(a), x.copy(), x + 1.0, z * x
    dp2, dq2, dp1, dq1 = np.zeros_like(a), np.zeros_like(a), np.zeros_like(a), -x
    ans, dans = p1 / q1, (dp1 - (p1 / q1) * dq1) / q1
    active = np.ones(a.shape, bool)
    for _ in range(_MAX_TERMS):
        if not active.any():
            break
        c, y, z = c + 1.0, y + 1.0, z + 2.0
        yc = y * c
        pk, qk = p1 * z - p2 * yc, q1 * z - q2 * yc
        dpk = dp1 * z - p1 - dp2 * yc + p2 * c       # dz/da = -1, d(yc)/da = -c
        dqk = dq1 * z - q1 - dq2 * yc + q2 * c
        ok = active & (qk != 0)
        safe_q = np.where(qk != 0, qk, 1.0)
        r = pk / safe_q
        dr = (dpk - r * dqk) / safe_q
        done = (np.abs(ans - r) <= _EPS * np.abs(r)) & (np.abs(dans - dr) <= _EPS * np.abs(dr))
        ans, dans = np.where(ok, r, ans), np.where(ok, dr, dans)
        p2, p1, q2, q1 = p1, pk, q1, qk
        dp2, dp1, dq2, dq1 = dp1, dpk, dq1, dqk
        big = np.abs(pk) > _BIG
        if big.any():
            p2, p1, q2, q1, dp2, dp1, dq2, dq1 = (np.where(big, v * _BIG_INV, v) for v in (
                p2, p1, q2, q1, dp2, dp1, dq2, dq1))
        active &= ~(ok & done)
    log_prefactor = a * np.log(x) - x - special.gammaln(a)
    return np.exp(log_prefactor) * (dans + ans * (np.log(x) - special.psi(a)))


def _igamma_grad_a_kernel(a, x):
    """dP(a, x)/da (float64 inside), 0 at x = 0 and x = inf, NaN outside the domain."""
    dtype = np.result_type(a, x)
    a64, x64 = (np.broadcast_to(np.asarray(v, np.float64), np.broadcast(a, x).shape).copy()
                for v in (a, x))
    out = np.full(a64.shape, np.nan)
    valid = (a64 > 0) & (x64 >= 0) & ~np.isnan(a64) & ~np.isnan(x64)
    edge = valid & ((x64 == 0) | np.isinf(x64))
    out[edge] = 0.0
    inner = valid & ~edge
    use_cf = inner & (x64 > 1.0) & (x64 > a64)
    use_series = inner & ~use_cf
    with np.errstate(all="ignore"):
        if use_series.any():
            out[use_series] = _series_da(a64[use_series], x64[use_series])
        if use_cf.any():
            out[use_cf] = -_continued_fraction_da(a64[use_cf], x64[use_cf])
    return out.astype(dtype, copy=False)


# No gradient is registered for IgammaGradA, as in TensorFlow (LookupError if one is needed).
IGAMMA_GRAD_A = defop("IgammaGradA", _igamma_grad_a_kernel, shape=float_rule("IgammaGradA"),
                      args=("a", "x"))


def _igamma_partial_x(a, x):
    return exp(-x + (a - 1.0) * log(x) - lgamma(a))


def _igamma_grad(op, grad, sign=1.0):
    a, x = op.inputs
    da = dx = None
    if needs_grad(op, 0):
        da = grad * execute(IGAMMA_GRAD_A, (a, x))
    if needs_grad(op, 1):
        dx = grad * _igamma_partial_x(a, x)
    if sign < 0:
        da, dx = (None if da is None else -da), (None if dx is None else -dx)
    return da, dx


def _igamma_jvp(sign):
    def jvp(primals, tangents, outputs):
        (a, x), (t_a, t_x) = primals, tangents
        terms = []
        if t_a is not None:
            terms.append(t_a * execute(IGAMMA_GRAD_A, (a, x)))
        if t_x is not None:
            terms.append(t_x * _igamma_partial_x(a, x))
        out = terms[0] if len(terms) == 1 else terms[0] + terms[1]
        return out if sign > 0 else -out
    return jvp


IGAMMA = defop("Igamma", scipy_kernel("gammainc"), shape=float_rule("Igamma"),
               grad=_igamma_grad, jvp=_igamma_jvp(1.0), batch="safe", args=("a", "x"))
IGAMMAC = defop("Igammac", scipy_kernel("gammaincc"), shape=float_rule("Igammac"),
                grad=lambda op, grad: _igamma_grad(op, grad, -1.0), jvp=_igamma_jvp(-1.0),
                batch="safe", args=("a", "x"))


def igamma(a, x, name=None):
    """The lower regularized incomplete gamma function P(a, x) = gamma(a, x) / Gamma(a)."""
    return execute(IGAMMA, float_operands("Igamma", a, x), name=name)


def igammac(a, x, name=None):
    """The upper regularized incomplete gamma function Q(a, x) = 1 - P(a, x)."""
    return execute(IGAMMAC, float_operands("Igammac", a, x), name=name)


# -- incomplete beta, zeta, lbeta ---------------------------------------------------------------
def _betainc_partial_x(a, b, x):
    log_beta = lgamma(a) + lgamma(b) - lgamma(a + b)
    return exp(xlog1py(b - 1.0, -x) + xlogy(a - 1.0, x) - log_beta)


def _betainc_jvp(primals, tangents, outputs):
    (a, b, x), t_x = primals, tangents[2]
    return None if t_x is None else t_x * _betainc_partial_x(a, b, x)


BETAINC = defop("Betainc", scipy_kernel("betainc"), shape=float_rule("Betainc"),
                grad=lambda op, grad: (None, None, grad * _betainc_partial_x(*op.inputs)),
                jvp=_betainc_jvp, batch="safe", args=("a", "b", "x"))


def betainc(a, b, x, name=None):
    """The regularized incomplete beta function I_x(a, b). Differentiable in x only (as in
    TensorFlow)."""
    return execute(BETAINC, float_operands("Betainc", a, b, x), name=name)


def _zeta_jvp(primals, tangents, outputs):
    (x, q), t_q = primals, tangents[1]
    return None if t_q is None else t_q * -x * zeta(x + 1.0, q)


ZETA = defop("Zeta", scipy_kernel("zeta"), shape=float_rule("Zeta"),
             grad=lambda op, grad: (None, grad * -op.inputs[0] * zeta(op.inputs[0] + 1.0,
                                                                      op.inputs[1])),
             jvp=_zeta_jvp, batch="safe", args=("x", "q"))


def zeta(x, q, name=None):
    """The Hurwitz zeta function sum_n (n + q)^-x (x > 1). Differentiable in q only."""
    return execute(ZETA, float_operands("Zeta", x, q), name=name)


def lbeta(x, name=None):
    """log |B(x)| along the last axis: sum(lgamma(x)) - lgamma(sum(x))."""
    with op_scope(name, "lbeta"):
        x = convert_to_tensor(x)
        if x.shape.rank == 0:
            raise InvalidArgumentError("lbeta needs a tensor of rank >= 1; its last axis holds "
                                       "the arguments of the multivariate beta function.")
        return reduce_sum(lgamma(x), -1) - lgamma(reduce_sum(x, -1))

