"""TensorFlow 1's recurrent networks (`tf.compat.v1.nn.rnn_cell`, `dynamic_rnn`, `static_rnn` and
their bidirectional forms): variable names, outputs, final states and gradients against
TensorFlow 2.21's answers recorded in tests/fixtures/tf1_rnn.npz (tests/fixtures/write_tf1_rnn.py),
sequence-length masking against NumPy, and the errors TensorFlow raises."""
import pathlib

import numpy as np
import pytest

import wengert as tf
from tf1_rnn_cases import CASES, run_case

FIXTURE = pathlib.Path(__file__).resolve().parent / "fixtures" / "tf1_rnn.npz"
cells = tf.compat.v1.nn.rnn_cell


@pytest.fixture(scope="module")
def recorded():
    with np.load(FIXTURE) as data:
        return {key: data[key] for key in data.files}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_tensorflow(name, recorded):
    ours = run_case(tf, cells, name)
    theirs = {key.split("/", 1)[1]: value for key, value in recorded.items()
              if key.startswith(name + "/")}
    assert list(ours["variables"]) == list(theirs["variables"])
    assert sorted(ours) == sorted(theirs)
    for key in ours:
        if key != "variables":
            np.testing.assert_allclose(ours[key], theirs[key], rtol=2e-5, atol=2e-6,
                                       err_msg=f"{name}: {key}")


def _numpy_rnn(x, kernel, bias, lengths):
    """A BasicRNNCell over batch-major `x` with TensorFlow 1's copy-through past each length."""
    batch, steps, _ = x.shape
    h = np.zeros((batch, kernel.shape[1]))
    outputs = np.zeros((batch, steps, kernel.shape[1]))
    for t in range(steps):
        new = np.tanh(np.concatenate([x[:, t], h], 1) @ kernel + bias)
        live = (t < lengths)[:, None]
        outputs[:, t] = np.where(live, new, 0.0)
        h = np.where(live, new, h)
    return outputs, h


def test_sequence_length_masks_outputs_and_copies_state():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 5, 2))
    lengths = np.array([5, 2, 0])
    with tf.Graph().as_default():
        cell = cells.BasicRNNCell(4)
        out, state = tf.compat.v1.nn.dynamic_rnn(cell, tf.constant(x), sequence_length=lengths,
                                                 dtype=tf.float64)
        with tf.compat.v1.Session() as session:
            session.run(tf.compat.v1.global_variables_initializer())
            kernel, bias = session.run(cell.variables)
            out, state = session.run([out, state])
    want_out, want_state = _numpy_rnn(x, kernel, bias, lengths)
    np.testing.assert_allclose(out, want_out, rtol=1e-12)
    np.testing.assert_allclose(state, want_state, rtol=1e-12)
    assert not out[1, 2:].any() and not out[2].any()


def test_eager_dynamic_rnn_matches_graph():
    x = np.random.default_rng(1).standard_normal((2, 3, 4)).astype(np.float32)
    cell = cells.GRUCell(3)
    out, state = tf.compat.v1.nn.dynamic_rnn(cell, tf.constant(x), sequence_length=[3, 1],
                                             dtype=tf.float32)
    np.testing.assert_allclose(out.numpy()[:, -1][0], state.numpy()[0], rtol=1e-6)
    np.testing.assert_array_equal(out.numpy()[1, 1:], 0.0)
    np.testing.assert_allclose(out.numpy()[1, 0], state.numpy()[1], rtol=1e-6)


def test_variables_are_shared_across_steps_and_named_as_tensorflow():
    with tf.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, [2, 3, 4])
        with tf.compat.v1.variable_scope("model"):
            tf.compat.v1.nn.dynamic_rnn(cells.LSTMCell(5, use_peepholes=True, num_proj=2), x,
                                        dtype=tf.float32)
        names = [(v.name, v.shape.as_list()) for v in tf.compat.v1.global_variables()]
    assert names == [("model/rnn/lstm_cell/kernel:0", [6, 20]),
                     ("model/rnn/lstm_cell/bias:0", [20]),
                     ("model/rnn/lstm_cell/w_f_diag:0", [5]),
                     ("model/rnn/lstm_cell/w_i_diag:0", [5]),
                     ("model/rnn/lstm_cell/w_o_diag:0", [5]),
                     ("model/rnn/lstm_cell/projection/kernel:0", [5, 2])]


def test_zero_state_and_sizes():
    cell = cells.MultiRNNCell([cells.BasicLSTMCell(3), cells.GRUCell(2)])
    assert cell.state_size == (cells.LSTMStateTuple(3, 3), 2)
    assert cell.output_size == 2
    state = cell.zero_state(4, tf.float32)
    assert isinstance(state[0], cells.LSTMStateTuple)
    assert state[0].c.shape == (4, 3) and state[1].shape == (4, 2)


@pytest.mark.parametrize("shape, message", [
    ([2, 3], "must have rank at least 3"),
    ([3], "Input tensor should have rank >= 2"),
])
def test_input_of_wrong_rank_raises(shape, message):
    with tf.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, shape)
        with pytest.raises(ValueError, match=message):
            tf.compat.v1.nn.dynamic_rnn(cells.BasicRNNCell(3), x, dtype=tf.float32)


def test_missing_dtype_and_bad_cell_raise():
    with tf.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, [2, 3, 4])
        with pytest.raises(ValueError, match="argument `dtype` must be specified"):
            tf.compat.v1.nn.dynamic_rnn(cells.BasicRNNCell(3), x)
        with pytest.raises(TypeError, match="is not an RNNCell"):
            tf.compat.v1.nn.dynamic_rnn(object(), x, dtype=tf.float32)
        with pytest.raises(ValueError, match="sequence_length must be a vector"):
            tf.compat.v1.nn.dynamic_rnn(cells.BasicRNNCell(3), x, dtype=tf.float32,
                                        sequence_length=[[1, 2]])
        with pytest.raises(ValueError, match="must be between 0 and 1"):
            cells.DropoutWrapper(cells.BasicRNNCell(3), output_keep_prob=1.5)


def test_dropout_wrapper_drops_outputs():
    with tf.Graph().as_default():
        cell = cells.DropoutWrapper(cells.BasicRNNCell(50), output_keep_prob=0.5, seed=3)
        out, _ = tf.compat.v1.nn.dynamic_rnn(cell, tf.ones([4, 3, 2]), dtype=tf.float32)
        with tf.compat.v1.Session() as session:
            session.run(tf.compat.v1.global_variables_initializer())
            values = session.run(out)
    zeros = np.mean(values == 0)
    assert 0.35 < zeros < 0.65


def _one_step(cell, inner):
    """Run one step of `cell` (a wrapper of `inner`) and of `inner` alone, from a random state."""
    rng = np.random.default_rng(5)
    x = tf.constant(rng.standard_normal((6, 3)).astype(np.float32))
    state = cells.LSTMStateTuple(*(tf.constant(rng.standard_normal((6, 40)).astype(np.float32))
                                   for _ in range(2)))
    _, plain = inner(x, state)
    _, dropped = cell(x, state)
    return plain, dropped


def test_dropout_wrapper_keeps_lstm_memory_and_drops_h():
    with tf.Graph().as_default():
        inner = cells.BasicLSTMCell(40)
        cell = cells.DropoutWrapper(inner, state_keep_prob=0.5, seed=1)
        plain, dropped = _one_step(cell, inner)
        with tf.compat.v1.Session() as session:
            session.run(tf.compat.v1.global_variables_initializer())
            plain, dropped = session.run([plain, dropped])
    np.testing.assert_allclose(dropped.c, plain.c, rtol=1e-6)
    kept = dropped.h != 0
    assert 0.3 < kept.mean() < 0.7
    np.testing.assert_allclose(dropped.h[kept], 2 * plain.h[kept], rtol=1e-5)


def test_variational_dropout_uses_one_mask_for_every_step():
    with tf.Graph().as_default():
        cell = cells.DropoutWrapper(cells.BasicRNNCell(30), output_keep_prob=0.5,
                                    variational_recurrent=True, dtype=tf.float32, seed=2)
        out, _ = tf.compat.v1.nn.dynamic_rnn(cell, tf.ones([3, 4, 2]), dtype=tf.float32)
        with tf.compat.v1.Session() as session:
            session.run(tf.compat.v1.global_variables_initializer())
            dropped = session.run(out) == 0
    assert (dropped == dropped[:1, :1]).all()
    assert 0.2 < dropped.mean() < 0.8
    with pytest.raises(ValueError, match="input_size must be provided"):
        cells.DropoutWrapper(cells.BasicRNNCell(3), input_keep_prob=0.5,
                             variational_recurrent=True, dtype=tf.float32)


def test_static_rnn_and_raw_rnn_refuse_bad_arguments():
    with tf.Graph().as_default():
        x = tf.ones([2, 3])
        with pytest.raises(TypeError, match="must be a sequence"):
            tf.compat.v1.nn.static_rnn(cells.BasicRNNCell(3), x, dtype=tf.float32)
        with pytest.raises(ValueError, match="must not be empty"):
            tf.compat.v1.nn.static_rnn(cells.BasicRNNCell(3), [], dtype=tf.float32)
        with pytest.raises(TypeError, match="loop_fn` must be a callable"):
            tf.compat.v1.nn.raw_rnn(cells.BasicRNNCell(3), None)


def test_unknown_batch_and_time_run_and_differentiate():
    with tf.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None, None, 3])
        lengths = tf.compat.v1.placeholder(tf.int32, [None])
        out, state = tf.compat.v1.nn.dynamic_rnn(cells.BasicLSTMCell(4), x,
                                                 sequence_length=lengths, dtype=tf.float32)
        grad = tf.gradients(tf.reduce_sum(out), x)[0]
        with tf.compat.v1.Session() as session:
            session.run(tf.compat.v1.global_variables_initializer())
            out, grad = session.run([out, grad], {x: np.ones((2, 5, 3)), lengths: [5, 2]})
    assert out.shape == (2, 5, 4) and grad.shape == (2, 5, 3)
    assert not out[1, 2:].any() and not grad[1, 2:].any()


def test_eager_cells_are_differentiable():
    cell = cells.LSTMCell(3, num_proj=2)
    x = tf.constant(np.ones((2, 4, 3), np.float32))
    with tf.GradientTape() as tape:
        tape.watch(x)
        out, _ = tf.compat.v1.nn.dynamic_rnn(cell, x, dtype=tf.float32)
        loss = tf.reduce_sum(out)
    grads = tape.gradient(loss, [x] + cell.variables)
    assert out.shape == (2, 4, 2)
    assert [tuple(g.shape) for g in grads] == [(2, 4, 3), (5, 12), (12,), (3, 2)]


def test_dropout_keep_probability_fed_at_run_time():
    with tf.Graph().as_default():
        keep = tf.compat.v1.placeholder_with_default(1.0, [])
        cell = cells.DropoutWrapper(cells.BasicRNNCell(40), input_keep_prob=keep,
                                    output_keep_prob=keep, seed=4)
        out, _ = tf.compat.v1.nn.dynamic_rnn(cell, tf.ones([3, 4, 2]), dtype=tf.float32)
        grads = tf.gradients(tf.reduce_sum(out), cell.variables)
        with tf.compat.v1.Session() as session:
            session.run(tf.compat.v1.global_variables_initializer())
            kept_all = session.run(out)
            halved, grads = session.run([out, grads], {keep: 0.5})
    assert (kept_all != 0).all()
    assert 0.3 < (halved == 0).mean() < 0.7
    assert [g.shape for g in grads] == [(42, 40), (40,)]


def test_scopes_reuse_and_names_as_tensorflow():
    """The names TensorFlow 2.21 gives these variables, and its refusal to make one twice."""
    x = np.ones((2, 3, 4), np.float32)
    with tf.Graph().as_default():
        with tf.compat.v1.variable_scope("m"):
            tf.compat.v1.nn.dynamic_rnn(cells.BasicLSTMCell(3), x, dtype=tf.float32)
        with tf.compat.v1.variable_scope("m", reuse=True):
            tf.compat.v1.nn.dynamic_rnn(cells.BasicLSTMCell(3), x, dtype=tf.float32)
        shared = cells.GRUCell(2)
        tf.compat.v1.nn.dynamic_rnn(shared, x, dtype=tf.float32, scope="a")
        tf.compat.v1.nn.dynamic_rnn(shared, x, dtype=tf.float32, scope="b")
        with tf.compat.v1.variable_scope("n"):
            tf.compat.v1.nn.dynamic_rnn(cells.BasicRNNCell(3), x, dtype=tf.float32)
            tf.compat.v1.nn.dynamic_rnn(cells.BasicRNNCell(3), x, dtype=tf.float32, scope="rnn2")
            with pytest.raises(ValueError, match="n/rnn/basic_rnn_cell/kernel already exists"):
                tf.compat.v1.nn.dynamic_rnn(cells.BasicRNNCell(3), x, dtype=tf.float32)
        relu_cell = cells.BasicRNNCell(3, activation="relu", name="named")
        out, _ = tf.compat.v1.nn.dynamic_rnn(relu_cell, x, dtype=tf.float32)
        names = [v.name for v in tf.compat.v1.global_variables()]
        with tf.compat.v1.Session() as session:
            session.run(tf.compat.v1.global_variables_initializer())
            assert session.run(out).min() >= 0
    assert names == ["m/rnn/basic_lstm_cell/kernel:0", "m/rnn/basic_lstm_cell/bias:0",
                     "a/gru_cell/gates/kernel:0", "a/gru_cell/gates/bias:0",
                     "a/gru_cell/candidate/kernel:0", "a/gru_cell/candidate/bias:0",
                     "n/rnn/basic_rnn_cell/kernel:0", "n/rnn/basic_rnn_cell/bias:0",
                     "n/rnn2/basic_rnn_cell/kernel:0", "n/rnn2/basic_rnn_cell/bias:0",
                     "rnn/named/kernel:0", "rnn/named/bias:0"]
    with pytest.raises(ValueError, match="Unknown activation function"):
        cells.GRUCell(2, activation="nonsense")


class _VariableStateSaver:
    """A state saver over graph variables: `state` reads one, `save_state` assigns it."""

    def __init__(self, sizes):
        self.variables = {name: tf.compat.v1.get_variable(
            "saved_" + name, [2, size], initializer=tf.compat.v1.constant_initializer(0.1),
            trainable=False) for name, size in sizes.items()}

    def state(self, name):
        return self.variables[name].read_value()

    def save_state(self, name, value):
        return self.variables[name].assign(value).op


def test_static_state_saving_rnn_continues_from_the_saved_state():
    """TensorFlow 2.21's last outputs on two runs (the second starts from the saved state)."""
    with tf.Graph().as_default():
        x = tf.constant(np.linspace(-1, 1, 24).reshape(2, 3, 4).astype(np.float32))
        saver = _VariableStateSaver({"c": 3, "h": 3})
        cell = cells.BasicLSTMCell(3)
        outputs, _ = tf.compat.v1.nn.static_state_saving_rnn(cell, tf.unstack(x, axis=1), saver,
                                                            ("c", "h"))
        with pytest.raises(ValueError, match="should be the same type as `cell.state_size`"):
            tf.compat.v1.nn.static_state_saving_rnn(cell, tf.unstack(x, axis=1), saver, "c")
        with tf.compat.v1.Session() as session:
            session.run(tf.compat.v1.global_variables_initializer())
            kernel = np.linspace(-0.5, 0.5, 84).reshape(7, 12).astype(np.float32)
            session.run(cell.variables[0].assign(kernel))
            first = session.run(outputs[-1])
            saved = session.run(saver.variables["h"])
            second = session.run(outputs[-1])
    np.testing.assert_allclose(first, [[0.57409, 0.57413, 0.5740], [-0.08891, -0.08926, -0.08911]],
                               atol=2e-5)
    np.testing.assert_allclose(saved, first)
    np.testing.assert_allclose(second, [[0.70528, 0.70898, 0.71264],
                                        [-0.12174, -0.12474, -0.12745]], atol=2e-5)


def test_device_wrapper_builds_the_cell_on_its_device():
    with tf.Graph().as_default():
        cell = cells.DeviceWrapper(cells.BasicRNNCell(2), "/cpu:0")
        out, _ = tf.compat.v1.nn.dynamic_rnn(cell, tf.ones([1, 2, 3]), dtype=tf.float32)
        assert cell.device == "/cpu:0" and out.shape == (1, 2, 2)
        assert [v.name for v in cell.variables] == ["rnn/basic_rnn_cell/kernel:0",
                                                    "rnn/basic_rnn_cell/bias:0"]
