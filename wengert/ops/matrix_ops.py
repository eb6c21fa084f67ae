"""Matrix structure ops: diagonals (TensorFlow's V3 ops), bands, tensor diagonals, cross products.

Every op here is linear in its tensor inputs (Cross is bilinear), so each gradient is the
adjoint map, written with the same family of ops:

- `diag_part` ("MatrixDiagPartV3") reads the diagonals k0..k1 of each matrix [..., M, N] into
  rows of length max_diag_len (diagonal d in row k1 - d, padded with `padding_value` on the side
  `align` says); `diag` ("MatrixDiagV3") writes such rows into a matrix filled with
  `padding_value`; `set_diag` ("MatrixSetDiagV3") overwrites those diagonals of an input.
  `diag_part` and `diag` are each other's adjoints (padding positions take no gradient), so
      d diag_part(X) / dX:  G -> diag(G, k, num_rows=M, num_cols=N)
      d diag(D) / dD:       G -> diag_part(G, k)
      d set_diag(X, D):     G -> (set_diag(G, 0), diag_part(G))
- `band_part` ("MatrixBandPart") keeps the entries with -num_lower <= col - row <= num_upper
  (a negative count keeps the whole triangle): a projection, its own adjoint.
- `tensor_diag` ("Diag") maps a tensor of shape S to one of shape S + S that carries it on its
  diagonal; `tensor_diag_part` ("DiagPart") reads that diagonal back; again mutual adjoints.
- `cross` ("Cross") of 3-vectors is bilinear; d(u x v) = du x v + u x dv, and because
  <g, u x v> = <v x g, u> = <g x u, v> the gradients are (v x g, g x u) (TensorFlow's rule).

Alignment ("RIGHT_LEFT" by default, as tf.linalg uses): the first word places superdiagonals
(and the main diagonal), the second subdiagonals; "LEFT" packs a diagonal against the start of its
row, "RIGHT" against the end.
"""
import numpy as np

from ..framework.errors import InvalidArgumentError, NotFoundError
from ..framework.execute import binary_operands, execute
from ..framework.op_dtype_constraints import check_fixed_argument, check_fixed_value
from ..framework.registry import defop, defraw, linear, multilinear, needs_grad
from ..framework.tensor import Tensor, array_of, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from . import shape_rules
from .broadcast_ops import zeros_like

__all__ = ["diag", "diag_part", "set_diag", "band_part", "tensor_diag", "tensor_diag_part",
           "cross", "matrix_diag", "matrix_diag_part", "matrix_set_diag", "matrix_band_part"]

_ALIGNS = ("LEFT_RIGHT", "LEFT_LEFT", "RIGHT_LEFT", "RIGHT_RIGHT")


# -- the index map of diagonals k0..k1 of an M x N matrix -----------------------------------------
def _max_diag_len(m, n, k):
    return min(m + min(0, k[1]), n - max(0, k[0]))


def _diagonal_indices(m, n, k, align, width):
    """(rows, cols, valid) arrays of shape [k1 - k0 + 1, width]: where position j of row i of the
    packed diagonals sits in the matrix, and whether it is a real entry (not padding)."""
    k0, k1 = k
    d = k1 - np.arange(k1 - k0 + 1)[:, None]                       # the diagonal of each row
    lengths = np.minimum(m + np.minimum(0, d), n - np.maximum(0, d))
    left_super, left_sub = align.startswith("LEFT"), align.endswith("_LEFT")
    left = np.where(d >= 0, left_super, left_sub)
    t = np.arange(width)[None, :] - np.where(left, 0, width - lengths)  # index along diagonal
    valid = (t >= 0) & (t < lengths)
    rows = t - np.minimum(0, d)
    cols = t + np.maximum(0, d)
    return np.where(valid, rows, 0), np.where(valid, cols, 0), valid


def _packed(values, k):
    """Diagonal rows as [..., rows, width] (a single diagonal has no rows axis)."""
    return values[..., None, :] if k[0] == k[1] else values


def _unpacked(values, k):
    return values[..., 0, :] if k[0] == k[1] else values


def _diag_part_kernel(x, k, padding_value, align):
    m, n = x.shape[-2:]
    width = max(_max_diag_len(m, n, k), 0)
    rows, cols, valid = _diagonal_indices(m, n, k, align, width)
    out = x[..., rows, cols]
    if not valid.all():
        out = np.where(valid, out, np.asarray(padding_value, x.dtype))
    return _unpacked(np.ascontiguousarray(out), k)


def _diag_kernel(diagonal, k, num_rows, num_cols, padding_value, align):
    values = _packed(diagonal, k)
    if num_rows == -1 or num_cols == -1:  # the diagonal's length was unknown when built
        num_rows, num_cols = _matrix_size(values.shape[-1], k, num_rows, num_cols)
    rows, cols, valid = _diagonal_indices(num_rows, num_cols, k, align, values.shape[-1])
    out = np.full(values.shape[:-2] + (num_rows, num_cols), padding_value, diagonal.dtype)
    out[..., rows[valid], cols[valid]] = values[..., valid]
    return out


def diagonals_to_matrix(diagonal, k, num_rows, num_cols, align, padding_value=0):
    """NumPy: matrices [..., num_rows, num_cols] carrying packed diagonals k (MatrixDiagV3)."""
    return _diag_kernel(diagonal, k, num_rows, num_cols, padding_value, align)


def _set_diag_kernel(x, diagonal, k, align):
    m, n = x.shape[-2:]
    values = _packed(diagonal, k)
    rows, cols, valid = _diagonal_indices(m, n, k, align, values.shape[-1])
    out = np.array(x, copy=True)
    out[..., rows[valid], cols[valid]] = values[..., valid]
    return out


def _diag_part_rule(x, k, padding_value, align):
    if x.shape.rank is None:
        return TensorShape(None), x.dtype
    if x.shape.rank < 2:
        raise InvalidArgumentError(f"input must have rank >= 2, got shape {x.shape}.")
    m, n = x.shape[-2:]
    _check_k_fits(m, n, k)
    width = None if m is None or n is None else max(_max_diag_len(m, n, k), 0)
    tail = (width,) if k[0] == k[1] else (k[1] - k[0] + 1, width)
    return TensorShape(tuple(x.shape[:-2]) + tail), x.dtype


def _check_k_fits(m, n, k):
    if m is not None and n is not None and (k[0] <= -m or k[1] >= n) and m * n > 0:
        raise InvalidArgumentError(f"diagonals k={list(k)} lie outside a {m} x {n} matrix: "
                                   f"k must lie in ({-m}, {n}).")


def _diag_rule(diagonal, k, num_rows, num_cols, padding_value, align):
    need = 1 if k[0] == k[1] else 2
    if diagonal.shape.rank is not None and diagonal.shape.rank < need:
        raise InvalidArgumentError(f"diagonal must have rank >= {need} for k={list(k)}, got "
                                   f"shape {diagonal.shape}.")
    if diagonal.shape.rank is None:
        return TensorShape(None), diagonal.dtype
    batch = diagonal.shape[:-need]
    if need == 2 and diagonal.shape[-2] not in (None, k[1] - k[0] + 1):
        raise InvalidArgumentError(f"diagonal has {diagonal.shape[-2]} rows but k={list(k)} "
                                   f"names {k[1] - k[0] + 1} diagonals.")
    dims = tuple(None if v == -1 else v for v in (num_rows, num_cols))
    return TensorShape(tuple(batch) + dims), diagonal.dtype


def _set_diag_rule(x, diagonal, k, align):
    shape_rules.check_same_dtype(x, diagonal)
    want, _ = _diag_part_rule(x, k, 0, align)
    if not want.is_compatible_with(diagonal.shape):
        raise InvalidArgumentError(f"a diagonal of shape {diagonal.shape} does not fit an input "
                                   f"of shape {x.shape} with k={list(k)}; it needs shape {want}.")
    return x.shape, x.dtype


def _diag_part_grad(op, grad):
    x = op.inputs[0]
    k, align = op.get_attr("k"), op.get_attr("align")
    dims = _static_matrix_dims(x)
    if dims is not None:
        return execute(DIAG, (grad,), {"k": k, "num_rows": dims[0], "num_cols": dims[1],
                                       "padding_value": 0, "align": align})
    return execute(SET_DIAG, (zeros_like(x), grad), {"k": k, "align": align})


def _diag_part_batched(op, grad):
    dims = _static_matrix_dims(op.inputs[0])
    if dims is None:
        raise InvalidArgumentError("MatrixDiagPartV3: batched gradients need known matrix "
                                   "dimensions.")
    return _diag_part_grad(op, grad)


def _static_matrix_dims(x):
    value = array_of(x)
    if value is not None:
        return value.shape[-2:]
    dims = tuple(x.shape[-2:]) if x.shape.rank is not None else (None, None)
    return None if None in dims else dims


def _diag_grad(op, grad):
    return execute(DIAG_PART, (grad,), {"k": op.get_attr("k"), "padding_value": 0,
                                         "align": op.get_attr("align")})


def _set_diag_grad(op, grad):
    attrs = {"k": op.get_attr("k"), "align": op.get_attr("align")}
    d_input = d_diagonal = None
    if needs_grad(op, 0):
        d_input = execute(SET_DIAG, (grad, zeros_like(op.inputs[1])), attrs)
    if needs_grad(op, 1):
        d_diagonal = execute(DIAG_PART, (grad,), dict(attrs, padding_value=0))
    return d_input, d_diagonal


def _zero_padded_jvp(op_def):
    """Linear but for the padding value, which is a constant: the tangent pads with zeros."""
    return lambda primals, tangents, outputs, **attrs: execute(
        op_def(), tangents, dict(attrs, padding_value=0))


DIAG_PART = defop("MatrixDiagPartV3", _diag_part_kernel, shape=_diag_part_rule,
                  grad=_diag_part_grad, jvp=_zero_padded_jvp(lambda: DIAG_PART),
                  batch=_diag_part_batched,
                  raw=lambda input, k, padding_value, align="RIGHT_LEFT", name=None: diag_part(
                      input, name, k, padding_value, align))
DIAG = defop("MatrixDiagV3", _diag_kernel, shape=_diag_rule, grad=_diag_grad,
             jvp=_zero_padded_jvp(lambda: DIAG), batch="safe",
             raw=lambda diagonal, k, num_rows, num_cols, padding_value, align="RIGHT_LEFT",
             name=None: diag(diagonal, name, k, num_rows, num_cols, padding_value, align))
SET_DIAG = defop("MatrixSetDiagV3", _set_diag_kernel, shape=_set_diag_rule, grad=_set_diag_grad,
                 jvp=linear, batch="safe", raw=lambda input, diagonal, k, align="RIGHT_LEFT",
                 name=None: set_diag(input, diagonal, name, k, align))
# TensorFlow's first versions of the three, with the main diagonal only
defraw("MatrixDiag", lambda diagonal, name=None: diag(diagonal, name))
defraw("MatrixDiagPart", lambda input, name=None: diag_part(input, name))
defraw("MatrixSetDiag", lambda input, diagonal, name=None: set_diag(input, diagonal, name))


def _k_pair(k, what):
    value = array_of(k) if isinstance(k, Tensor) else k
    if value is None:
        raise InvalidArgumentError(f"{what}: k must be known when the op is built (a Python "
                                   "int, a pair, or a constant tensor).")
    flat = [int(v) for v in np.asarray(value).reshape(-1)]
    if len(flat) not in (1, 2):
        raise InvalidArgumentError(f"{what}: k must be an int or a pair (k0, k1), got {k!r}.")
    pair = (flat[0], flat[-1])
    if pair[0] > pair[1]:
        raise InvalidArgumentError(f"{what}: k[0] = {pair[0]} must not exceed k[1] = {pair[1]}.")
    return pair


def _check_align(align, what):
    if align not in _ALIGNS:
        raise ValueError(f"{what}: align must be one of {list(_ALIGNS)}, got {align!r}.")
    return align


def _prefixed(op_type, rule, *args, **kwargs):
    try:
        return rule(*args, **kwargs)
    except InvalidArgumentError as err:
        raise InvalidArgumentError(f"{op_type}: {err.message}") from None


def _check_diag_dtype(x, padding_value, what, op_type):
    """TensorFlow converts padding_value to x's dtype (a TypeError for 0 and strings), and its
    diagonal kernels have no strings (NotFoundError)."""
    try:
        convert_to_tensor(padding_value, dtype=x.dtype)
    except (TypeError, ValueError):
        raise TypeError(f"{what}: Cannot convert padding_value {padding_value!r} to a tensor of "
                        f"dtype {x.dtype.name}, the input's (shape {x.shape}); give a "
                        "padding_value of the input's dtype.") from None
    if x.dtype.name == "string":
        raise NotFoundError(f"{what}: {op_type} has no kernel for string tensors (shape "
                            f"{x.shape}); TensorFlow's diagonal ops take numbers and bools.")


def diag_part(input, name="diag_part", k=0, padding_value=0, align="RIGHT_LEFT"):  # noqa: A002
    """The diagonals k (an int, or a pair k0 <= k1) of each matrix in `input` [..., M, N]: shape
    [..., max_diag_len] for one diagonal, [..., k1 - k0 + 1, max_diag_len] for several (the
    highest first), padded with `padding_value` as `align` says."""
    x = convert_to_tensor(input)
    check_fixed_argument("MatrixDiagPartV3", "k", k)  # TensorFlow's k: int32 only
    _check_diag_dtype(x, padding_value, "diag_part", "MatrixDiagPartV3")
    attrs = {"k": _k_pair(k, "diag_part"), "padding_value": padding_value,
             "align": _check_align(align, "diag_part")}
    _prefixed("MatrixDiagPartV3", _diag_part_rule, x, **attrs)
    return execute(DIAG_PART, (x,), attrs, name=name)


def diag(diagonal, name="diag", k=0, num_rows=-1, num_cols=-1, padding_value=0,
         align="RIGHT_LEFT"):
    """Matrices [..., num_rows, num_cols] with `diagonal` on the diagonals k (an int or a pair)
    and `padding_value` elsewhere; -1 for num_rows/num_cols infers the smallest fitting size."""
    d = convert_to_tensor(diagonal)
    for arg, value in (("k", k), ("num_rows", num_rows), ("num_cols", num_cols)):
        check_fixed_argument("MatrixDiagV3", arg, value)  # TensorFlow's: int32 only
    _check_diag_dtype(d, padding_value, "diag", "MatrixDiagV3")
    pair = _k_pair(k, "diag")
    need = 1 if pair[0] == pair[1] else 2
    if d.shape.rank is not None and d.shape.rank < need:
        raise InvalidArgumentError(f"MatrixDiagV3: diagonal must have rank >= {need} for "
                                   f"k={list(pair)}, got shape {d.shape}.")
    rows, cols = int(num_rows), int(num_cols)
    if d.shape.rank is not None and d.shape[-1] is not None:
        rows, cols = _matrix_size(d.shape[-1], pair, rows, cols)
    attrs = {"k": pair, "num_rows": rows, "num_cols": cols, "padding_value": padding_value,
             "align": _check_align(align, "diag")}
    _prefixed("MatrixDiagV3", _diag_rule, d, **attrs)
    return execute(DIAG, (d,), attrs, name=name)


def _matrix_size(width, k, num_rows, num_cols):
    """TensorFlow's inference of the output size of MatrixDiagV3."""
    min_rows, min_cols = width - min(k[1], 0), width + max(k[0], 0)
    if num_rows == -1 and num_cols == -1:
        num_rows = num_cols = max(min_rows, min_cols)
    elif num_rows == -1:
        num_rows = min_rows
    elif num_cols == -1:
        num_cols = min_cols
    if num_rows < min_rows or num_cols < min_cols or (num_rows != min_rows and
                                                      num_cols != min_cols):
        raise InvalidArgumentError(
            f"MatrixDiagV3: diagonals of length {width} for k={list(k)} need num_rows >= "
            f"{min_rows} and num_cols >= {min_cols}, one of them equal; got {num_rows} x "
            f"{num_cols}.")
    return num_rows, num_cols


def set_diag(input, diagonal, name="set_diag", k=0, align="RIGHT_LEFT"):  # noqa: A002
    """`input` with its diagonals k replaced by `diagonal` (shaped as diag_part returns them)."""
    x, d = binary_operands(input, diagonal, "MatrixSetDiagV3")
    check_fixed_value(k, "int32", "set_diag: k")  # TensorFlow's wrapper converts k to int32
    attrs = {"k": _k_pair(k, "set_diag"), "align": _check_align(align, "set_diag")}
    _prefixed("MatrixSetDiagV3", _set_diag_rule, x, d, **attrs)
    return execute(SET_DIAG, (x, d), attrs, name=name)


matrix_diag, matrix_diag_part, matrix_set_diag = diag, diag_part, set_diag


# -- band_part --------------------------------------------------------------------------------------
def _band_mask(m, n, num_lower, num_upper):
    offset = np.arange(n)[None, :] - np.arange(m)[:, None]   # col - row
    keep = np.ones((m, n), bool)
    if num_lower >= 0:
        keep &= offset >= -num_lower
    if num_upper >= 0:
        keep &= offset <= num_upper
    return keep


def _band_part_kernel(x, num_lower, num_upper):
    return np.where(_band_mask(*x.shape[-2:], num_lower, num_upper), x, x.dtype.type(0))


def _band_part_rule(x, num_lower, num_upper):
    if x.shape.rank is not None and x.shape.rank < 2:
        raise InvalidArgumentError(f"input must have rank >= 2, got shape {x.shape}.")
    return x.shape, x.dtype


BAND_PART = defop("MatrixBandPart", _band_part_kernel, shape=_band_part_rule,
                  grad=lambda op, grad: execute(BAND_PART, (grad,), op.attrs), jvp=linear,
                  batch="safe", raw=lambda input, num_lower, num_upper, name=None: band_part(
                      input, num_lower, num_upper, name))


def band_part(input, num_lower, num_upper, name=None):  # noqa: A002
    """Each matrix's band: entries with -num_lower <= col - row <= num_upper kept, the rest
    zero. A negative count keeps the whole lower (or upper) triangle."""
    x = convert_to_tensor(input)
    attrs = {"num_lower": _static_int(num_lower, "band_part: num_lower"),
             "num_upper": _static_int(num_upper, "band_part: num_upper")}
    _prefixed("MatrixBandPart", _band_part_rule, x, **attrs)
    return execute(BAND_PART, (x,), attrs, name=name)


matrix_band_part = band_part


def _static_int(value, what):
    known = array_of(value) if isinstance(value, Tensor) else value
    if known is None:
        raise InvalidArgumentError(f"{what} must be known when the op is built.")
    return int(np.asarray(known))


# -- tensor_diag / tensor_diag_part -----------------------------------------------------------------
def _tensor_diag_kernel(d):
    out = np.zeros(d.shape + d.shape, d.dtype)
    flat = out.reshape(d.size, d.size)
    flat[np.arange(d.size), np.arange(d.size)] = d.reshape(-1)
    return out


def _tensor_diag_part_kernel(x):
    half = x.ndim // 2
    size = int(np.prod(x.shape[:half]))
    return np.ascontiguousarray(np.diagonal(x.reshape(size, size))).reshape(x.shape[:half])


def _tensor_diag_rule(d):
    if d.shape.rank is None:
        return TensorShape(None), d.dtype
    return TensorShape(tuple(d.shape) + tuple(d.shape)), d.dtype


def _tensor_diag_part_rule(x):
    if x.shape.rank is None:
        return TensorShape(None), x.dtype
    half = x.shape.rank // 2
    if x.shape.rank % 2 or x.shape.rank == 0:
        raise InvalidArgumentError(f"input must have an even, positive rank, got shape "
                                   f"{x.shape}.")
    first, second = x.shape[:half], x.shape[half:]
    if not TensorShape(first).is_compatible_with(TensorShape(second)):
        raise InvalidArgumentError(f"input of shape {x.shape} must have shape S + S.")
    return TensorShape(first), x.dtype


TENSOR_DIAG = defop("Diag", _tensor_diag_kernel, shape=_tensor_diag_rule,
                    grad=lambda op, grad: execute(TENSOR_DIAG_PART, (grad,)), jvp=linear,
                    args=("diagonal",))
TENSOR_DIAG_PART = defop("DiagPart", _tensor_diag_part_kernel, shape=_tensor_diag_part_rule,
                         grad=lambda op, grad: execute(TENSOR_DIAG, (grad,)), jvp=linear,
                         args=("input",))


def tensor_diag(diagonal, name=None):
    """A tensor of shape S + S with `diagonal` (shape S) on its diagonal, zeros elsewhere."""
    d = convert_to_tensor(diagonal)
    shape_rules.check_allowed(TENSOR_DIAG, d)
    if d.shape.rank == 0:
        raise InvalidArgumentError("Diag: the diagonal must have rank >= 1, got a scalar.")
    return execute(TENSOR_DIAG, (d,), name=name)


def tensor_diag_part(input, name=None):  # noqa: A002
    """The diagonal of a tensor of shape S + S (tensor_diag's inverse): shape S."""
    x = convert_to_tensor(input)
    shape_rules.check_allowed(TENSOR_DIAG_PART, x)
    _prefixed("DiagPart", _tensor_diag_part_rule, x)
    return execute(TENSOR_DIAG_PART, (x,), name=name)


# -- cross ------------------------------------------------------------------------------------------
def _cross_rule(a, b):
    shape_rules.check_same_dtype(a, b)
    for t in (a, b):
        if t.shape.rank is not None and (t.shape.rank < 1 or t.shape[-1] not in (None, 3)):
            raise InvalidArgumentError(f"operands must be 3-vectors along their last axis, got "
                                       f"shapes {a.shape} and {b.shape}.")
    if not a.shape.is_compatible_with(b.shape):
        raise InvalidArgumentError(f"operands must have one shape, got {a.shape} and "
                                   f"{b.shape}.")
    return (a.shape if a.shape.rank is not None else b.shape), a.dtype


def _cross_grad(op, grad):
    u, v = op.inputs
    return (execute(CROSS, (v, grad)) if needs_grad(op, 0) else None,
            execute(CROSS, (grad, u)) if needs_grad(op, 1) else None)


CROSS = defop("Cross", lambda a, b: np.cross(a, b), shape=_cross_rule, grad=_cross_grad,
              jvp=multilinear, batch="safe", args=("a", "b"))


def cross(a, b, name=None):
    """The cross product of 3-vectors along the last axis of `a` and `b` (same shapes)."""
    a, b = binary_operands(a, b, "Cross")
    _prefixed("Cross", _cross_rule, a, b)
    return execute(CROSS, (a, b), name=name)
