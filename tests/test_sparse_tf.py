"""tf.sparse against TensorFlow 2.21: each op's outputs (a SparseTensor result as its indices,
values and dense_shape) and the gradients with respect to the values and dense operands, with
TensorFlow's answers stored in tests/references/ for runs without TensorFlow."""
import numpy as np
import pytest

import wengert as tf
from tf_ops_reference import TFCase, check, run_tf_or_skip

RNG = np.random.default_rng(29)
IDX = np.array([[0, 1], [1, 0], [1, 2], [2, 2]], np.int64)
IDX_B = np.array([[0, 0], [1, 2], [3, 1]], np.int64)
IDX3 = np.array([[0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 0, 2], [1, 1, 1]], np.int64)


def vals(*shape):
    return RNG.standard_normal(shape)


def parts(expr):
    """A TensorFlow expression giving a SparseTensor, as the tuple of its three tensors."""
    return f"(lambda s: (s.indices, s.values, s.dense_shape))({expr})"


def as_parts(st):
    return st.indices, st.values, st.dense_shape


def sp(indices, values, shape):
    return tf.sparse.SparseTensor(indices, values, shape)


SP = "tf.sparse.SparseTensor(x0, x1, {shape})"
SP_B = "tf.sparse.SparseTensor(x2, x3, {shape})"


def _matmul_cases():
    cases = []
    for adj_a in (False, True):
        for adj_b in (False, True):
            b = vals(*((2, 4 if adj_a else 3) if adj_b else (4 if adj_a else 3, 2)))
            cases.append(TFCase(
                f"matmul_{adj_a}_{adj_b}",
                f"tf.sparse.sparse_dense_matmul({SP.format(shape=[4, 3])}, x2, "
                f"adjoint_a={adj_a}, adjoint_b={adj_b})",
                lambda i, v, b, adj_a=adj_a, adj_b=adj_b: tf.sparse.sparse_dense_matmul(
                    sp(i, v, [4, 3]), b, adjoint_a=adj_a, adjoint_b=adj_b),
                [IDX, vals(4), b], wrt=(1, 2)))
    return cases


CASES = _matmul_cases() + [
    TFCase("matmul_dense_sparse", f"tf.sparse.sparse_dense_matmul(x2, {SP.format(shape=[4, 3])})",
           lambda i, v, b: tf.sparse.sparse_dense_matmul(b, sp(i, v, [4, 3])),
           [IDX, vals(4), vals(2, 4)], wrt=(1, 2)),
    TFCase("matmul_complex", "(lambda p: (tf.math.real(p), tf.math.imag(p)))("
           f"tf.sparse.sparse_dense_matmul({SP.format(shape=[4, 3])}, x2, adjoint_a=True))",
           lambda i, v, b: (lambda p: (tf.math.real(p), tf.math.imag(p)))(
               tf.sparse.sparse_dense_matmul(sp(i, v, [4, 3]), b, adjoint_a=True)),
           [IDX, vals(4) + 1j * vals(4), vals(4, 2) + 1j * vals(4, 2)]),
    TFCase("add_sparse", parts(f"tf.sparse.add({SP.format(shape=[4, 3])}, "
                               f"{SP_B.format(shape=[4, 3])})"),
           lambda i, v, j, w: as_parts(tf.sparse.add(sp(i, v, [4, 3]), sp(j, w, [4, 3]))),
           [IDX, vals(4), IDX_B, vals(3)], wrt=(1, 3)),
    TFCase("add_threshold", parts(f"tf.sparse.add({SP.format(shape=[4, 3])}, "
                                  f"{SP_B.format(shape=[4, 3])}, threshold=0.5)"),
           lambda i, v, j, w: as_parts(tf.sparse.add(sp(i, v, [4, 3]), sp(j, w, [4, 3]),
                                                     threshold=0.5)),
           [IDX, np.array([1., 2., -0.3, 4.]), IDX_B, np.array([5., 0.1, 6.])], wrt=(1, 3)),
    TFCase("add_ints", parts("tf.sparse.add(tf.sparse.SparseTensor(x0, x1, [4, 3]), "
                             "tf.sparse.SparseTensor(x2, x3, [4, 3]))"),
           lambda i, v, j, w: as_parts(tf.sparse.add(sp(i, v, [4, 3]), sp(j, w, [4, 3]))),
           [IDX, np.array([1, 2, 3, 4], np.int32), IDX_B, np.array([5, -3, 6], np.int32)]),
    TFCase("add_dense", f"tf.sparse.add({SP.format(shape=[4, 3])}, x2)",
           lambda i, v, b: tf.sparse.add(sp(i, v, [4, 3]), b), [IDX, vals(4), vals(4, 3)],
           wrt=(1, 2)),
    TFCase("add_dense_first", f"tf.sparse.add(x2, {SP.format(shape=[4, 3])})",
           lambda i, v, b: tf.sparse.add(b, sp(i, v, [4, 3])), [IDX, vals(4), vals(4, 3)],
           wrt=(1, 2)),
    TFCase("reduce_sum_all", f"tf.sparse.reduce_sum({SP.format(shape=[2, 2, 3])})",
           lambda i, v: tf.sparse.reduce_sum(sp(i, v, [2, 2, 3])), [IDX3, vals(5)], wrt=(1,)),
    TFCase("reduce_sum_axis", f"tf.sparse.reduce_sum({SP.format(shape=[2, 2, 3])}, axis=1)",
           lambda i, v: tf.sparse.reduce_sum(sp(i, v, [2, 2, 3]), axis=1), [IDX3, vals(5)],
           wrt=(1,)),
    TFCase("reduce_sum_keepdims",
           f"tf.sparse.reduce_sum({SP.format(shape=[2, 2, 3])}, axis=[0, -1], keepdims=True)",
           lambda i, v: tf.sparse.reduce_sum(sp(i, v, [2, 2, 3]), axis=[0, -1], keepdims=True),
           [IDX3, vals(5)], wrt=(1,)),
    TFCase("reduce_sum_sparse", parts(f"tf.sparse.reduce_sum({SP.format(shape=[2, 2, 3])}, "
                                      "axis=2, output_is_sparse=True)"),
           lambda i, v: as_parts(tf.sparse.reduce_sum(sp(i, v, [2, 2, 3]), axis=2,
                                                      output_is_sparse=True)),
           [IDX3, vals(5)]),
    TFCase("reduce_sum_sparse_keepdims",
           parts(f"tf.sparse.reduce_sum({SP.format(shape=[2, 2, 3])}, axis=0, keepdims=True, "
                 "output_is_sparse=True)"),
           lambda i, v: as_parts(tf.sparse.reduce_sum(sp(i, v, [2, 2, 3]), axis=0, keepdims=True,
                                                      output_is_sparse=True)),
           [IDX3, vals(5)]),
    TFCase("reduce_max_axis", f"tf.sparse.reduce_max({SP.format(shape=[2, 2, 3])}, axis=2)",
           lambda i, v: tf.sparse.reduce_max(sp(i, v, [2, 2, 3]), axis=2),
           [IDX3, -np.abs(vals(5))]),
    TFCase("reduce_max_all", f"tf.sparse.reduce_max({SP.format(shape=[2, 2, 3])})",
           lambda i, v: tf.sparse.reduce_max(sp(i, v, [2, 2, 3])), [IDX3, vals(5)]),
    TFCase("reduce_max_sparse", parts(f"tf.sparse.reduce_max({SP.format(shape=[2, 2, 3])}, "
                                      "axis=1, output_is_sparse=True)"),
           lambda i, v: as_parts(tf.sparse.reduce_max(sp(i, v, [2, 2, 3]), axis=1,
                                                      output_is_sparse=True)),
           [IDX3, vals(5)]),
    TFCase("reduce_max_int", f"tf.sparse.reduce_max({SP.format(shape=[4, 3])}, axis=1)",
           lambda i, v: tf.sparse.reduce_max(sp(i, v, [4, 3]), axis=1),
           [IDX, np.array([3, -2, 7, 1], np.int32)]),
    TFCase("softmax", parts(f"tf.sparse.softmax({SP.format(shape=[2, 2, 3])})"),
           lambda i, v: as_parts(tf.sparse.softmax(sp(i, v, [2, 2, 3]))), [IDX3, vals(5)],
           wrt=(1,)),
    TFCase("softmax_matrix", parts(f"tf.sparse.softmax({SP.format(shape=[4, 3])})"),
           lambda i, v: as_parts(tf.sparse.softmax(sp(i, v, [4, 3]))), [IDX, vals(4)],
           wrt=(1,)),
]

A = SP.format(shape=[4, 3])
C = "tf.sparse.SparseTensor(x2, x3, [2, 3])"
IDX_C = np.array([[0, 0], [1, 1]], np.int64)


def _case(name, expr, fn, inputs, wrt=(1,)):
    """A case whose TensorFlow expression and wengert function give SparseTensors."""
    return TFCase(name, parts(expr), lambda *x: as_parts(fn(*x)), inputs, wrt=wrt)


# TensorFlow's SparseConcat and SparseSplit have no gradient (None); here the values' gradients
# flow through the gathers, so those cases compare outputs only (tests/test_sparse_ops.py checks
# their gradients by finite differences).
STRUCTURE = [
    _case("retain", f"tf.sparse.retain({A}, [True, False, True, True])",
          lambda i, v: tf.sparse.retain(sp(i, v, [4, 3]), [True, False, True, True]),
          [IDX, vals(4)]),
    _case("reset_shape", f"tf.sparse.reset_shape({A})",
          lambda i, v: tf.sparse.reset_shape(sp(i, v, [4, 3])), [IDX, vals(4)]),
    _case("reset_shape_larger", f"tf.sparse.reset_shape({A}, [6, 5])",
          lambda i, v: tf.sparse.reset_shape(sp(i, v, [4, 3]), [6, 5]), [IDX, vals(4)]),
    _case("transpose", f"tf.sparse.transpose({A})",
          lambda i, v: tf.sparse.transpose(sp(i, v, [4, 3])), [IDX, vals(4)]),
    _case("transpose_3d", f"tf.sparse.transpose({SP.format(shape=[2, 2, 3])}, [1, 2, 0])",
          lambda i, v: tf.sparse.transpose(sp(i, v, [2, 2, 3]), [1, 2, 0]), [IDX3, vals(5)]),
    _case("expand_dims", f"tf.sparse.expand_dims({A})",
          lambda i, v: tf.sparse.expand_dims(sp(i, v, [4, 3])), [IDX, vals(4)]),
    _case("expand_dims_1", f"tf.sparse.expand_dims({A}, 1)",
          lambda i, v: tf.sparse.expand_dims(sp(i, v, [4, 3]), 1), [IDX, vals(4)]),
    _case("eye", "tf.sparse.eye(3, 5, dtype=tf.float64)",
          lambda i: tf.sparse.eye(3, 5, dtype=tf.float64), [IDX], wrt=()),
    TFCase("to_indicator", "tf.sparse.to_indicator(tf.sparse.SparseTensor(x0, x1, [3, 2]), 4)",
           lambda i, v: tf.sparse.to_indicator(sp(i, v, [3, 2]), 4),
           [np.array([[0, 0], [0, 1], [2, 0]], np.int64), np.array([3, 1, 3], np.int64)]),
    _case("map_values", f"tf.sparse.map_values(lambda a, b: a * b + 1., {A}, {A})",
          lambda i, v: tf.sparse.map_values(lambda a, b: a * b + 1., sp(i, v, [4, 3]),
                                            sp(i, v, [4, 3])), [IDX, vals(4)]),
    _case("slice", f"tf.sparse.slice({A}, [1, 0], [2, 3])",
          lambda i, v: tf.sparse.slice(sp(i, v, [4, 3]), [1, 0], [2, 3]), [IDX, vals(4)]),
    _case("slice_past_end", f"tf.sparse.slice({A}, [1, 1], [10, 10])",
          lambda i, v: tf.sparse.slice(sp(i, v, [4, 3]), [1, 1], [10, 10]), [IDX, vals(4)]),
    TFCase("split", f"[(s.indices, s.values, s.dense_shape) for s in "
           f"tf.sparse.split(sp_input={A}, num_split=3, axis=0)]",
           lambda i, v: [as_parts(s) for s in tf.sparse.split(sp_input=sp(i, v, [4, 3]),
                                                              num_split=3, axis=0)],
           [IDX, vals(4)]),
    TFCase("split_axis1", f"[(s.indices, s.values, s.dense_shape) for s in "
           f"tf.sparse.split(sp_input={A}, num_split=2, axis=1)]",
           lambda i, v: [as_parts(s) for s in tf.sparse.split(sp_input=sp(i, v, [4, 3]),
                                                              num_split=2, axis=1)],
           [IDX, vals(4)]),
    _case("concat_axis0", f"tf.sparse.concat(0, [{A}, {C}])",
          lambda i, v, j, w: tf.sparse.concat(0, [sp(i, v, [4, 3]), sp(j, w, [2, 3])]),
          [IDX, vals(4), IDX_C, vals(2)], wrt=()),
    _case("concat_expand", f"tf.sparse.concat(1, [{A}, {C}], expand_nonconcat_dims=True)",
          lambda i, v, j, w: tf.sparse.concat(1, [sp(i, v, [4, 3]), sp(j, w, [2, 3])],
                                              expand_nonconcat_dims=True),
          [IDX, vals(4), IDX_C, vals(2)], wrt=()),
]
CASES += STRUCTURE
BYTES = "(lambda t: tf.io.decode_raw(tf.strings.reduce_join(t, separator='|'), tf.uint8))"


def _text_case(name, expr, fn, inputs):
    """A case giving a SparseTensor of strings: its values compared as the bytes of their
    '|'-joined text (the stored answers hold no string arrays)."""
    def mine(*x):
        out = fn(*x)
        text = tf.strings.reduce_join(out.values, separator="|")
        return out.indices, tf.io.decode_raw(text, tf.uint8), out.dense_shape
    return TFCase(name, f"(lambda s: (s.indices, {BYTES}(s.values), s.dense_shape))({expr})",
                  mine, inputs)


U = "tf.sparse.SparseTensor(x0, x1, [5, 3])"
IDX_U = np.array([[3, 2], [1, 0], [1, 2], [0, 1]], np.int64)
WORDS = "tf.sparse.SparseTensor(x0, x1, [2, 2])"
IDX_W = np.array([[0, 0], [0, 1], [1, 0]], np.int64)
TEXT = np.array([b"a", b"b", b"c"])
MORE = [
    TFCase("fill_empty_rows", "(lambda r: (r[0].indices, r[0].values, r[0].dense_shape, r[1]))("
           f"tf.sparse.fill_empty_rows({U}, x2))",
           lambda i, v, d: (lambda r: (*as_parts(r[0]), r[1]))(
               tf.sparse.fill_empty_rows(sp(i, v, [5, 3]), d)),
           [IDX_U, vals(4), np.array(-1.5)], wrt=(1, 2)),
    _case("reshape", f"tf.sparse.reshape({SP.format(shape=[4, 3])}, [2, -1])",
          lambda i, v: tf.sparse.reshape(sp(i, v, [4, 3]), [2, -1]), [IDX, vals(4)]),
    _case("reshape_3d", f"tf.sparse.reshape({SP.format(shape=[2, 2, 3])}, [3, 4])",
          lambda i, v: tf.sparse.reshape(sp(i, v, [2, 2, 3]), [3, 4]), [IDX3, vals(5)]),
    _case("maximum", f"tf.sparse.maximum({A}, {SP_B.format(shape=[4, 3])})",
          lambda i, v, j, w: tf.sparse.maximum(sp(i, v, [4, 3]), sp(j, w, [4, 3])),
          [IDX, vals(4), IDX_B, vals(3)], wrt=()),
    _case("minimum", f"tf.sparse.minimum({A}, {SP_B.format(shape=[4, 3])})",
          lambda i, v, j, w: tf.sparse.minimum(sp(i, v, [4, 3]), sp(j, w, [4, 3])),
          [IDX, vals(4), IDX_B, vals(3)], wrt=()),
    _case("bincount", "tf.sparse.bincount(x0, minlength=12)",
          lambda x: tf.sparse.bincount(x, minlength=12), [np.array([[1, 1, 3], [7, 0, 1]])],
          wrt=()),
    _case("bincount_rows_weights", "tf.sparse.bincount(x0, weights=x1, axis=-1)",
          lambda x, w: tf.sparse.bincount(x, weights=w, axis=-1),
          [np.array([[10, 20, 30, 20], [11, 101, 11, 1001]]), vals(2, 4)], wrt=()),
    _case("bincount_sparse", "tf.sparse.bincount(tf.sparse.SparseTensor(x0, x1, [4, 3]), "
          "axis=-1, binary_output=True)",
          lambda i, v: tf.sparse.bincount(sp(i, v, [4, 3]), axis=-1, binary_output=True),
          [IDX, np.array([4, 4, 2, 9], np.int32)], wrt=()),
    _text_case("cross", f"tf.sparse.cross([{WORDS}, x2, tf.sparse.SparseTensor(x0, x3, [2, 2])])",
               lambda i, w, d, n: tf.sparse.cross([sp(i, w, [2, 2]), d, sp(i, n, [2, 2])]),
               [IDX_W, TEXT, np.array([[b"x", b"y"], [b"z", b"w"]]),
                np.array([5, 6, 7], np.int64)]),
    _text_case("cross_separator", f"tf.sparse.cross([{WORDS}, x2], separator='--')",
               lambda i, w, d: tf.sparse.cross([sp(i, w, [2, 2]), d], separator="--"),
               [IDX_W, TEXT, np.array([[3], [4]], np.int32)]),
    _case("cross_hashed", f"tf.sparse.cross_hashed([{WORDS}, x2])",
          lambda i, w, d: tf.sparse.cross_hashed([sp(i, w, [2, 2]), d]),
          [IDX_W, TEXT, np.array([[3, 9], [4, 1]], np.int64)], wrt=()),
    _case("cross_hashed_buckets",
          f"tf.sparse.cross_hashed([{WORDS}, x2], num_buckets=1000, hash_key=77)",
          lambda i, w, d: tf.sparse.cross_hashed([sp(i, w, [2, 2]), d], num_buckets=1000,
                                                 hash_key=77),
          [IDX_W, TEXT, np.array([[b"p"], [b"q"]])], wrt=()),
    TFCase("sampled_addmm", "tf.sparse.sampled_addmm(x0, x1, [2, 2], x2, x3, alpha=0.75, "
           "beta=0.25, output_type=tf.float64)",
           lambda i, v, a, b: tf.sparse.sampled_addmm(i, v, [2, 2], a, b, alpha=0.75, beta=0.25,
                                                      output_type=tf.float64),
           [np.array([0, 1, 1, 0, 0, 0, 1, 0]).reshape(2, 2, 2), vals(2, 2), vals(2, 2, 3),
            vals(2, 3, 2)], wrt=(1, 2, 3)),
    _case("sparse_times_dense", f"{A} * x2", lambda i, v, d: sp(i, v, [4, 3]) * d,
          [IDX, vals(4), vals(4, 3)], wrt=(1, 2)),
    _case("sparse_times_row", f"{SP.format(shape=[2, 2, 3])} * x2",
          lambda i, v, d: sp(i, v, [2, 2, 3]) * d, [IDX3, vals(5), vals(2, 1)], wrt=(1, 2)),
    _case("sparse_over_dense", f"{A} / x2", lambda i, v, d: sp(i, v, [4, 3]) / d,
          [IDX, vals(4), 1.5 + np.abs(vals(3))], wrt=(1, 2)),
]
CASES += MORE


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_matches_tensorflow(case, tf_results):
    check(case, tf_results[case.name], rtol=1e-6, atol=1e-9)
