"""debugging.enable_check_numerics / check_numerics: NaN and Inf named at their source."""
import numpy as np
import pytest

import wengert as tf
from wengert import debugging
from wengert.framework.context import state
from wengert.framework.errors import InvalidArgumentError


@pytest.fixture
def checking():
    debugging.enable_check_numerics()
    try:
        yield
    finally:
        debugging.disable_check_numerics()


def _line_of(text):
    import inspect
    lines = inspect.getsource(inspect.getmodule(_line_of)).splitlines()
    return next(i + 1 for i, line in enumerate(lines) if text in line)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_forward_log_of_zero(checking):
    x = tf.constant([0.0, 1.0, 4.0])
    with pytest.raises(debugging.NumericsError) as info:
        tf.math.log(x)  # LOG-LINE
    err = info.value
    assert err.phase == "forward" and err.op_type == "Log"
    assert err.location[0] == __file__ and err.location[1] == _line_of("# LOG-LINE")
    text = str(err)
    assert "Log" in text and "-Inf" in text and "range [0, 4]" in text
    assert f"test_numerics.py:{_line_of('# LOG-LINE')}" in text
    assert isinstance(err, InvalidArgumentError)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_backward_pow_of_zero_under_where(checking):
    # (sqrt in the same place has gradient 0, as TensorFlow's SqrtGrad gives for dy = 0)
    x = tf.constant([0.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.where(x > 0.0, tf.pow(x, 0.5), tf.zeros_like(x))  # SQRT-LINE
        loss = tf.reduce_sum(y)
    assert np.isfinite(loss.numpy())  # the forward pass is fine
    with pytest.raises(debugging.NumericsError) as info:
        tape.gradient(loss, x)
    err = info.value
    assert err.phase == "backward"
    assert err.forward_op.type == "Pow"
    assert err.location[1] == _line_of("# SQRT-LINE")
    text = str(err)
    assert "gradient rule of Pow" in text and "Inf" in text  # 0 ** -0.5, before the 0 from where
    assert f"test_numerics.py:{_line_of('# SQRT-LINE')}" in text


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_zero_times_inf(checking):
    zero = tf.constant([0.0, 1.0])
    inf = tf.constant([np.inf, 2.0])
    with pytest.raises(debugging.NumericsError) as info:
        zero * inf  # MUL-LINE
    err = info.value
    assert err.op_type == "Mul" and err.location[1] == _line_of("# MUL-LINE")
    assert "1 NaN" in str(err) and "+Inf" in str(err)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_inside_a_traced_function(checking):
    @tf.function
    def f(x):
        return tf.math.log(x)
    with pytest.raises(debugging.NumericsError, match="Log"):
        f(tf.constant([0.0, 1.0]))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_disabled_by_default_and_after_disable():
    assert state.observers == ()
    x = tf.constant([0.0])
    assert np.isneginf(tf.math.log(x).numpy()[0])
    debugging.enable_check_numerics()
    debugging.enable_check_numerics()  # idempotent
    assert len(state.observers) == 1
    debugging.disable_check_numerics()
    assert state.observers == ()
    assert np.isneginf(tf.math.log(x).numpy()[0])


def test_finite_values_pass_and_record_lines(checking):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.sqrt(x))  # RECORDED-LINE
    assert y.op.traceback[1] == _line_of("# RECORDED-LINE")
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), 0.5 / np.sqrt([1.0, 2.0]), rtol=1e-6)


def test_integer_ops_are_not_checked(checking):
    assert tf.constant([1, 2]).numpy().tolist() == [1, 2]
    assert (tf.constant([1, 2]) // tf.constant([1, 1])).numpy().tolist() == [1, 2]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_check_numerics_op():
    ok = tf.constant([1.0, 2.0])
    assert debugging.check_numerics(ok, "fine").numpy().tolist() == [1.0, 2.0]
    with pytest.raises(InvalidArgumentError, match="bad input : Tensor had NaN values"):
        debugging.check_numerics(tf.constant([np.nan, 1.0]), "bad input")
    with pytest.raises(InvalidArgumentError, match="Inf"):
        debugging.check_numerics(tf.constant([np.inf]), "bad")
    with pytest.raises(TypeError, match="floating-point"):
        debugging.check_numerics(tf.constant([1]), "ints")


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_check_numerics_gradient_is_checked():
    x = tf.constant([0.0, 1.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.sqrt(debugging.check_numerics(x, "x")))
    with pytest.raises(InvalidArgumentError, match="x \\(gradient\\) : Tensor had Inf"):
        tape.gradient(y, x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(debugging.check_numerics(x * 3.0, "x"))
    assert tape.gradient(y, x).numpy().tolist() == [3.0, 3.0]


def test_check_numerics_in_a_graph():
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [2], name="x")
        y = debugging.check_numerics(x, "fed")
        assert y.op.type == "CheckNumerics"
        with tf.compat.v1.Session() as sess:
            assert sess.run(y, {x: [1.0, 2.0]}).tolist() == [1.0, 2.0]
            with pytest.raises(InvalidArgumentError, match="fed : Tensor had NaN"):
                sess.run(y, {x: [np.nan, 2.0]})
