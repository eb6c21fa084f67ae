"""GradientTape.explain / explain_gradients: each cause of a None gradient, with the op named."""
import numpy as np
import pytest

import wengert as tf
from wengert.autodiff import explain as ex
from wengert.autodiff.tape import GradientTape


@pytest.fixture(autouse=True)
def _tape_support(monkeypatch):
    """Until the core adds them: GradientTape.explain (the mixin) and the stop_recording note
    (`_paused_at`, the patch proposed in the report), applied here the same way."""
    if not hasattr(GradientTape, "explain"):
        monkeypatch.setattr(GradientTape, "explain", ex.ExplainMixin.explain, raising=False)
    if "_paused_at" not in GradientTape().__dict__:
        original = GradientTape.stop_recording

        def stop_recording(self):
            import sys
            caller = sys._getframe(1)
            self.__dict__.setdefault("_paused_at", []).append(
                (caller.f_code.co_filename, caller.f_lineno))
            return original(self)
        monkeypatch.setattr(GradientTape, "stop_recording", stop_recording)


def _entry(tape, target, source):
    report = tape.explain(target, [source])
    assert len(report) == 1
    return report, report[0]


def test_connected_source_has_gradient():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.reduce_sum(x * x)
    report, entry = _entry(tape, y, x)
    assert entry.has_gradient and entry.cause == ex.CONNECTED
    assert report.all_connected
    assert report.target_op.type == "Sum"
    assert "'Sum' (type Sum)" in str(report)


def test_constant_never_watched():
    x = tf.constant([1.0, 2.0])
    w = tf.Variable([1.0, 1.0])
    with tf.GradientTape(persistent=True) as tape:
        y = tf.reduce_sum(x * w)
    assert tape.gradient(y, x) is None
    report, entry = _entry(tape, y, x)
    assert not entry.has_gradient and entry.cause == ex.NOT_WATCHED
    assert "tape.watch" in str(report)
    assert report.target_op.type == "Sum"


@pytest.mark.parametrize("dtype", [tf.int32, tf.bool])
def test_integer_or_bool_dtype(dtype):
    x = tf.constant([1, 0], dtype=dtype)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.cast(x, tf.float32))
    report, entry = _entry(tape, y, x)
    assert entry.cause == ex.NOT_FLOAT
    assert dtype.name in entry.detail


def test_variable_not_trainable():
    v = tf.Variable([1.0, 2.0], trainable=False)
    with tf.GradientTape(persistent=True) as tape:
        y = tf.reduce_sum(v * 2.0)
    assert tape.gradient(y, v) is None
    _, entry = _entry(tape, y, v)
    assert entry.cause == ex.NOT_TRAINABLE
    assert "trainable" in str(entry)


def test_variable_not_watched_when_accessed_watching_is_off():
    v = tf.Variable([1.0, 2.0])
    with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
        y = tf.reduce_sum(v * 2.0)
    _, entry = _entry(tape, y, v)
    assert entry.cause == ex.NOT_READ
    assert "watch_accessed_variables=False" in entry.detail


def test_value_left_wengert():
    x = tf.constant([1.0, 2.0])
    w = tf.Variable([3.0, 4.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        h = tf.exp(x)
        back = tf.constant(np.asarray(h))  # out to NumPy and back
        y = tf.reduce_sum(back * w)
    assert tape.gradient(y, x) is None
    report, entry = _entry(tape, y, x)
    assert entry.cause == ex.LEFT_WENGERT
    assert entry.op.type == "Exp"
    assert "'Exp' (type Exp)" in str(report) and "NumPy" in str(report)


def test_stop_gradient_on_the_path():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.stop_gradient(x * x) * 3.0)
    _, entry = _entry(tape, y, x)
    assert entry.cause == ex.STOPPED
    assert entry.op.type == "StopGradient"
    assert "StopGradient" in str(entry)


def test_stop_recording_on_the_path():
    x = tf.constant([1.0, 2.0])
    w = tf.Variable([1.0, 1.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        with tape.stop_recording():
            h = x * x
        y = tf.reduce_sum(h * w)
    assert tape.gradient(y, x) is None
    report, entry = _entry(tape, y, x)
    assert entry.cause == ex.STOPPED
    assert "stop_recording()" in entry.detail and "test_explain.py:" in entry.detail


@pytest.mark.parametrize("make, op_type", [
    (lambda x: tf.cast(tf.argmax(x), tf.float32), "ArgMax"),
    (lambda x: tf.cast(x > 1.5, tf.float32), "Greater"),
    (lambda x: tf.cast(tf.cast(x, tf.int32), tf.float32), "Cast"),
])
def test_every_path_through_a_non_differentiable_op(make, op_type):
    x = tf.constant([1.0, 2.0])
    w = tf.Variable([1.0, 1.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.reduce_sum(make(x) * w)
    assert tape.gradient(y, x) is None
    _, entry = _entry(tape, y, x)
    assert entry.cause == ex.NON_DIFFERENTIABLE
    assert entry.op.type == op_type
    assert f"(type {op_type})" in entry.detail


def test_one_differentiable_path_is_enough():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.cast(x > 1.5, tf.float32) * x)
    assert tape.explain(y, [x])[0].has_gradient


def test_recorded_on_another_tape():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as mine:
        mine.watch(x)
    with tf.GradientTape(persistent=True) as other:
        other.watch(x)
        y = tf.reduce_sum(x * x)
    assert mine.gradient(y, x) is None
    report, entry = _entry(mine, y, x)
    assert entry.cause == ex.OTHER_TAPE
    assert entry.op.type == "Sum" and "another tape" in entry.detail


def test_computed_outside_the_tape_context():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
    y = tf.reduce_sum(x * x)
    report, entry = _entry(tape, y, x)
    assert entry.cause == ex.OTHER_TAPE
    assert "outside this tape's `with` block" in entry.detail
    assert report.target_op is None


def test_not_used_at_all():
    x = tf.constant([1.0, 2.0])
    w = tf.Variable([1.0, 1.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.reduce_sum(w * 2.0)
    report, entry = _entry(tape, y, x)
    assert entry.cause == ex.NOT_USED
    assert report.target_op.type == "Sum"


def test_report_is_structured_per_source_and_prints():
    x = tf.constant([1.0, 2.0])
    k = tf.constant(3)
    w = tf.Variable([1.0, 1.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.reduce_sum(x * w)
    report = tape.explain(y, {"x": x, "k": k, "w": w})
    causes = sorted(e.cause for e in report)
    assert causes == sorted([ex.CONNECTED, ex.CONNECTED, ex.NOT_FLOAT])
    text = str(report)
    assert text.count("has a gradient") == 2 and "NO gradient" in text


def test_released_tape_still_explains_what_it_can():
    x = tf.constant([1.0, 2.0])
    v = tf.Variable([1.0], trainable=False)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x * x)
    tape.gradient(y, x)
    report = tape.explain(y, [x, v])
    assert report[0].cause == ex.RELEASED and "persistent=True" in report[0].detail
    assert report[1].cause == ex.NOT_TRAINABLE


# -- graphs ---------------------------------------------------------------------------------------
def test_explain_gradients_in_a_graph():
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [3], name="x")
        z = tf.compat.v1.placeholder(tf.float32, [3], name="z")
        n = tf.compat.v1.placeholder(tf.int32, [3], name="n")
        s = tf.compat.v1.placeholder(tf.float32, [3], name="s")
        a = tf.compat.v1.placeholder(tf.float32, [3], name="a")
        y = tf.reduce_sum(x * tf.stop_gradient(s) + tf.cast(tf.argmax(a), tf.float32)
                          + tf.cast(n, tf.float32))
        grads = tf.gradients(y, [x, z, n, s, a])
        report = ex.explain_gradients(y, [x, z, n, s, a])
    assert [g is None for g in grads] == [not e.has_gradient for e in report]
    assert [e.cause for e in report] == [ex.CONNECTED, ex.NOT_USED, ex.NOT_FLOAT, ex.STOPPED,
                                         ex.NON_DIFFERENTIABLE]
    assert report[3].op.type == "StopGradient" and report[4].op.type == "ArgMax"
    assert report.target_op.name == "Sum"
    assert "'x'" in str(report) or "x:0" in str(report)


def test_explain_gradients_honours_stop_gradients_argument():
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [3], name="x")
        h = tf.exp(x)
        y = tf.reduce_sum(h * 2.0)
        assert tf.gradients(y, [x], stop_gradients=[h])[0] is None
        report = ex.explain_gradients(y, [x], stop_gradients=[h])
    assert report[0].cause == ex.STOPPED and report[0].op.type == "Exp"


def test_explain_gradients_needs_a_graph():
    with pytest.raises(ValueError, match="GradientTape.explain"):
        ex.explain_gradients(tf.constant(1.0), [tf.constant(1.0)])


def test_describe_missing_for_optimizer_messages():
    v = tf.Variable([1.0], trainable=False, name="frozen")
    w = tf.Variable([1.0], name="w")
    text = ex.describe_missing([v, w])
    assert "frozen" in text and ex.NOT_TRAINABLE in text
    assert "tape.explain(loss, variables)" in text
    with tf.GradientTape(persistent=True) as tape:
        y = tf.reduce_sum(tf.stop_gradient(w * 2.0))
    assert "StopGradient" in ex.describe_missing([w], tape, y)
