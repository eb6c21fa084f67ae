"""Keras 3's products: `matmul`, `dot`, `tensordot`, `einsum`, `inner`, `outer`, `vdot`,
`kron`, `cross`, `correlate`, `corrcoef` and `slogdet`.

The operands are promoted to their Keras result type; integer products compute in floatx (as
Keras's TensorFlow backend does, since TensorFlow's matmul kernels are float) and are cast back,
and two int8 operands of matmul or einsum give int32. Gradients are the products' own
(d(AB) = dA B + A dB, ...).

    dot(a, b) = sum over a's last and b's second-to-last axis      inner = over both last axes
    outer(a, b)[i, j] = a[i] b[j]      vdot(a, b) = sum(flat(a) flat(b))
    kron(a, b)[i m + k, j n + l] = a[i, j] b[k, l]
    correlate(a, v)[k] = sum_j a[j + k] v[j]   ("valid"; "same" and "full" zero-pad a)
    corrcoef(x) = cov(x) / (std std^T), clipped to [-1, 1]
"""
from ...ops import einsum_ops, math_ops, reduce_ops, unary_ops
from ...ops.broadcast_ops import broadcast_to
from ...ops.cast_ops import cast
from ...ops.linalg.matrix_functions import slogdet as tf_slogdet
from ...ops.matmul_ops import matmul as tf_matmul
from ...ops.matrix_ops import cross as tf_cross, diag_part
from ...ops.nn.conv.conv2d import conv1d
from ...ops.pad_ops import pad
from ...ops.reshape_ops import expand_dims, reshape, squeeze
from ...ops.shape_ops import broadcast_static_shape
from .. import backend
from .dtypes import convert, result_type, shared_dtype
from .numpy_shapes import moveaxis

__all__ = ["matmul", "dot", "tensordot", "einsum", "inner", "outer", "vdot", "kron", "cross",
           "correlate", "corrcoef", "slogdet"]


_FLOATS = ("float16", "bfloat16", "float32", "float64")


def _operands(x1, x2):
    """(x1, x2 in a float compute dtype, the Keras result dtype)."""
    shared = shared_dtype(x1, x2)
    if shared in _FLOATS:
        return x1, x2, shared
    x1, x2 = convert(x1), convert(x2)
    out = result_type(x1.dtype.name, x2.dtype.name)
    compute = result_type(out, float)
    return cast(x1, compute), cast(x2, compute), out


def matmul(x1, x2):
    """The matrix product, batched over leading axes; 1-D operands act as vectors."""
    x1, x2 = convert(x1), convert(x2)
    int8 = x1.dtype.name == x2.dtype.name == "int8"
    a, b, out = _operands(x1, x2)
    out = "int32" if int8 else out
    if a.ndim == 1 or b.ndim == 1:
        product = einsum_ops.tensordot(a, b, [[a.ndim - 1], [max(b.ndim - 2, 0)]])
    else:
        product = tf_matmul(a, b)
    return product if product.dtype.name == out else cast(product, out)


def dot(x1, x2):
    """The dot product: elementwise for a scalar, else a sum over x1's last axis and x2's
    second-to-last (its only one when 1-D)."""
    a, b, out = _operands(x1, x2)
    if a.shape.rank == 0 or b.shape.rank == 0:
        product = math_ops.multiply(a, b)
    else:
        last = a.shape.rank - 1
        product = einsum_ops.tensordot(a, b, [[last], [max(b.shape.rank - 2, 0)]])
    return cast(product, out)


def tensordot(x1, x2, axes=2):
    """The sum of products over the last `axes` axes of x1 and the first of x2, or over the
    axis lists given."""
    x1, x2 = convert(x1), convert(x2)
    out = result_type(x1.dtype.name, x2.dtype.name)
    exact = ("int32", "int64", "float16", "float32", "float64", "complex64", "complex128")
    compute = out if out in exact else result_type(out, float)
    if "int" in compute:
        compute = backend.floatx()
    return cast(einsum_ops.tensordot(cast(x1, compute), cast(x2, compute), axes), out)


def einsum(subscripts, *operands, **kwargs):
    """Einstein summation over the operands as `subscripts` describes."""
    operands = [convert(x) for x in operands]
    names = {x.dtype.name for x in operands}
    out = "int32" if names == {"int8"} else result_type(*names)
    compute = backend.floatx() if "int" in out or out == "bool" else out
    result = einsum_ops.einsum(subscripts, *[cast(x, compute) for x in operands], **kwargs)
    return cast(result, out)


def inner(x1, x2):
    """The sum of products over the last axes of x1 and x2 (elementwise for a scalar)."""
    a, b, out = _operands(x1, x2)
    if a.shape.rank == 0 or b.shape.rank == 0:
        return cast(math_ops.multiply(a, b), out)
    return cast(einsum_ops.tensordot(a, b, [[a.shape.rank - 1], [b.shape.rank - 1]]), out)


def outer(x1, x2):
    """The outer product of the flattened x1 and x2."""
    x1, x2 = convert(x1), convert(x2)
    dtype = result_type(x1.dtype.name, x2.dtype.name)
    return math_ops.multiply(reshape(cast(x1, dtype), [-1, 1]), reshape(cast(x2, dtype), [-1]))


def vdot(x1, x2):
    """The dot product of the flattened x1 and x2 (no conjugation, as Keras computes it)."""
    a, b, out = _operands(x1, x2)
    return cast(einsum_ops.tensordot(reshape(a, [-1]), reshape(b, [-1]), 1), out)


def kron(x1, x2):
    """The Kronecker product: every element of x1 times the whole of x2, in blocks."""
    x1, x2 = convert(x1), convert(x2)
    dtype = result_type(x1.dtype.name, x2.dtype.name)
    x1, x2 = cast(x1, dtype), cast(x2, dtype)
    rank = max(x1.shape.rank, x2.shape.rank)
    s1 = [1] * (rank - x1.shape.rank) + list(x1.shape)
    s2 = [1] * (rank - x2.shape.rank) + list(x2.shape)
    a = reshape(x1, [d for pair in zip(s1, [1] * rank) for d in pair])
    b = reshape(x2, [d for pair in zip([1] * rank, s2) for d in pair])
    return reshape(math_ops.multiply(a, b), [p * q for p, q in zip(s1, s2)])


def cross(x1, x2, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of 3-vectors (2-vectors are padded with a zero z; two 2-vector
    operands give the scalar z component)."""
    x1, x2 = convert(x1), convert(x2)
    dtype = result_type(x1.dtype.name, x2.dtype.name)
    if axis is not None:
        axisa = axisb = axisc = axis
    x1, x2 = moveaxis(cast(x1, dtype), axisa, -1), moveaxis(cast(x2, dtype), axisb, -1)
    n1, n2 = x1.shape[-1], x2.shape[-1]
    for n in (n1, n2):
        if n not in (2, 3):
            raise ValueError(f"keras.ops.cross: the vectors must have 2 or 3 components; got "
                             f"shapes {tuple(x1.shape)} and {tuple(x2.shape)}.")
    x1, x2 = _to_3(x1), _to_3(x2)
    shape = broadcast_static_shape(x1.shape, x2.shape).as_list()
    c = tf_cross(broadcast_to(x1, shape), broadcast_to(x2, shape))
    if n1 == n2 == 2:
        return c[..., 2]
    return moveaxis(c, -1, axisc)


def _to_3(x):
    if x.shape[-1] == 3:
        return x
    return pad(x, [[0, 0]] * (x.shape.rank - 1) + [[0, 1]])


def correlate(x1, x2, mode="valid"):
    """The cross-correlation of two 1-D sequences, in mode "valid", "same" or "full"."""
    x1, x2 = convert(x1), convert(x2)
    dtype = result_type(x1.dtype.name, x2.dtype.name)
    dtype = "float64" if dtype == "int64" else (dtype if dtype in ("float16", "float64")
                                                else "float32")
    x1, x2 = cast(x1, dtype), cast(x2, dtype)
    n, m = x1.shape[0], x2.shape[0]
    if mode not in ("valid", "same", "full"):
        raise ValueError(f"keras.ops.correlate: mode must be 'full', 'same' or 'valid'; got "
                         f"{mode!r}.")
    if mode != "valid":
        x1 = pad(x1, [[m - 1, m - 1]])
    out = squeeze(conv1d(reshape(x1, [1, -1, 1]), reshape(x2, [-1, 1, 1]), 1, "VALID"), [0, 2])
    if mode == "same":
        start = (n + m - 1 - max(n, m)) // 2
        out = out[start:start + max(n, m)]
    return out


def corrcoef(x):
    """The Pearson correlation matrix of the rows of x (each row a variable)."""
    x = convert(x)
    if x.dtype.name in ("bool", "int8", "int16", "int32", "uint8", "uint16", "uint32"):
        x = cast(x, backend.floatx())
    centred = math_ops.subtract(x, reduce_ops.reduce_mean(x, axis=-1, keepdims=True))
    count = convert(x.shape[-1] - 1, x.dtype.name)
    cov = math_ops.divide(tf_matmul(centred, centred, adjoint_b=True), count)
    std = unary_ops.sqrt(diag_part(cov))
    scale = math_ops.multiply(expand_dims(std, 1), expand_dims(std, 0))
    return math_ops.clip_by_value(math_ops.divide(cov, scale), -1.0, 1.0)


def slogdet(x):
    """(sign, log|det|) of the square matrices x."""
    return tuple(tf_slogdet(convert(x)))
