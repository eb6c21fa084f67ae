"""RaggedTensor slicing with a step, as TensorFlow 2.21 indexes: rt[::2], rt[:, ::2],
rt[:, ::-1], bounds of either sign with steps of either sign in the row dimension and in each
ragged dimension, uniform rows (which stay uniform), values with inner dimensions, an Ellipsis,
tensor bounds and steps, int32 row splits, and a zero step (TensorFlow's
InvalidArgumentError). Compared as the ragged tensors (values, row splits, dtypes, static
shapes) TensorFlow returns (tf_expressions.py; answers stored in tests/references/); gradients
reach the flat values."""
import numpy as np
import pytest

import wengert as tf
from tf_expressions import tf_results, wengert_result

R2 = "tf.ragged.constant([[1, 2, 3, 4], [], [5, 6, 7], [8], [9, 10]])"
R3 = "tf.ragged.constant([[[1, 2, 3], [4]], [], [[5, 6], [7, 8, 9], [10]]])"
FLAT2 = "tf.ragged.constant([[[1., 2.], [3., 4.], [5., 6.]], [[7., 8.]]], ragged_rank=1)"
SLICES = ["::2", "1::2", "::-1", "::-2", "3:0:-1", "-1::-2", "::3", "1:4:2", "4:1:-2",
          "::-3", "-2:-5:-1", "10::-1", ":-10:-1"]


def _cases():
    cases = {}
    for k in SLICES:
        cases.update({
            f"r2[{k}]": f"{R2}[{k}]", f"r2[:, {k}]": f"{R2}[:, {k}]",
            f"r2[{k}, {k}]": f"{R2}[{k}, {k}]", f"r3[:, {k}]": f"{R3}[:, {k}]",
            f"r3[:, :, {k}]": f"{R3}[:, :, {k}]", f"r3[{k}, :, {k}]": f"{R3}[{k}, :, {k}]",
            f"flat2[:, {k}]": f"{FLAT2}[:, {k}]", f"flat2[:, :, {k}]": f"{FLAT2}[:, :, {k}]",
            f"flat2[:, {k}, 1]": f"{FLAT2}[:, {k}, 1]"})
    return cases


CASES = {**_cases(),
         "row_then_step": f"{R2}[0, ::2]", "row_reversed": f"{R2}[2, ::-1]",
         "r3_row_reversed": f"{R3}[2, ::-1]", "r3_row_both": f"{R3}[2, ::-1, ::2]",
         "zero_step_rows": f"{R2}[:, ::0]",
         "uniform_step": "tf.RaggedTensor.from_uniform_row_length(tf.range(12), 4)[:, ::2]",
         "uniform_reversed": "tf.RaggedTensor.from_uniform_row_length(tf.range(12), 4)[::-1]",
         "uniform_both": "tf.RaggedTensor.from_uniform_row_length(tf.range(12), 4)[::2, ::-3]",
         "int32_splits": "tf.ragged.constant([[1, 2, 3], [4]], row_splits_dtype=tf.int32)"
                         "[:, ::-1]",
         "tensor_step": f"{R2}[:, ::tf.constant(2)]",
         "tensor_start": f"{R2}[:, tf.constant(1)::-1]",
         "tensor_start_int64": f"{R2}[:, tf.constant(-1, tf.int64)::-2]",
         "ellipsis": f"{R2}[..., ::2]", "ellipsis_r3": f"{R3}[..., ::-1]",
         "ellipsis_first": f"{R3}[::2, ...]",
         "strings": "tf.ragged.constant([['a', 'b'], ['c']])[:, ::-1]"}


@pytest.fixture(scope="module")
def theirs():
    return tf_results(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_tensorflow(name, theirs):
    assert wengert_result(CASES[name]) == theirs[name], CASES[name]


def test_gradient_reaches_the_flat_values():
    values = tf.constant([1., 2., 3., 4., 5.])
    with tf.GradientTape() as tape:
        tape.watch(values)
        rt = tf.RaggedTensor.from_row_splits(values, [0, 3, 5])
        picked = rt[:, ::-2]
        total = tf.reduce_sum(picked.flat_values * tf.constant([1., 10., 100.]))
    assert picked.to_list() == [[3., 1.], [5.]]
    np.testing.assert_allclose(tape.gradient(total, values).numpy(), [10., 0., 1., 0., 100.])


def test_in_a_traced_function():
    @tf.function
    def every_other_reversed(rt):
        return rt[::-1, ::2]

    rt = tf.ragged.constant([[1, 2, 3], [4, 5]])
    assert every_other_reversed(rt).to_list() == [[4], [1, 3]]
