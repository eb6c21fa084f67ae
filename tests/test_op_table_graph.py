"""Every op-table row run in graph mode: built on placeholders, run in a Session, compared with the
eager result; and graph `gradients()` with random grad_ys compared with the eager tape (float64).

Each sample is built three times: with placeholders of the exact shapes, with the leading
dimension of every floating-point input unknown (None), as a batch dimension is, and with
placeholders of unknown rank (issue 22: every shape rule copes with TensorShape(None)). Integer and boolean inputs
(indices, masks) stay constants: several ops need their values when the graph is built.
"""

import numpy as np
import pytest

import wengert as tf
from wengert.framework.tensor import Tensor

import op_table

v1 = tf.compat.v1

ROWS = op_table.all_rows()

CASES = [(row, i) for row in ROWS for i in range(len(row.samples))]
IDS = [f"{row.name}-{row.samples[i].name or i}" for row, i in CASES]

# Rows that fail in graph mode today, with why (owners: the op families). Non-strict xfails:
# a row that starts passing shows as XPASS; then delete its entry.
GRAPH_KNOWN_FAILURES = {}
UNKNOWN_DIM_KNOWN_FAILURES = {
    **GRAPH_KNOWN_FAILURES,
    # TensorFlow raises too: tf.unstack needs `num` when the unstacked dimension is unknown.
    "unstack": "num cannot be inferred from an unknown dimension (TensorFlow raises too)",
    # An fft_length that crops or pads an axis of unknown size: the gradient crops or pads back
    # to sizes read while the graph is built (an InvalidArgumentError says so)
    **dict.fromkeys(["ifftnd", "irfft_odd", "irfft2d", "irfft3d", "irfftnd"],
                    "fft_length crops or pads an axis whose size is unknown while building"),
}
UNKNOWN_RANK_KNOWN_FAILURES = {
    **UNKNOWN_DIM_KNOWN_FAILURES,
    # The N-D transforms move their axes with a transpose, and RFFT's gradient pads the last
    # axis: both need the rank (an InvalidArgumentError says so)
    **dict.fromkeys(["fftnd", "rfft", "rfft_padded", "rfft2d", "rfft3d", "rfftnd"],
                    "the rank is needed to place the transformed axes"),
    # Clear errors where the rank is needed and unknown:
    "nn.fused_batch_norm": "the sample is 2-D with the default 'NHWC' (wengert's extension); with "
                           "an unknown rank the rank is read from data_format, as TensorFlow's "
                           "4-D FusedBatchNorm has it",
    "gather_nd_batch_dims": "gather_nd flattens its batch dimensions while the graph is built: "
                            "the ranks must be known (the error says so)",
    "linalg.svd": "the derivative needs the matrix dimensions (UnimplementedError says so)",
    "linalg.pinv": "through svd: the derivative needs the matrix dimensions",
    "linalg.qr": "the derivative depends on whether the matrix is wide or tall (says so)",
    "linalg.lstsq": "the derivative depends on whether the system is over- or underdetermined",
    "linalg.banded_triangular_solve": "the gradient needs the number of bands (says so)",
    "linalg.eigh_tridiagonal": "alpha and beta must be known vectors (InvalidArgumentError)",
    "linalg.lu_matrix_inverse": "the identity it solves against needs the matrix size (says so)",
    "nn.approx_max_k": "the reduction dimension is counted from a known rank (says so)",
    "nn.approx_min_k": "the reduction dimension is counted from a known rank (says so)",
    "nn.convolution": "the number of spatial dimensions is the input's rank - 2 (TF raises too)",
    "nn.conv_transpose": "the number of spatial dimensions is the input's rank - 2 (TF raises "
                         "too)",
    "nn.isotonic_regression": "the axis is moved last, which needs the rank (says so)",
    "norm": "the spectral norm moves its two axes last, which needs the rank (says so); the "
            "other norms pass",
}


def _base(name):
    return name[:-2] if name.endswith("^2") else name


def _is_float_array(a):
    return isinstance(a, np.ndarray) and a.dtype.kind == "f"


def _outputs(result):
    return list(result) if isinstance(result, (list, tuple)) else [result]


def _eager(row, sample, rng):
    """Eager outputs, random output gradients, and the tape's gradients for the wrt inputs."""
    args = [tf.constant(a) if isinstance(a, np.ndarray) else a for a in sample.args]
    wrt = _wrt(sample)
    with tf.GradientTape(persistent=True) as tape:
        for i in wrt:
            tape.watch(args[i])
        outs = _outputs(row.fn(*args, **sample.kwargs))
    values = [o.numpy() for o in outs]
    seeds = [rng.normal(size=np.shape(v)) if np.asarray(v).dtype.kind == "f" else None
             for v in values]
    grads = None
    if row.grad and wrt:
        pairs = [(o, tf.constant(s)) for o, s in zip(outs, seeds) if s is not None]
        grads = tape.gradient([o for o, _ in pairs], [args[i] for i in wrt],
                              output_gradients=[s for _, s in pairs])
        grads = [None if g is None else g.numpy() for g in grads]
    return values, seeds, grads


def _wrt(sample):
    if sample.wrt is not None:
        return list(sample.wrt) if isinstance(sample.wrt, (list, tuple)) else [sample.wrt]
    return [i for i, a in enumerate(sample.args) if _is_float_array(a)]


def _placeholder_shape(a, unknown):
    """The placeholder's shape for array `a`: exact, leading dimension unknown ("batch"), or
    unknown rank ("rank")."""
    if unknown == "rank":
        return None
    shape = list(a.shape)
    if unknown and shape:
        shape[0] = None
    return shape


def _build_and_run(row, sample, seeds, want_grads, unknown_batch):
    g = tf.Graph()
    feed, args = {}, []
    with g.as_default():
        for i, a in enumerate(sample.args):
            if _is_float_array(a):
                p = v1.placeholder(tf.float64, _placeholder_shape(a, unknown_batch),
                                   name=f"arg{i}")
                feed[p] = a
                args.append(p)
            else:
                args.append(a)
        outs = _outputs(row.fn(*args, **sample.kwargs))
        for o in outs:
            assert isinstance(o, Tensor) and o.graph is g
        fetches = list(outs)
        if want_grads is not None:
            pairs = [(o, s) for o, s in zip(outs, seeds) if s is not None]
            grads = tf.gradients([o for o, _ in pairs], [args[i] for i in _wrt(sample)],
                                 grad_ys=[s for _, s in pairs])
            fetches += [gr for gr in grads if gr is not None]
    with v1.Session(graph=g) as sess:
        got = sess.run(fetches, feed)
    if want_grads is not None:
        assert [gr is None for gr in grads] == [w is None for w in want_grads], \
            "graph and tape disagree on which inputs have a gradient"
    return outs, got


def _check(row, index, unknown_batch):
    sample = row.samples[index]
    rng = np.random.default_rng(index + 17)
    values, seeds, want_grads = _eager(row, sample, rng)
    outs, got = _build_and_run(row, sample, seeds, want_grads, unknown_batch)
    for o, v, w in zip(outs, got, values):
        assert o.shape.is_compatible_with(np.shape(w)), \
            f"{row.name}: static shape {o.shape} vs eager {np.shape(w)}"
        assert o.dtype.as_numpy_dtype == np.asarray(w).dtype or o.dtype.name == "string"
        if o.dtype.name == "string":  # strings: exact (a scalar's numpy() is bytes)
            np.testing.assert_array_equal(v, w)
        else:
            np.testing.assert_allclose(v, w, rtol=1e-12, atol=1e-12)
    if want_grads is not None:
        graph_grads = got[len(outs):]
        for a, b in zip(graph_grads, [w for w in want_grads if w is not None]):
            np.testing.assert_allclose(_densified(a), b, rtol=1e-10, atol=1e-12)


def _densified(fetched):
    """A fetched gradient as an array: a Session gives a sparse one (a gather's) as TensorFlow 1
    does, an IndexedSlicesValue, whose rows sum into the dense shape."""
    if not hasattr(fetched, "indices"):
        return fetched
    dense = np.zeros(fetched.dense_shape, fetched.values.dtype)
    np.add.at(dense, fetched.indices, fetched.values)
    return dense


@pytest.mark.parametrize("row,index", CASES, ids=IDS)
def test_graph_matches_eager_exact_shapes(row, index):
    reason = GRAPH_KNOWN_FAILURES.get(_base(row.name))
    if reason:
        pytest.xfail(reason)
    _check(row, index, unknown_batch=False)


@pytest.mark.parametrize("row,index", CASES, ids=IDS)
def test_graph_matches_eager_unknown_batch(row, index):
    reason = UNKNOWN_DIM_KNOWN_FAILURES.get(_base(row.name))
    if reason:
        try:
            _check(row, index, unknown_batch=True)
        except Exception:  # noqa: BLE001
            pytest.xfail(reason)
        return
    _check(row, index, unknown_batch=True)


@pytest.mark.parametrize("row,index", CASES, ids=IDS)
def test_graph_matches_eager_unknown_rank(row, index):
    """Placeholders of unknown rank (issue 22): every shape rule copes, and the graph computes
    what eager execution does."""
    reason = UNKNOWN_RANK_KNOWN_FAILURES.get(_base(row.name))
    if reason:
        try:
            _check(row, index, unknown_batch="rank")
        except Exception:  # noqa: BLE001
            pytest.xfail(reason)
        return
    _check(row, index, unknown_batch="rank")
