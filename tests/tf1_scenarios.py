"""Run TensorFlow 1 code (eager execution disabled, a fresh graph per scenario) in wengert and in
TensorFlow 2.21's `tf.compat.v1`, for tests that compare what the two give: names, values and
the errors raised.

A scenario is the text of a TF 1 program that uses `tf` (the `compat.v1` module), `np`, and
`out`, a dict it fills with strings, lists of names, numbers or arrays; `error_of(fn)` gives
"ErrorClass: first line of the message" (or "no error"), `names(items)` the names of a list of
variables or tensors. `tf_answers(scenarios)` runs them all in one TensorFlow subprocess (or
reads the stored answers, through keras_tf_eval / reference_store); `wengert_answers` runs them
here; `assert_same` compares one scenario's answers key by key.
"""
import numpy as np

from keras_tf_eval import tf_eval

PRELUDE = '''
def error_of(fn):
    try:
        fn()
    except Exception as e:
        return type(e).__name__ + ": " + (str(e).splitlines() or [""])[0]
    return "no error"


def names(items):
    return [getattr(item, "name", str(item)) for item in items]


def plain(value):
    """An array for `value`: a list or tuple becomes the text of each of its items."""
    if isinstance(value, (list, tuple)):
        return np.asarray([str(item) for item in value], dtype=str)
    return np.asarray(value)
'''

_DRIVER = '''
import sys as _sys
tf1 = tf.compat.v1
tf1.disable_eager_execution()
for _name, _body in SCENARIOS.items():
    _got = {}
    with tf1.Graph().as_default():
        _env = {"tf": tf1, "np": np, "out": _got}
        exec(PRELUDE + _body, _env)
    for _key, _value in _got.items():
        out[_name + "." + _key] = plain(_value)
'''


def tf_answers(scenarios):
    """{scenario: {key: array}} as TensorFlow 2.21 gives them (live, or stored)."""
    script = f"SCENARIOS = {scenarios!r}\nPRELUDE = {PRELUDE!r}\nexec(PRELUDE)\n{_DRIVER}"
    flat = tf_eval(script)
    result = {name: {} for name in scenarios}
    for key, value in flat.items():
        name, _, item = key.partition(".")
        result[name][item] = value
    return result


def wengert_answers(body):
    """{key: array} that wengert gives for one scenario."""
    import wengert.compat.v1 as tf  # imported when first needed: the tests' subject

    got, helpers = {}, {"np": np}
    exec(PRELUDE, helpers)  # noqa: S102 (test code)
    tf.disable_eager_execution()
    try:
        with tf.Graph().as_default():
            exec(PRELUDE + body, {"tf": tf, "np": np, "out": got})  # noqa: S102 (test code)
    finally:
        tf.enable_eager_execution()
    return {key: helpers["plain"](value) for key, value in got.items()}


def assert_same(mine, theirs, rtol=1e-5):
    """The same keys, equal strings and close numbers."""
    assert sorted(mine) == sorted(theirs), (sorted(mine), sorted(theirs))
    for key, want in theirs.items():
        got = mine[key]
        if want.dtype.kind in "fc" and want.size:
            np.testing.assert_allclose(got, want, rtol=rtol, atol=1e-6, err_msg=key)
        else:
            assert got.shape == want.shape and got.tolist() == want.tolist(), \
                f"{key}:\n  wengert:    {got.tolist()}\n  TensorFlow: {want.tolist()}"
