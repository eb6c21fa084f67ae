"""Ops over ragged tensors against TensorFlow 2.21: elementwise math and comparisons dispatched
to the flat values (with broadcasting), map_flat_values, reductions along each axis, gather,
concat, stack, boolean_mask, where, tf.shape's sizes, tf.ragged.range, the segment-id
conversions, stack_dynamic_partitions and cross_hashed; gradients through the flat values
against TensorFlow's, and the error classes of bad input."""
import numpy as np
import pytest

import wengert as tf
from tf_ops_reference import TFCase, check, run_tf_or_skip

RNG = np.random.default_rng(2921)
R = tf.RaggedTensor
PARTS = "(lambda r: [r.flat_values, *r.nested_row_splits])"
SPLITS = np.array([0, 2, 2, 5, 6], np.int64)
LENGTHS2 = "[[2, 1, 0, 2], [1, 3, 0, 2, 1]]"


def parts(r):
    return [r.flat_values, *r.nested_row_splits] if isinstance(r, R) else [r]


def rt1(x):  # [4, None] over 6 values
    return R.from_row_splits(x, SPLITS)


def rt2(x):  # [4, None, None] over 7 values
    return R.from_nested_row_lengths(x, eval(LENGTHS2))


RT1 = "tf.RaggedTensor.from_row_splits(x0, x1)"
RT2 = f"tf.RaggedTensor.from_nested_row_lengths(x0, {LENGTHS2})"
V6, V7 = RNG.standard_normal(6), RNG.standard_normal(7)


def case1(name, expr, fn, extra=(), wrt=(0,)):
    """A case over the rank-2 ragged tensor r = RT1 (inputs x0 values, x1 splits, x2...)."""
    return TFCase(name, f"(lambda r: {PARTS}({expr}) if isinstance({expr}, tf.RaggedTensor) "
                        f"else {expr})({RT1})",
                  lambda v, s, *rest: parts(fn(rt1(v), *rest)), [V6, SPLITS, *extra], wrt=wrt)


def case2(name, expr, fn, wrt=(0,)):
    """A case over the rank-3 ragged tensor r = RT2 (input x0: its 7 flat values)."""
    return TFCase(name, f"(lambda r: {PARTS}({expr}) if isinstance({expr}, tf.RaggedTensor) "
                        f"else {expr})({RT2})",
                  lambda v: parts(fn(rt2(v))), [V7], wrt=wrt)


CASES = [
    case1("add_scalar", "r + 1.5", lambda r: r + 1.5),
    case1("radd_mul", "2.0 * r - r * r", lambda r: 2.0 * r - r * r),
    case1("tf_add", "tf.add(r, r)", lambda r: tf.add(r, r)),
    case1("divide", "r / 4.0", lambda r: r / 4.0),
    case1("sin_exp", "tf.math.exp(tf.sin(r))", lambda r: tf.math.exp(tf.sin(r))),
    case1("square_abs", "tf.abs(tf.square(r) - 1.0)", lambda r: tf.abs(tf.square(r) - 1.0)),
    case1("maximum", "tf.maximum(r, 0.2)", lambda r: tf.maximum(r, 0.2)),
    case1("broadcast_rows", "r * x2", lambda r, d: r * d, [RNG.standard_normal((4, 1))],
          wrt=(0, 2)),
    case1("compare", "r > 0.0", lambda r: r > 0.0, wrt=()),
    case1("cast", "tf.cast(r, tf.int32)", lambda r: tf.cast(r, tf.int32), wrt=()),
    case1("map_flat_values", "tf.ragged.map_flat_values(tf.square, r)",
          lambda r: tf.ragged.map_flat_values(tf.square, r)),
    case2("rank3_tanh", "tf.tanh(r) + r", lambda r: tf.tanh(r) + r),
]
for _kind in ("sum", "mean", "max", "min", "prod"):
    for _axis in (None, 0, 1):
        CASES.append(case1(f"reduce_{_kind}_{_axis}", f"tf.reduce_{_kind}(r, axis={_axis})",
                           lambda r, k=_kind, a=_axis: getattr(tf, f"reduce_{k}")(r, axis=a),
                           wrt=(0,) if _kind not in ("max", "min") else ()))
    for _axis in (0, 1, 2):
        CASES.append(case2(f"reduce3_{_kind}_{_axis}", f"tf.reduce_{_kind}(r, axis={_axis})",
                           lambda r, k=_kind, a=_axis: getattr(tf, f"reduce_{k}")(r, axis=a),
                           wrt=(0,) if _kind not in ("max", "min") else ()))
CASES += [
    case2("reduce3_sum_axes", "tf.reduce_sum(r, axis=[1, 2])",
          lambda r: tf.reduce_sum(r, axis=[1, 2])),
    case1("reduce_any_all", "[tf.reduce_any(r > 0.5, axis=1), tf.reduce_all(r > 0.5, axis=0)]",
          lambda r: [tf.reduce_any(r > 0.5, axis=1), tf.reduce_all(r > 0.5, axis=0)], wrt=()),
    case1("reduce_keepdims", "tf.reduce_sum(r, axis=1, keepdims=True)",
          lambda r: tf.reduce_sum(r, axis=1, keepdims=True)),
    case1("gather_rows", "tf.gather(r, [3, 0, 3])", lambda r: tf.gather(r, [3, 0, 3])),
    case2("gather_rows3", "tf.gather(r, [1, 0])", lambda r: tf.gather(r, [1, 0])),
    case1("gather_ragged_indices",
          "tf.gather(x2, tf.ragged.constant([[0, 2], [], [1]]))",
          lambda r, p: tf.gather(p, tf.ragged.constant([[0, 2], [], [1]])),
          [RNG.standard_normal(3)], wrt=(2,)),
    case1("concat0", "tf.concat([r, r * 2.0], axis=0)", lambda r: tf.concat([r, r * 2.0], 0)),
    case1("concat1", "tf.concat([r, -r], axis=1)", lambda r: tf.concat([r, -r], axis=1)),
    case1("concat1_dense", "tf.concat([r, x2], axis=1)", lambda r, d: tf.concat([r, d], axis=1),
          [RNG.standard_normal((4, 2))], wrt=(0, 2)),
    case1("stack0", "tf.stack([r, r + 1.0])", lambda r: tf.stack([r, r + 1.0])),
    case1("stack1", "tf.stack([r, r + 1.0], axis=1)", lambda r: tf.stack([r, r + 1.0], axis=1)),
    case1("ragged_stack", "tf.ragged.stack([r, r])", lambda r: tf.ragged.stack([r, r])),
    case2("concat2_rank3", "tf.concat([r, r], axis=2)", lambda r: tf.concat([r, r], axis=2)),
    case1("boolean_mask_ragged", "tf.ragged.boolean_mask(r, r > 0.0)",
          lambda r: tf.ragged.boolean_mask(r, r > 0.0)),
    case1("boolean_mask_rows", "tf.ragged.boolean_mask(r, [True, False, True, True])",
          lambda r: tf.ragged.boolean_mask(r, [True, False, True, True])),
    case2("boolean_mask_rank3", "tf.ragged.boolean_mask(r, r > 0.0)",
          lambda r: tf.ragged.boolean_mask(r, r > 0.0)),
    TFCase("boolean_mask_dense",
           f"{PARTS}(tf.ragged.boolean_mask(x0, x1))",
           lambda x, m: parts(tf.ragged.boolean_mask(x, m)),
           [RNG.standard_normal((3, 4)), RNG.standard_normal((3, 4)) > 0], wrt=[0]),
    case1("where3", "tf.where(r > 0.0, r, r * 3.0)", lambda r: tf.where(r > 0.0, r, r * 3.0)),
    case1("where1", "tf.where(r > 0.0)", lambda r: tf.where(r > 0.0), wrt=()),
    case2("shape_sizes", "[tf.shape(r)[0], tf.shape(r, out_type=tf.int64)[0], "
          "tf.shape(r).inner_shape]",
          lambda r: [tf.shape(r)[0], tf.shape(r, out_type=tf.int64)[0], tf.shape(r).inner_shape],
          wrt=()),
    TFCase("ragged_range", f"[{PARTS}(tf.ragged.range(x0)), {PARTS}(tf.ragged.range(x1, x0, 2)),"
           f" {PARTS}(tf.ragged.range(0.5, x2, 0.75))]",
           lambda a, b, c: [parts(tf.ragged.range(a)), parts(tf.ragged.range(b, a, 2)),
                            parts(tf.ragged.range(0.5, c, 0.75))],
           [np.array([3, 0, 5]), np.array([1, 0, -1]), np.array([2.0, 0.0, 3.0], np.float32)]),
    TFCase("segment_ids",
           "[tf.ragged.row_splits_to_segment_ids(x0), tf.ragged.segment_ids_to_row_splits(x1), "
           "tf.ragged.segment_ids_to_row_splits(x1, num_segments=5)]",
           lambda s, i: [tf.ragged.row_splits_to_segment_ids(s),
                         tf.ragged.segment_ids_to_row_splits(i),
                         tf.ragged.segment_ids_to_row_splits(i, num_segments=5)],
           [SPLITS, np.array([0, 0, 2, 3, 3], np.int32)]),
    TFCase("stack_dynamic_partitions",
           f"{PARTS}(tf.ragged.stack_dynamic_partitions(x0, x1, 4))",
           lambda d, p: parts(tf.ragged.stack_dynamic_partitions(d, p, 4)),
           [RNG.standard_normal((5, 2)), np.array([2, 0, 2, 1, 0], np.int32)], wrt=[0]),
    TFCase("cross_hashed",
           "[(lambda r: [r.flat_values, r.row_splits])(tf.ragged.cross_hashed("
           "[tf.ragged.constant([['a', 'b'], ['c']]), tf.RaggedTensor.from_row_splits(x0, x1), "
           "tf.constant([['x'], ['y']])], num_buckets=n, hash_key=k)) for n, k in "
           "[(0, None), (100, 7)]]",
           lambda v, s: [[r.flat_values, r.row_splits] for r in (
               tf.ragged.cross_hashed([tf.ragged.constant([["a", "b"], ["c"]]),
                                       R.from_row_splits(v, s), tf.constant([["x"], ["y"]])],
                                      num_buckets=n, hash_key=k) for n, k in [(0, None), (100, 7)])],
           [np.array([1, 2, 3], np.int64), np.array([0, 1, 3], np.int64)]),
    TFCase("cross_hashed_order",
           "tf.ragged.cross_hashed([tf.ragged.constant([[1, 2]], dtype=tf.int64), "
           "tf.ragged.constant([[3, 4]], dtype=tf.int64)]).flat_values",
           lambda: tf.ragged.cross_hashed([tf.ragged.constant([[1, 2]], dtype=tf.int64),
                                           tf.ragged.constant([[3, 4]], dtype=tf.int64)]
                                          ).flat_values, []),
]

ERRORS = [
    TFCase("add_mismatched_splits",
           "tf.RaggedTensor.from_row_splits(x0, [0, 1, 3]) + "
           "tf.RaggedTensor.from_row_splits(x0, [0, 2, 3])",
           lambda v: R.from_row_splits(v, [0, 1, 3]) + R.from_row_splits(v, [0, 2, 3]),
           [RNG.standard_normal(3)]),
    TFCase("cross_float", "tf.ragged.cross([tf.constant([[1.0]])])",
           lambda: tf.ragged.cross([tf.constant([[1.0]])]), []),
    TFCase("partitions_out_of_range", "tf.ragged.stack_dynamic_partitions(x0, [0, 3], 2)",
           lambda d: tf.ragged.stack_dynamic_partitions(d, [0, 3], 2), [RNG.standard_normal(2)]),
    TFCase("shape_ragged_index", "tf.shape(tf.ragged.constant([[1], [2, 3]]))[1]",
           lambda: tf.shape(tf.ragged.constant([[1], [2, 3]]))[1], []),
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
