"""tf.raw_ops' argument names against a live TensorFlow 2.21, when it is installed (TF_PYTHON,
default /work/tfvenv/bin/python; the tests skip otherwise): the stored signatures
(tests/raw_ops_tf/signatures.json, which test_raw_ops.py checks wengert against) are
TensorFlow's, read again by tests/raw_ops_tf/signatures.py, and every op wengert exposes has
TensorFlow's argument names in TensorFlow's order."""
import inspect
import json
import os
import pathlib
import subprocess
import sys

import pytest

import wengert as tf

sys.path.insert(0, os.path.dirname(__file__))
from tf_reference import tf_python  # noqa: E402

HERE = pathlib.Path(__file__).parent / "raw_ops_tf"
STORED = json.loads((HERE / "signatures.json").read_text())


@pytest.fixture(scope="module")
def live():
    python = tf_python()
    if python is None:
        pytest.skip("TensorFlow 2.21 is not installed (TF_PYTHON)")
    run = subprocess.run([python, str(HERE / "signatures.py"), *sorted(STORED["ops"])],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout)


def test_the_stored_signatures_are_tensorflows(live):
    if live["tensorflow"] != STORED["tensorflow"]:
        pytest.skip(f"the stored signatures are TensorFlow {STORED['tensorflow']}'s, "
                    f"this is {live['tensorflow']}")
    assert live["ops"] == STORED["ops"]
    assert live["all_op_types"] == STORED["all_op_types"]


def test_wengert_takes_tensorflows_argument_names(live):
    for op_type in dir(tf.raw_ops):
        want = live["ops"][op_type]
        params = inspect.signature(getattr(tf.raw_ops, op_type)).parameters
        assert [n for n in params if n != "name"] == \
            want["inputs"] + [a[0] for a in want["attrs"]], op_type
        required = {n for n, p in params.items() if p.default is inspect.Parameter.empty}
        assert required == set(want["inputs"]) | {a[0] for a in want["attrs"] if len(a) == 1}, \
            op_type
