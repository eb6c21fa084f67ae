"""Op-table rows for control flow (wengert/control_flow/cond.py).

Eagerly cond/while_loop run plain Python, so each row calls them inside a traced `function`: then
the If/Case/While ops are built, and the checks (run under tapes) execute them op by op, so their
gradient rules are checked to second order. The loop's history reads are checked directly.
"""
import numpy as np

import wengert as tf
from wengert.framework.execute import execute
from wengert.control_flow import cond as cf, while_op
from wengert.control_flow.while_loop import while_loop
from op_table import OpInfo, Sample, rand


@tf.function
def _cond(x, y):
    return cf.cond(tf.reduce_sum(x) > 0, lambda: x * y + tf.sin(x), lambda: x * x - y)


def _ref_cond(x, y):
    return x * y + np.sin(x) if np.sum(x) > 0 else x * x - y


@tf.function
def _switch(x):
    index = tf.cast(tf.reduce_sum(x) > 0, tf.int32) + 1
    return cf.switch_case(index, [lambda: x, lambda: x * x, lambda: tf.exp(x) * 0.5])


def _ref_switch(x):
    return np.exp(x) * 0.5 if np.sum(x) > 0 else x * x


@tf.function
def _loop(x, w):
    _, y = while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, tf.tanh(y * w) + x),
                         (tf.constant(0), x))
    return y


def _ref_loop(x, w):
    y = x
    for _ in range(3):
        y = np.tanh(y * w) + x
    return y


def _history_get(stack):
    return execute(while_op.HISTORY_GET, (stack, tf.constant(1, tf.int32)))


def _history_scatter(grad, like):
    return execute(while_op.HISTORY_SCATTER, (grad, like, tf.constant(2, tf.int32)))


def _ref_scatter(grad, like):
    out = np.zeros_like(like)
    out[2] = grad
    return out


_POS = np.array([0.5, 1.2, -0.3])
_NEG = np.array([-0.5, -1.2, 0.3])

ROWS = [
    OpInfo("cond", _cond, _ref_cond,
           [Sample((_POS, rand(3)), name="true"), Sample((_NEG, rand(3)), name="false")]),
    OpInfo("switch_case", _switch, _ref_switch,
           [Sample((_POS,), name="last"), Sample((_NEG,), name="middle")]),
    OpInfo("while_loop", _loop, _ref_loop, [Sample((rand(3), rand(3)))]),
    OpInfo("while_history_get", _history_get, lambda s: s[1], [Sample((rand(4, 3),))]),
    OpInfo("while_history_scatter", _history_scatter, _ref_scatter,
           [Sample((rand(3), rand(4, 3)), wrt=[0])]),
]
