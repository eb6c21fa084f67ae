"""`tf.nn.fractional_max_pool` and `fractional_avg_pool`, NHWC inputs (max_pool_with_argmax is in
argmax_pool.py, dilation2d and erosion2d in morphology.py).

Fractional pools (Graham 2014) shrink H and W by non-integer ratios r: the output has
floor(H / r) rows, and the row boundaries a_0 = 0 < a_1 < ... < a_OH = H are a random sequence
of gaps of size floor(H / OH) or one more: shuffled gaps, or with `pseudo_random`
a_i = ceil(alpha (i + u)) - 1 for one uniform u (TensorFlow's bound on u keeps every gap in
range). Output (i, j) pools rows [a_i, a_(i+1)) and columns likewise; `overlapping` adds the
boundary row/column a_(i+1) to each window. The sequences are returned, and the gradient ops
take them. FractionalMaxPoolGrad sends g to each window's first maximum (rows first, then
columns); FractionalAvgPoolGrad spreads g / count over each window. The gradients of those two
in g (and the JVPs of the pools, which must reuse the drawn sequences, not draw new ones) are
FractionalMaxPoolGradGrad (gather at the maxima) and FractionalAvgPoolGradGrad (average pooling
of a tangent over the same windows): helper ops TensorFlow does not have.
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.registry import defop
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ..random.seeded import _generator, _seed_attrs, run_raw
from .window_geometry import check_like, dims_last, static_sizes
from .window_geometry import sizes_tensor as sizes_of

__all__ = ["fractional_max_pool", "fractional_avg_pool"]


# -- max_pool_with_argmax ---------------------------------------------------------------------------


# -- fractional pools ------------------------------------------------------------------------------
def _pooling_sequence(gen, size, out, pseudo_random):
    """Window boundaries a_0 = 0 < ... < a_out = size (TensorFlow's GeneratePoolingSequence)."""
    if pseudo_random:
        alpha, k = size / out, size // out
        max_u = min((k + 2) / alpha - 1, (size + 1 - k) / alpha - (out - 1))
        u = gen.random() * max_u
        cum = [1] + [int(np.ceil(alpha * (i + u))) for i in range(1, out)] + [size + 1]
        return np.asarray(cum, np.int64) - 1
    k, extra = divmod(size, out)
    gaps = np.full(out, k, np.int64)
    gaps[:extra] += 1
    gen.shuffle(gaps)
    return np.concatenate([[0], np.cumsum(gaps)])


def _windows(sequence, size, overlapping):
    """(start, stop) of each window along one axis (stop exclusive)."""
    stops = sequence[1:] + (1 if overlapping else 0)
    return [(int(a), int(min(b, size))) for a, b in zip(sequence[:-1], stops)]


def _fractional_sequences(x_shape, pooling_ratio, pseudo_random, deterministic, seed, seed2,
                          stream):
    gen = np.random.default_rng([seed or 0, seed2 or 0]) if deterministic else \
        _generator(seed, seed2, stream)
    sizes = [int(np.floor(x_shape[a] / pooling_ratio[a])) for a in (1, 2)]
    return [_pooling_sequence(gen, x_shape[a], sizes[i], pseudo_random)
            for i, a in enumerate((1, 2))]


def _first_max_positions(x, rows, cols, overlapping):
    """(values, flat indices into x) of each window's first maximum, rows first."""
    n, h, w, c = x.shape
    row_windows, col_windows = _windows(rows, h, overlapping), _windows(cols, w, overlapping)
    col_val = np.empty((n, h, len(col_windows), c), x.dtype)
    col_arg = np.empty(col_val.shape, np.int64)
    for j, (a, b) in enumerate(col_windows):
        arg = np.argmax(x[:, :, a:b], axis=2)
        col_arg[:, :, j] = arg + a
        col_val[:, :, j] = np.take_along_axis(x[:, :, a:b], arg[:, :, None], 2)[:, :, 0]
    values = np.empty((n, len(row_windows), len(col_windows), c), x.dtype)
    flat = np.empty(values.shape, np.int64)
    batch = np.arange(n)[:, None, None]
    channel = np.arange(c)[None, None, :]
    for i, (a, b) in enumerate(row_windows):
        arg = np.argmax(col_val[:, a:b], axis=1)  # first row holding the maximum
        values[:, i] = np.take_along_axis(col_val[:, a:b], arg[:, None], 1)[:, 0]
        row = arg + a
        col = col_arg[batch, row, np.arange(len(col_windows))[None, :, None], channel]
        flat[:, i] = ((batch * h + row) * w + col) * c + channel
    return values, flat


def _fractional_max_kernel(x, pooling_ratio, pseudo_random, overlapping, deterministic, seed,
                           seed2, stream):
    rows, cols = _fractional_sequences(x.shape, pooling_ratio, pseudo_random, deterministic,
                                       seed, seed2, stream)
    values, _ = _first_max_positions(x, rows, cols, overlapping)
    return values, rows, cols


def _fractional_max_grad_kernel(x, y, g, rows, cols, overlapping):
    _, flat = _first_max_positions(x, rows, cols, overlapping)
    total = np.bincount(flat.reshape(-1), weights=g.reshape(-1).astype(np.float64),
                        minlength=x.size)
    return total.astype(g.dtype).reshape(x.shape)


def _fractional_max_grad_grad_kernel(x, y, gg, rows, cols, overlapping):
    _, flat = _first_max_positions(x, rows, cols, overlapping)
    return gg.reshape(-1)[flat]


def _window_sums(x, rows, cols, overlapping):
    """(sums over each window, element counts) of an NHWC array."""
    n, h, w, c = x.shape
    row_windows, col_windows = _windows(rows, h, overlapping), _windows(cols, w, overlapping)
    by_cols = np.stack([x[:, :, a:b].sum(axis=2) for a, b in col_windows], axis=2)
    sums = np.stack([by_cols[:, a:b].sum(axis=1) for a, b in row_windows], axis=1)
    counts = np.multiply.outer([b - a for a, b in row_windows], [b - a for a, b in col_windows])
    return sums, counts[None, :, :, None]


def _fractional_avg_kernel(x, pooling_ratio, pseudo_random, overlapping, deterministic, seed,
                           seed2, stream):
    rows, cols = _fractional_sequences(x.shape, pooling_ratio, pseudo_random, deterministic,
                                       seed, seed2, stream)
    sums, counts = _window_sums(x, rows, cols, overlapping)
    return (sums / counts).astype(x.dtype), rows, cols


def _fractional_avg_grad_kernel(orig_input_tensor_shape, g, rows, cols, overlapping):
    n, h, w, c = (int(v) for v in orig_input_tensor_shape)
    row_windows, col_windows = _windows(rows, h, overlapping), _windows(cols, w, overlapping)
    share = g / np.multiply.outer([b - a for a, b in row_windows],
                                  [b - a for a, b in col_windows])[None, :, :, None]
    dx = np.zeros((n, h, w, c), g.dtype)
    for i, (ra, rb) in enumerate(row_windows):
        for j, (ca, cb) in enumerate(col_windows):
            dx[:, ra:rb, ca:cb] += share[:, i:i + 1, j:j + 1]
    return dx


def _fractional_avg_grad_grad_kernel(gg, rows, cols, overlapping):
    sums, counts = _window_sums(gg, rows, cols, overlapping)
    return (sums / counts).astype(gg.dtype)


def _fractional_rule(x, pooling_ratio, **_):
    dims = dims_last(x, "NHWC", "value", 4)
    out = [None if d is None else int(np.floor(d / r)) for d, r in zip(dims[1:3],
                                                                      pooling_ratio[1:3])]
    for d, o in zip(dims[1:3], out):
        if o is not None and o < 1:
            raise InvalidArgumentError(f"pooling_ratio {list(pooling_ratio)} leaves no output "
                                       f"rows or columns for the input of shape {x.shape}.")
    sequences = [TensorShape([None if o is None else o + 1]) for o in out]
    return [(TensorShape([dims[0]] + out + [dims[3]]), x.dtype),
            (sequences[0], dtypes.int64), (sequences[1], dtypes.int64)]


def _fractional_max_grad_rule(x, y, g, rows, cols, **_):
    check_like(g, y, "out_backprop")
    return x.shape, g.dtype


def _fractional_max_grad_grad_rule(x, y, gg, rows, cols, **_):
    check_like(gg, x, "the gradient of the gradient")
    return y.shape, gg.dtype


def _fractional_avg_grad_rule(orig_input_tensor_shape, g, rows, cols, **_):
    sizes = static_sizes(orig_input_tensor_shape)
    return TensorShape(sizes if sizes is not None else [None] * 4), g.dtype


def _fractional_avg_grad_grad_rule(gg, rows, cols, **_):
    out = [None if t.shape.rank is None or t.shape[0] is None else t.shape[0] - 1
           for t in (rows, cols)]
    batch, channels = (gg.shape[0], gg.shape[3]) if gg.shape.rank == 4 else (None, None)
    return TensorShape([batch] + out + [channels]), gg.dtype


def _overlap(op):
    return {"overlapping": op.attrs["overlapping"]}


FRACTIONAL_MAX_POOL_GRAD = defop(
    "FractionalMaxPoolGrad", _fractional_max_grad_kernel, shape=_fractional_max_grad_rule,
    grad=lambda op, gg: (None, None, execute(FRACTIONAL_MAX_POOL_GRAD_GRAD, (
        *op.inputs[:2], gg, *op.inputs[3:]), op.attrs), None, None),
    jvp=lambda primals, tangents, outputs, **attrs: None if tangents[2] is None else execute(
        FRACTIONAL_MAX_POOL_GRAD, (*primals[:2], tangents[2], *primals[3:]), attrs),
    raw=lambda orig_input, orig_output, out_backprop, row_pooling_sequence,
    col_pooling_sequence, overlapping=False, name=None: execute(
        FRACTIONAL_MAX_POOL_GRAD, tuple(convert_to_tensor(t) for t in (
            orig_input, orig_output, out_backprop, row_pooling_sequence, col_pooling_sequence)),
        {"overlapping": bool(overlapping)}, name))
FRACTIONAL_MAX_POOL_GRAD_GRAD = defop(
    "FractionalMaxPoolGradGrad", _fractional_max_grad_grad_kernel,
    shape=_fractional_max_grad_grad_rule,
    grad=lambda op, g: (None, None, execute(FRACTIONAL_MAX_POOL_GRAD, (
        *op.inputs[:2], g, *op.inputs[3:]), op.attrs), None, None),
    jvp=lambda primals, tangents, outputs, **attrs: None if tangents[2] is None else execute(
        FRACTIONAL_MAX_POOL_GRAD_GRAD, (*primals[:2], tangents[2], *primals[3:]), attrs))
FRACTIONAL_MAX_POOL = defop(
    "FractionalMaxPool", _fractional_max_kernel, shape=_fractional_rule, num_outputs=3,
    pure=False,
    grad=lambda op, g, *_: execute(FRACTIONAL_MAX_POOL_GRAD, (
        op.inputs[0], op.outputs[0], g, op.outputs[1], op.outputs[2]), _overlap(op)),
    jvp=lambda primals, tangents, outputs, **attrs: (None if tangents[0] is None else execute(
        FRACTIONAL_MAX_POOL_GRAD_GRAD, (primals[0], outputs[0], tangents[0], *outputs[1:]),
        {"overlapping": attrs["overlapping"]}), None, None),
    raw=lambda value, pooling_ratio, pseudo_random=False, overlapping=False, deterministic=False,
    seed=0, seed2=0, name=None: _raw_fractional(FRACTIONAL_MAX_POOL, value, pooling_ratio,
                                                pseudo_random, overlapping, deterministic, seed,
                                                seed2, name))

FRACTIONAL_AVG_POOL_GRAD = defop(
    "FractionalAvgPoolGrad", _fractional_avg_grad_kernel, shape=_fractional_avg_grad_rule,
    grad=lambda op, gg: (None, execute(FRACTIONAL_AVG_POOL_GRAD_GRAD, (gg, *op.inputs[2:]),
                                       op.attrs), None, None),
    jvp=lambda primals, tangents, outputs, **attrs: None if tangents[1] is None else execute(
        FRACTIONAL_AVG_POOL_GRAD, (primals[0], tangents[1], *primals[2:]), attrs),
    raw=lambda orig_input_tensor_shape, out_backprop, row_pooling_sequence, col_pooling_sequence,
    overlapping=False, name=None: execute(FRACTIONAL_AVG_POOL_GRAD, tuple(
        convert_to_tensor(t) for t in (orig_input_tensor_shape, out_backprop,
                                       row_pooling_sequence, col_pooling_sequence)),
        {"overlapping": bool(overlapping)}, name))
FRACTIONAL_AVG_POOL_GRAD_GRAD = defop(
    "FractionalAvgPoolGradGrad", _fractional_avg_grad_grad_kernel,
    shape=_fractional_avg_grad_grad_rule,
    grad=lambda op, g: (execute(FRACTIONAL_AVG_POOL_GRAD, (
        sizes_of(op.inputs[0], int64=True), g, *op.inputs[1:]), op.attrs), None, None),
    jvp=lambda primals, tangents, outputs, **attrs: None if tangents[0] is None else execute(
        FRACTIONAL_AVG_POOL_GRAD_GRAD, (tangents[0], *primals[1:]), attrs))
FRACTIONAL_AVG_POOL = defop(
    "FractionalAvgPool", _fractional_avg_kernel, shape=_fractional_rule, num_outputs=3,
    pure=False,
    grad=lambda op, g, *_: execute(FRACTIONAL_AVG_POOL_GRAD, (
        sizes_of(op.inputs[0], int64=True), g, op.outputs[1], op.outputs[2]), _overlap(op)),
    jvp=lambda primals, tangents, outputs, **attrs: (None if tangents[0] is None else execute(
        FRACTIONAL_AVG_POOL_GRAD_GRAD, (tangents[0], *outputs[1:]),
        {"overlapping": attrs["overlapping"]}), None, None),
    raw=lambda value, pooling_ratio, pseudo_random=False, overlapping=False, deterministic=False,
    seed=0, seed2=0, name=None: _raw_fractional(FRACTIONAL_AVG_POOL, value, pooling_ratio,
                                                pseudo_random, overlapping, deterministic, seed,
                                                seed2, name))


def _ratios(pooling_ratio):
    values = [float(v) for v in np.asarray(pooling_ratio, dtype=np.float64).reshape(-1)]
    if len(values) == 1:
        values = [1.0, values[0], values[0], 1.0]
    elif len(values) == 2:
        values = [1.0, values[0], values[1], 1.0]
    if len(values) != 4 or values[0] != 1.0 or values[3] != 1.0 or min(values) < 1.0:
        raise ValueError(f"pooling_ratio must be a float >= 1, two of them (rows, columns), or "
                         f"4 with 1.0 for batch and channels, got {pooling_ratio!r}.")
    return tuple(values)


def _fractional(op_def, op_name, value, pooling_ratio, pseudo_random, overlapping, seed, name):
    x = convert_to_tensor(value)
    if not (x.dtype.is_floating or x.dtype in (dtypes.int32, dtypes.int64)):
        raise TypeError(f"{op_name}: value must be float32/64 or int32/64, got "
                        f"{x.dtype.name}.")
    attrs = {"pooling_ratio": _ratios(pooling_ratio), "pseudo_random": bool(pseudo_random),
             "overlapping": bool(overlapping), "deterministic": bool(seed)}
    _fractional_rule(x, **attrs)  # errors before any random state moves
    attrs.update(_seed_attrs(int(seed) if seed else None))
    return execute(op_def, (x,), attrs, name)


def _raw_fractional(op_def, value, pooling_ratio, pseudo_random, overlapping, deterministic, seed,
                    seed2, name):
    """tf.raw_ops' FractionalMaxPool / FractionalAvgPool, seeded by the pair given."""
    attrs = {"pooling_ratio": _ratios(pooling_ratio), "pseudo_random": bool(pseudo_random),
             "overlapping": bool(overlapping), "deterministic": bool(deterministic)}
    return run_raw(op_def, (value,), attrs, seed, seed2, name)


def fractional_max_pool(value, pooling_ratio, pseudo_random=False, overlapping=False, seed=0,
                        name=None):
    """Max pooling over random windows that shrink height and width by `pooling_ratio`
    (>= 1, possibly fractional): (output, row_pooling_sequence, col_pooling_sequence). A nonzero
    `seed` fixes the windows (the same every call)."""
    return _fractional(FRACTIONAL_MAX_POOL, "fractional_max_pool", value, pooling_ratio,
                       pseudo_random, overlapping, seed, name)


def fractional_avg_pool(value, pooling_ratio, pseudo_random=False, overlapping=False, seed=0,
                        name=None):
    """Average pooling over random windows, as fractional_max_pool:
    (output, row_pooling_sequence, col_pooling_sequence)."""
    return _fractional(FRACTIONAL_AVG_POOL, "fractional_avg_pool", value, pooling_ratio,
                       pseudo_random, overlapping, seed, name)
