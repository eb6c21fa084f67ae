"""TensorFlow 1's SavedModel writer (saved_model.Builder, simple_save) and SignatureDef builders:
signatures byte-identical to TensorFlow 2.21's (literals below), SavedModels that
tf.compat.v1.saved_model.load reads back into a Session, and TensorFlow's errors."""
import os

import numpy as np
import pytest

import wengert as tf
from wengert.saved_model.tf1_loader import read_saved_model

v1 = tf.compat.v1
sm = v1.saved_model

# TensorFlow 2.21's serialized SignatureDefs (deterministic) for the graph of _graph().
_CLASSIFY = (b"\n'\n\x06inputs\x12\x1d\n\nexamples:0\x10\x07\x1a\r\x12\x0b\x08\xff"
             b'\xff\xff\xff\xff\xff\xff\xff\xff\x01\x12+\n\x07classes\x12 \n\tclass'
             b'es:0\x10\x07\x1a\x11\x12\x0b\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff'
             b'\x01\x12\x02\x08\x02\x12$\n\x06scores\x12\x1a\n\x03y:0\x10\x01\x1a'
             b'\x11\x12\x0b\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01\x12\x02\x08'
             b'\x02\x1a\x1btensorflow/serving/classify')
_REGRESS = (b"\n'\n\x06inputs\x12\x1d\n\nexamples:0\x10\x07\x1a\r\x12\x0b\x08\xff"
            b'\xff\xff\xff\xff\xff\xff\xff\xff\x01\x12!\n\x07outputs\x12\x16\n\x03r'
            b':0\x10\x01\x1a\r\x12\x0b\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01'
            b'\x1a\x1atensorflow/serving/regress')
_PREDICT = (b'\n\x1f\n\x01x\x12\x1a\n\x03x:0\x10\x01\x1a\x11\x12\x0b\x08\xff\xff'
            b'\xff\xff\xff\xff\xff\xff\xff\x01\x12\x02\x08\x02\x12\x1f\n\x01y\x12'
            b'\x1a\n\x03y:0\x10\x01\x1a\x11\x12\x0b\x08\xff\xff\xff\xff\xff\xff\xff'
            b'\xff\xff\x01\x12\x02\x08\x02\x1a\x1atensorflow/serving/predict')
_BUILT = (b'\n\x1f\n\x01x\x12\x1a\n\x03x:0\x10\x01\x1a\x11\x12\x0b\x08\xff\xff\xff'
          b'\xff\xff\xff\xff\xff\xff\x01\x12\x02\x08\x02\x1a\x01m"\x17\n\x01k\x12'
          b'\x12\x08\x01\x12\x04\x12\x02\x08\x02"\x08\x00\x00\x80?\x00\x00\x00@')


def _graph():
    x = v1.placeholder(tf.float32, [None, 2], name="x")
    s = v1.placeholder(tf.string, [None], name="examples")
    y = tf.identity(x * 2.0, name="y")
    c = tf.strings.as_string(y, name="classes")
    r = tf.reduce_sum(y, 1, name="r")
    return x, s, y, c, r


def test_signature_defs_match_tensorflows_bytes():
    with tf.Graph().as_default():
        x, s, y, c, r = _graph()
        assert sm.signature_def_utils.classification_signature_def(s, c, y) \
            .SerializeToString() == _CLASSIFY
        assert sm.regression_signature_def(s, r).SerializeToString() == _REGRESS
        assert sm.predict_signature_def({"x": x}, {"y": y}).SerializeToString() == _PREDICT
        built = sm.build_signature_def({"x": sm.utils.build_tensor_info(x)}, None, "m",
                                       {"k": tf.constant([1.0, 2.0])})
        assert built.SerializeToString() == _BUILT
        assert [sm.is_valid_signature(d) for d in (
            sm.predict_signature_def({"x": x}, {"y": y}), sm.regression_signature_def(s, r),
            sm.build_signature_def({"inputs": sm.utils.build_tensor_info(x)},
                                   {"outputs": sm.utils.build_tensor_info(r)},
                                   "tensorflow/serving/regress"),
            sm.build_signature_def(None, None, "x"))] == [True, True, False, False]
        assert sm.utils.get_tensor_from_tensor_info(sm.utils.build_tensor_info(y)) is y


def test_signature_errors_are_tensorflows():
    with tf.Graph().as_default():
        x, s, y, c, r = _graph()
        for call, message in (
                (lambda: sm.regression_signature_def(x, r),
                 "Regression input tensors must be of type string. Found tensors with type 1."),
                (lambda: sm.classification_signature_def(s, None, None),
                 "Classification `classes` and `scores` cannot both be None."),
                (lambda: sm.predict_signature_def({}, {"y": y}),
                 "Prediction `inputs` cannot be None or empty."),
                (lambda: sm.classification_signature_def(s, y, None),
                 "Classification classes must be of type string Tensor.")):
            with pytest.raises(ValueError) as err:
                call()
            assert str(err.value).startswith(message)


def _model():
    x = v1.placeholder(tf.float32, [None, 2], name="x")
    with v1.variable_scope("layer"):
        w = v1.get_variable("w", [2, 1], initializer=v1.constant_initializer([[1.0], [2.0]]))
        b = v1.get_variable("b", [1])
    return x, b, tf.add(tf.matmul(x, w), b, name="y")


def _load_and_run(export_dir, tags, key, feed):
    with tf.Graph().as_default(), v1.Session() as sess:
        meta = sm.load(sess, tags, export_dir)
        signature = meta.signature_def[key]
        name = next(iter(signature.inputs.values())).name
        return sess.run(next(iter(signature.outputs.values())).name, {name: feed}), meta


def test_simple_save_round_trips_through_the_loader(tmp_path):
    export = str(tmp_path / "model")
    with tf.Graph().as_default():
        x, b, y = _model()
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(b.assign([0.5]))
            sm.simple_save(sess, export, {"x": x}, {"y": y})
    assert sorted(os.listdir(export)) == ["saved_model.pb", "variables"]
    out, meta = _load_and_run(export, ["serve"], "serving_default", [[1.0, 1.0], [2.0, 0.0]])
    np.testing.assert_allclose(out, [[3.5], [2.5]])
    assert list(meta.meta_info_def.tags) == ["serve"]
    assert meta.signature_def["serving_default"].method_name == "tensorflow/serving/predict"
    updater = sm.signature_def_utils.MethodNameUpdater(export)
    with pytest.raises(ValueError, match="does not have a signature_def with key: 'other'"):
        updater.replace_method_name("other", "m")
    with pytest.raises(ValueError, match="could not be found"):
        updater.replace_method_name("serving_default", "m", tags="train")
    updater.replace_method_name("serving_default", "tensorflow/serving/regress", tags="serve")
    updater.save(str(tmp_path / "renamed"))
    renamed = read_saved_model(str(tmp_path / "renamed"))
    assert renamed.meta_graphs[0].signature_def["serving_default"].method_name == \
        "tensorflow/serving/regress"


def test_builder_writes_two_meta_graphs_and_runs_the_main_op(tmp_path):
    export = str(tmp_path / "model")
    builder = sm.builder.SavedModelBuilder(export)
    with tf.Graph().as_default():
        x, b, y = _model()
        counter = v1.get_variable("counter", [], initializer=v1.zeros_initializer(),
                                  collections=[v1.GraphKeys.LOCAL_VARIABLES])
        main_op = tf.group(v1.local_variables_initializer(), v1.assign_add(counter, 7.0))
        signature = sm.predict_signature_def({"x": x}, {"y": y})
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            sess.run(b.assign([0.0]))
            with pytest.raises(AssertionError, match="has not been saved yet"):
                builder.add_meta_graph(["eval"])
            builder.add_meta_graph_and_variables(sess, ["train"], {"predict": signature},
                                                 main_op=main_op, strip_default_attrs=True)
            with pytest.raises(AssertionError, match="already been saved"):
                builder.add_meta_graph_and_variables(sess, ["train"])
            builder.add_meta_graph(["serve", "gpu"], {"predict": signature})
    assert builder.save(as_text=False).endswith("saved_model.pb")
    out, _ = _load_and_run(export, ["gpu", "serve"], "predict", [[1.0, 2.0]])
    np.testing.assert_allclose(out, [[5.0]])
    with tf.Graph().as_default(), v1.Session() as sess:
        sm.loader.load(sess, ["train"], export)
        assert sess.run("counter/read:0") == 7.0
        with pytest.raises(RuntimeError, match="could not be found"):
            sm.load(sess, ["missing"], export)


def test_builder_refuses_what_tensorflow_refuses(tmp_path):
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "file").write_text("x")
    with pytest.raises(AssertionError, match="already exists, and isn't empty"):
        sm.Builder(str(tmp_path / "full"))
    builder = sm.Builder(str(tmp_path / "empty"))
    with tf.Graph().as_default():
        _model()
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            with pytest.raises(TypeError, match="SignatureDef"):
                builder.add_meta_graph_and_variables(sess, ["serve"], {"bad": {"x": 1}})
    assert builder.save(as_text=True).endswith("saved_model.pbtxt")
