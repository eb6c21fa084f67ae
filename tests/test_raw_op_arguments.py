"""tf.raw_ops' arguments for inputs of one fixed dtype and for resource handles, as TensorFlow
2.21 takes them (its answers stored in tests/references/, reference_store.py).

- A number, list or NumPy array passed to an input TensorFlow gives one fixed dtype converts to
  that dtype (RFFT's fft_length=[8] is int32, SetSize's set_indices=[[0, 0]] int64, a NumPy
  int64, float or digit-string array is cast); what does not convert is TensorFlow's error
  class (a float list for int32, ints for bool, numbers for strings: TypeError; NumPy text that
  is no number: ValueError), eagerly and while a function is traced.
- A handle input (a variable's `resource`, a table's `table_handle`, a queue's `handle`) takes
  wengert's object for the resource; a tensor there is InvalidArgumentError eagerly and TypeError
  while tracing, None or a NumPy array ValueError, a number, string or list TypeError, each
  naming the op and the input; a resource object of the wrong kind (a variable given to a table
  op) is InvalidArgumentError, never an AttributeError. (TensorFlow's raw ops take the handle
  tensor, `variable.handle`; wengert's the Variable or table itself, which TensorFlow would read
  as a float tensor or fail to convert: those calls are checked here, not against TensorFlow.)
- Public functions whose op TensorFlow gives a fixed dtype refuse another dtype on every path:
  wengert's kernels that name their input otherwise (StringLower's `x`) are checked by the
  executor too (test_op_fixed_dtype_inputs.py holds the table of every such input).
Results are compared as tf_expressions.py encodes them: a tensor's dtype, shape and values, an
exception's class (RFFT's complex results through tf.abs, which JSON can hold).
"""
import os
import sys

import numpy as np
import pytest

import wengert as tf

sys.path.insert(0, os.path.dirname(__file__))
from tf_expressions import tf_results, wengert_result  # noqa: E402

TRACED = "tf.function(lambda: {}, autograph=False)()"
CONVERTED = {
    "rfft_list": "tf.abs(tf.raw_ops.RFFT(input=tf.ones([8]), fft_length=[8]))",
    "rfft_float_list": "tf.abs(tf.raw_ops.RFFT(input=tf.ones([8]), fft_length=[8.5]))",
    "rfft_numpy_int64": "tf.abs(tf.raw_ops.RFFT(input=tf.ones([8]), fft_length=np.array([8])))",
    "rfft_numpy_float": "tf.abs(tf.raw_ops.RFFT(input=tf.ones([8]), "
                        "fft_length=np.array([8.0])))",
    "rfft_numpy_digits": "tf.abs(tf.raw_ops.RFFT(input=tf.ones([8]), "
                         "fft_length=np.array(['8'])))",
    "rfft_numpy_text": "tf.abs(tf.raw_ops.RFFT(input=tf.ones([8]), fft_length=np.array(['a'])))",
    "rfft_string_list": "tf.abs(tf.raw_ops.RFFT(input=tf.ones([8]), fft_length=['8']))",
    "logical_not_bools": "tf.raw_ops.LogicalNot(x=[True, False])",
    "logical_not_scalar": "tf.raw_ops.LogicalNot(x=True)",
    "logical_not_ints": "tf.raw_ops.LogicalNot(x=[1, 0])",
    "logical_not_numpy_ints": "tf.raw_ops.LogicalNot(x=np.array([1, 0]))",
    "string_lower_text": "tf.raw_ops.StringLower(input=['AbC'])",
    "string_lower_ints": "tf.raw_ops.StringLower(input=[1])",
    "string_length_bytes": "tf.raw_ops.StringLength(input=b'ab')",
    "string_join_list": "tf.raw_ops.StringJoin(inputs=[['a'], ['b']], separator='-')",
    "string_join_number": "tf.raw_ops.StringJoin(inputs=['a', 1], separator='-')",
    "decode_base64_list": "tf.raw_ops.DecodeBase64(input=['aGk'])",
    "unicode_script_list": "tf.raw_ops.UnicodeScript(input=[65])",
    "set_size_lists": "tf.raw_ops.SetSize(set_indices=[[0, 0], [0, 1]], set_values=[1, 2], "
                      "set_shape=[4, 4])",
    "sparse_reshape_lists": "tf.raw_ops.SparseReshape(input_indices=[[0, 1]], input_shape=[2, 2],"
                            " new_shape=[4])",
    "edit_distance_lists": "tf.raw_ops.EditDistance(hypothesis_indices=[[0, 0]], "
                           "hypothesis_values=[1], hypothesis_shape=[1, 1], truth_indices=[[0, 0]],"
                           " truth_values=[2], truth_shape=[1, 1])",
    "in_top_k_float_list": "tf.raw_ops.InTopKV2(predictions=[[0.1, 0.5, 0.3]], targets=[1], k=1)",
    "matrix_solve_ls_number": "tf.raw_ops.MatrixSolveLs(matrix=tf.eye(2, dtype=tf.float64), "
                              "rhs=tf.ones([2, 1], tf.float64), l2_regularizer=0.0)",
    "one_hot_int": "tf.raw_ops.OneHot(indices=[0, 1], depth=3, on_value=1.0, off_value=0.0)",
    "one_hot_float": "tf.raw_ops.OneHot(indices=[0, 1], depth=3.0, on_value=1.0, off_value=0.0)",
    "reshape_list": "tf.raw_ops.Reshape(tensor=tf.range(6), shape=[2, 3])",
}
CONVERTED.update({
    "traced_rfft_list": TRACED.format(CONVERTED["rfft_list"]),
    "traced_rfft_float_list": TRACED.format(CONVERTED["rfft_float_list"]),
    "traced_logical_not_ints": TRACED.format(CONVERTED["logical_not_ints"]),
    "traced_string_lower_ints": TRACED.format(CONVERTED["string_lower_ints"]),
    "traced_set_size_lists": TRACED.format(CONVERTED["set_size_lists"]),
})
HANDLES = {
    "read_variable_tensor": "tf.raw_ops.ReadVariableOp(resource=tf.constant(1.0), "
                            "dtype=tf.float32)",
    "read_variable_text": "tf.raw_ops.ReadVariableOp(resource='x', dtype=tf.float32)",
    "read_variable_none": "tf.raw_ops.ReadVariableOp(resource=None, dtype=tf.float32)",
    "read_variable_numpy": "tf.raw_ops.ReadVariableOp(resource=np.array(1), dtype=tf.float32)",
    "assign_variable_number": "tf.raw_ops.AssignVariableOp(resource=3, value=1.0)",
    "table_size_tensor": "tf.raw_ops.LookupTableSizeV2(table_handle=tf.constant(1))",
    "table_size_variable": "tf.raw_ops.LookupTableSizeV2(table_handle=tf.Variable(1.0))",
    "queue_size_list": "tf.raw_ops.QueueSizeV2(handle=[1])",
    "queue_size_int64_tensor": "tf.raw_ops.QueueSizeV2(handle=tf.constant(1, tf.int64))",
    "iterator_next_number": "tf.raw_ops.IteratorGetNext(iterator=1, output_types=[tf.int32], "
                            "output_shapes=[[]])",
    "traced_read_variable_tensor": TRACED.format("tf.raw_ops.ReadVariableOp(resource="
                                                 "tf.constant(1.0), dtype=tf.float32)"),
    "traced_read_variable_number": TRACED.format("tf.raw_ops.ReadVariableOp(resource=3, "
                                                 "dtype=tf.float32)"),
}
PUBLIC = {
    "strings_lower_int": "tf.strings.lower(tf.constant([1]))",
    "strings_upper_int": "tf.strings.upper(tf.constant([1]))",
    "strings_to_hash_bucket_fast_int": "tf.strings.to_hash_bucket_fast(tf.constant([1]), 4)",
    "strings_regex_full_match_int": "tf.strings.regex_full_match(tf.constant([1]), 'a')",
    "reduce_all_int": "tf.reduce_all(tf.constant([1, 0]))",
    "reduce_any_float": "tf.reduce_any(tf.constant([1.0]))",
    "reduce_all_bool": "tf.reduce_all(tf.constant([True, False]))",
    "unicode_script_int64": "tf.strings.unicode_script(tf.constant([65], tf.int64))",
    "traced_strings_lower_int": TRACED.format("tf.strings.lower(tf.constant([1]))"),
    "traced_reduce_any_int": TRACED.format("tf.reduce_any(tf.constant([1]))"),
}
CASES = {**{f"convert-{k}": v for k, v in CONVERTED.items()},
         **{f"handle-{k}": v for k, v in HANDLES.items()},
         **{f"public-{k}": v for k, v in PUBLIC.items()}}


@pytest.fixture(scope="module")
def theirs():
    return tf_results(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_tensorflow(name, theirs):
    assert wengert_result(CASES[name]) == theirs[name], CASES[name]


def _raises(error, call, *words):
    with pytest.raises(error) as info:
        call()
    for word in words:
        assert word in str(info.value), (word, str(info.value))


def test_errors_name_the_op_and_the_input():
    _raises(TypeError, lambda: tf.raw_ops.RFFT(input=tf.ones([8]), fft_length=[8.5]),
            "RFFT", "'fft_length'", "int32")
    _raises(TypeError, lambda: tf.raw_ops.LogicalNot(x=[1, 0]), "LogicalNot", "'x'", "bool")
    _raises(tf.errors.InvalidArgumentError,
            lambda: tf.raw_ops.ReadVariableOp(resource=tf.constant(1.0), dtype=tf.float32),
            "ReadVariableOp", "'resource'", "resource object itself")
    _raises(TypeError, lambda: tf.raw_ops.QueueSizeV2(handle=[1]), "QueueSizeV2", "'handle'")
    with tf.Graph().as_default():
        _raises(TypeError, lambda: tf.raw_ops.StringLower(input=[1]), "StringLower",
                "parameter 'input'")
        _raises(TypeError, lambda: tf.raw_ops.LookupTableSizeV2(table_handle=tf.constant(1)),
                "Input 'table_handle' of 'LookupTableSizeV2' Op has type int32")


def test_the_resource_object_is_the_handle():
    variable = tf.Variable(2.0)
    assert tf.raw_ops.ReadVariableOp(resource=variable, dtype=tf.float32).numpy() == 2.0
    tf.raw_ops.AssignAddVariableOp(resource=variable, value=1.0)
    assert variable.numpy() == 3.0
    table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer([1, 2], [3, 4]), -1)
    assert tf.raw_ops.LookupTableSizeV2(table_handle=table).numpy() == 2


def test_a_resource_of_the_wrong_kind_names_what_it_lacks():
    table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer([1], [2]), -1)
    _raises(tf.errors.InvalidArgumentError,
            lambda: tf.raw_ops.AssignVariableOp(resource=table, value=1.0), "AssignVariableOp",
            "'resource' is a StaticHashTable", "wrong type")
    variable = tf.Variable(1.0)
    _raises(tf.errors.InvalidArgumentError,
            lambda: tf.raw_ops.LookupTableSizeV2(table_handle=variable), "'table_handle'")
    assert variable.numpy() == 1.0  # refused before anything changed


def test_converted_arguments_take_the_fixed_dtype():
    out = tf.raw_ops.SetSize(set_indices=[[0, 0], [0, 1]], set_values=[1, 2], set_shape=[4, 4])
    np.testing.assert_array_equal(out.numpy(), [2, 0, 0, 0])
    with tf.Graph().as_default():
        out = tf.raw_ops.SetSize(set_indices=[[0, 0]], set_values=[1], set_shape=[1, 1])
        assert out.op.inputs[0].dtype == tf.int64 and out.op.inputs[2].dtype == tf.int64
    np.testing.assert_allclose(
        tf.raw_ops.RFFT(input=tf.constant([1.0, 2.0, 3.0, 4.0]), fft_length=[4]).numpy(),
        [10, -2 + 2j, -2], atol=1e-6)
