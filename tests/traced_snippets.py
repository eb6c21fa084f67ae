"""Run the same TensorFlow program text under TensorFlow 2.21 and under wengert, for tests of
behaviour that only whole programs show (captures inside traced functions, tapes inside
vectorized_map).

A case is a snippet of Python over `tf`, `keras`, `np`, `A` (input arrays by name) and `out`
(a dict the snippet fills with results). `tensorflow_answers(cases, arrays)` runs every case in
one TensorFlow subprocess through tests/keras_tf_eval.py (so the answers are stored in
tests/references/ and CI checks them without TensorFlow); `run_here(code, arrays)` runs one
case with wengert standing in for `tf` and `keras`. Each snippet becomes the body of a function
written to a real file, so AutoGraph on either side can read its source.
"""
import os
import tempfile
import textwrap

import numpy as np

import wengert
from keras_tf_eval import tf_eval

_SEPARATOR = "__"


def _as_function(name, code):
    return f"def _case_{name}(A, out):\n{textwrap.indent(textwrap.dedent(code), '    ')}\n"


def tensorflow_answers(cases, arrays):
    """{case name: {key: array}} from TensorFlow, one subprocess (or the stored answers)."""
    parts = []
    for name, code in cases.items():
        parts.append(_as_function(name, code))
        parts.append(f"_got = {{}}\n_case_{name}(A, _got)\n"
                     f"out.update({{'{name}{_SEPARATOR}' + k: v for k, v in _got.items()}})\n")
    flat = tf_eval("".join(parts), arrays)
    answers = {name: {} for name in cases}
    for key, value in flat.items():
        name, _, k = key.partition(_SEPARATOR)
        answers[name][k] = value
    return answers


def run_here(name, code, arrays):
    """The `out` of one case run by wengert, as NumPy arrays."""
    source = "import numpy as np\n" + _as_function(name, code)
    with tempfile.NamedTemporaryFile("w", suffix=f"_{name}.py", delete=False) as f:
        f.write(source)
        path = f.name
    try:
        scope = {"tf": wengert, "keras": wengert.keras, "__name__": f"snippet_{name}"}
        exec(compile(source, path, "exec"), scope)  # noqa: S102 - the test's own text
        out = {}
        scope[f"_case_{name}"](dict(arrays), out)
    finally:
        os.unlink(path)
    return {k: np.asarray(v) for k, v in out.items()}


def assert_same(name, mine, theirs, rtol=1e-5, atol=1e-6):
    """Every result TensorFlow gave, equal (to tolerance) in wengert's answer."""
    assert sorted(mine) == sorted(theirs), f"{name}: keys {sorted(mine)} vs {sorted(theirs)}"
    for key, value in theirs.items():
        got = mine[key]
        assert got.shape == value.shape, f"{name}/{key}: shape {got.shape} vs {value.shape}"
        if value.dtype.kind in "fc":
            np.testing.assert_allclose(got, value, rtol=rtol, atol=atol, err_msg=f"{name}/{key}")
        else:
            np.testing.assert_array_equal(got, value, err_msg=f"{name}/{key}")
