"""wengert's gradient registry against TensorFlow 2.21's (stored in
tests/references/tf_gradients.json by tf_gradients.py), so that the README's "each with
TensorFlow's gradient" says exactly what holds:

- an op TensorFlow marks NotDifferentiable has no gradient here either;
- an op TensorFlow differentiates has a gradient here, except the ones whose TensorFlow gradient
  function returns None for every input (so both give None);
- an op of tf.raw_ops that TensorFlow cannot differentiate is differentiated here only if it is
  listed below, as the README lists it.
"""
import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent / "references"))
import tf_gradients  # noqa: E402

import wengert  # noqa: E402,F401  (declares the ops)
import wengert.distribute  # noqa: E402,F401  (and the collectives, whichever test ran first)
from wengert.framework import registry  # noqa: E402

# TensorFlow registers these with a function that returns None for every input, or they carry
# here only values no tape differentiates.
TF_RETURNS_NONE = {"ArgMax", "ArgMin", "Ceil", "Floor", "FloorDiv", "Rint", "Round",
                   "TruncateDiv",
                   "BatchMatMulV3",  # here only for integer inputs
                   "Add"}  # here only strings: numbers go to AddV2

# TensorFlow registers these with a function that raises NotImplementedError: no gradient
# either way (here they are declared not differentiable, so a tape says so by name).
TF_GRADIENT_RAISES = {"SparseSparseMaximum", "SparseSparseMinimum"}

# Gradients wengert has where TensorFlow has none (README: "... and where TensorFlow has none").
GRADIENTS_TF_LACKS = {"FFTND", "IFFTND", "RFFTND", "IRFFTND", "RFFT3D", "IRFFT3D",
                      "MatrixExponential", "TileGrad", "MaxPoolGradWithArgmax",
                      "MaxPoolGradGradWithArgmax", "FractionalMaxPoolGrad",
                      "FractionalAvgPoolGrad", "Dilation2DBackpropInput",
                      "Dilation2DBackpropFilter",
                      "CollectiveReduceV2", "CollectiveGatherV2"}  # as hvd.allreduce/allgather


def _ours():
    """{op type: True (a gradient function), False (no_gradient), None (nothing registered)}."""
    gradients = registry._GRADIENTS
    return {t: (gradients[t] is not None) if t in gradients else None
            for t in registry.registered_op_types("wengert.")}


def test_what_tensorflow_cannot_differentiate_is_not_differentiated_here():
    theirs = tf_gradients.stored()["gradients"]
    wrong = sorted(t for t, has in _ours().items() if has and theirs.get(t) is False)
    assert not wrong, f"differentiable here, NotDifferentiable in TensorFlow: {wrong}"


def test_what_tensorflow_differentiates_is_differentiated_here():
    theirs = tf_gradients.stored()["gradients"]
    missing = sorted(t for t, has in _ours().items()
                     if theirs.get(t) is True and not has and t not in TF_RETURNS_NONE
                     and t not in TF_GRADIENT_RAISES)
    assert not missing, f"TensorFlow has a gradient, wengert none: {missing}"
    stale = sorted(t for t in TF_RETURNS_NONE if _ours().get(t))
    assert not stale, f"these have a gradient now; take them off TF_RETURNS_NONE: {stale}"


def test_gradients_tensorflow_lacks_are_the_listed_ones():
    stored = tf_gradients.stored()
    theirs, raw = stored["gradients"], set(stored["raw_ops"])
    extra = {t for t, has in _ours().items() if has and t in raw and not theirs.get(t)}
    assert extra == GRADIENTS_TF_LACKS, (
        f"newly differentiated beyond TensorFlow: {sorted(extra - GRADIENTS_TF_LACKS)}; "
        f"no longer: {sorted(GRADIENTS_TF_LACKS - extra)} (update the list and the README)")


def test_the_stored_registry_is_tensorflows(tmp_path):
    import json
    import subprocess

    import pytest
    from tf_reference import tf_python
    python = tf_python()
    if python is None:
        pytest.skip("TensorFlow 2.21 is not installed (TF_PYTHON): the stored registry stands")
    out = tmp_path / "gradients.json"
    done = subprocess.run([python, str(tf_gradients.__file__), "record", str(out)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(out.read_text()) == tf_gradients.stored(), \
        "tests/references/tf_gradients.json is out of date: rerun its `record`"


def test_cumprod_gradient_is_exact_at_zeros_where_tensorflows_gives_0():
    import numpy as np

    import wengert as tf
    from keras_tf_eval import tf_eval
    theirs = tf_eval("x = tf.constant([2.0, 0.0, 3.0], tf.float64)\n"
                     "with tf.GradientTape() as t:\n"
                     "    t.watch(x)\n"
                     "    y = tf.reduce_sum(tf.math.cumprod(x))\n"
                     "out['grad'] = t.gradient(y, x)\n")["grad"]
    x = tf.constant([2.0, 0.0, 3.0], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.math.cumprod(x))
    ours = tape.gradient(y, x).numpy()
    # d/dx of x0 + x0 x1 + x0 x1 x2 at (2, 0, 3): (1 + x1 + x1 x2, x0 + x0 x2, x0 x1)
    np.testing.assert_array_equal(ours, [1.0, 8.0, 0.0])
    np.testing.assert_array_equal(theirs, [1.0, 0.0, 0.0])
