"""The fused LSTM and GRU sequence ops (ops/nn/rnn/) beyond the op table's second order: their
gradient ops differentiate again in reverse and forward mode, checked to third order against
finite differences (float64), and where the step-by-step rules cannot be built (a number of time
steps unknown while a graph is built) the error says what is needed."""
import numpy as np
import pytest

import wengert as tf
from wengert.autodiff.checker import check_grads
from wengert.ops.nn import rnn

MASK = np.array([[True, True, False, True], [False, True, True, True]])  # [batch, time]


def _sequence_args(gates, states, steps=3, batch=2, units=2):
    """xw [T, B, gates * units], the initial states [B, units], the recurrent kernel."""
    rng = np.random.default_rng(9 + gates)
    return ([rng.normal(size=(steps, batch, gates * units))]
            + [rng.normal(size=(batch, units)) for _ in range(states)]
            + [rng.uniform(-0.7, 0.7, size=(units, gates * units))])


@pytest.mark.parametrize("name,fn,args", [
    ("lstm", lambda xw, h, c, u: rnn.lstm_sequence(xw, h, c, u, mask=MASK[:, :3].T),
     _sequence_args(4, 2)),
    ("gru", lambda xw, h, u, b: rnn.gru_sequence(xw, h, u, b, mask=MASK[:, :3].T),
     _sequence_args(3, 1) + [np.linspace(-0.5, 0.5, 6)]),
    ("gru_reset_before", lambda xw, h, u: rnn.gru_sequence(
        xw, h, u, reset_after=False, zero_output_for_mask=True, mask=MASK[:, 1:].T),
     _sequence_args(3, 1))])
def test_fused_ops_differentiate_to_third_order(name, fn, args):
    """Reverse and forward mode, each over the other, three levels deep (the op table checks
    two)."""
    fn.__name__ = name
    check_grads(fn, args, order=3, modes=("rev", "fwd"), rtol=1e-4, atol=1e-5, eps=1e-5)


def test_higher_derivatives_need_a_known_number_of_steps():
    with tf.Graph().as_default():
        xw = tf.compat.v1.placeholder(tf.float64, [None, 2, 8])
        h = tf.constant(np.zeros((2, 2)))
        seq, _, _ = rnn.lstm_sequence(xw, h, h, tf.constant(np.ones((2, 8)) * 0.1))
        (g,) = tf.gradients(tf.reduce_sum(seq * seq), [xw])  # first order: the fused kernel
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="LSTMSequence.*number of time steps.*static length"):
            tf.gradients(tf.reduce_sum(g * g), [xw])


@pytest.mark.parametrize("gates,states", [(4, 2), (3, 1)])
def test_traced_plans_free_the_input_the_gradient_kernel_does_not_read(gates, states):
    """LSTMSequenceGrad and GRUSequenceGrad take xw only for their own derivatives (OpDef
    `unread`): a compiled plan hands their kernel None there, so xw dies after the forward op;
    first and second derivatives in the traced function equal the eager ones."""
    xw, *rest = (tf.constant(a) for a in _sequence_args(gates, states))
    fused = rnn.lstm_sequence if gates == 4 else rnn.gru_sequence

    def derivatives(xw, *rest):
        with tf.GradientTape() as outer:
            outer.watch(xw)
            with tf.GradientTape() as inner:
                inner.watch(xw)
                loss = tf.reduce_sum(fused(xw, *rest)[0] ** 2)
            g = inner.gradient(loss, xw)
            total = tf.reduce_sum(g * g)
        return g, outer.gradient(total, xw)

    traced = tf.function(derivatives)
    for got, want in zip(traced(xw, *rest), derivatives(xw, *rest)):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-10, atol=1e-12)
    source = traced.get_concrete_function(xw, *rest)._plan.source
    grad_lines = [line for line in source.splitlines() if line.endswith("SequenceGrad")]
    assert grad_lines, source
    for line in grad_lines:  # the first argument is the plan's None constant, not a slot
        first = line.split("(", 1)[1].split(",", 1)[0]
        assert first.startswith("c"), line
