"""TensorFlow's dtype constraints on op inputs (wengert/framework/op_dtype_constraints.json and
the check that reads it): the stored file is TensorFlow 2.21's (read again with a live
TensorFlow when TF_PYTHON is installed; skipped otherwise), it covers every op type wengert
declares that TensorFlow defines, and the rules the executor precomputes from it say what the
file says.

To regenerate the stored file after declaring new op types:
    python tests/raw_ops_tf/dtype_constraints.py $(PYTHONPATH=. python tests/test_op_dtype_constraints.py) \
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
    "GRUSequenceGrad", "HorovodBroadcast", "LSTMSequence", "LSTMSequenceGrad", "LogicalXor", "MulSum", "ParseExamples",
    "ParseSequenceExamples", "ReadVariableInControlFlow",
    "ReduceBroadcast", "ReduceLogSumExp", "SigmoidCrossEntropyWithLogits", "SquareGrad",
    "StringBytesSplit", "StringSplitScalar", "SumToShape", "SumToShapeOf", "SylvesterSolve",
    "TensorListSetElementShape", "WhileHistoryGet", "WhileHistoryScatter"}


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
    assert rest == ((1, refused_index := odc.compile_rule(get_op_def("Sum"))[1][0][1], -1),)
    assert np.dtype(np.int32) not in refused_index and np.dtype(np.float32) in refused_index
    refused, rest = odc.compile_rule(get_op_def("AddV2"))
    assert np.dtype(bool) in refused and rest == ((1, refused, 0),)
    assert odc.compile_rule(get_op_def("Identity")) == (None, ())
    assert odc.compile_rule(get_op_def("SumToShape")) == (None, ())
    refused, rest = odc.compile_rule(get_op_def("AddN"))
    assert np.dtype(np.float32) in refused  # a list input: always the full check


def test_every_rule_compiles():
    for op_type in all_op_types():
        refused, rest = odc.compile_rule(get_op_def(op_type))
        assert refused is None or isinstance(refused, frozenset), op_type
        assert all(0 < i and same < i for i, _, same in rest), op_type


if __name__ == "__main__":
    print(*all_op_types())
