"""RaggedTensor's factories, conversions, partition queries and indexing against TensorFlow 2.21:
every result is compared as its parts (flat values, then each level's row splits) with their
dtypes, gradients through the flat values with TensorFlow's, and bad partitions raise the error
class TensorFlow raises. Answers are stored in tests/references/ for runs without TensorFlow."""
import numpy as np
import pytest

import wengert as tf
from tf_ops_reference import TFCase, check, run_tf_or_skip

RNG = np.random.default_rng(29)
R = tf.RaggedTensor
PARTS = "(lambda r: [r.flat_values, *r.nested_row_splits])"


def parts(r):
    return [r.flat_values, *r.nested_row_splits]


def f64(*shape):
    return RNG.standard_normal(shape)


SPLITS = np.array([0, 2, 2, 5, 6], np.int64)
VALUES = f64(6)
LIST3 = "[[[1, 2], [3]], [], [[4, 5, 6], [], [7]]]"

CASES = [
    TFCase("constant_rank2", f"{PARTS}(tf.ragged.constant([[1, 2], [3], []]))",
           lambda: parts(tf.ragged.constant([[1, 2], [3], []])), []),
    TFCase("constant_rank3", f"{PARTS}(tf.ragged.constant({LIST3}))",
           lambda: parts(tf.ragged.constant(eval(LIST3))), []),
    TFCase("constant_ragged_rank1",
           f"{PARTS}(tf.ragged.constant([[[1., 2.], [3., 4.]], [[5., 6.]]], ragged_rank=1))",
           lambda: parts(tf.ragged.constant([[[1., 2.], [3., 4.]], [[5., 6.]]], ragged_rank=1)),
           []),
    TFCase("constant_inner_shape",
           f"{PARTS}(tf.ragged.constant([[[1, 2]], []], inner_shape=(2,)))",
           lambda: parts(tf.ragged.constant([[[1, 2]], []], inner_shape=(2,))), []),
    TFCase("constant_dtypes", f"{PARTS}(tf.ragged.constant([[1, 2], [3]], dtype=tf.float64, "
           "row_splits_dtype=tf.int32))",
           lambda: parts(tf.ragged.constant([[1, 2], [3]], dtype=tf.float64,
                                            row_splits_dtype=tf.int32)), []),
    TFCase("constant_empty_rows", f"{PARTS}(tf.ragged.constant([[], []]))",
           lambda: parts(tf.ragged.constant([[], []])), []),
    TFCase("from_row_splits_to_tensor", "tf.RaggedTensor.from_row_splits(x0, x1).to_tensor()",
           lambda v, s: R.from_row_splits(v, s).to_tensor(), [VALUES, SPLITS], wrt=[0]),
    TFCase("from_row_lengths", f"{PARTS}(tf.RaggedTensor.from_row_lengths(x0, x1))",
           lambda v, n: parts(R.from_row_lengths(v, n)), [VALUES, np.array([2, 0, 3, 1])],
           wrt=[0]),
    TFCase("from_value_rowids_nrows",
           f"{PARTS}(tf.RaggedTensor.from_value_rowids(x0, x1, nrows=5))",
           lambda v, i: parts(R.from_value_rowids(v, i, nrows=5)),
           [VALUES, np.array([0, 0, 2, 2, 2, 3])]),
    TFCase("from_row_starts_limits",
           f"[{PARTS}(tf.RaggedTensor.from_row_starts(x0, x1)), "
           f"{PARTS}(tf.RaggedTensor.from_row_limits(x0, x2))]",
           lambda v, a, b: [parts(R.from_row_starts(v, a)), parts(R.from_row_limits(v, b))],
           [VALUES, np.array([0, 2, 2, 5]), np.array([2, 2, 5, 6])]),
    TFCase("from_uniform_row_length",
           "(lambda r: [r.to_tensor(), r.row_splits, r.uniform_row_length])("
           "tf.RaggedTensor.from_uniform_row_length(x0, 3))",
           lambda v: (lambda r: [r.to_tensor(), r.row_splits, r.uniform_row_length])(
               R.from_uniform_row_length(v, 3)), [VALUES], wrt=[0]),
    TFCase("from_nested_row_lengths",
           f"{PARTS}(tf.RaggedTensor.from_nested_row_lengths(x0, [[2, 1], [1, 0, 3]]))",
           lambda v: parts(R.from_nested_row_lengths(v, [[2, 1], [1, 0, 3]])), [f64(4)]),
    TFCase("from_nested_value_rowids",
           f"{PARTS}(tf.RaggedTensor.from_nested_value_rowids(x0, [[0, 0, 1], [0, 2, 2, 2]]))",
           lambda v: parts(R.from_nested_value_rowids(v, [[0, 0, 1], [0, 2, 2, 2]])), [f64(4)]),
    TFCase("from_nested_row_splits",
           f"{PARTS}(tf.RaggedTensor.from_nested_row_splits(x0, [[0, 1, 3], [0, 2, 2, 4]]))",
           lambda v: parts(R.from_nested_row_splits(v, [[0, 1, 3], [0, 2, 2, 4]])), [f64(4)]),
    TFCase("from_tensor_uniform", "tf.RaggedTensor.from_tensor(x0).to_tensor()",
           lambda x: R.from_tensor(x).to_tensor(), [f64(3, 4)], wrt=[0]),
    TFCase("from_tensor_padding",
           f"{PARTS}(tf.RaggedTensor.from_tensor(x0, padding=0))",
           lambda x: parts(R.from_tensor(x, padding=0)),
           [np.array([[1, 2, 0, 3, 0], [0, 0, 0, 0, 0], [4, 0, 0, 0, 0]])]),
    TFCase("from_tensor_padding_inner",
           f"{PARTS}(tf.RaggedTensor.from_tensor(x0, padding=[0, 0]))",
           lambda x: parts(R.from_tensor(x, padding=[0, 0])),
           [np.array([[[1, 2], [0, 0], [3, 0]], [[0, 0], [0, 0], [0, 0]]])]),
    TFCase("from_tensor_lengths", f"{PARTS}(tf.RaggedTensor.from_tensor(x0, lengths=[1, 3, 0]))",
           lambda x: parts(R.from_tensor(x, lengths=[1, 3, 0])), [f64(3, 4)], wrt=[0]),
    TFCase("from_tensor_ragged_rank2",
           f"{PARTS}(tf.RaggedTensor.from_tensor(x0, padding=0, ragged_rank=2))",
           lambda x: parts(R.from_tensor(x, padding=0, ragged_rank=2)),
           [np.array([[[1, 0], [2, 3], [0, 0]], [[4, 5], [0, 0], [6, 0]]])]),
    TFCase("to_tensor_default_shape",
           "tf.ragged.constant([[1., 2.], [3.], [4., 5., 6.]]).to_tensor("
           "default_value=-1., shape=[4, 2])",
           lambda: tf.ragged.constant([[1., 2.], [3.], [4., 5., 6.]]).to_tensor(
               default_value=-1., shape=[4, 2]), []),
    TFCase("to_tensor_rank3_grad",
           "tf.RaggedTensor.from_nested_row_lengths(x0, [[2, 0, 1], [1, 3, 2]]).to_tensor("
           "default_value=x1)",
           lambda v, d: R.from_nested_row_lengths(v, [[2, 0, 1], [1, 3, 2]]).to_tensor(
               default_value=d), [f64(6), np.array(0.5)], wrt=[0, 1]),
    TFCase("to_tensor_inner_dims",
           "tf.RaggedTensor.from_row_lengths(x0, [1, 2]).to_tensor()",
           lambda v: R.from_row_lengths(v, [1, 2]).to_tensor(), [f64(3, 2)], wrt=[0]),
    TFCase("to_sparse",
           f"(lambda s: [s.indices, s.values, s.dense_shape])(tf.ragged.constant({LIST3})"
           ".to_sparse())",
           lambda: (lambda s: [s.indices, s.values, s.dense_shape])(
               tf.ragged.constant(eval(LIST3)).to_sparse()), []),
    TFCase("to_sparse_inner",
           "(lambda s: [s.indices, s.values, s.dense_shape])("
           "tf.RaggedTensor.from_row_lengths(x0, [1, 0, 2]).to_sparse())",
           lambda v: (lambda s: [s.indices, s.values, s.dense_shape])(
               R.from_row_lengths(v, [1, 0, 2]).to_sparse()), [f64(3, 2)]),
    TFCase("from_sparse",
           f"{PARTS}(tf.RaggedTensor.from_sparse(tf.SparseTensor([[0, 0], [0, 1], [2, 0]], "
           "x0, [4, 3])))",
           lambda v: parts(R.from_sparse(tf.SparseTensor([[0, 0], [0, 1], [2, 0]], v, [4, 3]))),
           [f64(3)]),
    TFCase("queries",
           f"(lambda r: [r.nrows(), r.row_lengths(), r.value_rowids(), r.row_starts(), "
           f"r.row_limits(), r.bounding_shape(), r.bounding_shape(axis=2), "
           f"*r.nested_row_lengths(), r.values.value_rowids(), r.nrows(out_type=tf.int32)])"
           f"(tf.ragged.constant({LIST3}))",
           lambda: (lambda r: [r.nrows(), r.row_lengths(), r.value_rowids(), r.row_starts(),
                               r.row_limits(), r.bounding_shape(), r.bounding_shape(axis=2),
                               *r.nested_row_lengths(), r.values.value_rowids(),
                               r.nrows(out_type=tf.int32)])(tf.ragged.constant(eval(LIST3))),
           []),
    TFCase("row_lengths_axis2", f"{PARTS}(tf.ragged.constant({LIST3}).row_lengths(axis=2))",
           lambda: parts(tf.ragged.constant(eval(LIST3)).row_lengths(axis=2)), []),
    TFCase("merge_dims",
           f"(lambda r: [r.merge_dims(0, 1).flat_values, *r.merge_dims(0, 1).nested_row_splits, "
           f"r.merge_dims(1, 2).flat_values, *r.merge_dims(1, 2).nested_row_splits, "
           f"r.merge_dims(0, -1)])(tf.ragged.constant({LIST3}))",
           lambda: (lambda r: [*parts(r.merge_dims(0, 1)), *parts(r.merge_dims(1, 2)),
                               r.merge_dims(0, -1)])(tf.ragged.constant(eval(LIST3))), []),
    TFCase("with_row_splits_dtype",
           f"{PARTS}(tf.ragged.constant({LIST3}).with_row_splits_dtype(tf.int32))",
           lambda: parts(tf.ragged.constant(eval(LIST3)).with_row_splits_dtype(tf.int32)), []),
]

INDEXING = [("row", "[1]"), ("last_row", "[-1]"), ("rows", "[1:]"), ("step", "[::2]"),
            ("inner_slice", "[:, 1:]"), ("inner_negative", "[:, -1:]"),
            ("inner_stop", "[:, :-1]"), ("both", "[-2:, :1]"), ("rank3_row", "[2]"),
            ("rank3_point", "[2, 0, 1]"), ("rank3_inner", "[:, :, :1]")]
for _name, _key in INDEXING:
    _source = LIST3 if _name.startswith("rank3") else "[[1., 2.], [3.], [4., 5., 6.]]"
    CASES.append(TFCase(
        f"getitem_{_name}",
        f"(lambda r: {PARTS}(r) if isinstance(r, tf.RaggedTensor) else r)(tf.ragged.constant("
        f"{_source}){_key})",
        lambda _s=_source, _k=_key: (lambda r: parts(r) if isinstance(r, R) else r)(
            eval(f"tf.ragged.constant({_s}){_k}")), []))

ERRORS = [
    TFCase("splits_decrease", "tf.RaggedTensor.from_row_splits(x0, [0, 2, 1, 3])",
           lambda v: R.from_row_splits(v, [0, 2, 1, 3]), [f64(3)]),
    TFCase("splits_not_zero", "tf.RaggedTensor.from_row_splits(x0, [1, 2, 3])",
           lambda v: R.from_row_splits(v, [1, 2, 3]), [f64(3)]),
    TFCase("splits_too_far", "tf.RaggedTensor.from_row_splits(x0, [0, 2, 5])",
           lambda v: R.from_row_splits(v, [0, 2, 5]), [f64(3)]),
    TFCase("lengths_sum", "tf.RaggedTensor.from_row_lengths(x0, [2, 2])",
           lambda v: R.from_row_lengths(v, [2, 2]), [f64(3)]),
    TFCase("rowids_unsorted", "tf.RaggedTensor.from_value_rowids(x0, [0, 2, 1])",
           lambda v: R.from_value_rowids(v, [0, 2, 1]), [f64(3)]),
    TFCase("constant_depths", "tf.ragged.constant([[1, 2], [[3]]])",
           lambda: tf.ragged.constant([[1, 2], [[3]]]), []),
    TFCase("inner_ragged_index", "tf.ragged.constant([[1, 2], [3]])[:, 1]",
           lambda: tf.ragged.constant([[1, 2], [3]])[:, 1], []),
    TFCase("private_constructor", "tf.RaggedTensor(x0, [0, 1])",
           lambda v: R(v, [0, 1]), [f64(1)]),
]


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES + ERRORS)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_against_tensorflow(case, tf_results):
    result = tf_results[case.name]
    check(case, result)
    outputs = tf.nest.flatten(case.fn(*[tf.constant(x) for x in case.inputs]))
    for k, (mine, theirs) in enumerate(zip(outputs, result["outputs"])):
        assert np.asarray(mine).dtype == theirs.dtype, \
            f"{case.name}: output {k} dtype {np.asarray(mine).dtype} vs {theirs.dtype}"


@pytest.mark.parametrize("case", ERRORS, ids=[c.name for c in ERRORS])
def test_errors_as_tensorflow(case, tf_results):
    theirs = tf_results[case.name]
    assert "error" in theirs, f"{case.name}: TensorFlow did not fail"
    kind = theirs["error"].split(":")[0]
    with pytest.raises(Exception) as info:
        case.fn(*[tf.constant(x) for x in case.inputs])
    assert type(info.value).__name__ == kind, f"{case.name}: {info.value!r} vs {kind}"
