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

# The (row, sample) cases that raise in graph mode, keyed "row-sample" (a row's "^2" twin shares
# its entries), each with the exception TensorFlow 2.21 raises on the same graph (built with
# tf.compat.v1 placeholders and tf.gradients) and what it says. The wrapper is strict: a listed
# case must raise that class; a wrong value (AssertionError), another exception, or a pass (then
# delete the entry) fails the test.
_NUM_UNKNOWN = "TF raises ValueError: tf.unstack cannot infer `num` from an unknown dimension"
_NO_LENGTH = ("TF raises ValueError ('Cannot take the length of shape with unknown rank'): "
              "without both axes and fft_length the N-D transforms count them from the rank")
_SVD = ("TF's SVD gradient raises on an unknown rank (its TypeError 'NoneType' object is not "
        "subscriptable, reached before its NotImplementedError 'SVD gradient has not been "
        "implemented for input with unknown inner matrix shape'); wengert raises that "
        "NotImplementedError")
_QR = ("TF raises NotImplementedError: 'QrGrad not implemented with dynamic shapes. Received "
       "r.shape: <unknown>'")
_CONV = ("TF raises ValueError: 'When `num_spatial_dims` is not set, one of `input.shape.rank` or "
         "`filters.shape.rank` must be known'")
_BATCH_DIMS = ("TF raises ValueError ('Cannot infer argument `num` from shape (None,)'): "
               "gather_nd with batch_dims unstacks the shape of params, whose rank is unknown")

GRAPH_KNOWN_FAILURES = {}
UNKNOWN_DIM_KNOWN_FAILURES = {
    "unstack-axis0": (ValueError, _NUM_UNKNOWN),
}
UNKNOWN_RANK_KNOWN_FAILURES = {
    **UNKNOWN_DIM_KNOWN_FAILURES,
    "unstack--1": (ValueError, _NUM_UNKNOWN),
    **dict.fromkeys(["fftnd-3x2", "ifftnd-3x3", "rfftnd-4x2"], (ValueError, _NO_LENGTH)),
    **dict.fromkeys(["nn.convolution-1d", "nn.convolution-2d_dilated", "nn.convolution-3d"],
                    (ValueError, _CONV)),
    **dict.fromkeys([f"linalg.svd-{s}" for s in ("square", "tall", "wide", "full-square")] +
                    ["linalg.pinv-tall", "linalg.pinv-wide"], (NotImplementedError, _SVD)),
    **dict.fromkeys([f"linalg.qr-{s}" for s in ("square", "deep", "wide", "wide-full")],
                    (NotImplementedError, _QR)),
    **dict.fromkeys(["gather_nd_batch_dims-elements", "gather_nd_batch_dims-slices"],
                    (ValueError, _BATCH_DIMS)),
    **dict.fromkeys(["extract_volume_patches-valid", "extract_volume_patches-same"], (
        TypeError, "TF builds the op (its static shape has 4 unknown dimensions) and its "
                   "gradient raises TypeError ('NoneType' object is not iterable): the index "
                   "table needs the input's planes, rows and cols while the graph is built")),
    "linalg.eigh_tridiagonal-0": (
        TypeError,
        "TF raises TypeError ('<=' not supported between instances of 'NoneType' and 'int'): "
        "alpha's and beta's lengths are compared while the graph is built"),
}


def _listed(table, row, index):
    sample = row.samples[index]
    return table.get(f"{_base(row.name)}-{sample.name or index}")


def _check_listed(row, index, unknown, entry):
    """A listed case (strict): it must raise the class TensorFlow raises; a wrong value, another
    exception, or a pass fails."""
    if entry is None:
        _check(row, index, unknown_batch=unknown)
        return
    expected, reason = entry
    try:
        _check(row, index, unknown_batch=unknown)
    except AssertionError:
        raise
    except expected as err:
        pytest.xfail(f"{reason} [{type(err).__name__}: {str(err)[:120]}]")
    pytest.fail(f"{row.name}-{row.samples[index].name or index} now passes: delete its entry")


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
    _check_listed(row, index, False, _listed(GRAPH_KNOWN_FAILURES, row, index))


@pytest.mark.parametrize("row,index", CASES, ids=IDS)
def test_graph_matches_eager_unknown_batch(row, index):
    _check_listed(row, index, True, _listed(UNKNOWN_DIM_KNOWN_FAILURES, row, index))


@pytest.mark.parametrize("row,index", CASES, ids=IDS)
def test_graph_matches_eager_unknown_rank(row, index):
    """Placeholders of unknown rank (issue 22): every shape rule copes, and the graph computes
    what eager execution does."""
    _check_listed(row, index, "rank", _listed(UNKNOWN_RANK_KNOWN_FAILURES, row, index))


def _run_unknown_rank(fn, *arrays):
    """fn on placeholders of unknown rank, run in a Session: (outputs, gradients of their sum)."""
    g = tf.Graph()
    with g.as_default():
        ps = [v1.placeholder(tf.float64, None) for _ in arrays]
        out = fn(*ps)
        grads = tf.gradients(tf.reduce_sum(out), ps)
    with v1.Session(graph=g) as sess:
        return sess.run([out, grads], dict(zip(ps, arrays)))


def test_unknown_rank_beyond_the_samples():
    """Axes counted from the end, several moved axes, a run-time choice of formula."""
    rng = np.random.default_rng(3)
    a, b = rng.normal(size=(2, 3, 4)), rng.normal(size=(4, 3, 5))
    out, _ = _run_unknown_rank(lambda x, y: tf.tensordot(x, y, [[-1, -2], [0, 1]]), a, b)
    np.testing.assert_allclose(out, np.tensordot(a, b, [[2, 1], [0, 1]]), rtol=1e-12)
    x = rng.normal(size=(3, 4, 5))
    out, (grad,) = _run_unknown_rank(
        lambda t: tf.math.real(tf.signal.fftnd(tf.complex(t, t), fft_length=[6, 3], axes=[0, 2])),
        x)
    np.testing.assert_allclose(out, np.real(np.fft.fftn(x + 1j * x, s=(6, 3), axes=(0, 2))),
                               atol=1e-12)
    assert grad.shape == x.shape
    out, _ = _run_unknown_rank(lambda t: tf.norm(t, ord=2, axis=[-1, -3], keepdims=True), x)
    want = np.linalg.norm(np.moveaxis(x, [-1, -3], [-2, -1]), 2, axis=(-2, -1))
    np.testing.assert_allclose(out, np.expand_dims(want, (0, 2)), rtol=1e-12)
    for shape in ((5, 3), (3, 5)):  # over- and underdetermined: chosen when the graph runs
        m, rhs = rng.normal(size=shape), rng.normal(size=(shape[0], 2))
        out, grads = _run_unknown_rank(tf.linalg.lstsq, m, rhs)
        np.testing.assert_allclose(out, np.linalg.lstsq(m, rhs, rcond=None)[0], atol=1e-10)
        eager = _tape_grads(tf.linalg.lstsq, m, rhs)
        for got, want_grad in zip(grads, eager):
            np.testing.assert_allclose(got, want_grad, rtol=1e-10, atol=1e-12)


def _tape_grads(fn, *arrays):
    ts = [tf.constant(a) for a in arrays]
    with tf.GradientTape() as tape:
        for t in ts:
            tape.watch(t)
        total = tf.reduce_sum(fn(*ts))
    return [g.numpy() for g in tape.gradient(total, ts)]
