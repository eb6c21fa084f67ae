"""Keras 3's function transforms and reinterpretations: `vectorize`, `view`.

`vectorize(f, signature="(n),(n)->()")` lifts f, written for one example whose core axes the
signature names (none: f sees scalars), to batches: the leading (loop) axes of the arguments are
broadcast together and flattened into one, f is mapped over it with wengert's vectorized_map
(so it stays differentiable and runs batched where the ops allow), and the loop axes are
restored on every output. Arguments named in `excluded` (positions or keywords) pass to f as
they are.

`view` reinterprets a tensor's bytes as another dtype; wengert has no bitcast op yet, so only
views that keep the dtype are available.
"""
import functools
import re

from ...control_flow.vectorize import vectorized_map
from ...ops.broadcast_ops import broadcast_to
from ...ops.reshape_ops import reshape
from ...ops.shape_ops import broadcast_static_shape
from ...framework.tensor_shape import TensorShape
from .dtypes import convert, standardize_dtype

__all__ = ["vectorize", "view"]

_CORE = re.compile(r"\(([^()]*)\)")


def _parse_signature(signature):
    """([core axis names per input], [core axis names per output]) of "(m,n),(n)->(m)"."""
    if "->" not in signature:
        raise ValueError(f"keras.ops.vectorize: signature must look like '(n),(n)->()'; got "
                         f"{signature!r}.")
    inputs, outputs = signature.split("->")

    def dims(text):
        return [tuple(d.strip() for d in group.split(",") if d.strip())
                for group in _CORE.findall(text)]
    return dims(inputs), dims(outputs)


def _split_excluded(args, kwargs, excluded):
    fixed_args = {i: a for i, a in enumerate(args) if i in excluded}
    fixed_kwargs = {k: v for k, v in kwargs.items() if k in excluded}
    mapped = [a for i, a in enumerate(args) if i not in excluded]
    return fixed_args, fixed_kwargs, mapped


def _restored(out, loop_shape):
    def one(t):
        return reshape(t, list(loop_shape) + list(t.shape[1:]))
    return tuple(one(t) for t in out) if isinstance(out, (tuple, list)) else one(out)


def vectorize(pyfunc, *, excluded=None, signature=None):
    """pyfunc mapped over the loop axes of its arguments (see the module docstring)."""
    excluded = set(excluded or ())

    @functools.wraps(pyfunc)
    def wrapped(*args, **kwargs):
        fixed_args, fixed_kwargs, mapped = _split_excluded(args, kwargs, excluded)
        mapped = [convert(a) for a in mapped]
        cores = [()] * len(mapped) if signature is None else _parse_signature(signature)[0]
        if len(cores) != len(mapped):
            raise ValueError(f"keras.ops.vectorize: the signature {signature!r} names "
                             f"{len(cores)} inputs; the call passes {len(mapped)}.")
        loops = [a.shape[:a.shape.rank - len(c)] for a, c in zip(mapped, cores)]
        loop_shape = functools.reduce(broadcast_static_shape, loops, TensorShape([]))
        flat = [reshape(broadcast_to(a, loop_shape.as_list() + list(a.shape[len(lp):])),
                        [-1] + list(a.shape[len(lp):])) for a, lp in zip(mapped, loops)]

        def one(example):
            it = iter(example)
            call = [fixed_args[i] if i in fixed_args else next(it)
                    for i in range(len(fixed_args) + len(example))]
            return pyfunc(*call, **fixed_kwargs, **{k: v for k, v in kwargs.items()
                                                     if k not in fixed_kwargs})
        return _restored(vectorized_map(one, tuple(flat)), loop_shape.as_list())
    return wrapped


def view(x, dtype=None):
    """x's bytes seen as `dtype`; only a view that keeps x's dtype is available (wengert has no
    bitcast op)."""
    x = convert(x)
    if dtype is None or standardize_dtype(dtype) == x.dtype.name:
        return x
    raise NotImplementedError(
        f"keras.ops.view: viewing {x.dtype.name} data as {standardize_dtype(dtype)} needs a "
        "bitcast, which wengert does not have yet; use keras.ops.cast to convert values "
        "instead.")
