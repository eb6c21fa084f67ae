"""tf.saved_model.save writes TensorFlow's SavedModel (saved_model.pb, variables/ with
TensorFlow's object graph) beside wengert's own files: TensorFlow 2.21 loads it, its signatures
and restored functions give wengert's outputs (answers stored in tests/references/ for runs
without TensorFlow), the files decode with the project's protobuf codec, and wengert's own load
keeps reading the directory. An op with no TensorFlow form is a clear error when TensorFlow's
format is required, and otherwise leaves wengert's format alone."""
import os
import subprocess
import warnings

import numpy as np
import pytest

import wengert as tf
from keras_tf_eval import SAVED_MODEL_VARIABLE as DIR_VARIABLE, tf_eval
from keras_tf_eval import tf_eval_saved_model as _tf
from tf_reference import tf_python
from wengert.framework.errors import UnimplementedError
from wengert.framework.protos.meta_graph import SavedModel
from wengert.framework.protos.trackable_object_graph import TrackableObjectGraph

X = np.array([[1.0, -2.0, 0.5], [0.25, 3.0, -1.0]], np.float32)
X4 = np.linspace(-1.0, 1.0, 8, dtype=np.float32).reshape(2, 4)


class Scale(tf.Module):
    def __init__(self):
        super().__init__()
        self.s = tf.Variable(2.0, name="s")


class Dense(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], name="w")
        self.b = tf.Variable([0.5, -0.5], name="b")
        self.scale = Scale()

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def __call__(self, x):
        return tf.nn.relu(tf.matmul(x, self.w) + self.b)

    @tf.function(input_signature=[])
    def get_w(self):
        return self.w

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32),
                                  tf.TensorSpec([], tf.float32, name="factor")])
    def scaled(self, x, k):
        return {"y": self(x) * k * self.scale.s, "k": k}


def _mlp():
    keras = tf.keras
    keras.backend.clear_session()  # its input is "input_layer" whatever other tests made first
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(5, activation="relu"),
                              keras.layers.Dense(3, activation="softmax")])
    rng = np.random.default_rng(7)
    model.set_weights([rng.normal(size=w.shape).astype(np.float32) for w in model.get_weights()])
    return model


@pytest.fixture(scope="module")
def module_dir(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("module"))
    module = Dense()
    tf.saved_model.save(module, path, signatures={"serving_default": module.__call__})
    return path, module


@pytest.fixture(scope="module")
def mlp_dir(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("mlp"))
    model = _mlp()
    tf.saved_model.save(model, path)
    return path, model


def _meta(path):
    with open(os.path.join(path, "saved_model.pb"), "rb") as f:
        return SavedModel.FromString(f.read()).meta_graphs[0]


# -- TensorFlow loads wengert's files ---------------------------------------------------------------
def test_tensorflow_runs_the_module_signatures_and_functions(module_dir, monkeypatch):
    path, module = module_dir
    got = _tf(path, """
x = tf.constant(A["x"])
out["serving"] = loaded.signatures["serving_default"](x=x)["output_0"].numpy()
out["call"] = loaded(x).numpy()
out["get_w"] = loaded.get_w().numpy()
scaled = loaded.scaled(x, tf.constant(3.0))
out["scaled_y"], out["scaled_k"] = scaled["y"].numpy(), scaled["k"].numpy()
out["keys"] = np.array(sorted(loaded.signatures))
out["inputs"] = np.array(sorted(loaded.signatures["serving_default"]
                                .structured_input_signature[1]))
""", monkeypatch, {"x": X})
    want = module(X).numpy()
    np.testing.assert_allclose(got["serving"], want, rtol=1e-6)
    np.testing.assert_allclose(got["call"], want, rtol=1e-6)
    np.testing.assert_array_equal(got["get_w"], module.get_w().numpy())
    scaled = module.scaled(X, tf.constant(3.0))
    np.testing.assert_allclose(got["scaled_y"], scaled["y"].numpy(), rtol=1e-6)
    assert float(got["scaled_k"]) == 3.0
    assert got["keys"].tolist() == ["serving_default"] and got["inputs"].tolist() == ["x"]


def test_tensorflow_runs_a_keras_mlp(mlp_dir, monkeypatch):
    path, model = mlp_dir
    got = _tf(path, """
x = tf.constant(A["x"])
sig = loaded.signatures["serving_default"]
(name,) = sig.structured_input_signature[1]
out["serving"] = sig(**{name: x})["output_0"].numpy()
out["call"] = loaded(x).numpy()
out["name"] = np.array(name)
""", monkeypatch, {"x": X4})
    want = model(X4).numpy()
    np.testing.assert_allclose(got["serving"], want, rtol=1e-5)
    np.testing.assert_allclose(got["call"], want, rtol=1e-5)
    assert [str(got["name"])] == list(_meta(path).signature_def["serving_default"].inputs)


class Counter(tf.Module):
    def __init__(self):
        super().__init__()
        self.count = tf.Variable(1.0, name="count")

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32, name="by")])
    def increment(self, by):
        return self.count.assign_add(by) * 10.0


def test_tensorflow_runs_a_function_that_assigns(tmp_path, monkeypatch):
    tf.saved_model.save(Counter(), str(tmp_path))
    got = _tf(str(tmp_path), """
first = loaded.increment(tf.constant(2.0)).numpy()
out["calls"] = np.array([first, loaded.signatures["serving_default"](by=tf.constant(0.5))
                         ["output_0"].numpy()])
""", monkeypatch, {})
    counter = Counter()
    want = [counter.increment(tf.constant(2.0)).numpy(), counter.increment(0.5).numpy()]
    np.testing.assert_allclose(got["calls"], want)


@tf.custom_gradient
def clipped_gradient(x):
    def grad(dy):
        return tf.clip_by_value(dy, -0.1, 0.1)
    return tf.identity(x) * 1.0, grad


class Inner(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable([1.0, 2.0, 3.0], name="v")

    @tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
    def f(self, x):
        return x * self.v


class Outer(tf.Module):
    def __init__(self):
        super().__init__()
        self.inner = Inner()

    @tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
    def __call__(self, x):
        return clipped_gradient(self.inner.f(x)) + tf.reduce_sum(x)


def test_custom_gradients_and_nested_functions_save_their_forward(tmp_path, monkeypatch):
    module = Outer()
    x = np.array([1.0, -2.0, 3.0], np.float32)
    options = tf.saved_model.SaveOptions(experimental_tensorflow_format=True)
    tf.saved_model.save(module, str(tmp_path), options=options)
    got = _tf(str(tmp_path), """
x = tf.constant(A["x"])
out["call"], out["inner"] = loaded(x).numpy(), loaded.inner.f(x).numpy()
""", monkeypatch, {"x": x})
    np.testing.assert_allclose(got["call"], module(x).numpy())
    np.testing.assert_allclose(got["inner"], module.inner.f(x).numpy())
    loaded = tf.saved_model.load(str(tmp_path))
    np.testing.assert_allclose(loaded(x).numpy(), module(x).numpy())


def test_tensorflow_runs_a_keras_cnn_with_batch_norm(tmp_path, monkeypatch):
    keras = tf.keras
    model = keras.Sequential([
        keras.Input((8, 8, 2)), keras.layers.Conv2D(4, 3, activation="relu", padding="same"),
        keras.layers.BatchNormalization(), keras.layers.MaxPooling2D(), keras.layers.Flatten(),
        keras.layers.Dropout(0.1), keras.layers.Dense(3, activation="softmax")])
    rng = np.random.default_rng(1)
    model.set_weights([rng.normal(size=w.shape).astype(np.float32) * 0.5 +
                       (1.0 if "variance" in w.name else 0.0) for w in model.weights])
    x = rng.normal(size=(2, 8, 8, 2)).astype(np.float32)
    options = tf.saved_model.SaveOptions(experimental_tensorflow_format=True)
    tf.saved_model.save(model, str(tmp_path), options=options)
    got = _tf(str(tmp_path), 'out["y"] = loaded(tf.constant(A["x"])).numpy()\n',
              monkeypatch, {"x": x})
    np.testing.assert_allclose(got["y"], model(x).numpy(), rtol=1e-5, atol=1e-6)


class Splits(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([4, 6], tf.float32)])
    def f(self, x):
        a, b, c = tf.split(x, 3, axis=1)
        a = a + tf.split(x, [2, 1, 3], axis=1)[1]
        return tf.concat([c, a * b, a], axis=1) + tf.reduce_mean(x, axis=0), tf.unstack(x)[3]


def test_list_outputs_are_named_within_their_argument(tmp_path, monkeypatch):
    module, x = Splits(), np.arange(24, dtype=np.float32).reshape(4, 6)
    options = tf.saved_model.SaveOptions(experimental_tensorflow_format=True)
    tf.saved_model.save(module, str(tmp_path), options=options)
    fdef = _meta(str(tmp_path)).graph_def.library.function[0]
    inputs = {i for node in fdef.node_def for i in node.input}
    assert {"split:output:0", "split:output:2", "split_1:output:1", "unstack:output:3"} <= inputs
    got = _tf(str(tmp_path), """
first, second = loaded.f(tf.constant(A["x"]))
out["first"], out["second"] = first.numpy(), second.numpy()
""", monkeypatch, {"x": x})
    want = module.f(x)
    np.testing.assert_array_equal(got["first"], want[0].numpy())
    np.testing.assert_array_equal(got["second"], want[1].numpy())


def test_tensorflow_runs_a_keras_export(tmp_path, monkeypatch):
    model = _mlp()
    model.export(str(tmp_path / "export"), verbose=False)
    got = _tf(str(tmp_path / "export"), """
x = tf.constant(A["x"])
out["serve"] = loaded.serve(x).numpy()
out["keys"] = np.array(sorted(loaded.signatures))
""", monkeypatch, {"x": X4})
    np.testing.assert_allclose(got["serve"], model(X4).numpy(), rtol=1e-5)
    assert "serve" in got["keys"].tolist()


def test_tensorflow_1_loads_it_into_a_session(module_dir, monkeypatch):
    path, module = module_dir
    monkeypatch.setenv(DIR_VARIABLE, path)
    got = tf_eval(f"""
with tf.Graph().as_default(), tf.compat.v1.Session() as sess:
    meta = tf.compat.v1.saved_model.load(sess, ["serve"], os.environ[{DIR_VARIABLE!r}])
    sig = meta.signature_def["serving_default"]
    out["y"] = sess.run(sig.outputs["output_0"].name, {{sig.inputs["x"].name: A["x"]}})
""", {"x": X})
    np.testing.assert_allclose(got["y"], module(X).numpy(), rtol=1e-6)


def test_saved_model_cli_shows_and_runs_the_directory(module_dir, tmp_path):
    cli = os.path.join(os.path.dirname(tf_python() or "/nonexistent"), "saved_model_cli")
    if not os.path.exists(cli):
        pytest.skip("TensorFlow's saved_model_cli is not installed")
    done = subprocess.run([cli, "show", "--dir", module_dir[0], "--all"], capture_output=True,
                          text=True, env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "inputs['x'] tensor_info" in done.stdout and "Function Name: 'scaled'" in done.stdout
    np.save(tmp_path / "x.npy", X)
    done = subprocess.run([cli, "run", "--dir", module_dir[0], "--tag_set", "serve",
                           "--signature_def", "serving_default", "--inputs",
                           f"x={tmp_path / 'x.npy'}", "--outdir", str(tmp_path / "out")],
                          capture_output=True, text=True,
                          env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
    assert done.returncode == 0, done.stderr[-2000:]
    np.testing.assert_allclose(np.load(tmp_path / "out" / "output_0.npy"),
                               module_dir[1](X).numpy(), rtol=1e-6)


# -- the files, read with the project's codec ------------------------------------------------------
def test_saved_model_pb_holds_tensorflows_structure(module_dir):
    path, _ = module_dir
    meta = _meta(path)
    assert list(meta.meta_info_def.tags) == ["serve"]
    serving = meta.signature_def["serving_default"]
    assert list(serving.inputs) == ["x"] and list(serving.outputs) == ["output_0"]
    assert serving.method_name == "tensorflow/serving/predict"
    graph = meta.object_graph_def
    root = {c.local_name: c.node_id for c in graph.nodes[0].children}
    assert {"w", "b", "scale", "__call__", "get_w", "scaled", "signatures"} <= set(root)
    assert graph.nodes[root["w"]].variable.name == "w"
    assert graph.nodes[root["signatures"]].user_object.identifier == "signature_map"
    scaled = graph.nodes[root["scaled"]].function
    concrete = graph.concrete_functions[scaled.concrete_functions[0]]
    scale = {c.local_name: c.node_id for c in graph.nodes[root["scale"]].children}
    assert list(concrete.bound_inputs) == [root["w"], root["b"], scale["s"]]
    args = concrete.canonicalized_input_signature.tuple_value.values[0].tuple_value.values
    assert [a.tensor_spec_value.name for a in args] == ["x", "factor"]
    assert sorted(concrete.output_signature.dict_value.fields) == ["k", "y"]
    library = {f.signature.name: f for f in meta.graph_def.library.function}
    fdef = library[scaled.concrete_functions[0]]
    assert [a.name for a in fdef.signature.input_arg][:2] == ["x", "factor"]
    assert [a.type for a in fdef.signature.input_arg][2:] == [20, 20, 20]  # DT_RESOURCE
    assert all(":" in i or i in {a.name for a in fdef.signature.input_arg} or i[0] == "^"
               for node in fdef.node_def for i in node.input)
    with open(os.path.join(path, "saved_model.pb"), "rb") as f:
        raw = f.read()
    assert SavedModel.FromString(raw).SerializeToString() == raw


def test_a_keras_models_call_binds_training_by_its_default(mlp_dir):
    """model(x) and model(x, training=False) share one trace; the FunctionSpec keeps the
    Python parameters and default, so a restored `loaded(x)` binds training=False as TF does."""
    graph = _meta(mlp_dir[0]).object_graph_def
    root = {c.local_name: c.node_id for c in graph.nodes[0].children}
    call = graph.nodes[root["__call__"]].function
    assert len(call.concrete_functions) == 1
    spec = call.function_spec.fullargspec.named_tuple_value.values
    assert [v.string_value for v in spec[0].value.list_value.values] == ["inputs", "training"]
    assert [v.bool_value for v in spec[3].value.tuple_value.values] == [False]


def test_variables_carry_tensorflows_object_graph(module_dir):
    path, module = module_dir
    reader = tf.train.load_checkpoint(os.path.join(path, "variables", "variables"))
    np.testing.assert_array_equal(reader.get_tensor("w/.ATTRIBUTES/VARIABLE_VALUE"),
                                  module.w.numpy())
    assert float(reader.get_tensor("scale/s/.ATTRIBUTES/VARIABLE_VALUE")) == 2.0
    graph = TrackableObjectGraph.FromString(reader.get_tensor("_CHECKPOINTABLE_OBJECT_GRAPH")
                                            .item())
    saved = _meta(path).object_graph_def
    assert len(graph.nodes) == len(saved.nodes)
    for ours, theirs in zip(graph.nodes, saved.nodes):
        assert [(c.node_id, c.local_name) for c in ours.children] == \
            [(c.node_id, c.local_name) for c in theirs.children]


def test_wengert_still_loads_what_it_wrote(module_dir, mlp_dir):
    path, module = module_dir
    loaded = tf.saved_model.load(path)
    np.testing.assert_allclose(loaded.signatures["serving_default"](x=X)["output_0"].numpy(),
                               module(X).numpy(), rtol=1e-6)
    np.testing.assert_array_equal(loaded.get_w().numpy(), module.w.numpy())
    path, model = mlp_dir
    loaded = tf.saved_model.load(path)
    np.testing.assert_allclose(loaded(X4).numpy(), model(X4).numpy(), rtol=1e-6)


# -- ops without a TensorFlow form ------------------------------------------------------------------
class Unconvertible(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
    def f(self, x):  # (a logsumexp over an input of unknown rank has no TensorFlow form here)
        return tf.cond(tf.size(x) > 0, lambda: tf.reduce_logsumexp(x), lambda: -2.0)


def test_required_tensorflow_format_names_the_op_before_writing(tmp_path):
    path = str(tmp_path / "out")
    options = tf.saved_model.SaveOptions(experimental_tensorflow_format=True)
    with pytest.raises(UnimplementedError, match=r"op 'ReduceLogSumExp' of type ReduceLogSumExp "
                                                  r"in function 'cond_true_fn' has no TensorFlow "
                                                  r"form here \(the rank"):
        tf.saved_model.save(Unconvertible(), path, options=options)
    assert not os.path.exists(path)


def test_default_falls_back_to_wengerts_format_with_a_warning(tmp_path):
    path = str(tmp_path / "out")
    with pytest.warns(UserWarning, match="type ReduceLogSumExp"):
        tf.saved_model.save(Unconvertible(), path)
    assert sorted(os.listdir(path)) == ["assets", "saved_model.json", "variables"]
    np.testing.assert_allclose(float(tf.saved_model.load(path).f(tf.constant([0.0, 0.0]))),
                               np.log(2.0), rtol=1e-6)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tf.saved_model.save(Dense(), path,
                            options=tf.saved_model.SaveOptions(
                                experimental_tensorflow_format=False))
    assert not os.path.exists(os.path.join(path, "saved_model.pb"))
