"""The options of TensorFlow's loops and branches, honoured as TensorFlow 2.21 honours them
(each expectation below is what TensorFlow 2.21 gives for the same call):

- back_prop=False stops the gradient at the outputs of while_loop, map_fn, scan, foldl and
  foldr built in a function (TensorFlow's gradient: None) and changes nothing eagerly;
- parallel_iterations must be a positive integer (TypeError; map_fn reads 0 as its default);
- infer_shape=True makes map_fn's and scan's results of different shapes a ValueError before
  stacking (with False, the stack's InvalidArgumentError);
- name scopes the ops built; case's strict keeps a branch's one-element list eagerly;
- vectorized_map's warn logs TensorFlow's warning when an op falls back to a loop.
"""
import logging

import pytest

import wengert as tf
import wengert.compat.v1 as v1

XS = [1.0, 2.0, 3.0]
LOOPS = {
    "while_loop": lambda x, **kw: tf.while_loop(lambda v: v < 100., lambda v: [v * v],
                                                [x[1]], **kw),
    "map_fn": lambda x, **kw: tf.map_fn(lambda e: e * e, x, **kw),
    "scan": lambda x, **kw: tf.scan(lambda a, e: a * e, x, **kw),
    "foldl": lambda x, **kw: tf.foldl(lambda a, e: a * e, x, **kw),
    "foldr": lambda x, **kw: tf.foldr(lambda a, e: a * e, x, **kw),
}
# TensorFlow 2.21's eager gradients of the sums of the outputs above at XS, back_prop=False
EAGER_GRADIENTS = {"while_loop": [0., 1024., 0.], "map_fn": [2., 4., 6.], "scan": [9., 4., 2.],
                   "foldl": [6., 3., 2.], "foldr": [6., 3., 2.]}


def _gradient(loop, **kw):
    x = tf.constant(XS)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = LOOPS[loop](x, **kw)
    return tape.gradient(y, x)


@pytest.mark.parametrize("loop", sorted(LOOPS))
def test_back_prop_false_stops_the_gradient_in_a_function(loop):
    assert tf.function(lambda: _gradient(loop, back_prop=False))() is None
    assert tf.function(lambda: _gradient(loop))() is not None


@pytest.mark.parametrize("loop", sorted(LOOPS))
def test_back_prop_false_changes_nothing_eagerly(loop):
    assert _gradient(loop, back_prop=False).numpy().tolist() == EAGER_GRADIENTS[loop]


@pytest.mark.parametrize("loop", sorted(LOOPS))
@pytest.mark.parametrize("value", [-1, 0])
def test_parallel_iterations_must_be_positive(loop, value):
    if loop == "map_fn" and value == 0:  # map_fn reads 0 as "its default"
        assert LOOPS[loop](tf.constant(XS), parallel_iterations=0).numpy().tolist() == [1, 4, 9]
        return
    with pytest.raises(TypeError, match=f"{loop}: 'parallel_iterations' must be a positive"):
        LOOPS[loop](tf.constant(XS), parallel_iterations=value)


@pytest.mark.parametrize("loop", sorted(LOOPS))
def test_swap_memory_and_parallel_iterations_change_no_result(loop):
    plain = LOOPS[loop](tf.constant(XS))
    other = LOOPS[loop](tf.constant(XS), parallel_iterations=3, swap_memory=True)
    assert tf.nest.flatten(other)[0].numpy().tolist() == tf.nest.flatten(plain)[0].numpy().tolist()


def _ragged(x):
    return tf.range(tf.cast(x, tf.int32))


def test_infer_shape_checks_the_shapes_before_stacking():
    xs = tf.constant(XS)
    with pytest.raises(ValueError, match=r"map_fn: Incompatible shape for value \(\(2,\)\), "
                                         r"expected \(\(1,\)\)"):
        tf.map_fn(_ragged, xs, fn_output_signature=tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.map_fn(_ragged, xs, fn_output_signature=tf.int32, infer_shape=False)
    with pytest.raises(ValueError, match="scan: Incompatible shape"):
        tf.scan(lambda a, e: tf.concat([a, [e]], 0), xs, initializer=tf.constant([0.]))


@pytest.mark.parametrize("call, scope", [
    (lambda x: tf.map_fn(lambda e: e * 2., x, name="foo"), "foo/"),
    (lambda x: tf.map_fn(lambda e: e * 2., x), "map/"),
    (lambda x: tf.scan(lambda a, e: a + e, x, name="foo"), "foo/"),
    (lambda x: tf.foldl(lambda a, e: a + e, x), "foldl/"),
    (lambda x: tf.foldr(lambda a, e: a + e, x, name="foo"), "foo/"),
    (lambda x: tf.case([(x[0] > 0., lambda: x)], default=lambda: -x, name="foo"), "foo/"),
    (lambda x: tf.linalg.experimental.conjugate_gradient(tf.eye(3), x, name="foo"), "foo/"),
])
def test_name_scopes_the_ops_built(call, scope):
    graph = tf.Graph()
    with graph.as_default():
        out = tf.nest.flatten(call(v1.placeholder(tf.float32, [3])))[-1]
    assert out.op.name.startswith(scope), out.op.name


def test_case_strict_keeps_a_one_element_list_eagerly():
    x = tf.constant(1.)
    pairs = [(tf.constant(True), lambda: [x])]
    assert isinstance(tf.case(pairs, default=lambda: [x * 2.]), tf.Tensor)
    kept = tf.case(pairs, default=lambda: [x * 2.], strict=True)
    assert isinstance(kept, list) and len(kept) == 1
    kept = tf.case([(tf.constant(False), lambda: (x,))], default=lambda: (x * 2.,), strict=True)
    assert isinstance(kept, tuple) and float(kept[0]) == 2.


def test_vectorized_map_warns_of_a_fallback_only_when_asked(caplog):
    x = tf.constant([[1., 2.], [3., 4.]])

    def fn(e):
        return tf.py_function(lambda a: a * 2., [e], tf.float32)
    tf.get_logger()
    logger = logging.getLogger("tensorflow")
    logger.addHandler(caplog.handler)
    try:
        tf.vectorized_map(fn, x, warn=False)
        assert not caplog.records
        out = tf.vectorized_map(fn, x)
    finally:
        logger.removeHandler(caplog.handler)
    assert out.numpy().tolist() == [[2., 4.], [6., 8.]]
    assert [r.getMessage() for r in caplog.records] == [
        "Using a while_loop for converting EagerPyFunc cause there is no registered converter "
        "for this op."]
