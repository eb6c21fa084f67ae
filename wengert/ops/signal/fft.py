"""Discrete Fourier transforms over the innermost axes: TensorFlow's FFT, IFFT, RFFT, IRFFT (1-D,
2D, 3D and N-D), with the gradients of TensorFlow's fft_ops.

For a length-N axis, FFT(x)_k = sum_n x_n e^{-2 pi i k n / N} and IFFT = conj(FFT(conj(.))) / N;
over several axes the transforms compose, N being the product of their lengths. Each transform
is linear, so its JVP is itself and its VJP is its adjoint (TensorFlow's convention for complex
numbers, complex_parts.py, makes the VJP of a linear map its conjugate transpose):

    FFT:    x_bar = N IFFT(g)                 IFFT:   x_bar = FFT(g) / N
    RFFT:   x_bar = real(N IFFT(g padded with zeros to the full spectrum))
    IRFFT:  X_bar = RFFT(g) * m / N,   m = [1, 2, ..., 2, 1 if N is even]

RFFT(x) is the first N // 2 + 1 entries of FFT(x) for real x, so its adjoint is the full
spectrum's with the dropped entries zero, real because x is. IRFFT reads each entry k of the
half spectrum twice (as X_k and as conj(X_k) at N - k) except the zero frequency and, for even
N, the Nyquist one: hence the weights m (TensorFlow's mask). An `fft_length` shorter than the
input crops it, longer zero-pads it; the gradient is then cropped or padded back to the input's
shape (with sizes read when the graph runs where they are unknown while it is built). The N-D
transforms of a tensor of unknown rank move their axes last with an einsum. The rules are written
with these ops, so they differentiate again.

`fftshift` rolls each axis by half its length (`ifftshift` by minus half) so the zero frequency
moves to the centre and back.
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.op_dtype_constraints import check_fixed_value
from ...framework.registry import defop, linear
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ...framework.context import op_scope
from ..cast_ops import cast
from ..einsum_ops import axes_mover, einsum
from ..complex_parts import complex as make_complex, real_part, zero_of
from ..array_ops import concat, stack
from ..broadcast_ops import zeros_like
from ..creation_ops import range as range_, rank as rank_of, shape as shape_of, size as size_of, zeros
from ..manip_ops import roll
from ..math_ops import equal, maximum
from ..pad_ops import pad
from ..reduce_ops import reduce_prod
from ..reshape_ops import transpose
from ..shape_rules import normalize_axis, static_shape
from .frames import known_shape

__all__ = ["fft", "ifft", "fft2d", "ifft2d", "fft3d", "ifft3d", "rfft", "irfft", "rfft2d",
           "irfft2d", "rfft3d", "irfft3d", "fft_n", "ifft_n", "rfft_n", "irfft_n", "fftshift",
           "ifftshift"]

_TO_COMPLEX = {"float32": dtypes.complex64, "float64": dtypes.complex128}


def _axes(rank):
    return tuple(range(-rank, 0))


def _size(lengths):
    return float(np.prod(lengths)) if lengths else 1.0


# -- kernels ---------------------------------------------------------------------------------------
def _complex_kernel(transform):
    def kernel(x, rank, fft_length):
        return transform(x, s=fft_length, axes=_axes(rank)).astype(x.dtype, copy=False)
    return kernel


def _rfft_kernel(x, rank, fft_length):
    out = np.fft.rfftn(x, s=fft_length, axes=_axes(rank))
    return out.astype(np.complex64 if x.dtype == np.float32 else np.complex128, copy=False)


def _irfft_kernel(x, rank, fft_length):
    out = np.fft.irfftn(x, s=fft_length, axes=_axes(rank))
    return out.astype(np.float32 if x.dtype == np.complex64 else np.float64, copy=False)


# -- shape rules -----------------------------------------------------------------------------------
def _check_rank(x, rank):
    if x.shape.rank is not None and x.shape.rank < rank:
        raise InvalidArgumentError(f"needs a tensor of rank >= {rank}, got shape {x.shape}.")


def _with_lengths(x, rank, lengths):
    if x.shape.rank is None or lengths is None:
        return TensorShape(None)
    dims = list(x.shape.as_list())
    dims[len(dims) - rank:] = lengths
    return TensorShape(dims)


def _complex_rule(x, rank, fft_length):
    _check_rank(x, rank)
    if not x.dtype.is_complex:
        raise InvalidArgumentError(f"needs a complex64 or complex128 tensor, got {x.dtype.name}; "
                                   "use tf.cast(x, tf.complex64) or tf.signal.rfft for real input.")
    shape = x.shape if fft_length is None else _with_lengths(x, rank, fft_length)
    return shape, x.dtype


def _inferred(x, rank, last):
    """The output's last `rank` sizes when fft_length is left to the run time: the input's,
    the last one mapped by `last` (unknown stays unknown)."""
    if x.shape.rank is None:
        return None
    dims = list(x.shape.as_list()[-rank:])
    dims[-1] = None if dims[-1] is None else last(dims[-1])
    return dims


def _rfft_rule(x, rank, fft_length):
    _check_rank(x, rank)
    if x.dtype.name not in _TO_COMPLEX:
        raise InvalidArgumentError(f"needs a float32 or float64 tensor, got {x.dtype.name}.")
    dims = (_inferred(x, rank, lambda n: n // 2 + 1) if fft_length is None
            else fft_length[:-1] + (fft_length[-1] // 2 + 1,))
    return _with_lengths(x, rank, dims), _TO_COMPLEX[x.dtype.name]


def _irfft_rule(x, rank, fft_length):
    _check_rank(x, rank)
    if not x.dtype.is_complex:
        raise InvalidArgumentError(f"needs a complex64 or complex128 tensor, got {x.dtype.name}.")
    dims = _inferred(x, rank, lambda m: 2 * (m - 1)) if fft_length is None else fft_length
    return _with_lengths(x, rank, dims), x.dtype.real_dtype


# -- gradients -------------------------------------------------------------------------------------
def _fit(t, like, rank):
    """t cropped or zero-padded on its last `rank` axes to the sizes `like` has there (read when
    the graph runs where they are unknown while it is built)."""
    have, want = static_shape(t), static_shape(like)
    if have is None or want is None or None in have[-rank:] + want[-rank:]:
        sizes = shape_of(like)[-rank:]
        t = t[(Ellipsis,) + tuple(slice(0, sizes[i]) for i in range(rank))]
        return _pad_end(t, maximum(sizes - shape_of(t)[-rank:], 0))
    if have[-rank:] == want[-rank:]:
        return t
    crop = tuple(slice(0, min(h, w)) for h, w in zip(have[-rank:], want[-rank:]))
    t = t[(Ellipsis,) + crop]
    extra = [w - min(h, w) for h, w in zip(have[-rank:], want[-rank:])]
    return _pad_end(t, extra) if any(extra) else t


def _pad_end(t, amounts):
    """t zero-padded at the end of its last len(amounts) axes by `amounts` (ints, or a vector
    known only when the graph runs; t's rank may be unknown too)."""
    shape = static_shape(t)
    if shape is not None and isinstance(amounts, (list, tuple)) and all(
            isinstance(e, (int, np.integer)) for e in amounts):
        return pad(t, [[0, 0]] * (len(shape) - len(amounts)) + [[0, int(e)] for e in amounts])
    amounts = stack(amounts) if isinstance(amounts, (list, tuple)) else amounts
    lead = zeros(stack([rank_of(t) - size_of(amounts), 2]), dtypes.int32)
    return pad(t, concat([lead, stack([zeros_like(amounts), amounts], axis=1)], 0))


def _transform_size(g, rank):
    """N, the product of g's last `rank` dimensions: a number, or (dimensions known only when the
    graph runs) a tensor of g's dtype."""
    shape = static_shape(g)
    if shape is not None and None not in shape[-rank:]:
        return _size(shape[-rank:])
    n = reduce_prod(shape_of(g)[-rank:])
    return make_complex(cast(n, g.dtype.real_dtype), zero_of(g.dtype.real_dtype))


def _suffix(op):
    """"", "2D", "3D" or "ND": the gradient uses the inverse op of the same family."""
    return op.type[op.type.index("FFT") + 3:]


def _fft_grad(op, g):
    rank, lengths = op.get_attr("rank"), op.get_attr("fft_length")
    forward = not op.type.startswith("IFFT")
    inverse = OPS[("IFFT" if forward else "FFT") + _suffix(op)]
    back = execute(inverse, (g,), {"rank": rank, "fft_length": None})
    n = _size(lengths) if lengths is not None else _transform_size(g, rank)
    back = back * n if forward else back / n
    return _fit(back, op.inputs[0], rank) if lengths is not None else back


def _rfft_grad(op, g):
    rank, lengths = op.get_attr("rank"), op.get_attr("fft_length")
    if lengths is None:  # sizes read at run time: the input's
        x = op.inputs[0]
        dropped = shape_of(x)[-1] - shape_of(g)[-1]  # N - (N // 2 + 1) conjugate bins
        back = execute(OPS["IFFT" + _suffix(op)], (_pad_last(g, dropped),),
                       {"rank": rank, "fft_length": None})
        n = _transform_size(x, rank)
        return real_part(back) * (n if isinstance(n, float) else real_part(n))
    full = _pad_last(g, lengths[-1] - (lengths[-1] // 2 + 1))
    back = execute(OPS["IFFT" + _suffix(op)], (full,), {"rank": rank, "fft_length": None})
    return _fit(real_part(back) * _size(lengths), op.inputs[0], rank)


def _pad_last(t, amount):
    return _pad_end(t, [amount])


def _hermitian_weights(half, even, dtype):
    """[1, 2, ..., 2, 1 if the length is even else 2] / 1: how often IRFFT reads each bin."""
    if isinstance(half, int):
        weights = np.full(half, 2.0)
        weights[0] = 1.0
        if even:
            weights[-1] = 1.0
        return convert_to_tensor(weights, dtype)
    k = range_(half)  # half known only at run time; the length is then 2 (half - 1): even
    return 2.0 - cast(equal(k, 0), dtype) - cast(equal(k, half - 1), dtype)


def _irfft_grad(op, g):
    rank, lengths = op.get_attr("rank"), op.get_attr("fft_length")
    real_dtype = g.dtype
    if lengths is None:
        weights = _hermitian_weights(shape_of(op.inputs[0])[-1], True, real_dtype)
        n = _transform_size(g, rank)
        spectrum = execute(OPS["RFFT" + _suffix(op)], (g,), {"rank": rank, "fft_length": None})
        scale = 1.0 / n if isinstance(n, float) else 1.0 / real_part(n)
        return spectrum * make_complex(weights * scale, zero_of(real_dtype))
    weights = _hermitian_weights(lengths[-1] // 2 + 1, lengths[-1] % 2 == 0, real_dtype)
    spectrum = execute(OPS["RFFT" + _suffix(op)], (g,), {"rank": rank, "fft_length": lengths})
    mask = make_complex(weights * (1.0 / _size(lengths)), zero_of(real_dtype))
    return _fit(spectrum * mask, op.inputs[0], rank)


_FAMILIES = (("FFT", _complex_kernel(np.fft.fftn), _complex_rule, _fft_grad),
             ("IFFT", _complex_kernel(np.fft.ifftn), _complex_rule, _fft_grad),
             ("RFFT", _rfft_kernel, _rfft_rule, _rfft_grad),
             ("IRFFT", _irfft_kernel, _irfft_rule, _irfft_grad))
def _raw(family, suffix):  # noqa: N803 (TensorFlow's Tcomplex, Treal)
    """tf.raw_ops.<family + suffix>: TensorFlow's arguments onto the public transform."""
    op_type, rank = family + suffix, {"": 1, "2D": 2, "3D": 3}.get(suffix)
    if family in ("FFT", "IFFT"):
        return (lambda input, name=None: _complex_transform(op_type, rank, input, name)) \
            if rank else lambda input, fft_length, axes, name=None: _nd(
                op_type, input, fft_length, axes, None, name)
    if family == "RFFT":
        return (lambda input, fft_length, Tcomplex=dtypes.complex64, name=None: _real_transform(
            op_type, rank, input, fft_length, name)) if rank else \
            lambda input, fft_length, axes, Tcomplex=dtypes.complex64, name=None: _nd(
                op_type, input, fft_length, axes, None, name)
    return (lambda input, fft_length, Treal=dtypes.float32, name=None: _real_transform(
        op_type, rank, input, fft_length, name)) if rank else \
        lambda input, fft_length, axes, Treal=dtypes.float32, name=None: _nd(
            op_type, input, fft_length, axes, None, name)


#: op type ("FFT", "IRFFT2D", "RFFTND", ...) -> OpDef; the fixed-rank types take rank 1, 2, 3
OPS = {family + suffix: defop(family + suffix, kernel, shape=rule, grad=grad, jvp=linear,
                              batch="safe", raw=_raw(family, suffix))
       for family, kernel, rule, grad in _FAMILIES for suffix in ("", "2D", "3D", "ND")}


# -- public functions ------------------------------------------------------------------------------
def _lengths_arg(fft_length, rank, what):
    if hasattr(fft_length, "numpy"):
        fft_length = fft_length.numpy()
    try:
        lengths = tuple(int(n) for n in np.asarray(fft_length).reshape(-1))
    except (TypeError, ValueError):
        raise InvalidArgumentError(f"{what}: fft_length must be known integers, got "
                                   f"{fft_length!r}.") from None
    if len(lengths) != rank or any(n < 0 for n in lengths):
        raise InvalidArgumentError(f"{what}: fft_length must hold {rank} non-negative lengths, "
                                   f"got {list(lengths)}.")
    return lengths


def _inner_dims(x, rank, what):
    shape = static_shape(x)
    if shape is None or len(shape) < rank or None in shape[-rank:]:
        raise InvalidArgumentError(f"{what}: the input's last {rank} dimensions must be known to "
                                   f"infer fft_length, got shape {x.shape}; pass fft_length.")
    return tuple(shape[-rank:])


def _run(op_type, x, attrs, name):
    """The op, after its shape rule (which eager execution skips) has vetted the input."""
    try:
        OPS[op_type].shape(x, **attrs)
    except InvalidArgumentError as err:
        raise InvalidArgumentError(f"{op_type}: {err.message}") from None
    return execute(OPS[op_type], (x,), attrs, name)


def _complex_transform(op_type, rank, x, name):
    return _run(op_type, convert_to_tensor(x), {"rank": rank, "fft_length": None}, name)


def _real_transform(op_type, rank, x, fft_length, name):
    x = convert_to_tensor(x)
    what = op_type.lower()
    check_fixed_value(fft_length, "int32", f"{what}: fft_length")  # as TensorFlow converts it
    if fft_length is None:  # the input's sizes (for IRFFT: 2 (M - 1) last), at run time
        shape = static_shape(x)
        if shape is not None and len(shape) >= rank and None not in shape[-rank:]:
            dims = tuple(shape[-rank:])
            fft_length = dims if op_type.startswith("RFFT") else dims[:-1] + (2 * (dims[-1] - 1),)
    else:
        fft_length = _lengths_arg(fft_length, rank, what)
    return _run(op_type, x, {"rank": rank, "fft_length": fft_length}, name)


def fft(input, name=None):  # noqa: A002 (TensorFlow's argument name)
    """The discrete Fourier transform over the innermost axis of a complex tensor."""
    return _complex_transform("FFT", 1, input, name)


def ifft(input, name=None):  # noqa: A002
    """The inverse discrete Fourier transform over the innermost axis (scaled by 1/N)."""
    return _complex_transform("IFFT", 1, input, name)


def fft2d(input, name=None):  # noqa: A002
    return _complex_transform("FFT2D", 2, input, name)


def ifft2d(input, name=None):  # noqa: A002
    return _complex_transform("IFFT2D", 2, input, name)


def fft3d(input, name=None):  # noqa: A002
    return _complex_transform("FFT3D", 3, input, name)


def ifft3d(input, name=None):  # noqa: A002
    return _complex_transform("IFFT3D", 3, input, name)


def rfft(input_tensor, fft_length=None, name=None):
    """The FFT of a real signal over its innermost axis: fft_length // 2 + 1 complex entries
    (the others are their conjugates). The signal is cropped or zero-padded to fft_length."""
    return _real_transform("RFFT", 1, input_tensor, fft_length, name)


def irfft(input_tensor, fft_length=None, name=None):
    """The real signal of length fft_length (default 2 (M - 1)) whose rfft is the input."""
    return _real_transform("IRFFT", 1, input_tensor, fft_length, name)


def rfft2d(input_tensor, fft_length=None, name=None):
    return _real_transform("RFFT2D", 2, input_tensor, fft_length, name)


def irfft2d(input_tensor, fft_length=None, name=None):
    return _real_transform("IRFFT2D", 2, input_tensor, fft_length, name)


def rfft3d(input_tensor, fft_length=None, name=None):
    return _real_transform("RFFT3D", 3, input_tensor, fft_length, name)


def irfft3d(input_tensor, fft_length=None, name=None):
    return _real_transform("IRFFT3D", 3, input_tensor, fft_length, name)


# -- N-D transforms over chosen axes ---------------------------------------------------------------
def _nd(op_type, input_tensor, fft_length, axes, norm, name):
    x = convert_to_tensor(input_tensor)
    check_fixed_value(fft_length, "int32", f"{op_type.lower()}: fft_length")
    check_fixed_value(axes, "int32", f"{op_type.lower()}: axes")
    rank = x.shape.rank
    if rank is None:
        return _nd_unknown_rank(op_type, x, fft_length, axes, norm, name)
    if rank == 0:
        raise InvalidArgumentError(f"{op_type.lower()}: needs a tensor of rank >= 1, got a scalar.")
    axes = list(range(rank)) if axes is None else [
        normalize_axis(a, rank, f"{op_type.lower()}: axes") for a in np.ravel(axes)]
    if len(set(axes)) != len(axes):
        raise InvalidArgumentError(f"{op_type.lower()}: axes must be distinct, got {axes}.")
    if norm not in (None, "backward", "forward", "ortho"):
        raise ValueError(f"{op_type.lower()}: norm must be 'backward', 'forward' or 'ortho', "
                         f"got {norm!r}.")
    order = [a for a in range(rank) if a not in axes] + axes
    moved = transpose(x, order) if order != list(range(rank)) else x
    if fft_length is not None:
        fft_length = _lengths_arg(fft_length, len(axes), op_type.lower())
    out = _transform_last(op_type, moved, len(axes), fft_length, norm, name)
    return transpose(out, list(np.argsort(order))) if order != list(range(rank)) else out


def _transform_last(op_type, moved, count, fft_length, norm, name):
    """The N-D transform over the last `count` axes, scaled as `norm` asks."""
    if norm in ("forward", "ortho"):  # as TensorFlow scales: the input, before the transform
        dims = fft_length or _inner_dims(moved, count, op_type.lower())
        n = float(np.prod(dims)) if norm == "forward" else float(np.sqrt(np.prod(dims)))
        moved = moved * n if op_type == "IRFFTND" else moved / n
    if op_type in ("FFTND", "IFFTND"):
        return _run(op_type, moved, {"rank": count, "fft_length": fft_length}, name)
    return _real_transform(op_type, count, moved, fft_length, name)


def _nd_unknown_rank(op_type, x, fft_length, axes, norm, name):
    """An N-D transform of a tensor of unknown rank: as in TensorFlow, `axes` and `fft_length`
    must both be given (neither can be counted from the shape); the axes move last with an
    einsum whose ellipsis stands for the others, and back."""
    what = op_type.lower()
    if axes is None or fft_length is None:
        raise InvalidArgumentError(
            f"{what}: the input's rank is unknown, so give both axes and fft_length (got axes="
            f"{axes}, fft_length={fft_length}); TensorFlow raises too (it cannot take the length "
            "of a shape of unknown rank).")
    if norm not in (None, "backward", "forward", "ortho"):
        raise ValueError(f"{what}: norm must be 'backward', 'forward' or 'ortho', got {norm!r}.")
    axes = [int(a) for a in np.ravel(axes)]
    fft_length = _lengths_arg(fft_length, len(axes), what)
    there = axes_mover(axes, True, what)
    out = _transform_last(op_type, einsum(there, x), len(axes), fft_length, norm, name)
    return einsum("->".join(there.split("->")[::-1]), out)


def fft_n(input_tensor, fft_length=None, axes=None, norm=None, name=None):
    """tf.signal.fftnd: the FFT over `axes` (default all), cropped or padded to fft_length."""
    return _nd("FFTND", input_tensor, fft_length, axes, norm, name)


def ifft_n(input_tensor, fft_length=None, axes=None, norm=None, name=None):
    return _nd("IFFTND", input_tensor, fft_length, axes, norm, name)


def rfft_n(input_tensor, fft_length=None, axes=None, norm=None, name=None):
    return _nd("RFFTND", input_tensor, fft_length, axes, norm, name)


def irfft_n(input_tensor, fft_length=None, axes=None, norm=None, name=None):
    return _nd("IRFFTND", input_tensor, fft_length, axes, norm, name)


def _shift(x, axes, sign, what):
    x = convert_to_tensor(x)
    shape = known_shape(x, what)
    if axes is None:
        axes = list(range(len(shape)))
    elif isinstance(axes, (int, np.integer)):
        axes = [int(axes)]
    axes = [int(a) for a in axes]
    if not axes:
        return x
    shifts = [sign * (shape[a] // 2) for a in axes]
    return roll(x, shifts, axes)


def fftshift(x, axes=None, name=None):
    """Moves the zero-frequency term to the centre: rolls each of `axes` by `n // 2`."""
    with op_scope(name, "fftshift"):
        return _shift(x, axes, 1, "fftshift")


def ifftshift(x, axes=None, name=None):
    """Inverse of `fftshift`: rolls each of `axes` by `-(n // 2)`."""
    with op_scope(name, "ifftshift"):
        return _shift(x, axes, -1, "ifftshift")
