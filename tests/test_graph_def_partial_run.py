"""`Session.partial_run_setup` / `partial_run` (wengert/runtime/partial_run.py): one run given in
steps, with what TensorFlow 2.21's tf.compat.v1.Session gives on CPU for the same calls (its
values and error messages written here): values fed stay fed, values fetched are not computed
again, a handle is done once all its fetches were fetched, and fetches or feeds that setup did
not name are InvalidArgumentErrors."""
import numpy as np
import pytest

import wengert as tf
from wengert.framework.errors import InvalidArgumentError

v1 = tf.compat.v1


@pytest.fixture()
def graph():
    g = tf.Graph()
    with g.as_default():
        a = v1.placeholder(tf.float32, shape=[], name="a")
        b = v1.placeholder(tf.float32, shape=[], name="b")
        c = v1.placeholder(tf.float32, shape=[], name="c")
        r1 = tf.add(a, b, name="r1")
        r2 = tf.multiply(r1, c, name="r2")
    return g, a, b, c, r1, r2


def test_steps_feed_and_fetch_as_tensorflow(graph):
    g, a, b, c, r1, r2 = graph
    with v1.Session(graph=g) as sess:
        h = sess.partial_run_setup([r1, r2], [a, b, c])
        assert isinstance(h, str) and h.startswith("a:0,b:0,c:0->r1:0,r2:0//")
        assert sess.partial_run(h, r1, feed_dict={a: 1, b: 2}) == np.float32(3.0)
        assert sess.partial_run(h, r2, feed_dict={c: 3}) == np.float32(9.0)
        with pytest.raises(InvalidArgumentError, match="Must run 'setup' before performing "
                                                       "partial runs!"):
            sess.partial_run(h, r2, feed_dict={c: 3})
        h = sess.partial_run_setup([r1, r2], [a, b, c])
        assert sess.partial_run(h, [r1, r2], feed_dict={a: 1, b: 2, c: 4}) == [3.0, 12.0]
        h = sess.partial_run_setup({"x": r1, "y": [r2]}, [a, b, c])
        assert sess.partial_run(h, {"x": r1}, feed_dict={a: 1, b: 2}) == {"x": 3.0}
        assert sess.partial_run(h, {"y": [r2]}, feed_dict={c: 2}) == {"y": [6.0]}
        h = sess.partial_run_setup(["r1:0"], ["a:0", "b:0"])
        assert sess.partial_run(h, "r1:0", feed_dict={"a:0": 1.0, "b:0": 2.0}) == 3.0


def test_values_fetched_are_not_computed_again():
    g = tf.Graph()
    with g.as_default():
        scale = v1.placeholder(tf.float32, shape=[], name="scale")
        noise = tf.random.uniform([3], seed=1)
        scaled = noise * scale
        with v1.Session() as sess:
            h = sess.partial_run_setup([noise, scaled], [scale])
            first = sess.partial_run(h, noise)
            np.testing.assert_allclose(sess.partial_run(h, scaled, {scale: 2.0}), first * 2)


def test_fetches_and_feeds_setup_did_not_name_are_errors(graph):
    g, a, b, c, r1, r2 = graph
    with v1.Session(graph=g) as sess:
        h = sess.partial_run_setup([r1], [a, b])
        with pytest.raises(InvalidArgumentError, match="The fetch r2:0 was not specified in "
                                                       "partial_run_setup."):
            sess.partial_run(h, r2, feed_dict={a: 1, b: 2})
        with pytest.raises(InvalidArgumentError, match="The feed c:0 was not specified in "
                                                       "partial_run_setup."):
            sess.partial_run(h, r1, feed_dict={a: 1, b: 2, c: 3})
        with pytest.raises(InvalidArgumentError):
            sess.partial_run(h, r1, feed_dict={a: 1})  # b is not fed yet
        assert sess.partial_run(h, r1, feed_dict={a: 1, b: 2}) == 3.0  # nothing was recorded
        with pytest.raises(InvalidArgumentError, match="Must run 'setup'"):
            sess.partial_run("foo;1", r1, feed_dict={a: 1})
