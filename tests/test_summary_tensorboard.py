"""Event files read back by TensorBoard itself: its event loader and accumulator give the written
scalars, histograms, images, text, audio and graphs, and the real `tensorboard` server lists the
scalar tags over HTTP. Skips without the `tensorboard` package (`pip install wengert[tensorboard]`).
"""
import io
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
import wave

import numpy as np
import pytest

import wengert as tf
from wengert.summary import encoders

pytest.importorskip("tensorboard")
from tensorboard.backend.event_processing import event_accumulator  # noqa: E402
from tensorboard.compat.proto import config_pb2, graph_pb2  # noqa: E402
from tensorboard.util import tensor_util  # noqa: E402


def accumulate(logdir):
    acc = event_accumulator.EventAccumulator(str(logdir), size_guidance={"tensors": 0})
    acc.Reload()
    return acc


def values(acc, tag):
    return [(e.step, tensor_util.make_ndarray(e.tensor_proto)) for e in acc.Tensors(tag)]


def plugin(acc, tag):
    return acc.SummaryMetadata(tag).plugin_data.plugin_name


def test_every_summary_kind_reads_back(tmp_path):
    rng = np.random.default_rng(0)
    data = rng.normal(size=1000)
    images = rng.uniform(size=(3, 4, 5, 3)).astype(np.float32)
    clip = np.sin(np.linspace(0, 20, 400))[None, :, None].astype(np.float32) * 0.5
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default(step=2):
        tf.summary.scalar("loss", 0.5, description="training loss")
        tf.summary.scalar("loss", tf.constant(0.25), step=3)
        tf.summary.histogram("weights", tf.constant(data), buckets=20)
        tf.summary.image("pictures", images, max_outputs=2)
        tf.summary.text("notes", "**bold** words")
        tf.summary.audio("sound", clip, 8000)
    writer.close()
    acc = accumulate(tmp_path)
    assert acc.file_version == 2.0

    assert [(s, float(v)) for s, v in values(acc, "loss")] == [(2, 0.5), (3, 0.25)]
    assert plugin(acc, "loss") == "scalars"
    assert acc.SummaryMetadata("loss").summary_description == "training loss"

    ((step, hist),) = values(acc, "weights")
    assert plugin(acc, "weights") == "histograms"
    np.testing.assert_array_equal(hist, encoders.histogram_buckets(data, 20))
    assert hist[:, 2].sum() == 1000

    ((_, strings),) = values(acc, "pictures")
    assert plugin(acc, "pictures") == "images"
    assert list(strings[:2]) == [b"5", b"4"] and len(strings) == 4
    image_module = pytest.importorskip("PIL.Image")
    for png, want in zip(strings[2:], encoders.to_uint8_images(images)):
        np.testing.assert_array_equal(np.asarray(image_module.open(io.BytesIO(png))), want)

    ((_, text),) = values(acc, "notes")
    assert plugin(acc, "notes") == "text" and text.item() == b"**bold** words"

    ((_, sound),) = values(acc, "sound")
    assert plugin(acc, "sound") == "audio" and sound.shape == (1, 2)
    with wave.open(io.BytesIO(sound[0, 0])) as w:
        assert w.getframerate() == 8000 and w.getnframes() == 400


def test_trace_export_writes_the_function_graph(tmp_path):
    @tf.function
    def f(x, w):
        return tf.nn.relu(tf.matmul(x, w) + 1.0)

    writer = tf.summary.create_file_writer(str(tmp_path))
    tf.summary.trace_on(graph=True)
    f(tf.ones((2, 3)), tf.ones((3, 4)))
    with writer.as_default():
        tf.summary.trace_export("trace", step=0)
    writer.close()
    acc = accumulate(tmp_path)
    assert plugin(acc, "trace") == "graph_run_metadata_graph"
    ((_, blob),) = values(acc, "trace")
    run_metadata = config_pb2.RunMetadata.FromString(blob.item())
    graph = run_metadata.function_graphs[0].pre_optimization_graph
    ops = {node.op for node in graph.node}
    assert {"Placeholder", "MatMul", "AddV2", "Relu", "Identity"} <= ops
    matmul = next(n for n in graph.node if n.op == "MatMul")
    assert list(matmul.input) == ["x", "w"]  # named after the parameters, as in TensorFlow
    assert [d.size for d in matmul.attr["_output_shapes"].list.shape[0].dim] == [2, 4]


def test_file_writer_graph_is_what_the_graph_dashboard_reads(tmp_path):
    with tf.Graph().as_default() as g:
        x = tf.compat.v1.placeholder(tf.float32, [None, 3], name="x")
        w = tf.Variable(np.ones((3, 2), np.float32), name="w")
        y = tf.nn.softmax(tf.matmul(x, w), name="probs")
        tf.gradients(tf.reduce_sum(y), [w])
    writer = tf.compat.v1.summary.FileWriter(str(tmp_path), g)
    writer.close()
    graph = accumulate(tmp_path).Graph()
    assert isinstance(graph, graph_pb2.GraphDef)
    nodes = {n.name: n for n in graph.node}
    assert nodes["x"].op == "Placeholder" and nodes["w"].op == "VarHandleOp"
    assert [d.size for d in nodes["x"].attr["shape"].shape.dim] == [-1, 3]
    assert nodes["probs"].op == "Softmax"
    assert any(name.startswith("gradients/") for name in nodes)


def test_keras_callback_writes_train_and_validation_runs(tmp_path):
    rng = np.random.default_rng(1)
    x = rng.normal(size=(64, 4)).astype(np.float32)
    y = (x.sum(axis=1) > 0).astype(np.int64)
    model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu", input_shape=(4,)),
                                 tf.keras.layers.Dense(2)])
    model.compile("adam", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    board = tf.keras.callbacks.TensorBoard(str(tmp_path), histogram_freq=1, update_freq=2)
    history = model.fit(x, y, epochs=3, batch_size=16, validation_split=0.25, verbose=0,
                        callbacks=[board])
    train, val = accumulate(tmp_path / "train"), accumulate(tmp_path / "validation")
    for name in ("loss", "accuracy"):
        got = [(s, float(v)) for s, v in values(train, f"epoch_{name}")]
        assert got == [(i, pytest.approx(v)) for i, v in enumerate(history.history[name])]
        got = [(s, float(v)) for s, v in values(val, f"epoch_{name}")]
        assert got == [(i, pytest.approx(v)) for i, v in
                       enumerate(history.history[f"val_{name}"])]
    assert [s for s, _ in values(train, "batch_loss")] == [2, 4, 6, 8]  # 3 batches x 3 epochs
    assert "epoch_learning_rate" in train.Tags()["tensors"]
    kernel = model.weights[0].path  # sequential/dense/kernel (names count up per process)
    assert f"{kernel}/histogram" in train.Tags()["tensors"]
    assert train.Tags()["graph"] and not val.Tags()["graph"]
    assert "MatMul" in {n.op for n in train.Graph().node}


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_tensorboard_server_lists_the_scalar_tags(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path / "run1"))
    with writer.as_default():
        for step in range(5):
            tf.summary.scalar("loss", 1.0 / (step + 1), step=step)
    writer.close()
    port = _free_port()
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    server = subprocess.Popen(
        [sys.executable, "-m", "tensorboard.main", "--logdir", str(tmp_path), "--host",
         "127.0.0.1", "--port", str(port), "--load_fast", "false", "--reload_interval", "1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    try:
        tags, deadline = None, time.time() + 90
        while time.time() < deadline:
            try:
                url = f"http://127.0.0.1:{port}/data/plugin/scalars/tags"
                with urllib.request.urlopen(url, timeout=5) as response:
                    tags = json.load(response)
                if tags.get("run1"):
                    break
            except OSError:
                pass
            if server.poll() is not None:
                pytest.fail(f"tensorboard exited with code {server.returncode}")
            time.sleep(0.5)
        assert tags is not None and "loss" in tags.get("run1", {}), tags
        url = f"http://127.0.0.1:{port}/data/plugin/scalars/scalars?run=run1&tag=loss"
        with urllib.request.urlopen(url, timeout=5) as response:
            points = json.load(response)
        assert [p[1] for p in points] == [0, 1, 2, 3, 4]
        assert points[-1][2] == pytest.approx(0.2)
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
