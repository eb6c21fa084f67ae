"""A saved function that computes gradients (a training step) is written in TensorFlow's form:
wengert's own gradient op types (SquareGrad, ReduceBroadcast, SumToShape, GatherGrad...) and
the other wengert-only ops become compositions of TensorFlow's ops (graph/node_compositions.py).
TensorFlow 2.21 loads the directory and its answers equal wengert's (stored in tests/references/
for runs without TensorFlow); without TensorFlow, wengert's own GraphDef importer runs the
compositions and must give the ops' values."""
import os

import numpy as np
import pytest

import wengert as tf
from keras_tf_eval import tf_eval_saved_model as _tf
from wengert.framework.execute import execute
from wengert.graph.node_compositions import COMPOSITIONS
from wengert.ops.broadcast_ops import SUM_TO_SHAPE, SUM_TO_SHAPE_OF
from wengert.ops.indexing_ops import GATHER_GRAD
from wengert.ops.math_ops import MUL_SUM
from wengert.ops.reduce_ops import REDUCE_BROADCAST
from wengert.ops.unary_ops import SQUARE_GRAD

REQUIRE = tf.saved_model.SaveOptions(experimental_tensorflow_format=True)
X = np.array([[1.0, -2.0], [0.5, 3.0], [-1.5, 0.25]], np.float32)


class Trainer(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[1.0, 2.0], [3.0, -4.0]], name="w")
        self.b = tf.Variable([0.5, -0.5], name="b")
        self.table = tf.Variable(np.arange(12, dtype=np.float32).reshape(4, 3), name="table")

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def train(self, x):
        with tf.GradientTape() as tape:
            h = x @ self.w + self.b
            loss = (tf.reduce_sum(tf.square(tf.nn.relu(h))) + tf.reduce_mean(tf.sigmoid(h))
                    + tf.reduce_sum(tf.sqrt(tf.abs(h) + 1.0)) + tf.reduce_logsumexp(h))
        gw, gb = tape.gradient(loss, [self.w, self.b])
        self.w.assign_sub(0.01 * gw)
        self.b.assign_sub(0.01 * gb)
        return {"loss": loss, "gw": gw, "gb": gb}

    @tf.function(input_signature=[tf.TensorSpec([None], tf.int32),
                                  tf.TensorSpec([None, 3], tf.float32)])
    def embed(self, ids, labels):
        with tf.GradientTape() as tape:
            logits = tf.gather(self.table, ids)
            loss = tf.reduce_sum(tf.nn.sigmoid_cross_entropy_with_logits(labels, logits))
        return {"loss": loss, "grad": tf.convert_to_tensor(tape.gradient(loss, self.table))}

    @tf.function(input_signature=[tf.TensorSpec([2, 3], tf.float32),
                                  tf.TensorSpec([None, 3], tf.float32),
                                  tf.TensorSpec([2, 3], tf.bool), tf.TensorSpec([2, 3], tf.bool)])
    def direct(self, a, rows, p, q):
        return {"square_grad": execute(SQUARE_GRAD, (a, a * 0.5 + 1.0), {}),
                "mul_sum": execute(MUL_SUM, (a, a + 1.0), {}),
                "sum_to_shape": execute(SUM_TO_SHAPE, (a, ), {"shape": (1, 3)}),
                "sum_to_shape_of": execute(SUM_TO_SHAPE_OF, (rows, a[:1]), {}),
                "reduce_broadcast": execute(REDUCE_BROADCAST, (tf.reduce_sum(a, 1), a),
                                            {"axis": (1,)}),
                "gather_grad": execute(GATHER_GRAD, (a, tf.constant([3, 1])),
                                       {"params_shape": (4, 3), "axis": 0, "batch_dims": 0}),
                "logsumexp": tf.reduce_logsumexp(a, axis=0, keepdims=True),
                "xor": tf.math.logical_xor(p, q),
                "eye": tf.eye(2, 3, batch_shape=[2])}


def _arguments():
    a = np.array([[1.0, -2.0, 0.5], [3.0, 0.25, -1.0]], np.float32)
    rows = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], np.float32)
    p = np.array([[True, False, True], [False, False, True]])
    q = np.array([[True, True, False], [False, True, True]])
    ids = np.array([3, 1, 3], np.int32)
    labels = np.array([[0.0, 1.0, 1.0], [1.0, 0.0, 0.5], [0.25, 1.0, 0.0]], np.float32)
    return {"a": a, "rows": rows, "p": p, "q": q, "ids": ids, "labels": labels}


def _save(tmp_path):
    path = str(tmp_path / "trainer")
    module = Trainer()
    tf.saved_model.save(module, path, options=REQUIRE)
    return path, module


def _assert_close(got, want):
    for key, value in want.items():
        np.testing.assert_allclose(got[key], np.asarray(value), rtol=2e-5, atol=1e-6,
                                   err_msg=key)


def test_tensorflow_runs_a_saved_training_step(tmp_path, monkeypatch):
    path, module = _save(tmp_path)
    got = _tf(path, """
first = loaded.train(tf.constant(A["x"]))
second = loaded.train(tf.constant(A["x"]))
for k in ("loss", "gw", "gb"):
    out["first_" + k] = first[k].numpy()
    out["second_" + k] = second[k].numpy()
out["w"] = loaded.w.numpy()
""", monkeypatch, {"x": X})
    for step in ("first", "second"):
        ours = module.train(X)
        _assert_close({k: got[f"{step}_{k}"] for k in ("loss", "gw", "gb")},
                      {k: v.numpy() for k, v in ours.items()})
    np.testing.assert_allclose(got["w"], module.w.numpy(), rtol=1e-5)


def test_tensorflow_runs_the_compositions(tmp_path, monkeypatch):
    path, module = _save(tmp_path)
    args = _arguments()
    got = _tf(path, """
direct = loaded.direct(*[tf.constant(A[k]) for k in ("a", "rows", "p", "q")])
for k, v in direct.items():
    out[k] = v.numpy()
embedded = loaded.embed(tf.constant(A["ids"]), tf.constant(A["labels"]))
out["embed_loss"] = embedded["loss"].numpy()
out["embed_grad"] = embedded["grad"].numpy()
""", monkeypatch, args)
    ours = {k: v.numpy() for k, v in module.direct(args["a"], args["rows"], args["p"],
                                                     args["q"]).items()}
    _assert_close(got, ours)
    embedded = module.embed(args["ids"], args["labels"])
    _assert_close({"loss": got["embed_loss"], "grad": got["embed_grad"]},
                  {k: v.numpy() for k, v in embedded.items()})
    a = args["a"]
    np.testing.assert_allclose(ours["square_grad"], 2 * a * (a * 0.5 + 1.0), rtol=1e-6)
    np.testing.assert_allclose(ours["sum_to_shape_of"], args["rows"].sum(0, keepdims=True))
    np.testing.assert_array_equal(ours["xor"], args["p"] ^ args["q"])


def test_the_compositions_run_in_wengerts_own_graph_importer():
    """Graph.as_graph_def writes the compositions; importing that GraphDef back into wengert
    (no TensorFlow needed) and running it gives the wengert-only ops' own values."""
    args = _arguments()
    module = Trainer()
    concrete = module.direct.get_concrete_function()
    graph_def = concrete.graph.as_graph_def()
    types = {node.op for node in graph_def.node}
    assert not types & {op_def.type for op_def in COMPOSITIONS}
    assert {"UnsortedSegmentSum", "BroadcastTo", "Reshape", "Sum", "LogicalAnd"} <= types
    with tf.Graph().as_default() as graph:
        feeds = {name: tf.compat.v1.placeholder(t.dtype, t.shape, name=name)
                 for name, t in zip(("a", "rows", "p", "q"), concrete.graph.inputs)}
        outputs = [t.name for t in concrete.outputs]
        imported = tf.graph_util.import_graph_def(
            graph_def, input_map={p.name: feeds[n] for p, n in
                                  zip(concrete.graph.inputs[:4], ("a", "rows", "p", "q"))},
            return_elements=outputs, name="")
        with tf.compat.v1.Session(graph=graph) as sess:
            values = sess.run(imported, {feeds[k]: args[k] for k in feeds})
    want = module.direct(args["a"], args["rows"], args["p"], args["q"])
    ordered = tf.nest.flatten(want)
    for got, expected in zip(values, ordered):
        np.testing.assert_allclose(got, expected.numpy(), rtol=1e-6)


def test_a_composition_that_needs_unknown_shapes_is_a_clear_error(tmp_path):
    class Unknown(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
        def f(self, x):
            return tf.reduce_logsumexp(x)

    with pytest.raises(tf.errors.UnimplementedError,
                       match="ReduceLogSumExp.*no TensorFlow form here.*rank"):
        tf.saved_model.save(Unknown(), str(tmp_path / "unknown"), options=REQUIRE)
    assert not os.path.exists(tmp_path / "unknown" / "saved_model.pb")


class KerasTrainer(tf.Module):
    """The on-device training pattern: a Keras model, its optimizer, and `train`/`infer`
    signatures."""

    def __init__(self):
        super().__init__()
        tf.keras.utils.set_random_seed(3)
        keras = tf.keras
        self.model = keras.Sequential([keras.Input((4,)),
                                       keras.layers.Dense(8, activation="relu"),
                                       keras.layers.Dense(3)])
        self.model.compile(optimizer=keras.optimizers.Adam(0.01),
                           loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32),
                                  tf.TensorSpec([None], tf.int32)])
    def train(self, x, y):
        with tf.GradientTape() as tape:
            loss = self.model.loss(y, self.model(x, training=True))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.model.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return {"loss": loss}

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])
    def infer(self, x):
        return {"logits": self.model(x)}


def test_tensorflow_continues_training_a_keras_model_with_adam(tmp_path, monkeypatch):
    x = np.random.default_rng(0).normal(size=(8, 4)).astype("float32")
    y = (np.arange(8) % 3).astype("int32")
    module = KerasTrainer()
    module.train(x, y)
    path = str(tmp_path / "keras_trainer")
    tf.saved_model.save(module, path, options=REQUIRE, signatures={
        "train": module.train.get_concrete_function(),
        "infer": module.infer.get_concrete_function()})
    got = _tf(path, """
train = loaded.signatures["train"]
out["losses"] = np.array([train(x=tf.constant(A["x"]), y=tf.constant(A["y"]))["loss"].numpy()
                          for _ in range(3)])
out["logits"] = loaded.signatures["infer"](x=tf.constant(A["x"]))["logits"].numpy()
""", monkeypatch, {"x": x, "y": y})
    losses = [float(module.train(x, y)["loss"].numpy()) for _ in range(3)]
    np.testing.assert_allclose(got["losses"], losses, rtol=1e-5)
    assert losses[2] < losses[0]
    np.testing.assert_allclose(got["logits"], module.infer(x)["logits"].numpy(), rtol=1e-4,
                               atol=1e-6)


class Dropped(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(np.ones((4, 4), np.float32), name="w")

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])
    def train(self, x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.nn.dropout(x @ self.w, rate=0.5)
            loss = tf.reduce_sum(y)
        dx, dw = tape.gradient(loss, [x, self.w])
        return {"y": y, "dx": dx, "dw": dw}

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])
    def rows(self, x):
        return tf.nn.dropout(x, rate=0.25, noise_shape=[1, 4])


def test_tensorflow_runs_dropout_with_its_own_draws(tmp_path, monkeypatch):
    """Dropout is RandomUniform >= rate, scaled: TensorFlow draws its own numbers, so the test
    checks the structure: every output is 0 or x / (1 - rate), and the gradient is the mask."""
    path = str(tmp_path / "dropped")
    tf.saved_model.save(Dropped(), path, options=REQUIRE)
    x = np.random.default_rng(2).uniform(1.0, 2.0, size=(64, 4)).astype(np.float32)
    got = _tf(path, """
step = loaded.train(tf.constant(A["x"]))
y, dx, dw = (step[k].numpy() for k in ("y", "dx", "dw"))
mask = y / (A["x"] @ np.ones((4, 4), np.float32))
out["mask_values"] = np.unique(np.round(mask, 5))
out["dx_is_the_mask"] = np.allclose(dx, mask @ np.ones((4, 4), np.float32), rtol=1e-5)
out["dw_is_x_times_mask"] = np.allclose(dw, A["x"].T @ mask, rtol=1e-5)
column = loaded.rows(tf.constant(A["x"])).numpy() / A["x"]
out["column_values_ok"] = bool((np.isclose(column, 0) | np.isclose(column, 1 / 0.75)).all())
out["one_draw_per_column"] = bool(np.allclose(column, column[:1], rtol=1e-5))
""", monkeypatch, {"x": x})
    np.testing.assert_allclose(got["mask_values"], [0.0, 2.0])
    assert got["dx_is_the_mask"] and got["dw_is_x_times_mask"] and got["one_draw_per_column"]
    assert got["column_values_ok"]
