"""TensorLike: the one base of eager tensors, graph tensors, variables and graph variables."""
import numpy as np
import pytest

import wengert as tf
from wengert.framework.tensor import TensorLike, array_of, is_eager_tensor
from wengert.graph.symbolic import SymbolicTensor
from wengert.graph.variables import GraphVariable


def _four():
    eager, variable = tf.constant([[1.0, 2.0]]), tf.Variable([[1.0, 2.0]])
    with tf.Graph().as_default():
        symbolic = tf.compat.v1.placeholder(tf.float32, [None, 2])
        graph_variable = tf.Variable(np.ones((1, 2), np.float32))
    return eager, variable, symbolic, graph_variable


def test_all_four_share_one_base():
    eager, variable, symbolic, graph_variable = _four()
    assert isinstance(symbolic, SymbolicTensor) and isinstance(graph_variable, GraphVariable)
    for x in (eager, variable, symbolic, graph_variable):
        assert isinstance(x, TensorLike)
        assert x.get_shape() == x.shape and x.ndim == 2
        assert x.device == eager.device
        assert x.ref().deref() is x
    assert eager.graph is None and variable.graph is None
    assert symbolic.graph is graph_variable.graph is not None


def test_operators_come_from_the_base():
    eager, variable, symbolic, graph_variable = _four()
    for cls in (type(eager), type(variable), type(symbolic), type(graph_variable)):
        for name in ("__truediv__", "__rpow__", "__matmul__", "__lt__", "__getitem__",
                     "__neg__", "__abs__", "__invert__"):
            assert getattr(cls, name) is not getattr(object, name, None), (cls, name)
    np.testing.assert_allclose((variable @ tf.transpose(eager)).numpy(), [[5.0]])
    np.testing.assert_allclose(abs(-variable).numpy(), [[1.0, 2.0]])
    assert variable[0, 1].numpy() == 2.0


def test_equality_is_elementwise_and_hashing_goes_through_ref():
    eager, variable, _, _ = _four()
    np.testing.assert_array_equal((variable == eager).numpy(), [[True, True]])
    for x in (eager, variable):
        with pytest.raises(TypeError):
            hash(x)
        assert {x.ref(): 1}[x.ref()] == 1


def test_eager_predicate_and_array_accessor():
    eager, variable, symbolic, graph_variable = _four()
    assert is_eager_tensor(eager)
    for x in (variable, symbolic, graph_variable, np.ones(2), 1.0, None):
        assert not is_eager_tensor(x)
    np.testing.assert_array_equal(array_of(eager), [[1.0, 2.0]])
    assert array_of(eager) is array_of(eager)  # the array itself, not a copy
    with tf.GradientTape() as tape:
        np.testing.assert_array_equal(array_of(variable), [[1.0, 2.0]])
    assert tape.watched_variables() == ()  # no read was recorded
    variable.assign([[3.0, 4.0]])
    np.testing.assert_array_equal(array_of(variable), [[3.0, 4.0]])  # the current value
    for x in (symbolic, graph_variable, 1.0, np.ones(2)):
        assert array_of(x) is None
