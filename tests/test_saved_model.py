"""tf.saved_model.save / load: round trips into a fresh Python process that does not have the
classes that built the objects (outputs and gradients equal), signatures called by keyword,
restored functions that pick the matching trace, stateful functions, Keras models through
keras.models.save_model / load_model, and crafted directories that fail without running code."""
import json
import os
import pathlib
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import wengert as tf
from wengert.framework.variables import variable_op_name

ROOT = pathlib.Path(__file__).resolve().parents[1]
RNG = np.random.default_rng(0)


def run_fresh(script, export_dir, inputs):
    """Run `script` in a new interpreter with `loaded` (tf.saved_model.load(export_dir)) and
    `inputs` (a dict of arrays) defined; it sets `results` (a dict of arrays)."""
    inputs_file = os.path.join(export_dir, "..", "inputs.npz")
    results_file = os.path.join(export_dir, "..", "results.npz")
    np.savez(inputs_file, **inputs)
    program = textwrap.dedent("""
        import sys, numpy as np
        sys.path.insert(0, {root!r})
        import wengert as tf
        inputs = dict(np.load({inputs!r}))
        loaded = tf.saved_model.load({export!r})
        results = {{}}
    """).format(root=str(ROOT), inputs=inputs_file, export=export_dir)
    program += textwrap.dedent(script) + f"\nnp.savez({results_file!r}, **results)\n"
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          timeout=300, cwd=str(export_dir))
    assert done.returncode == 0, done.stderr[-3000:]
    return dict(np.load(results_file))


class Dense(tf.Module):
    def __init__(self, n_in, n_out, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(RNG.normal(size=(n_in, n_out)).astype(np.float32), name="w")
        self.b = tf.Variable(np.zeros(n_out, np.float32), name="b")

    def __call__(self, x):
        return tf.matmul(x, self.w) + self.b


class Net(tf.Module):
    def __init__(self):
        super().__init__()
        self.layers = [Dense(3, 8), Dense(8, 2)]
        self.scale = tf.Variable(1.5, trainable=False)
        self.calls = tf.Variable(0, dtype=tf.int64, trainable=False)

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x")])
    def __call__(self, x):
        return self.layers[1](tf.tanh(self.layers[0](x))) * self.scale

    @tf.function
    def both(self, x, training=False):
        y = self(x)
        return {"logits": y, "probs": tf.nn.softmax(y if not training else y * 2.0)}

    @tf.function(input_signature=[])
    def count(self):
        self.calls.assign_add(1)
        return self.calls.read_value()


def test_module_round_trip_in_a_fresh_process(tmp_path):
    net = Net()
    x = RNG.normal(size=(5, 3)).astype(np.float32)
    net.both(tf.constant(x))
    net.both(tf.constant(x), training=True)
    export = str(tmp_path / "net")
    tf.saved_model.save(net, export, signatures=net.__call__)
    with tf.GradientTape(persistent=True) as tape:
        tx = tf.constant(x)
        tape.watch(tx)
        y = tf.reduce_sum(net(tx) ** 2)
    want_dx = tape.gradient(y, tx).numpy()
    want_dw = tape.gradient(y, net.layers[0].w).numpy()
    results = run_fresh("""
        x = tf.constant(inputs["x"])
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = tf.reduce_sum(loaded(x) ** 2)
        results["y"] = loaded(x).numpy()
        results["dx"] = tape.gradient(y, x).numpy()
        results["dw"] = tape.gradient(y, loaded.layers[0].w).numpy()
        results["serving"] = loaded.signatures["serving_default"](x=inputs["x"])["output_0"].numpy()
        out = loaded.both(x)
        results["probs"] = out["probs"].numpy()
        results["probs_training"] = loaded.both(x, training=True)["probs"].numpy()
        results["counts"] = np.array([int(loaded.count()), int(loaded.count())])
        results["n_trainable"] = np.array(len(loaded.trainable_variables))
        results["n_variables"] = np.array(len(loaded.variables))
        assert type(loaded).__name__ != "Net"
    """, export, {"x": x})
    np.testing.assert_allclose(results["y"], net(x).numpy(), rtol=1e-6)
    np.testing.assert_allclose(results["serving"], net(x).numpy(), rtol=1e-6)
    np.testing.assert_allclose(results["dx"], want_dx, rtol=1e-5)
    np.testing.assert_allclose(results["dw"], want_dw, rtol=1e-5)
    np.testing.assert_allclose(results["probs"], net.both(tf.constant(x))["probs"].numpy(),
                               rtol=1e-6)
    np.testing.assert_allclose(results["probs_training"],
                               net.both(tf.constant(x), training=True)["probs"].numpy(),
                               rtol=1e-6)
    assert list(results["counts"]) == [1, 2]  # the restored counter starts at the saved 0
    assert int(results["n_trainable"]) == 4 and int(results["n_variables"]) == 6


def test_keras_model_round_trip_through_save_model(tmp_path):
    model = tf.keras.Sequential([
        tf.keras.layers.Conv2D(4, 3, activation="relu", input_shape=(8, 8, 1)),
        tf.keras.layers.BatchNormalization(), tf.keras.layers.MaxPooling2D(),
        tf.keras.layers.Flatten(), tf.keras.layers.Dropout(0.3), tf.keras.layers.Dense(3)])
    model.compile("adam", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    x = RNG.normal(size=(16, 8, 8, 1)).astype(np.float32)
    model.fit(x, np.arange(16) % 3, epochs=1, verbose=0)
    export = str(tmp_path / "keras")
    tf.keras.models.save_model(model, export)
    kernel = model.layers[-1].kernel
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(model(x, training=False))
    want = tape.gradient(loss, kernel).numpy()
    results = run_fresh("""
        model = tf.keras.models.load_model({export!r})
        results["y"] = model(inputs["x"]).numpy()
        results["y2"] = model(inputs["x"], training=False).numpy()
        results["sig"] = model.signatures["serving_default"](inputs=inputs["x"])["output_0"].numpy()
        from wengert.framework.variables import variable_op_name
        kernel = [v for v in model.trainable_variables if variable_op_name(v) == {name!r}][0]
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(model(inputs["x"]))
        results["grad"] = tape.gradient(loss, kernel).numpy()
    """.format(export=export, name=variable_op_name(kernel)), export, {"x": x})
    expected = model.predict(x, verbose=0)
    for key in ("y", "y2", "sig"):
        np.testing.assert_allclose(results[key], expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(results["grad"], want, rtol=1e-5, atol=1e-6)


def test_plain_function_and_explicit_signatures(tmp_path):
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])

    @tf.function(input_signature=[tf.TensorSpec([None, 2]), tf.TensorSpec([], tf.float32)])
    def f(points, power):
        return tf.reduce_sum(tf.matmul(points, w) ** power, axis=1), points * 2.0

    export = str(tmp_path / "fn")
    tf.saved_model.save(f, export, signatures={"serving_default": f,
                                               "second": f.get_concrete_function()})
    loaded = tf.saved_model.load(export)
    points = np.float32([[1, 0], [0.5, 2]])
    got = loaded(points, 2.0)
    np.testing.assert_allclose(got[0].numpy(), f(points, 2.0)[0].numpy())
    serving = loaded.signatures["serving_default"]
    assert serving.input_names == ["points", "power"]
    out = serving(points=points, power=np.float32(3.0))
    assert sorted(out) == ["output_0", "output_1"]
    np.testing.assert_allclose(out["output_0"].numpy(), f(points, 3.0)[0].numpy())
    with pytest.raises(TypeError, match="too many positional arguments"):
        serving(points, 2.0)  # two inputs: keywords only, as TensorFlow's loaded signatures
    with pytest.raises(TypeError, match="missing"):
        serving(points=points)
    with pytest.raises(TypeError, match="no saved trace matches"):
        loaded(np.ones((2, 3), np.float32), 2.0)
    with tf.GradientTape() as outer:
        p = tf.constant(points)
        outer.watch(p)
        with tf.GradientTape() as inner:
            inner.watch(p)
            y = tf.reduce_sum(loaded(p, 3.0)[0])
        g = inner.gradient(y, p)
        gsum = tf.reduce_sum(g)
    with tf.GradientTape() as outer2:
        p2 = tf.constant(points)
        outer2.watch(p2)
        with tf.GradientTape() as inner2:
            inner2.watch(p2)
            y2 = tf.reduce_sum(f(p2, 3.0)[0])
        g2 = inner2.gradient(y2, p2)
        gsum2 = tf.reduce_sum(g2)
    np.testing.assert_allclose(g.numpy(), g2.numpy(), rtol=1e-6)
    np.testing.assert_allclose(outer.gradient(gsum, p).numpy(),
                               outer2.gradient(gsum2, p2).numpy(), rtol=1e-5)


def test_dict_outputs_name_the_signature_outputs(tmp_path):
    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([3], name="values")])
        def stats(self, v):
            return {"mean": tf.reduce_mean(v), "max": tf.reduce_max(v)}

    export = str(tmp_path / "stats")
    tf.saved_model.save(M(), export)
    signature = tf.saved_model.load(export).signatures["serving_default"]
    out = signature(values=np.float32([1, 2, 6]))
    assert sorted(out) == ["max", "mean"] and float(out["mean"]) == 3.0


def test_unsaveable_ops_are_named(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path / "logs"))

    @tf.function(input_signature=[tf.TensorSpec([])])
    def logged(x):
        with writer.as_default(step=0):
            tf.summary.scalar("x", x)
        return x * 2.0

    with pytest.raises(tf.errors.UnimplementedError, match="WriteSummary"):
        tf.saved_model.save(logged, str(tmp_path / "out"))


# -- directories that are damaged or crafted --------------------------------------------------------
@pytest.fixture
def saved(tmp_path):
    @tf.function(input_signature=[tf.TensorSpec([None])])
    def f(x):
        return x * 3.0 + 1.0
    export = tmp_path / "model"
    tf.saved_model.save(f, str(export))
    return export


def _edit_json(export, change):
    path = export / "saved_model.json"
    document = json.loads(path.read_text())
    change(document)
    path.write_text(json.dumps(document))


def _nodes(document):
    return document["functions"][0]["nodes"]


CRAFTED = {
    "unknown op type": lambda d: _nodes(d)[1].update(op="__import__('os').system"),
    "unknown attribute tag": lambda d: _nodes(d)[0]["attrs"].update(
        dtype={"pickle": "cos\nsystem\n(S'touch PWNED'\ntR."}),
    "dtype name that is code": lambda d: _nodes(d)[0]["attrs"].update(
        dtype={"nptype": "__import__('os').system('touch PWNED')", "as_type": True}),
    "input out of range": lambda d: _nodes(d)[-1].update(inputs=[[99, 0]]),
    "signature out of range": lambda d: d["signatures"]["serving_default"].update(function=7),
    "not the format": lambda d: d.update(format="pickle"),
}


@pytest.mark.parametrize("case", sorted(CRAFTED))
def test_crafted_json_fails_without_running_code(saved, case, monkeypatch):
    monkeypatch.chdir(saved)
    _edit_json(saved, CRAFTED[case])
    with pytest.raises(tf.errors.DataLossError):
        tf.saved_model.load(str(saved))
    assert not (saved / "PWNED").exists()


def test_pickles_in_the_directory_are_never_read(saved, monkeypatch):
    import pickle

    class Boom:
        def __reduce__(self):
            return (os.system, ("touch PWNED",))
    monkeypatch.chdir(saved)
    (saved / "saved_model.pb").write_bytes(pickle.dumps(Boom()))
    for path in (saved / "variables").iterdir():
        if path.name.endswith(".index"):
            path.write_bytes(pickle.dumps(Boom()))
    with pytest.raises(tf.errors.DataLossError):
        tf.saved_model.load(str(saved))
    os.remove(saved / "saved_model.json")
    with pytest.raises(tf.errors.DataLossError):  # read as TensorFlow's saved_model.pb: no proto
        tf.saved_model.load(str(saved))
    assert not (saved / "PWNED").exists()


def test_truncated_json_and_variables(saved):
    data = next(p for p in (saved / "variables").iterdir() if "data" in p.name)
    data.write_bytes(data.read_bytes()[:-2])
    with pytest.raises(tf.errors.DataLossError):
        tf.saved_model.load(str(saved))
    (saved / "saved_model.json").write_text('{"format": "wengert-saved-model", "vers')
    with pytest.raises(tf.errors.DataLossError, match="not valid JSON"):
        tf.saved_model.load(str(saved))


def test_control_flow_round_trips_and_differentiates(tmp_path):
    w = tf.Variable(0.5)

    @tf.function(input_signature=[tf.TensorSpec([]), tf.TensorSpec([], tf.int32)])
    def f(x, n):
        y = tf.cond(x > 0.0, lambda: x * w, lambda: tf.cond(x < -1.0, lambda: -x,
                                                              lambda: x * x))
        _, z = tf.while_loop(lambda i, z: i < n, lambda i, z: (i + 1, z * 1.5 + y),
                             [tf.constant(0), y])
        return z

    export = str(tmp_path / "flow")
    tf.saved_model.save(f, export)
    assert '"subgraphs":[{' in open(os.path.join(export, "saved_model.json")).read()
    loaded = tf.saved_model.load(export)
    for x in (2.0, -0.5, -3.0):
        x = tf.constant(x)
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            got, want = loaded(x, tf.constant(3)), f(x, tf.constant(3))
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)
        np.testing.assert_allclose(tape.gradient(got, x).numpy(),
                                   tape.gradient(want, x).numpy(), rtol=1e-6)
        np.testing.assert_allclose(tape.gradient(got, loaded._captured_variables[0]).numpy(),
                                   tape.gradient(want, w).numpy(), rtol=1e-6)


class _Shift(tf.Module):
    @tf.function
    def shift(self, x, y=1, *, z=3):
        return x + y + z


def test_defaults_are_bound_before_keying_and_after_loading(tmp_path):
    module = _Shift()
    x = tf.constant([1.0, 2.0])
    for call in (lambda: module.shift(x), lambda: module.shift(x, y=1),
                 lambda: module.shift(x, 1), lambda: module.shift(x, z=3)):
        np.testing.assert_array_equal(call().numpy(), [5.0, 6.0])
    assert module.shift.experimental_get_tracing_count() == 1  # as TensorFlow's
    module.shift(x, 2)
    assert module.shift.experimental_get_tracing_count() == 2
    tf.saved_model.save(module, str(tmp_path / "shift"))
    loaded = tf.saved_model.load(str(tmp_path / "shift"))
    np.testing.assert_array_equal(loaded.shift(x).numpy(), [5.0, 6.0])
    np.testing.assert_array_equal(loaded.shift(x, y=1, z=3).numpy(), [5.0, 6.0])
    np.testing.assert_array_equal(loaded.shift(x, 2).numpy(), [6.0, 7.0])
    with pytest.raises(TypeError, match="no saved trace matches"):
        loaded.shift(x, 5)
