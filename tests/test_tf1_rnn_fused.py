"""`dynamic_rnn` over BasicLSTMCell, LSTMCell and GRUCell runs one fused sequence op
(wengert/tf1/fused_rnn.py); these tests check it against the cell run step by step in the while
loop (the same cell class with `call` overridden, which the fused path declines), in float64:
outputs, final states and the gradients of a weighted sum of them with respect to the inputs, the
initial state and every variable, with sequence lengths, time-major inputs, initial states,
unknown batch and time, the bidirectional form and eager execution. TensorFlow's own answers for
these cells are checked in tests/test_tf1_rnn.py."""
import numpy as np
import pytest

import wengert as tf

v1 = tf.compat.v1
cells = v1.nn.rnn_cell


def _stepwise(cls):
    """A subclass of `cls` computing the same step, run by the while loop."""
    return type("Stepwise" + cls.__name__, (cls,), {"call": lambda self, x, s: cls.call(self, x,
                                                                                        s)})


CELLS = {
    "basic_lstm": (cells.BasicLSTMCell, dict(num_units=5), "LSTMSequence"),
    "basic_lstm_forget_bias": (cells.BasicLSTMCell, dict(num_units=4, forget_bias=0.3),
                               "LSTMSequence"),
    "basic_lstm_concat_state": (cells.BasicLSTMCell, dict(num_units=3, state_is_tuple=False),
                                "LSTMSequence"),
    "lstm": (cells.LSTMCell, dict(num_units=4, forget_bias=2.0), "LSTMSequence"),
    "lstm_concat_state": (cells.LSTMCell, dict(num_units=3, state_is_tuple=False),
                          "LSTMSequence"),
    "gru": (cells.GRUCell, dict(num_units=4), "GRUSequence"),
}


def _initial_state(cell, batch, rng):
    return tf.nest.map_structure(
        lambda size: tf.constant(rng.standard_normal((batch, size))), cell.state_size)


def _run(cls, kwargs, stepwise, lengths=None, time_major=False, with_state=False, dynamic=False,
         make=None):
    """(op types, {name: array}) of one dynamic_rnn in a fresh graph with seeded variables."""
    rng = np.random.default_rng(3)
    x_value = rng.standard_normal((3, 6, 2))
    if time_major:
        x_value = x_value.transpose(1, 0, 2)
    with tf.Graph().as_default() as graph:
        x = v1.placeholder(tf.float64, [None, None, 2] if dynamic else x_value.shape)
        make = make or (_stepwise(cls) if stepwise else cls)
        cell = make(name="cell", **kwargs)
        start = _initial_state(cell, 3, rng) if with_state else None
        out, state = v1.nn.dynamic_rnn(cell, x, sequence_length=lengths, initial_state=start,
                                       dtype=tf.float64, time_major=time_major)
        variables = v1.global_variables()
        ends = tf.nest.flatten(state)
        loss = tf.reduce_sum(tf.sin(3 * out) * out)
        loss += sum(tf.reduce_sum(e * (k + 1.5)) for k, e in enumerate(ends))
        wrt = [x] + variables + (tf.nest.flatten(start) if with_state else [])
        grads = tf.gradients(loss, wrt)
        with v1.Session() as session:
            for v in variables:
                v.load(np.random.default_rng(len(v.name)).uniform(-0.7, 0.7, v.shape), session)
            values = session.run([out] + ends + grads, {x: x_value})
        types = {op.type for op in graph.get_operations()}
    names = ["outputs"] + [f"state{k}" for k in range(len(ends))] + \
        ["d_x"] + [f"d_{v.name}" for v in variables] + \
        [f"d_start{k}" for k in range(len(wrt) - 1 - len(variables))]
    return types, dict(zip(names, values))


def _compare(fused, stepwise):
    assert list(fused) == list(stepwise)
    for key in fused:
        np.testing.assert_allclose(fused[key], stepwise[key], rtol=1e-10, atol=1e-12,
                                   err_msg=key)


@pytest.mark.parametrize("name", sorted(CELLS))
@pytest.mark.parametrize("variant", ["plain", "lengths", "time_major", "initial_state",
                                     "dynamic_shapes"])
def test_fused_equals_stepwise(name, variant):
    cls, kwargs, op_type = CELLS[name]
    options = {"plain": {}, "lengths": dict(lengths=[6, 2, 0]),
               "time_major": dict(time_major=True, lengths=[3, 6, 1]),
               "initial_state": dict(with_state=True, lengths=[4, 6, 5]),
               "dynamic_shapes": dict(dynamic=True, time_major=True)}[variant]
    types, fused = _run(cls, kwargs, False, **options)
    stepwise_types, stepwise = _run(cls, kwargs, True, **options)
    assert op_type in types and "While" not in types
    assert op_type not in stepwise_types
    _compare(fused, stepwise)


def _stack(stepwise):
    make = _stepwise if stepwise else (lambda cls: cls)
    return lambda num_units, name: cells.MultiRNNCell(
        [make(cells.BasicLSTMCell)(num_units, name="basic_lstm_cell"),
         make(cells.GRUCell)(3, name="gru_cell"),
         make(cells.LSTMCell)(2, state_is_tuple=False, name="lstm_cell")])


@pytest.mark.parametrize("variant", [{}, dict(lengths=[6, 2, 0]),
                                     dict(with_state=True, lengths=[3, 5, 6], time_major=True)])
def test_multi_rnn_cell_runs_layer_by_layer(variant):
    types, fused = _run(None, dict(num_units=4), False, make=_stack(False), **variant)
    stepwise_types, stepwise = _run(None, dict(num_units=4), True, make=_stack(True), **variant)
    assert {"LSTMSequence", "GRUSequence"} <= types and "While" not in types
    assert "LSTMSequence" not in stepwise_types
    _compare(fused, stepwise)


def test_lengths_zero_outputs_and_copy_state_through():
    _, got = _run(cells.BasicLSTMCell, dict(num_units=3), False, lengths=[6, 2, 0])
    outputs = got["outputs"]
    assert not outputs[1, 2:].any() and not outputs[2].any()
    np.testing.assert_array_equal(got["state1"][1], outputs[1, 1])
    np.testing.assert_array_equal(got["state0"][2], 0.0)


@pytest.mark.parametrize("cls, kwargs", [
    (cells.LSTMCell, dict(num_units=3, use_peepholes=True)),
    (cells.LSTMCell, dict(num_units=3, cell_clip=1.0)),
    (cells.LSTMCell, dict(num_units=3, num_proj=2)),
    (cells.BasicLSTMCell, dict(num_units=3, activation="relu")),
    (cells.GRUCell, dict(num_units=3, activation=tf.nn.relu)),
    (cells.BasicRNNCell, dict(num_units=3)),
])
def test_cells_the_fused_ops_do_not_compute_run_the_loop(cls, kwargs):
    with tf.Graph().as_default() as graph:
        v1.nn.dynamic_rnn(cls(**kwargs), tf.ones([2, 3, 4]), dtype=tf.float32)
        types = {op.type for op in graph.get_operations()}
    assert "While" in types or "StatelessWhile" in types
    assert not {"LSTMSequence", "GRUSequence"} & types


def test_variables_keep_tensorflow_1_names_and_shapes():
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [2, 3, 4])
        with v1.variable_scope("model"):
            v1.nn.dynamic_rnn(cells.BasicLSTMCell(5), x, dtype=tf.float32)
            v1.nn.dynamic_rnn(cells.GRUCell(3), x, dtype=tf.float32, scope="gru")
        names = [(v.name, v.shape.as_list()) for v in v1.global_variables()]
    assert names == [("model/rnn/basic_lstm_cell/kernel:0", [9, 20]),
                     ("model/rnn/basic_lstm_cell/bias:0", [20]),
                     ("model/gru/gru_cell/gates/kernel:0", [7, 6]),
                     ("model/gru/gru_cell/gates/bias:0", [6]),
                     ("model/gru/gru_cell/candidate/kernel:0", [7, 3]),
                     ("model/gru/gru_cell/candidate/bias:0", [3])]


def test_bidirectional_fused_equals_stepwise():
    rng = np.random.default_rng(4)
    x_value = rng.standard_normal((3, 5, 2))

    def run(stepwise):
        make = _stepwise if stepwise else (lambda cls: cls)
        with tf.Graph().as_default():
            x = tf.constant(x_value)
            (fw, bw), (state_fw, state_bw) = v1.nn.bidirectional_dynamic_rnn(
                make(cells.GRUCell)(3, name="g"), make(cells.BasicLSTMCell)(2, name="l"), x,
                sequence_length=[5, 3, 1], dtype=tf.float64)
            variables = v1.global_variables()
            loss = tf.reduce_sum(fw * fw) + tf.reduce_sum(bw) + tf.reduce_sum(state_bw.c)
            with v1.Session() as session:
                session.run(v1.global_variables_initializer())
                for v in variables:
                    v.load(np.random.default_rng(len(v.name)).uniform(-1, 1, v.shape), session)
                return session.run([fw, bw, state_fw, state_bw.h] + tf.gradients(loss,
                                                                                   variables))
    for fused, stepwise in zip(run(False), run(True)):
        np.testing.assert_allclose(fused, stepwise, rtol=1e-10, atol=1e-12)


def test_eager_fused_equals_stepwise():
    x = tf.constant(np.random.default_rng(6).standard_normal((2, 4, 3)))

    def run(cls):
        cell = cls(3, name="eager")
        with tf.GradientTape() as tape:
            tape.watch(x)
            out, state = v1.nn.dynamic_rnn(cell, x, sequence_length=[4, 2], dtype=tf.float64)
            loss = tf.reduce_sum(out * out) + tf.reduce_sum(state.c)
        return [out, state.c, state.h, tape.gradient(loss, x)], cell
    fused, cell = run(cells.BasicLSTMCell)
    stepwise, step_cell = run(_stepwise(cells.BasicLSTMCell))
    for v, w in zip(cell.variables, step_cell.variables):
        w.assign(v)
    stepwise, _ = run(lambda *a, **k: step_cell)
    for a, b in zip(fused, stepwise):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("bidirectional", [False, True])
def test_static_rnn_fused_equals_stepwise(bidirectional):
    rng = np.random.default_rng(8)
    x_value = rng.standard_normal((3, 4, 2))

    def run(stepwise):
        make = _stepwise if stepwise else (lambda cls: cls)
        with tf.Graph().as_default() as graph:
            steps = tf.unstack(tf.constant(x_value), axis=1)
            lengths = [4, 1, 3]
            if bidirectional:
                outputs, state, _ = v1.nn.static_bidirectional_rnn(
                    make(cells.BasicLSTMCell)(3, name="l"), make(cells.GRUCell)(2, name="g"),
                    steps, sequence_length=lengths, dtype=tf.float64)
            else:
                outputs, state = v1.nn.static_rnn(make(cells.BasicLSTMCell)(3, name="l"), steps,
                                                   sequence_length=lengths, dtype=tf.float64)
            variables = v1.global_variables()
            loss = sum(tf.reduce_sum(tf.sin(o) * (k + 1)) for k, o in enumerate(outputs))
            loss += tf.reduce_sum(state.c * state.h)
            types = {op.type for op in graph.get_operations()}
            with v1.Session() as session:
                for v in variables:
                    v.load(np.random.default_rng(len(v.name)).uniform(-1, 1, v.shape), session)
                values = session.run(list(outputs) + list(state) + tf.gradients(loss, variables))
        return types, [v.name for v in variables], values
    types, names, fused = run(False)
    step_types, step_names, stepwise = run(True)
    assert "LSTMSequence" in types and "LSTMSequence" not in step_types
    assert names == step_names
    for a, b in zip(fused, stepwise):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)
