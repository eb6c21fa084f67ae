"""tf.compat.v1.train.warm_start: which variables start from the checkpoint (a regex over the
trainable ones, a list of regexes over the global ones, or variables), renamed through
var_name_to_prev_var_name; the values and errors TensorFlow 2.21 gave for the same program."""
import os

import numpy as np
import pytest

import wengert as tf

v1 = tf.compat.v1


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    directory = str(tmp_path_factory.mktemp("warm"))
    with tf.Graph().as_default():
        v1.get_variable("old/a", initializer=np.array([1.0, 2.0], np.float32))
        v1.get_variable("b", initializer=np.float32(3.0))
        v1.get_variable("c", initializer=np.float32(4.0), trainable=False)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            v1.train.Saver().save(sess, os.path.join(directory, "m"))
    return directory


# (vars_to_warm_start, renames) -> (b from the checkpoint, c from it, a from it), as in TF 2.21
@pytest.mark.parametrize("chosen,renames,want", [
    (".*", {"new/a": "old/a"}, (True, False, True)),
    (["b", "c"], None, (True, True, False)),
    ("b", None, (True, False, False)),
    (None, {"new/a": "old/a"}, (True, False, True))])
def test_warm_start_chooses_tensorflows_variables(checkpoint, chosen, renames, want):
    with tf.Graph().as_default():
        a = v1.get_variable("new/a", [2], initializer=v1.zeros_initializer())
        b = v1.get_variable("b", [], initializer=v1.zeros_initializer())
        c = v1.get_variable("c", [], initializer=v1.zeros_initializer(), trainable=False)
        v1.train.warm_start(checkpoint, chosen, var_name_to_prev_var_name=renames)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            got = (sess.run(b) == 3.0, sess.run(c) == 4.0, bool((sess.run(a) == [1, 2]).all()))
    assert got == want


def test_warm_start_errors(checkpoint):
    with tf.Graph().as_default():
        b = v1.get_variable("b", [])
        with pytest.raises(ValueError, match=r"not used: \{'zz'\}.  Perhaps you misspelled"):
            v1.train.warm_start(checkpoint, ".*", var_name_to_prev_var_name={"zz": "b"})
        with pytest.raises(ValueError, match="all `Variable` or all `str`"):
            v1.train.warm_start(checkpoint, [b, "b"])
        with pytest.raises(NotImplementedError, match="vocab"):
            v1.train.warm_start(checkpoint, var_name_to_vocab_info={"b": object()})
        v1.get_variable("missing", [])
        with pytest.raises(ValueError, match="missing"):
            v1.train.warm_start(checkpoint, "missing")
