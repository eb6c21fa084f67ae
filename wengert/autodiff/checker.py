"""Checking gradients against finite differences, to any order.

For f: R^n -> R^m, a random input direction u and a random output cotangent v, reverse mode gives
    <v, J u> = sum_i <vjp(v)_i, u_i>
and central differences give the same number independently of any gradient rule:
    <v, J u> ~= (<v, f(x + e u)> - <v, f(x - e u)>) / (2 e),   error O(e^2).
Forward mode gives J u directly (a ForwardAccumulator with tangents u), checked as <v, J u>
against the same finite difference. Checking one random projection per function catches wrong
rules with probability one, at the cost of two evaluations of f and one pass per mode (HIPS
autograd's `check_grads` does the same).

Order 2 applies the same checks to the derivative functions x -> vjp_f(x, v) (mode "rev") and
x -> jvp_f(x, u) (mode "fwd"), so with both modes it covers reverse over reverse, forward over
reverse (Hessian-vector products), reverse over forward and forward over forward; order k
recurses k - 1 times. Use float64 inputs: float32 finite differences are too coarse to judge.
"""
import numpy as np

from ..framework.tensor import Tensor, convert_to_tensor
from ..util import nest
from .forward import ForwardAccumulator
from .tape import GradientTape

__all__ = ["check_grads", "numerical_jvp", "GradientCheckError"]


class GradientCheckError(AssertionError):
    """Reverse-mode and finite-difference directional derivatives disagree."""


def _as_array(a):
    if isinstance(a, Tensor):
        return np.asarray(a.numpy())
    return np.asarray(a) if isinstance(a, (np.ndarray, np.generic)) else a


def _flat_outputs(f, args):
    out = f(*[convert_to_tensor(a) if isinstance(a, np.ndarray) else a for a in args])
    return [convert_to_tensor(o) for o in nest.flatten(out) if o is not None]


def _inner(vs, outs):
    return sum(float(np.sum(np.asarray(v) * np.asarray(o.numpy(), dtype=np.float64)))
               for v, o in zip(vs, outs))


def numerical_jvp(f, args, wrt, directions, cotangents, eps):
    """(<v, f(x + eps u)> - <v, f(x - eps u)>) / (2 eps) for the args listed in `wrt`."""
    def shifted(sign):
        moved = list(args)
        for i, u in zip(wrt, directions):
            moved[i] = np.asarray(args[i] + sign * eps * u)
        return _inner(cotangents, _flat_outputs(f, moved))
    return (shifted(1.0) - shifted(-1.0)) / (2 * eps)


def _vjp_function(f, wrt, cotangents):
    """x -> gradients of <v, f(x)> with respect to the `wrt` args (zeros where None)."""
    def g(*args):
        tensors = [convert_to_tensor(a) if isinstance(a, np.ndarray) else a for a in args]
        with GradientTape() as tape:
            for i in wrt:
                tape.watch(tensors[i])
            outs = _flat_outputs(f, tensors)
            seeds = [convert_to_tensor(v.astype(o.dtype.as_numpy_dtype)) for v, o in
                     zip(cotangents, outs)]
        grads = tape.gradient(outs, [tensors[i] for i in wrt], output_gradients=seeds,
                              unconnected_gradients="zero")
        return grads
    return g


def _jvp_function(f, wrt, directions):
    """x -> the tangents of f's outputs along `directions` of the `wrt` args (zeros where
    unconnected), by forward mode."""
    def g(*args):
        tensors = [convert_to_tensor(a) if isinstance(a, np.ndarray) else a for a in args]
        primals = [tensors[i] for i in wrt]
        tangents = [convert_to_tensor(np.asarray(u, dtype=p.dtype.as_numpy_dtype))
                    for u, p in zip(directions, primals)]
        with ForwardAccumulator(primals, tangents) as acc:
            outs = _flat_outputs(f, tensors)
        return [acc.jvp(o, unconnected_gradients="zero") for o in outs]
    return g


_MODES = ("fwd", "rev")


def check_grads(f, args, order=2, modes=("rev",), wrt=None, eps=1e-6, rtol=1e-5, atol=1e-6,
                seed=0):
    """Check derivatives of `f` at `args` up to `order` against finite differences.

    f: function of tensors returning a tensor or a structure of tensors.
    args: arrays or tensors (float64 for the differentiated ones). wrt: indices of the args to
    differentiate (default: all floating-point ones). modes: "rev" checks vector-Jacobian
    products (GradientTape), "fwd" Jacobian-vector products (ForwardAccumulator); at order 2 and
    above each mode's derivative function is checked again in every mode.
    Raises GradientCheckError on a mismatch.
    """
    modes = (modes,) if isinstance(modes, str) else tuple(modes)
    if not modes or any(m not in _MODES for m in modes):
        raise ValueError(f"check_grads: modes must be a non-empty subset of {_MODES}, got "
                         f"{modes!r}.")
    rng = np.random.default_rng(seed)
    arrays = [_as_array(a) for a in args]
    if wrt is None:
        wrt = [i for i, a in enumerate(arrays)
               if isinstance(a, np.ndarray) and a.dtype.kind == "f"]
    name = getattr(f, "__name__", repr(f))
    _check(f, arrays, wrt, order, modes, rng, (eps, rtol, atol), name, [])
    return True


def _check(fn, arrays, wrt, order, modes, rng, tolerances, name, path):
    """One level: compare each mode with finite differences, then recurse into the derivative
    functions. `path` names the modes of the levels above (e.g. ["rev"] for forward over rev)."""
    eps, rtol, atol = tolerances
    outs = _flat_outputs(fn, arrays)
    cotangents = [rng.standard_normal(o.shape) for o in outs]
    directions = [rng.standard_normal(np.shape(arrays[i])) for i in wrt]
    numeric = None
    for mode in modes:
        if mode == "rev":
            grads = _vjp_function(fn, wrt, cotangents)(*arrays)
            analytic = sum(float(np.sum(g.numpy() * u)) for g, u in zip(grads, directions))
        else:
            tangents = _jvp_function(fn, wrt, directions)(*arrays)
            analytic = _inner(cotangents, tangents)
        if numeric is None:
            numeric = numerical_jvp(fn, arrays, wrt, directions, cotangents, eps)
        if not np.isclose(analytic, numeric, rtol=rtol, atol=atol):
            how = " over ".join(_NAMES[m] for m in [mode] + path[::-1])
            raise GradientCheckError(
                f"order-{len(path) + 1} derivative of {name} is wrong: {how} mode gives "
                f"{analytic!r} along a random direction, finite differences give {numeric!r} "
                f"(difference {abs(analytic - numeric):.3g}).")
    if len(path) + 1 < order:
        for mode in modes:
            derivative = (_vjp_function(fn, wrt, cotangents) if mode == "rev"
                          else _jvp_function(fn, wrt, directions))
            _check(derivative, arrays, wrt, order, modes, rng, tolerances, name, path + [mode])


_NAMES = {"rev": "reverse", "fwd": "forward"}


def check_grads_both_modes(f, args, order=2, modes=("fwd", "rev"), wrt=None, eps=1e-6, rtol=1e-5,
                           atol=1e-6, seed=0):
    """`check_grads` in forward and reverse mode unless told otherwise: the public
    `wengert.testing.check_grads`."""
    return check_grads(f, args, order=order, modes=modes, wrt=wrt, eps=eps, rtol=rtol,
                       atol=atol, seed=seed)
