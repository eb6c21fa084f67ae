"""The last of TensorFlow 2.21's tf.nn names (issue 18): collapse_repeated, ctc_unique_labels,
experimental.stateless_dropout / general_dropout, with_space_to_batch and the RNN cell wrappers;
hand-worked cases, graph mode, errors, and all against TensorFlow 2.21 when it is installed."""
import numpy as np
import pytest

import wengert as tf
from tf_ops_reference import TFCase, check, run_tf_or_skip
from wengert.testing import check_grads

RNG = np.random.default_rng(1821)


# -- CTC label helpers ----------------------------------------------------------------------------
def test_collapse_repeated_docstring_case():
    labels, lengths = tf.nn.collapse_repeated([[1, 1, 2, 2, 1], [1, 2, 3, 4, 5]], [5, 5])
    np.testing.assert_array_equal(labels, [[1, 2, 1, 0, 0], [1, 2, 3, 4, 5]])
    np.testing.assert_array_equal(lengths, [3, 5])


def test_collapse_repeated_cuts_at_the_sequence_length_and_keeps_dtypes():
    labels, lengths = tf.nn.collapse_repeated(np.array([[7, 7, 7, 8], [5, 6, 6, 6]], np.int64),
                                              np.array([2, 3], np.int64))
    np.testing.assert_array_equal(labels, [[7, 0], [5, 6]])  # max new length is 2
    assert labels.dtype == tf.int64 and lengths.dtype == tf.int64
    np.testing.assert_array_equal(lengths, [1, 2])


def test_ctc_unique_labels_docstring_case():
    unique, idx = tf.nn.ctc_unique_labels([[3, 4, 4, 3]])
    np.testing.assert_array_equal(unique, [[3, 4, 0, 0]])
    np.testing.assert_array_equal(idx, [[0, 1, 1, 0]])
    assert unique.dtype == tf.int64 and idx.dtype == tf.int32


def test_ctc_unique_labels_matches_numpy_unique_row_by_row():
    labels = RNG.integers(0, 4, size=(6, 7)).astype(np.int32)
    unique, idx = tf.nn.ctc_unique_labels(labels)
    for row, u, i in zip(labels, np.asarray(unique), np.asarray(idx)):
        values, first = np.unique(row, return_index=True)
        order = values[np.argsort(first)]
        np.testing.assert_array_equal(u, np.pad(order, (0, len(row) - len(order))))
        np.testing.assert_array_equal(order[i], row)


def test_ctc_label_helpers_in_graph_mode_with_unknown_shapes():
    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.int32),
                                  tf.TensorSpec([None], tf.int32)])
    def f(labels, lengths):
        return tf.nn.collapse_repeated(labels, lengths) + tf.nn.ctc_unique_labels(labels)

    collapsed, new_len, unique, idx = f(tf.constant([[2, 2, 3], [1, 1, 1]]), tf.constant([3, 3]))
    np.testing.assert_array_equal(collapsed, [[2, 3], [1, 0]])
    np.testing.assert_array_equal(new_len, [2, 1])
    np.testing.assert_array_equal(unique, [[2, 3, 0], [1, 0, 0]])
    np.testing.assert_array_equal(idx, [[0, 0, 1], [0, 0, 0]])


def test_ctc_label_helpers_reject_non_matrices():
    with pytest.raises(tf.errors.InvalidArgumentError, match="collapse_repeated.*rank 2"):
        tf.nn.collapse_repeated([1, 1, 2], [3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="ctc_unique_labels.*rank 2"):
        tf.nn.ctc_unique_labels([1, 1, 2])


CTC_CASES = [
    TFCase("collapse_repeated", "tf.nn.collapse_repeated(x0, x1)",
           lambda lab, n: tf.nn.collapse_repeated(lab, n),
           [RNG.integers(0, 3, size=(5, 8)).astype(np.int32), np.array([8, 0, 3, 5, 1])]),
    TFCase("collapse_repeated_empty", "tf.nn.collapse_repeated(x0, x1)",
           lambda lab, n: tf.nn.collapse_repeated(lab, n),
           [np.ones((2, 3), np.int64), np.zeros(2, np.int64)]),
    TFCase("ctc_unique_labels", "tf.nn.ctc_unique_labels(x0)",
           lambda lab: tf.nn.ctc_unique_labels(lab),
           [RNG.integers(0, 5, size=(4, 9)).astype(np.int64)]),
]


# -- experimental.stateless_dropout / general_dropout ----------------------------------------------
def test_stateless_dropout_is_a_function_of_the_seed():
    x = tf.ones([40, 50])
    a = tf.nn.experimental.stateless_dropout(x, rate=0.3, seed=[1, 2])
    b = tf.nn.experimental.stateless_dropout(x, rate=0.3, seed=[1, 2])
    c = tf.nn.experimental.stateless_dropout(x, rate=0.3, seed=[2, 2])
    np.testing.assert_array_equal(a, b)
    assert np.any(np.asarray(a) != np.asarray(c))
    values = np.unique(np.asarray(a))
    np.testing.assert_allclose(values, [0, 1 / 0.7], rtol=1e-6)
    assert abs(np.mean(np.asarray(a) == 0) - 0.3) < 0.05


def test_stateless_dropout_noise_shape_shares_decisions_and_rate_zero_is_identity():
    x = tf.constant(RNG.normal(size=(3, 10)).astype(np.float32))
    y = np.asarray(tf.nn.experimental.stateless_dropout(x, 2 / 3, seed=[1, 0],
                                                        noise_shape=[1, None]))
    kept = y != 0
    assert np.all(kept == kept[:1]) and 0 < kept[0].sum() < 10
    np.testing.assert_allclose(y[kept], 3 * np.asarray(x)[kept], rtol=1e-6)
    assert tf.nn.experimental.stateless_dropout(x, 0.0, seed=[1, 0]) is x


def test_stateless_dropout_gradients_are_the_scaled_mask():
    x = tf.constant(RNG.normal(size=(4, 6)))
    rate = tf.constant(0.25, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch([x, rate])
        y = tf.nn.experimental.stateless_dropout(x, rate, seed=[5, 6])
    gx, grate = tape.gradient(y, [x, rate])
    keep = np.asarray(y) != 0
    np.testing.assert_allclose(gx, keep / 0.75)
    np.testing.assert_allclose(grate, np.sum(np.asarray(x) * keep) / 0.75 ** 2)
    check_grads(lambda t: tf.nn.experimental.stateless_dropout(t, 0.5, seed=[7, 8]), [x],
                order=2)


def test_stateless_dropout_in_graph_mode():
    @tf.function(input_signature=[tf.TensorSpec([None, 8], tf.float32)])
    def f(x):
        return tf.nn.experimental.stateless_dropout(x, 0.5, seed=[3, 1])

    x = tf.ones([5, 8])
    np.testing.assert_array_equal(f(x), tf.nn.experimental.stateless_dropout(x, 0.5, [3, 1]))


def test_general_dropout_with_a_generator():
    g = tf.random.Generator.from_seed(7)
    x = tf.constant([1.1, 2.2, 3.3, 4.4, 5.5])
    first = np.asarray(tf.nn.experimental.general_dropout(x, 0.5, g.uniform))
    second = np.asarray(tf.nn.experimental.general_dropout(x, 0.5, g.uniform))
    assert np.any(first != second)  # the generator's state advanced
    for y in (first, second):
        np.testing.assert_allclose(y[y != 0], 2 * np.asarray(x)[y != 0], rtol=1e-6)


def test_dropout_errors():
    with pytest.raises(ValueError, match="stateless_dropout.*range \\[0, 1\\)"):
        tf.nn.experimental.stateless_dropout(tf.ones([2]), 1.0, seed=[1, 2])
    with pytest.raises(ValueError, match="floating-point"):
        tf.nn.experimental.stateless_dropout(tf.ones([2], tf.int32), 0.5, seed=[1, 2])
    with pytest.raises(ValueError, match="scalar tensor"):
        tf.nn.experimental.stateless_dropout(tf.ones([2]), tf.constant([0.5]), seed=[1, 2])
    with pytest.raises(TypeError, match="general_dropout.*callable"):
        tf.nn.experimental.general_dropout(tf.ones([2]), 0.5, None)


_SAMPLER = "lambda shape, dtype: tf.reshape(tf.cast(x1, dtype), shape)"
DROPOUT_CASES = [
    TFCase("general_dropout_fixed_draws",
           f"tf.nn.experimental.general_dropout(x0, 0.4, {_SAMPLER})",
           lambda x, u: tf.nn.experimental.general_dropout(
               x, 0.4, lambda shape, dtype: tf.reshape(tf.cast(u, dtype), shape)),
           [RNG.normal(size=(3, 5)), RNG.uniform(size=(3, 5))], wrt=(0,)),
    TFCase("general_dropout_tensor_rate_noise_shape",
           f"tf.nn.experimental.general_dropout(x0, x2, {_SAMPLER}, noise_shape=[1, 5])",
           lambda x, u, r: tf.nn.experimental.general_dropout(
               x, r, lambda shape, dtype: tf.reshape(tf.cast(u, dtype), shape),
               noise_shape=[1, 5]),
           [RNG.normal(size=(3, 5)), RNG.uniform(size=(1, 5)), np.array(0.45)], wrt=(0, 2)),
]


# -- with_space_to_batch --------------------------------------------------------------------------
def _conv(w):
    return lambda i, n, p: tf.nn.convolution(i, w, padding=p)


def test_with_space_to_batch_is_a_dilated_convolution():
    x = tf.constant(RNG.normal(size=(2, 9, 8, 3)))
    w = tf.constant(RNG.normal(size=(3, 2, 3, 4)))
    for padding in ("SAME", "VALID"):
        y = tf.nn.with_space_to_batch(x, [2, 3], padding, _conv(w), filter_shape=[3, 2])
        np.testing.assert_allclose(y, tf.nn.convolution(x, w, padding=padding,
                                                         dilations=[2, 3]), atol=1e-12)
    check_grads(lambda a, b: tf.nn.with_space_to_batch(a, [2, 2], "SAME", _conv(b),
                                                       filter_shape=[3, 2]),
                [x[:1, :5, :5], w[..., :2]], order=2, modes=("rev",))


def test_with_space_to_batch_rate_one_passes_the_padding_through():
    seen = []
    x = tf.ones([1, 4, 4, 1])
    tf.nn.with_space_to_batch(x, [1, 1], "SAME", lambda i, n, p: seen.append((i, n, p)) or i)
    assert seen[0][0] is x and seen[0][1:] == (2, "SAME")


def test_with_space_to_batch_in_graph_mode_with_unknown_batch():
    w = tf.constant(RNG.normal(size=(2, 2, 1, 1)).astype(np.float32))

    @tf.function(input_signature=[tf.TensorSpec([None, 6, 6, 1], tf.float32)])
    def f(x):
        return tf.nn.with_space_to_batch(x, [2, 2], "SAME", _conv(w), filter_shape=[2, 2])

    x = tf.constant(RNG.normal(size=(3, 6, 6, 1)).astype(np.float32))
    np.testing.assert_allclose(f(x), tf.nn.convolution(x, w, padding="SAME", dilations=2),
                               rtol=1e-5, atol=1e-6)


def test_with_space_to_batch_errors():
    x = tf.ones([1, 4, 4, 1])
    with pytest.raises(ValueError, match="with_space_to_batch.*filter_shape"):
        tf.nn.with_space_to_batch(x, [2, 2], "SAME", _conv(tf.ones([2, 2, 1, 1])))
    with pytest.raises(ValueError, match="with_space_to_batch.*positive"):
        tf.nn.with_space_to_batch(x, [0, 2], "VALID", _conv(tf.ones([2, 2, 1, 1])))
    with pytest.raises(ValueError, match="with_space_to_batch.*monotonically"):
        tf.nn.with_space_to_batch(x, [2, 2], "VALID", _conv(tf.ones([2, 2, 1, 1])),
                                  spatial_dims=[2, 1])
    with pytest.raises(ValueError, match="with_space_to_batch.*padding"):
        tf.nn.with_space_to_batch(x, [2, 2], "FULL", _conv(tf.ones([2, 2, 1, 1])))


_WSB = "tf.nn.with_space_to_batch"
SPACE_CASES = [
    TFCase("wsb_conv_same", f"{_WSB}(x0, [2, 2], 'SAME', lambda i, n, p: "
                            "tf.nn.convolution(i, x1, padding=p), filter_shape=[3, 3])",
           lambda x, w: tf.nn.with_space_to_batch(x, [2, 2], "SAME", _conv(w),
                                                  filter_shape=[3, 3]),
           [RNG.normal(size=(2, 7, 8, 2)), RNG.normal(size=(3, 3, 2, 3))], wrt=(0, 1)),
    TFCase("wsb_pool_valid", f"{_WSB}(x0, [2, 3], 'VALID', lambda i, n, p: "
                             "tf.nn.pool(i, [2, 2], 'AVG', padding=p))",
           lambda x: tf.nn.with_space_to_batch(
               x, [2, 3], "VALID", lambda i, n, p: tf.nn.pool(i, [2, 2], "AVG", padding=p)),
           [RNG.normal(size=(2, 9, 10, 3))], wrt=(0,)),
    TFCase("wsb_explicit", f"{_WSB}(x0, [3, 2], [[0, 0], [1, 2], [2, 1], [0, 0]], "
                           "lambda i, n, p: tf.nn.convolution(i, x1, padding=p))",
           lambda x, w: tf.nn.with_space_to_batch(x, [3, 2], [[0, 0], [1, 2], [2, 1], [0, 0]],
                                                  _conv(w)),
           [RNG.normal(size=(1, 8, 7, 2)), RNG.normal(size=(2, 3, 2, 2))], wrt=(0, 1)),
    TFCase("wsb_spatial_dims_batch_mixing",
           f"{_WSB}(x0, [2, 3], 'VALID', lambda i, n, p: tf.math.cumsum(i, axis=0)[:, :-1], "
           "spatial_dims=[1, 3])",
           lambda x: tf.nn.with_space_to_batch(
               x, [2, 3], "VALID", lambda i, n, p: tf.math.cumsum(i, axis=0)[:, :-1],
               spatial_dims=[1, 3]),
           [RNG.normal(size=(2, 7, 3, 8))], wrt=(0,)),
    TFCase("wsb_nchw", f"{_WSB}(x0, [2], 'SAME', lambda i, n, p: i[:, :, 1:] - i[:, :, :-1], "
                       "filter_shape=[2], data_format='NCW')",
           lambda x: tf.nn.with_space_to_batch(
               x, [2], "SAME", lambda i, n, p: i[:, :, 1:] - i[:, :, :-1], filter_shape=[2],
               data_format="NCW"),
           [RNG.normal(size=(2, 3, 9))], wrt=(0,)),
]


# -- RNN cell wrappers ----------------------------------------------------------------------------
def _simple_cell(units=3, input_dim=3, seed=0):
    cell = tf.keras.layers.SimpleRNNCell(units)
    cell.build((None, input_dim))
    rng = np.random.default_rng(seed)
    cell.set_weights([rng.normal(size=w.shape).astype(np.float32) * 0.5 for w in cell.weights])
    return cell


def test_residual_wrapper_adds_the_inputs_and_runs_in_an_rnn():
    cell = _simple_cell()
    wrapper = tf.nn.RNNCellResidualWrapper(cell)
    assert wrapper.state_size == 3 and wrapper.output_size == 3
    x, h = tf.constant(RNG.normal(size=(2, 3)).astype(np.float32)), tf.zeros([2, 3])
    out, new = wrapper(x, [h])
    plain_out, plain_new = cell(x, [h])
    np.testing.assert_allclose(out, np.asarray(plain_out) + np.asarray(x), rtol=1e-6)
    np.testing.assert_allclose(new[0], plain_new[0])
    seq = tf.constant(RNG.normal(size=(2, 5, 3)).astype(np.float32))
    layer = tf.keras.layers.RNN(wrapper, return_sequences=True)
    got = layer(seq)
    state = tf.zeros([2, 3])
    for t in range(5):
        o, (state,) = cell(seq[:, t], [state])
        np.testing.assert_allclose(got[:, t], np.asarray(o) + np.asarray(seq[:, t]), rtol=1e-5,
                                   atol=1e-6)
    assert {id(v) for v in layer.trainable_weights} == {id(v) for v in cell.trainable_weights}
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(layer(seq) ** 2)
    assert all(g is not None for g in tape.gradient(loss, layer.trainable_weights))


def test_residual_wrapper_custom_fn_and_shape_errors():
    cell = _simple_cell(units=4, input_dim=3)
    with pytest.raises(ValueError, match="ResidualWrapper.*shape"):
        tf.nn.RNNCellResidualWrapper(cell)(tf.ones([2, 3]), [tf.zeros([2, 4])])
    wrapper = tf.nn.RNNCellResidualWrapper(cell, residual_fn=lambda i, o: o - o)
    out, _ = wrapper(tf.ones([2, 3]), [tf.zeros([2, 4])])
    np.testing.assert_array_equal(out, np.zeros((2, 4)))


def test_dropout_wrapper_keep_probs():
    cell = _simple_cell()
    x, h = tf.ones([64, 3]), tf.constant(RNG.normal(size=(64, 3)).astype(np.float32))
    same = tf.nn.RNNCellDropoutWrapper(cell)
    np.testing.assert_allclose(same(x, [h])[0], cell(x, [h])[0])
    wrapper = tf.nn.RNNCellDropoutWrapper(cell, output_keep_prob=0.5, state_keep_prob=0.25,
                                          seed=4)
    out, (state,) = wrapper(x, [h])
    ref_out, (ref_state,) = cell(x, [h])
    out, state = np.asarray(out), np.asarray(state)
    np.testing.assert_allclose(out[out != 0], 2 * np.asarray(ref_out)[out != 0], rtol=1e-6)
    np.testing.assert_allclose(state[state != 0], 4 * np.asarray(ref_state)[state != 0],
                               rtol=1e-6)
    assert 0.3 < np.mean(out != 0) < 0.7 and 0.1 < np.mean(state != 0) < 0.4
    with pytest.raises(ValueError, match="input_keep_prob must be between 0 and 1"):
        tf.nn.RNNCellDropoutWrapper(cell, input_keep_prob=1.5)
    with pytest.raises(TypeError, match="callable"):
        tf.nn.RNNCellDropoutWrapper(cell, dropout_state_filter_visitor=3)


def test_dropout_wrapper_state_filter_and_lstm_in_an_rnn():
    lstm = tf.keras.layers.LSTMCell(4)
    keep_h_only = tf.nn.RNNCellDropoutWrapper(
        lstm, state_keep_prob=0.01, dropout_state_filter_visitor=lambda s: True
        if not isinstance(s, (list, tuple)) else [True, False])
    layer = tf.keras.layers.RNN(keep_h_only, return_state=True)
    _, h, c = layer(tf.ones([8, 5, 3]))
    assert np.mean(np.asarray(h) == 0) > 0.8 and np.all(np.asarray(c) != 0)


def test_variational_dropout_uses_one_mask_for_every_step():
    wrapper = tf.nn.RNNCellDropoutWrapper(
        tf.keras.layers.GRUCell(6), input_keep_prob=0.5, output_keep_prob=0.5,
        variational_recurrent=True, input_size=3, dtype=tf.float32, seed=7)
    out = np.asarray(tf.keras.layers.RNN(wrapper, return_sequences=True)(
        tf.constant(RNG.normal(size=(2, 5, 3)).astype(np.float32))))
    dropped = out == 0
    assert np.all(dropped == dropped[:1, :1]) and 0 < dropped[0, 0].sum() < 6
    with pytest.raises(ValueError, match="dtype must be provided"):
        tf.nn.RNNCellDropoutWrapper(tf.keras.layers.GRUCell(2), variational_recurrent=True)
    with pytest.raises(ValueError, match="input_size must be provided"):
        tf.nn.RNNCellDropoutWrapper(tf.keras.layers.GRUCell(2), input_keep_prob=0.5,
                                    variational_recurrent=True, dtype=tf.float32)


def test_device_wrapper_delegates():
    cell = tf.keras.layers.GRUCell(3)
    wrapper = tf.nn.RNNCellDeviceWrapper(cell, "/cpu:0")
    seq = tf.ones([2, 4, 3])
    np.testing.assert_allclose(tf.keras.layers.RNN(wrapper)(seq),
                               tf.keras.layers.RNN(cell)(seq), rtol=1e-6)
    assert wrapper.get_config()["device"] == "/cpu:0"
    zeros = wrapper.zero_state(2, tf.float32)
    np.testing.assert_array_equal(zeros, np.zeros((2, 3)))


def test_wrapper_configs_round_trip():
    cell = _simple_cell()
    for wrapper in (tf.nn.RNNCellResidualWrapper(cell),
                    tf.nn.RNNCellDropoutWrapper(cell, output_keep_prob=0.75, seed=2),
                    tf.nn.RNNCellDeviceWrapper(cell, "/CPU:0")):
        config = wrapper.get_config()
        assert config["cell"]["class_name"] == "SimpleRNNCell"
        again = type(wrapper).from_config(config)
        assert again.get_config() == config
    layer = tf.keras.layers.RNN(tf.nn.RNNCellResidualWrapper(cell))
    custom = {"ResidualWrapper": tf.nn.RNNCellResidualWrapper}
    rebuilt = tf.keras.layers.RNN.from_config(layer.get_config(), custom_objects=custom)
    assert isinstance(rebuilt.cell, tf.nn.RNNCellResidualWrapper)
    named = tf.nn.RNNCellResidualWrapper(cell, residual_fn=_zero_residual)
    config = named.get_config()
    assert config["residual_fn"] == "_zero_residual"
    assert type(named).from_config(config)._residual_fn is _zero_residual


def _zero_residual(inputs, outputs):
    return outputs * 0


_SET = "(lambda w: (w.build((None, 3)), w.cell.set_weights([x2, x3, x4]), w(x0, [x1]))[-1])"
_WEIGHTS = [RNG.normal(size=(3, 3)).astype(np.float32) * 0.5,
            RNG.normal(size=(3, 3)).astype(np.float32) * 0.5,
            RNG.normal(size=(3,)).astype(np.float32) * 0.1]


def _wrapped_step(make):
    def run(x, h, kernel, recurrent, bias):
        cell = tf.keras.layers.SimpleRNNCell(3)
        wrapper = make(cell)
        wrapper.build((None, 3))
        cell.set_weights([np.asarray(kernel), np.asarray(recurrent), np.asarray(bias)])
        return wrapper(x, [h])
    return run


WRAPPER_CASES = [
    TFCase(f"{name}_step", f"{_SET}({expr})", _wrapped_step(make),
           [RNG.normal(size=(2, 3)).astype(np.float32),
            RNG.normal(size=(2, 3)).astype(np.float32)] + _WEIGHTS, wrt=(0, 1),
           rtol=1e-5, atol=1e-6)
    for name, expr, make in [
        ("residual", "tf.nn.RNNCellResidualWrapper(tf.keras.layers.SimpleRNNCell(3))",
         tf.nn.RNNCellResidualWrapper),
        ("device", "tf.nn.RNNCellDeviceWrapper(tf.keras.layers.SimpleRNNCell(3), '/cpu:0')",
         lambda c: tf.nn.RNNCellDeviceWrapper(c, "/cpu:0")),
        ("dropout_keep_all", "tf.nn.RNNCellDropoutWrapper(tf.keras.layers.SimpleRNNCell(3))",
         tf.nn.RNNCellDropoutWrapper),
    ]
]


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


CASES = CTC_CASES + DROPOUT_CASES + SPACE_CASES + WRAPPER_CASES


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_matches_tensorflow(case, tf_results):
    check(case, tf_results[case.name])
