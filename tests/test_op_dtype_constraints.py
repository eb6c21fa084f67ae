"""TensorFlow's dtype constraints on op inputs (wengert/framework/op_dtype_constraints.json and
the check that reads it): the stored file is TensorFlow 2.21's (read again with a live
TensorFlow when TF_PYTHON is installed; skipped otherwise), it covers every op type wengert
declares that TensorFlow defines, and the rules the executor precomputes from it say what the
file says.

To regenerate the stored file after declaring new op types:
    python tests/raw_ops_tf/dtype_constraints.py \
        $(PYTHONPATH=. python tests/test_op_dtype_constraints.py) \
        > wengert/framework/op_dtype_constraints.json   (the first with TensorFlow's interpreter)
"""
import importlib
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import wengert as tf
from wengert.framework import op_dtype_constraints as odc
from wengert.framework.registry import get_op_def, raw_op_functions, registered_op_types

sys.path.insert(0, os.path.dirname(__file__))
from tf_reference import tf_python  # noqa: E402

SCRIPT = pathlib.Path(__file__).parent / "raw_ops_tf" / "dtype_constraints.py"
SIGNATURES = json.loads((SCRIPT.parent / "signatures.json").read_text())
STORED = odc.stored_constraints()
PACKAGE = pathlib.Path(tf.__file__).parent

# Op types wengert declares that TensorFlow does not define: they carry no dtype constraints.
WENGERT_ONLY = {
    "CustomGradient", "CustomGradientN", "Dilation2DBackpropFilterGrad",
    "Dilation2DBackpropInputGrad", "Dropout", "Eye", "FractionalAvgPoolGradGrad",
    "FractionalMaxPoolGradGrad", "GatherGrad", "GroupedAllReduce", "GRUSequence",
    "GRUSequenceGrad", "HorovodBroadcast", "LSTMSequence", "LSTMSequenceGrad", "LogicalXor",
    "MulSum", "ParseExamples", "ParseSequenceExamples", "ReadVariableInControlFlow",
    "ReduceBroadcast", "ReduceLogSumExp", "SigmoidCrossEntropyWithLogits", "SquareGrad",
    "StringBytesSplit", "SumToShape", "SumToShapeOf", "SylvesterSolve",
    "TensorListClearRows", "TensorListSetElementShape", "WhileHistoryGet",
    "WhileHistoryScatter"}


def all_op_types():
    """Every op type wengert declares: its modules that declare ops are imported first."""
    for path in sorted(PACKAGE.rglob("*.py")):
        if "ops" in path.relative_to(PACKAGE).parts[:-1] or "defop(" in path.read_text():
            module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
            importlib.import_module(module.removesuffix(".__init__"))
    return registered_op_types("wengert")  # not the op types tests declare for themselves


@pytest.fixture(scope="module")
def live():
    python = tf_python()
    if python is None:
        pytest.skip("TensorFlow 2.21 is not installed (TF_PYTHON)")
    run = subprocess.run([python, str(SCRIPT), *all_op_types()],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout)


def test_the_stored_constraints_are_tensorflows(live):
    if live["tensorflow"] != STORED["tensorflow"]:
        pytest.skip(f"the stored constraints are TensorFlow {STORED['tensorflow']}'s, "
                    f"this is {live['tensorflow']}")
    assert live == STORED


def test_every_tensorflow_op_wengert_declares_is_stored():
    tf_ops = set(SIGNATURES["all_op_types"])
    declared = set(all_op_types())
    assert declared - set(STORED["ops"]) == WENGERT_ONLY
    assert not WENGERT_ONLY & tf_ops
    assert set(STORED["ops"]) <= tf_ops
    assert {t for t, (d, _) in raw_op_functions().items() if d is not None} <= set(STORED["ops"])


def test_the_file_reads_as_tensorflows_op_definitions():
    assert STORED["tensorflow"] == "2.21.0"
    relu = odc.op_constraints("Relu")
    assert [s[:3] for s in relu] == [("features", "T", "one")]
    assert "bool" not in relu[0][3] and "float32" in relu[0][3]
    assert odc.op_constraints("Identity")[0][3] is None  # T without a list: every dtype
    assert [s[2] for s in odc.op_constraints("AddN")] == ["list"]
    assert odc.op_constraints("ReadVariableOp") == [("resource", "", "one", ("resource",))]
    assert [s[1] for s in odc.op_constraints("GatherV2")] == ["Tparams", "Tindices", "Taxis"]
    assert odc.op_constraints("SumToShape") is None


def test_the_precomputed_rules_refuse_what_tensorflow_refuses():
    refused, rest = odc.compile_rule(get_op_def("Sum"))
    assert np.dtype(object) in refused and np.dtype(bool) in refused
    assert np.dtype(np.float32) not in refused
    assert rest == ()  # wengert's Sum takes its axes as an attribute
    refused, rest = odc.compile_rule(get_op_def("AddV2"))
    assert np.dtype(bool) in refused and rest is None  # input 1 shares input 0's T
    assert odc.compile_rule(get_op_def("Identity")) == (None, ())
    assert odc.compile_rule(get_op_def("SumToShape")) == (None, ())
    refused, rest = odc.compile_rule(get_op_def("AddN"))
    assert np.dtype(np.float32) in refused  # a list input: always the full check
    assert odc.compile_rule(get_op_def("ConcatV2")) == (None, ())  # axis is an attribute here


def test_every_rule_compiles():
    for op_type in all_op_types():
        refused, rest = odc.compile_rule(get_op_def(op_type))
        assert refused is None or isinstance(refused, frozenset), op_type
        assert all(0 < i and same < i for i, _, same in rest or ()), op_type


if __name__ == "__main__":
    print(*all_op_types())


# -- the check: eager, graph building, tracing ---------------------------------------------------
def _strings():
    return tf.constant(["a", "b"])


def test_eager_refusals_name_the_op_the_input_and_the_dtype():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Sum.*attr 'T' of string.*'input'"):
        tf.reduce_sum(_strings())
    with pytest.raises(tf.errors.InvalidArgumentError, match="Relu6.*of bool"):
        tf.nn.relu6(tf.constant([True]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Cumsum.*string"):
        tf.cumsum(_strings())
    with pytest.raises(tf.errors.InvalidArgumentError, match="OneHot.*'TI' of string"):
        tf.one_hot(_strings(), 3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Sign.*uint8"):
        tf.sign(tf.constant([1, 2], tf.uint8))
    with pytest.raises(tf.errors.InvalidArgumentError, match="LRN.*float64"):
        tf.nn.local_response_normalization(tf.zeros([1, 2, 2, 3], tf.float64))


def test_inputs_sharing_a_type_attribute_share_a_dtype():
    with pytest.raises(tf.errors.InvalidArgumentError, match="AddV2.*input #1.*int32.*float32"):
        tf.raw_ops.AddV2(x=tf.constant([1]), y=tf.constant([1.0]))
    g = tf.Graph()
    with g.as_default():
        with pytest.raises(TypeError, match="Input 'y' of 'AddV2' Op has type float32"):
            tf.raw_ops.AddV2(x=tf.constant([1]), y=tf.constant([1.0]))


def test_graph_building_refuses_with_tensorflows_type_error():
    g = tf.Graph()
    with g.as_default():
        s = tf.compat.v1.placeholder(tf.string, [2])
        with pytest.raises(TypeError, match="parameter 'input' has DataType string not in list"):
            tf.reduce_sum(s)
        assert not g.get_operations()[1:]  # nothing was added for the refused op


def test_tracing_refuses_as_graph_building_does():
    f = tf.function(lambda x: tf.nn.relu(x), autograph=False)
    with pytest.raises(TypeError, match="Relu.*parameter 'features' has DataType bool"):
        f(tf.constant([True]))
    np.testing.assert_array_equal(f(tf.constant([-1.0, 2.0])).numpy(), [0.0, 2.0])


def test_public_functions_convert_where_tensorflow_does():
    np.testing.assert_allclose(tf.nn.leaky_relu(tf.constant([-5, 5])).numpy(), [-1.0, 5.0])
    assert tf.argmax(tf.constant([False, True, False])).numpy() == 1
    np.testing.assert_array_equal(tf.reduce_sum(tf.constant([1, 2], tf.uint8)).numpy(), 3)


def test_valid_calls_pass_the_check_unchanged():
    x = tf.constant(np.arange(6.0, dtype=np.float32).reshape(2, 3))
    np.testing.assert_allclose(tf.matmul(x, tf.transpose(x)).numpy(), [[5, 14], [14, 50]])
    np.testing.assert_allclose(tf.add_n([x, x, x]).numpy(), 3 * x.numpy())
    np.testing.assert_allclose(tf.gather(x, tf.constant([1, 0])).numpy(), x.numpy()[[1, 0]])


def test_a_raw_ops_argument_list_does_not_change_the_mapping():
    op_def = get_op_def("RandomGamma")
    assert op_def.args[0] == "shape"  # tf.raw_ops' order, read from the raw function
    assert [s[0] for s in odc._specs(op_def)] == ["alpha"]  # the kernel's one input
    f = tf.function(lambda a: tf.random.gamma([2], a, seed=1), autograph=False)
    assert f(tf.constant(2.0)).shape == (2,)
