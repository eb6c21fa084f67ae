"""tf.saved_model.save writes control flow in TensorFlow's form: a `cond` becomes an If node
whose branches are functions of the library, a `while_loop` (and an AutoGraph `for` over
`tf.range`) a While node with a loop counter and maximum first, as TensorFlow 2.21 writes them;
a variable read or assigned inside passes its handle in. TensorFlow loads wengert's directory
and its answers equal wengert's (stored in tests/references/ for runs without TensorFlow)."""
import os

import numpy as np

import wengert as tf
from keras_tf_eval import tf_eval_saved_model as _tf
from wengert.framework.protos.meta_graph import SavedModel

REQUIRE = tf.saved_model.SaveOptions(experimental_tensorflow_format=True)


class Flow(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable(2.0, name="v")
        self.calls = tf.Variable(0, name="calls")

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def branch(self, x):
        return tf.cond(tf.reduce_sum(x) > 0.0, lambda: x * self.v, lambda: -x + 1.0)

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def loop(self, x):
        i, y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * x),
                             (tf.constant(0), x), maximum_iterations=5)
        j, z = tf.while_loop(lambda j, z: z < 100.0, lambda j, z: (j + 1, z * 2.0 + x),
                             (tf.constant(0), x))
        return {"i": i, "y": y, "j": j, "z": z}

    @tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
    def autograph(self, n):
        total = tf.constant(0.0)
        for i in tf.range(n):
            total += tf.cast(i, tf.float32) * self.v
        return total

    @tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
    def nested(self, n):
        total = tf.constant(0.0)
        for i in tf.range(n):
            if i % 2 == 0:
                total += tf.cast(i, tf.float32) * self.v
                self.calls.assign_add(1)
            else:
                total -= 1.0
        return total


def _save(tmp_path):
    path = str(tmp_path / "flow")
    module = Flow()
    tf.saved_model.save(module, path, options=REQUIRE)
    return path, module


def test_tensorflow_runs_a_cond(tmp_path, monkeypatch):
    path, module = _save(tmp_path)
    x = np.array([1.0, -0.5, 2.0], np.float32)
    got = _tf(path, """
out["pos"] = loaded.branch(tf.constant(A["x"])).numpy()
out["neg"] = loaded.branch(tf.constant(-A["x"])).numpy()
""", monkeypatch, {"x": x})
    np.testing.assert_allclose(got["pos"], module.branch(x).numpy(), rtol=1e-6)
    np.testing.assert_allclose(got["neg"], module.branch(-x).numpy(), rtol=1e-6)
    np.testing.assert_allclose(got["pos"], x * 2.0, rtol=1e-6)
    np.testing.assert_allclose(got["neg"], x + 1.0, rtol=1e-6)


def test_tensorflow_runs_while_loops(tmp_path, monkeypatch):
    path, module = _save(tmp_path)
    got = _tf(path, """
for name, x in (("a", 2.0), ("b", 0.5)):
    res = loaded.loop(tf.constant(x))
    for key in sorted(res):
        out[name + key] = res[key].numpy()
out["auto"] = loaded.autograph(tf.constant(5)).numpy()
out["auto0"] = loaded.autograph(tf.constant(0)).numpy()
""", monkeypatch, {})
    for name, x in (("a", 2.0), ("b", 0.5)):
        want = module.loop(tf.constant(x))
        for key in want:
            np.testing.assert_allclose(got[name + key], want[key].numpy(), rtol=1e-6)
    assert int(got["ai"]) == 3 and float(got["ay"]) == 16.0
    assert float(got["auto"]) == float(module.autograph(tf.constant(5))) == 20.0
    assert float(got["auto0"]) == 0.0


def test_a_cond_inside_a_loop_body_reads_and_assigns_variables(tmp_path, monkeypatch):
    path, module = _save(tmp_path)
    got = _tf(path, """
out["seven"] = loaded.nested(tf.constant(7)).numpy()
out["calls"] = loaded.calls.numpy()
out["four"] = loaded.nested(tf.constant(4)).numpy()
out["calls_after"] = loaded.calls.numpy()
""", monkeypatch, {})
    assert float(got["seven"]) == float(module.nested(tf.constant(7))) == 21.0
    assert int(got["calls"]) == 4 and int(got["calls_after"]) == 6
    assert float(got["four"]) == float(module.nested(tf.constant(4)))


def test_branches_and_loop_bodies_are_library_functions(tmp_path):
    path, _ = _save(tmp_path)
    with open(os.path.join(path, "saved_model.pb"), "rb") as f:
        library = SavedModel.FromString(f.read()).meta_graphs[0].graph_def.library
    functions = {f.signature.name: f for f in library.function}
    nodes = [n for f in library.function for n in f.node_def]
    ifs = [n for n in nodes if n.op == "If"]
    whiles = [n for n in nodes if n.op == "While"]
    assert ifs and whiles
    for node in ifs:
        assert {"Tcond", "Tin", "Tout", "then_branch", "else_branch", "output_shapes"} <= set(
            node.attr)
        assert node.attr["then_branch"].func.name in functions
        assert node.attr["else_branch"].func.name in functions
    for node in whiles:
        body = functions[node.attr["body"].func.name]
        assert node.attr["cond"].func.name in functions
        assert len(body.signature.input_arg) == len(node.attr["T"].list.type) == len(node.input)
        assert node.attr["parallel_iterations"].i == 10


def _recurrent(steps=5):
    keras = tf.keras
    keras.backend.clear_session()
    model = keras.Sequential([keras.Input((steps, 3)), keras.layers.LSTM(4, return_sequences=True),
                              keras.layers.GRU(3), keras.layers.Dense(2)])
    rng = np.random.default_rng(3)
    model.set_weights([rng.normal(size=w.shape).astype(np.float32) * 0.5
                       for w in model.get_weights()])
    return model


def test_tensorflow_runs_a_keras_lstm_and_gru(tmp_path, monkeypatch):
    model = _recurrent()
    x = np.random.default_rng(4).normal(size=(2, 5, 3)).astype(np.float32)
    tf.saved_model.save(model, str(tmp_path / "saved"), options=REQUIRE)
    model.export(str(tmp_path / "export"))
    got = _tf(str(tmp_path / "saved"), """
out["call"] = loaded(tf.constant(A["x"])).numpy()
exported = tf.saved_model.load(os.environ["WENGERT_TEST_EXPORT"])
out["serve"] = exported.serve(tf.constant(A["x"])).numpy()
""", _with_export(monkeypatch, str(tmp_path / "export")), {"x": x})
    want = model(x).numpy()
    np.testing.assert_allclose(got["call"], want, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got["serve"], want, rtol=1e-5, atol=1e-6)


def _with_export(monkeypatch, path):
    monkeypatch.setenv("WENGERT_TEST_EXPORT", path)
    return monkeypatch


def test_a_sequence_of_unknown_length_runs_as_a_while_loop(tmp_path, monkeypatch):
    model = _recurrent(steps=None)
    x = np.random.default_rng(5).normal(size=(2, 6, 3)).astype(np.float32)
    tf.saved_model.save(model, str(tmp_path / "saved"), options=REQUIRE)
    got = _tf(str(tmp_path / "saved"), """
out["six"] = loaded(tf.constant(A["x"])).numpy()
out["two"] = loaded(tf.constant(A["x"][:, :2])).numpy()
""", monkeypatch, {"x": x})
    np.testing.assert_allclose(got["six"], model(x).numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got["two"], model(x[:, :2]).numpy(), rtol=1e-5, atol=1e-6)
    with open(os.path.join(str(tmp_path / "saved"), "saved_model.pb"), "rb") as f:
        library = SavedModel.FromString(f.read()).meta_graphs[0].graph_def.library
    assert sum(n.op == "While" for f in library.function for n in f.node_def) >= 2


def test_a_masked_lstm_converts_when_its_length_is_known(tmp_path, monkeypatch):
    keras = tf.keras
    keras.backend.clear_session()
    model = keras.Sequential([keras.Input((5, 3)), keras.layers.Masking(0.0),
                              keras.layers.LSTM(4)])
    rng = np.random.default_rng(6)
    model.set_weights([rng.normal(size=w.shape).astype(np.float32) * 0.5
                       for w in model.get_weights()])
    x = np.random.default_rng(1).normal(size=(2, 5, 3)).astype(np.float32)
    x[0, 3:] = 0.0
    tf.saved_model.save(model, str(tmp_path / "saved"), options=REQUIRE)
    got = _tf(str(tmp_path / "saved"), 'out["y"] = loaded(tf.constant(A["x"])).numpy()\n',
              monkeypatch, {"x": x})
    np.testing.assert_allclose(got["y"], model(x).numpy(), rtol=1e-5, atol=1e-6)


def test_a_masked_sequence_of_unknown_length_runs_as_a_while_loop(tmp_path, monkeypatch):
    """Embedding(mask_zero=True) -> LSTM(return_sequences) -> GRU over padded token ids of any
    length: the loop keeps the states and repeats the last output on padded steps."""
    keras = tf.keras
    keras.backend.clear_session()
    model = keras.Sequential([keras.Input((None,), dtype="int32"),
                              keras.layers.Embedding(12, 3, mask_zero=True),
                              keras.layers.LSTM(4, return_sequences=True), keras.layers.GRU(3)])
    rng = np.random.default_rng(7)
    model.set_weights([rng.normal(size=w.shape).astype(np.float32) * 0.5
                       for w in model.get_weights()])
    ids = np.array([[3, 4, 5, 0, 0, 0], [1, 2, 3, 4, 5, 6], [7, 0, 0, 0, 0, 0]], np.int32)
    tf.saved_model.save(model, str(tmp_path / "saved"), options=REQUIRE)
    got = _tf(str(tmp_path / "saved"), """
out["six"] = loaded(tf.constant(A["ids"])).numpy()
out["three"] = loaded(tf.constant(A["ids"][:, :3])).numpy()
""", monkeypatch, {"ids": ids})
    np.testing.assert_allclose(got["six"], model(ids).numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got["three"], model(ids[:, :3]).numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got["six"][0], got["three"][0], rtol=1e-5, atol=1e-6)


class Cases(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable(3.0)

    @tf.function(input_signature=[tf.TensorSpec([], tf.int32), tf.TensorSpec([2], tf.float32)])
    def switch(self, i, x):
        return tf.switch_case(i, [lambda: x * self.v, lambda: x + 1.0, lambda: -x])

    @tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
    def grow(self, n):
        return tf.while_loop(
            lambda i, s: i < n,
            lambda i, s: (i + 1, tf.concat([s, [tf.cast(i, tf.float32)]], 0)),
            (0, tf.zeros([0])), shape_invariants=(tf.TensorShape([]), tf.TensorShape([None])))[1]


def test_switch_case_and_a_loop_whose_variable_grows(tmp_path, monkeypatch):
    module = Cases()
    tf.saved_model.save(module, str(tmp_path / "saved"), options=REQUIRE)
    got = _tf(str(tmp_path / "saved"), """
x = tf.constant([1.0, 2.0])
for k in range(4):
    out[f"switch{k}"] = loaded.switch(tf.constant(k), x).numpy()
out["grow"] = loaded.grow(tf.constant(4)).numpy()
""", monkeypatch, {})
    x = tf.constant([1.0, 2.0])
    for k in range(4):  # an index out of range runs the last branch, as in TensorFlow
        np.testing.assert_allclose(got[f"switch{k}"], module.switch(tf.constant(k), x).numpy())
    np.testing.assert_array_equal(got["grow"], [0.0, 1.0, 2.0, 3.0])
