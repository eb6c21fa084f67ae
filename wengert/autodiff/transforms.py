"""JAX-style transforms of Python functions of wengert tensors: grad, vjp, jvp, Jacobians (the
`wengert.func` namespace).

    import wengert as tf
    from wengert import func

    f = lambda x: tf.reduce_sum(tf.sin(x) * x)
    func.grad(f)(x)                  # df/dx, x's shape
    func.hessian(f)(x)               # d2f/dx2, x.shape + x.shape
    func.hvp(f, (x,), (v,))          # H v by forward over reverse, no Hessian built

Each transform returns a function, so they compose: grad(grad(f)), jacfwd(jacrev(f)). They are
built on the tape and the forward accumulator:
- grad / value_and_grad / vjp: one GradientTape over `fun`, one reverse pass (vjp's function can
  be called again for other cotangents);
- jvp: one ForwardAccumulator pass, giving f(x) and J u together;
- jacrev: one evaluation and one reverse pass per output element (the tape's jacobian);
  jacfwd: one forward pass per input element. Use jacrev for wide Jacobians (few outputs),
  jacfwd for tall ones (few inputs); hessian = jacfwd(jacrev(f)).
- hvp(f, x, v) = jvp(grad(f), x, v): forward over reverse, about the cost of two gradients.

Arguments follow JAX: `argnums` picks the positional arguments to differentiate (an int, or a
tuple giving a tuple of results); for grad/vjp/jvp each may be a tensor or a nested structure
(list, tuple, dict) of them, and the result has the same structure. Python and NumPy values are
converted to tensors first (floats become float32). Differentiating integer arguments, or taking
grad of a function whose output is not a scalar, is refused with an error that says what to do.
"""
import functools

import numpy as np

from ..framework.tensor import Tensor, TensorLike, convert_to_tensor
from ..ops.array_ops import identity, stack
from ..ops.reshape_ops import reshape
from ..util import nest
from .forward import ForwardAccumulator
from .tape import GradientTape

__all__ = ["grad", "value_and_grad", "vjp", "jvp", "jacfwd", "jacrev", "hessian", "hvp"]


# -- arguments ------------------------------------------------------------------------------
def _argnums(argnums, nargs, who):
    many = isinstance(argnums, (tuple, list))
    nums = tuple(argnums) if many else (argnums,)
    for i in nums:
        if not isinstance(i, int) or not -nargs <= i < nargs:
            raise ValueError(f"{who}: argnums {argnums!r} out of range for a call with {nargs} "
                             "positional arguments.")
    return tuple(i % nargs for i in nums), many


def _differentiable(x, who, where):
    """`x` as a floating-point tensor (variables kept), or a TypeError explaining the fix."""
    if not isinstance(x, TensorLike):
        try:
            x = convert_to_tensor(x)
        except (TypeError, ValueError) as err:
            raise TypeError(f"{who}: {where} is a {type(x).__name__}, which is not a tensor: "
                            f"{err}") from None
    if not x.dtype.is_floating:
        raise TypeError(
            f"{who} requires real-valued (floating-point) inputs, but {where} has dtype "
            f"{x.dtype.name} (shape {x.shape}). Pass a float value (e.g. 2.0 instead of 2, or "
            f"np.float32 arrays), or cast it first: tf.cast(x, tf.float32). To differentiate "
            "with respect to other arguments only, leave this one out of argnums.")
    return x


def _convert_args(args, nums, who):
    """args with the differentiated ones converted: (new args, flat differentiated leaves)."""
    args, leaves = list(args), []
    for i in nums:
        flat = [_differentiable(x, who, f"argument {i}") for x in nest.flatten(args[i])]
        args[i] = nest.pack_sequence_as(args[i], flat) if nest.is_nested(args[i]) else flat[0]
        leaves.append(flat)
    return args, leaves


def _pack_grads(args, nums, many, flat_grads):
    out, k = [], 0
    for i in nums:
        n = len(nest.flatten(args[i]))
        part = flat_grads[k:k + n]
        k += n
        out.append(nest.pack_sequence_as(args[i], part) if nest.is_nested(args[i]) else part[0])
    return tuple(out) if many else out[0]


def _split_aux(out, has_aux, who):
    if not has_aux:
        return out, None
    if not isinstance(out, (tuple, list)) or len(out) != 2:
        raise TypeError(f"{who}: has_aux=True requires the function to return a pair (output, "
                        f"aux), but it returned {type(out).__name__}.")
    return out[0], out[1]


def _scalar_output(value, who):
    if isinstance(value, (tuple, list, dict)):
        raise TypeError(f"Gradient only defined for scalar-output functions. Output was a "
                        f"{type(value).__name__} of {len(value)} items. If the function returns "
                        "(value, auxiliary data), pass has_aux=True.")
    if not isinstance(value, TensorLike):
        try:
            value = convert_to_tensor(value)
        except (TypeError, ValueError):
            raise TypeError(f"Gradient only defined for scalar-output functions. Output was "
                            f"{value!r:.80}.") from None
    if value.shape.rank != 0:
        raise TypeError(f"Gradient only defined for scalar-output functions. Output had shape: "
                        f"{tuple(value.shape)}. Reduce it first (tf.reduce_sum / reduce_mean), "
                        f"or use {who.replace('grad', 'vjp')}/jacrev for non-scalar outputs.")
    if not value.dtype.is_floating:
        raise TypeError(f"{who} requires real-valued outputs (a floating-point dtype), but the "
                        f"output has dtype {value.dtype.name}.")
    return value


# -- reverse mode -----------------------------------------------------------------------------
def value_and_grad(fun, argnums=0, has_aux=False):
    """A function returning (fun(*args), gradient of fun with respect to args[argnums]);
    ((value, aux), gradient) with has_aux=True. fun must return a scalar."""
    @functools.wraps(fun)
    def value_and_grad_f(*args, **kwargs):
        nums, many = _argnums(argnums, len(args), "value_and_grad")
        args, leaves = _convert_args(args, nums, "grad")
        flat = [x for part in leaves for x in part]
        with GradientTape(watch_accessed_variables=False) as tape:
            tape.watch(flat)
            out = fun(*args, **kwargs)
        value, aux = _split_aux(out, has_aux, "value_and_grad")
        value = _scalar_output(value, "grad")
        grads = tape.gradient(value, flat, unconnected_gradients="zero")
        result = _pack_grads(args, nums, many, grads)
        return ((value, aux) if has_aux else value), result
    return value_and_grad_f


def grad(fun, argnums=0, has_aux=False):
    """The gradient of scalar-valued `fun` with respect to args[argnums] (a tuple for a tuple
    of argnums); (gradient, aux) with has_aux=True."""
    value_and_grad_f = value_and_grad(fun, argnums, has_aux)

    @functools.wraps(fun)
    def grad_f(*args, **kwargs):
        out, g = value_and_grad_f(*args, **kwargs)
        return (g, out[1]) if has_aux else g
    return grad_f


def vjp(fun, *primals, has_aux=False):
    """(fun(*primals), vjp_fn) where vjp_fn(cotangent) returns a tuple with one cotangent per
    primal; (out, vjp_fn, aux) with has_aux=True. vjp_fn may be called several times."""
    nums = tuple(range(len(primals)))
    args, leaves = _convert_args(primals, nums, "vjp")
    flat = [x for part in leaves for x in part]
    with GradientTape(persistent=True, watch_accessed_variables=False) as tape:
        tape.watch(flat)
        out = fun(*args)
    out, aux = _split_aux(out, has_aux, "vjp")
    flat_out = [convert_to_tensor(o) for o in nest.flatten(out)]

    def vjp_fn(cotangent):
        flat_ct = nest.flatten(cotangent)
        if len(flat_ct) != len(flat_out):
            raise ValueError(f"vjp_fn: the cotangent has {len(flat_ct)} parts but the output "
                             f"has {len(flat_out)}; give one cotangent per output tensor.")
        seeds = []
        for c, o in zip(flat_ct, flat_out):
            c = convert_to_tensor(c, dtype=o.dtype) if not isinstance(c, Tensor) else c
            if tuple(c.shape) != tuple(o.shape) or c.dtype != o.dtype:
                raise ValueError(f"vjp_fn: a cotangent of shape {tuple(c.shape)} and dtype "
                                 f"{c.dtype.name} was given for an output of shape "
                                 f"{tuple(o.shape)} and dtype {o.dtype.name}; they must match.")
            seeds.append(c)
        grads = tape.gradient(flat_out, flat, output_gradients=seeds,
                              unconnected_gradients="zero")
        return _pack_grads(args, nums, True, grads)
    return (out, vjp_fn, aux) if has_aux else (out, vjp_fn)


# -- forward mode -------------------------------------------------------------------------------
def jvp(fun, primals, tangents, has_aux=False):
    """(fun(*primals), J tangents): the output and its directional derivative along
    `tangents` (same structure, shapes and dtypes as `primals`), by forward mode."""
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise TypeError("jvp: primals and tangents must be tuples (or lists) with one entry per "
                        f"positional argument, got {type(primals).__name__} and "
                        f"{type(tangents).__name__}; write jvp(f, (x,), (v,)).")
    if len(primals) != len(tangents):
        raise ValueError(f"jvp: {len(primals)} primals but {len(tangents)} tangents.")
    nums = tuple(range(len(primals)))
    args, leaves = _convert_args(primals, nums, "jvp")
    flat = [x for part in leaves for x in part]
    flat_t = [t for tangent in tangents for t in nest.flatten(tangent)]
    if len(flat_t) != len(flat):
        raise ValueError("jvp: primals and tangents must have the same structure.")
    flat_t = [_tangent_for(p, t) for p, t in zip(flat, flat_t)]
    flat, args = _distinct(flat, args, nums)
    with ForwardAccumulator(flat, flat_t) as acc:
        out = fun(*args)
    out, aux = _split_aux(out, has_aux, "jvp")
    out_tangents = nest.map_structure(
        lambda o: acc.jvp(convert_to_tensor(o), unconnected_gradients="zero"), out)
    return (out, out_tangents, aux) if has_aux else (out, out_tangents)


def _tangent_for(primal, tangent):
    t = convert_to_tensor(tangent, dtype=primal.dtype) if not isinstance(tangent, Tensor) else (
        tangent)
    if tuple(t.shape) != tuple(primal.shape) or t.dtype != primal.dtype:
        raise ValueError(f"jvp: primal and tangent arguments must have equal shapes and dtypes; "
                         f"got a primal of shape {tuple(primal.shape)} ({primal.dtype.name}) "
                         f"and a tangent of shape {tuple(t.shape)} ({t.dtype.name}).")
    return t


def _distinct(flat, args, nums):
    """One primal per accumulator slot: a tensor passed twice gets an identity copy."""
    if len({id(x) for x in flat}) == len(flat):
        return flat, args
    seen, new = set(), []
    for x in flat:
        new.append(identity(x) if id(x) in seen else x)
        seen.add(id(x))
    k, args = 0, list(args)
    for i in nums:
        n = len(nest.flatten(args[i]))
        part = new[k:k + n]
        k += n
        args[i] = nest.pack_sequence_as(args[i], part) if nest.is_nested(args[i]) else part[0]
    return new, args


# -- Jacobians and Hessians ---------------------------------------------------------------------
def _tensor_args(args, nums, who):
    args = list(args)
    for i in nums:
        if nest.is_nested(args[i]):
            raise TypeError(f"{who}: argument {i} is a {type(args[i]).__name__}; {who} "
                            "differentiates tensor arguments (pass each tensor as its own "
                            "argument and list them in argnums).")
        args[i] = _differentiable(args[i], who, f"argument {i}")
    return args


def jacfwd(fun, argnums=0, has_aux=False):
    """The Jacobian of `fun` by forward mode, one pass per input element: each output leaf
    becomes a tensor of shape output.shape + input.shape (a tuple over argnums if a tuple)."""
    @functools.wraps(fun)
    def jacfwd_f(*args):
        nums, many = _argnums(argnums, len(args), "jacfwd")
        args = _tensor_args(args, nums, "jacfwd")
        per_arg, out, aux = [], None, None
        for i in nums:
            x = args[i]
            shape = tuple(x.shape)
            columns = []
            for j in range(int(np.prod(shape, dtype=np.int64))):
                basis = np.zeros(shape, x.dtype.as_numpy_dtype)
                basis.reshape(-1)[j] = 1
                result = jvp(lambda xi: fun(*args[:i], xi, *args[i + 1:]), (x,),
                             (Tensor(basis),), has_aux=has_aux)
                out, tangent, aux = result if has_aux else (*result, None)
                columns.append(nest.flatten(tangent))
            if not columns:
                raise ValueError("jacfwd: an argument with no elements has an empty Jacobian.")
            flat_out = nest.flatten(out)
            per_arg.append(nest.pack_sequence_as(out, [
                reshape(stack([col[k] for col in columns], axis=-1),
                        tuple(o.shape) + shape) for k, o in enumerate(flat_out)]))
        jac = tuple(per_arg) if many else per_arg[0]
        return (jac, aux) if has_aux else jac
    return jacfwd_f


def jacrev(fun, argnums=0, has_aux=False):
    """The Jacobian of `fun` by reverse mode, one reverse pass per output element over one
    recording: each output leaf becomes output.shape + input.shape (a tuple over argnums)."""
    @functools.wraps(fun)
    def jacrev_f(*args):
        nums, many = _argnums(argnums, len(args), "jacrev")
        args = _tensor_args(args, nums, "jacrev")
        sources = [args[i] for i in nums]
        with GradientTape(persistent=True, watch_accessed_variables=False) as tape:
            tape.watch(sources)
            out = fun(*args)
        out, aux = _split_aux(out, has_aux, "jacrev")
        jacs = [tape.jacobian(convert_to_tensor(o), sources, unconnected_gradients="zero")
                for o in nest.flatten(out)]
        jac = nest.pack_sequence_as(out, [tuple(j) if many else j[0] for j in jacs])
        return (jac, aux) if has_aux else jac
    return jacrev_f


def hessian(fun, argnums=0, has_aux=False):
    """The Hessian of scalar `fun`: shape x.shape + x.shape (forward over reverse)."""
    return jacfwd(jacrev(fun, argnums, has_aux), argnums, has_aux)


def hvp(fun, primals, tangents):
    """The Hessian of scalar `fun` at `primals` times `tangents`, by forward over reverse
    (never building the Hessian): a tuple with one product per primal, or a single tensor
    when `primals` is a single tensor."""
    single = not isinstance(primals, (tuple, list))
    primals = (primals,) if single else tuple(primals)
    tangents = (tangents,) if single else tuple(tangents)
    gradient = grad(fun, argnums=tuple(range(len(primals))))
    _, product = jvp(gradient, primals, tangents)
    return product[0] if single else product
