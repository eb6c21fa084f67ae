"""tf.autograph.to_graph / to_code options as TensorFlow 2.21 reads them: with recursive=False
the functions the converted code calls run unconverted (TensorFlow then raises
OperatorNotAllowedInGraphError for a helper's `if` on a tensor); experimental_optional_features
is one Feature or an iterable of them."""
import pytest

import wengert as tf


def _helper(x):
    if x > 0:
        return x
    return -x


def _f(x):
    return _helper(x) * 2.


def test_to_graph_recursive_false_leaves_called_functions_unconverted():
    deep = tf.function(tf.autograph.to_graph(_f), autograph=False)
    assert float(deep(tf.constant(-3.))) == 6.
    shallow = tf.function(tf.autograph.to_graph(_f, recursive=False), autograph=False)
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
        shallow(tf.constant(-3.))
    assert float(tf.autograph.to_graph(_f, recursive=False)(tf.constant(-3.))) == 6.  # eagerly
    assert float(deep(tf.constant(-3.))) == 6.  # the recursive version is unchanged


def test_optional_features_are_checked():
    feature = tf.autograph.experimental.Feature
    for given in (None, feature.ALL, [feature.LISTS, feature.NAME_SCOPES]):
        assert callable(tf.autograph.to_graph(_f, experimental_optional_features=given))
        assert "def" in tf.autograph.to_code(_f, experimental_optional_features=given)
    with pytest.raises(TypeError):
        tf.autograph.to_graph(_f, experimental_optional_features=3)
    assert tf.autograph.to_code(_f, recursive=False) == tf.autograph.to_code(_f)
