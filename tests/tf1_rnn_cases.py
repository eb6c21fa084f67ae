"""TensorFlow 1 recurrent programs run both by TensorFlow (tests/fixtures/write_tf1_rnn.py records
their answers) and by wengert (tests/test_tf1_rnn.py compares with them).

Each case builds one graph with `tf` (TensorFlow or wengert) and `cells` (its rnn_cell module),
sets every global variable to values drawn from a generator seeded by the variable's name, and
runs the outputs, the final states and the gradients of a fixed weighted sum of them with respect
to the input and to every variable. `run_case` returns {key: array} with the variables' names.
"""
import zlib

import numpy as np


def _x(shape):
    return np.random.default_rng(7).standard_normal(shape).astype(np.float32)


def _basic_lstm(tf, cells, x):
    return tf.compat.v1.nn.dynamic_rnn(cells.BasicLSTMCell(5), x, sequence_length=[4, 2],
                                       dtype=tf.float32)


def _lstm_peepholes_projection(tf, cells, x):
    cell = cells.LSTMCell(5, use_peepholes=True, num_proj=3, cell_clip=0.5, proj_clip=0.8)
    return tf.compat.v1.nn.dynamic_rnn(cell, tf.transpose(x, [1, 0, 2]), time_major=True,
                                       dtype=tf.float32)


def _gru_initial_state(tf, cells, x):
    cell = cells.GRUCell(4)
    start = tf.constant(np.linspace(-1, 1, 8).reshape(2, 4).astype(np.float32))
    return tf.compat.v1.nn.dynamic_rnn(cell, x, initial_state=start, scope="encoder")


def _multi_cell(tf, cells, x):
    cell = cells.MultiRNNCell([cells.BasicRNNCell(3), cells.BasicLSTMCell(4)])
    return tf.compat.v1.nn.dynamic_rnn(cell, x, sequence_length=[3, 4], dtype=tf.float32)


def _bidirectional(tf, cells, x):
    return tf.compat.v1.nn.bidirectional_dynamic_rnn(cells.GRUCell(3), cells.BasicLSTMCell(2), x,
                                                     sequence_length=[4, 3], dtype=tf.float32)


def _static(tf, cells, x):
    steps = tf.unstack(x, axis=1)
    return tf.compat.v1.nn.static_rnn(cells.BasicLSTMCell(3), steps, sequence_length=[2, 4],
                                      dtype=tf.float32)


def _static_bidirectional(tf, cells, x):
    steps = tf.unstack(x, axis=1)
    return tf.compat.v1.nn.static_bidirectional_rnn(cells.BasicRNNCell(2), cells.BasicRNNCell(3),
                                                    steps, sequence_length=[3, 4],
                                                    dtype=tf.float32)


def _wrappers(tf, cells, x):
    cell = cells.MultiRNNCell([
        cells.ResidualWrapper(cells.BasicRNNCell(3)),
        cells.DropoutWrapper(cells.LSTMCell(4), input_keep_prob=1.0, output_keep_prob=1.0)])
    return tf.compat.v1.nn.dynamic_rnn(cell, x, dtype=tf.float32)


def _concatenated_state(tf, cells, x):
    cell = cells.BasicLSTMCell(3, forget_bias=0.5, state_is_tuple=False)
    return tf.compat.v1.nn.dynamic_rnn(cell, x, sequence_length=[1, 3], dtype=tf.float32)


def _raw(tf, cells, x):
    steps = tf.TensorArray(tf.float32, size=4).unstack(tf.transpose(x, [1, 0, 2]))
    lengths = tf.constant([4, 3])
    cell = cells.GRUCell(3)

    def loop_fn(time, output, state, loop_state):
        if output is None:
            state, loop_state = cell.zero_state(2, tf.float32), tf.constant(0.5)
        finished = time >= lengths
        step = tf.cond(tf.reduce_all(finished), lambda: tf.zeros([2, 3]),
                       lambda: steps.read(tf.minimum(time, 3)))
        emit = None if output is None else output * loop_state
        return finished, step, state, emit, loop_state * 2.0
    emitted, state, loop_state = tf.compat.v1.nn.raw_rnn(cell, loop_fn)
    return tf.reshape(emitted.stack(), [4, 2, 3]), state, loop_state


def _custom_cell(tf, cells, x):
    class ProjectedCell(cells.RNNCell):
        """A user's cell asking for its variables by name inside `call`, as TF 1 programs do."""

        def __init__(self, units):
            super().__init__()
            self.units, self.inner = units, cells.BasicRNNCell(units)

        @property
        def state_size(self):
            return self.units

        @property
        def output_size(self):
            return self.units

        def call(self, inputs, state):
            w = tf.compat.v1.get_variable("w", [inputs.shape[-1], self.units])
            with tf.compat.v1.variable_scope("shift"):
                b = tf.compat.v1.get_variable("b", [self.units])
            return self.inner(tf.tanh(tf.matmul(inputs, w) + b), state)
    out, state = tf.compat.v1.nn.dynamic_rnn(ProjectedCell(3), x, sequence_length=[2, 4],
                                             dtype=tf.float32)
    steps = tf.compat.v1.nn.static_rnn(ProjectedCell(2), tf.unstack(x, axis=1),
                                       dtype=tf.float32, scope="unrolled")
    return out, state, steps


def _flat_states(tf, cells, x):
    cell = cells.MultiRNNCell([cells.LSTMCell(3, use_peepholes=True, state_is_tuple=False),
                               cells.GRUCell(2)], state_is_tuple=False)
    return tf.compat.v1.nn.dynamic_rnn(cell, x, sequence_length=[4, 1], dtype=tf.float32)


CASES = {"basic_lstm": _basic_lstm, "lstm_peepholes_projection": _lstm_peepholes_projection,
         "gru_initial_state": _gru_initial_state, "multi_cell": _multi_cell,
         "bidirectional": _bidirectional, "static": _static,
         "static_bidirectional": _static_bidirectional, "wrappers": _wrappers,
         "concatenated_state": _concatenated_state, "raw": _raw,
         "custom_cell": _custom_cell, "flat_states": _flat_states}


def _flat(structure):
    if isinstance(structure, (list, tuple)):
        return [leaf for part in structure for leaf in _flat(part)]
    return [structure]


def variable_value(name, shape):
    """The fixed value a case gives the variable `name`."""
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    return (0.5 * rng.standard_normal(shape)).astype(np.float32)


def run_case(tf, cells, name):
    """{"variables": names, "out<k>": outputs and states, "grad_x", "grad<k>": gradients}."""
    with tf.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, [2, 4, 3])
        results = _flat(CASES[name](tf, cells, x))
        variables = tf.compat.v1.global_variables()
        rng = np.random.default_rng(3)
        loss = tf.add_n([tf.reduce_sum(t * rng.standard_normal(t.shape.as_list())
                                       .astype(np.float32)) for t in results])
        grads = tf.gradients(loss, [x] + variables)
        with tf.compat.v1.Session() as session:
            for v in variables:
                session.run(v.assign(variable_value(v.name, v.shape.as_list())))
            values = session.run(results + grads, {x: _x([2, 4, 3])})
    answer = {"variables": np.array([v.name for v in variables])}
    for k, value in enumerate(values[:len(results)]):
        answer[f"out{k}"] = value
    answer["grad_x"] = values[len(results)]
    for k, value in enumerate(values[len(results) + 1:]):
        answer[f"grad{k}"] = value
    return answer
