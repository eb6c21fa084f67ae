"""tf.profiler.experimental: the ops recorded in eager code, tf.function and a Session (names,
types, shapes, dtypes, bytes), Trace steps, the Chrome trace file under TensorBoard's profile
layout, the op table, options, and TensorFlow's errors for start twice / stop without start.
TensorFlow 2.21's own classes and messages (checked in /work/tfvenv) are written as literals."""
import glob
import gzip
import json
import os
import sys
import threading

import numpy as np
import pytest

import wengert as tf
from wengert.framework.context import state
from wengert.profiler import last_events, summary_table

prof = tf.profiler.experimental


@pytest.fixture(autouse=True)
def no_profiler_left():
    yield
    try:
        prof.stop(save=False)
    except tf.errors.UnavailableError:
        pass


def ops_of(events, kind=None):
    return [e for e in events if e[0] != "region" and (kind is None or e[0] == kind)]


def test_eager_ops_are_recorded_with_names_shapes_dtypes_and_bytes(tmp_path):
    x = tf.constant(np.arange(12, dtype=np.float32).reshape(3, 4))
    prof.start(str(tmp_path))
    y = tf.matmul(x, x, transpose_b=True, name="mm")
    z = tf.cast(y, tf.float64, name="to64")
    prof.stop()
    events, _ = last_events()
    mm, cast = ops_of(events, "op")
    assert (mm[1], mm[2]) == ("mm", "MatMul")
    assert mm[7] == ((((3, 4), "float32"), ((3, 4), "float32")), (((3, 3), "float32"),), 36)
    assert (cast[1], cast[2]) == ("to64", "Cast")
    assert cast[7][1:] == ((((3, 3), "float64"),), 72)
    assert mm[5] >= mm[4] and cast[4] >= mm[5]
    np.testing.assert_allclose(z.numpy(), np.arange(12.).reshape(3, 4) @ np.arange(12.).reshape(3, 4).T)


def test_tf_function_kernels_are_recorded(tmp_path):
    @tf.function(autograph=False)
    def f(a):
        return tf.reduce_sum(tf.nn.relu(a * 2.0, name="act"), name="total")

    x = tf.constant(np.array([[-1.0, 2.0]], np.float32))
    f(x)
    prof.start(str(tmp_path))
    out = f(x)
    prof.stop()
    assert float(out) == 4.0
    kernels = {e[1]: e for e in ops_of(last_events()[0], "kernel")}
    assert kernels["act"][2] == "Relu"
    assert kernels["act"][7] == ((((1, 2), "float32"),), (((1, 2), "float32"),), 8)
    assert kernels["total"][2] == "Sum" and kernels["total"][7][1] == (((), "float32"),)


def test_session_kernels_are_recorded_and_values_unchanged(tmp_path):
    g = tf.Graph()
    with g.as_default():
        p = tf.compat.v1.placeholder(tf.float32, [None, 3], name="p")
        w = tf.constant(np.ones((3, 2), np.float32))
        y = tf.nn.softmax(tf.matmul(p, w, name="dense"), name="probs")
    feed = np.arange(6, dtype=np.float32).reshape(2, 3)
    with tf.compat.v1.Session(graph=g) as sess:
        plain = sess.run(y, {p: feed})
        prof.start(str(tmp_path))
        profiled = sess.run(y, {p: feed})
        prof.stop()
        again = sess.run(y, {p: feed})
    np.testing.assert_array_equal(plain, profiled)
    np.testing.assert_array_equal(plain, again)
    kernels = {e[1]: e for e in ops_of(last_events()[0], "kernel")}
    assert kernels["dense"][2] == "MatMul"
    assert kernels["dense"][7][0] == (((2, 3), "float32"), ((3, 2), "float32"))
    assert kernels["probs"][2] == "Softmax" and kernels["probs"][7][2] == 16


def test_trace_steps_group_the_ops(tmp_path):
    x = tf.constant(1.0)
    prof.start(str(tmp_path))
    for step in range(3):
        with prof.Trace("train", step_num=step, _r=1):
            tf.add(x, 1.0, name=f"add{step}")
    tf.multiply(x, 2.0, name="outside")
    prof.stop()
    events, _ = last_events()
    steps = {e[1]: e[6] for e in ops_of(events)}
    assert steps == {"add0": 0, "add1": 1, "add2": 2, "outside": None}
    one_step = summary_table(group_by="name", step=1).splitlines()
    assert [line.split()[0] for line in one_step[1:-1]] == ["add1"]
    regions = [e for e in events if e[0] == "region"]
    assert [(r[1], r[6]) for r in regions] == [("train", 0), ("train", 1), ("train", 2)]
    for region, step in zip(regions, range(3)):
        op = next(e for e in events if e[1] == f"add{step}")
        assert region[4] <= op[4] and op[5] <= region[5]


def test_trace_outside_a_session_records_nothing():
    with prof.Trace("idle", step_num=1) as trace:
        trace.set_metadata(note="x")
        tf.add(1.0, 2.0)


def test_trace_file_is_chrome_trace_json_under_the_profile_plugin_layout(tmp_path):
    prof.start(str(tmp_path))
    with prof.Trace("step", step_num=7, _r=1):
        tf.reduce_mean(tf.ones([4, 5]), name="mean")
    prof.stop()
    files = glob.glob(str(tmp_path / "plugins" / "profile" / "*" / "*.trace.json.gz"))
    assert len(files) == 1 and files[0] == last_events()[1]
    run = os.path.basename(os.path.dirname(files[0]))
    assert len(run.split("_")) == 6 and all(p.isdigit() for p in run.split("_"))
    with gzip.open(files[0], "rt") as f:
        doc = json.load(f)
    assert doc["displayTimeUnit"] == "ns"
    complete = [e for e in doc["traceEvents"] if e["ph"] == "X"]
    for e in complete:
        assert {"name", "ph", "ts", "dur", "pid", "tid", "cat", "args"} <= set(e)
        assert e["dur"] >= 0
    mean = next(e for e in complete if e["name"] == "mean")
    assert mean["args"]["op_type"] == "Mean" and mean["args"]["step_num"] == 7
    assert mean["args"]["input_shapes"].startswith("(4,5)")
    assert mean["args"]["output_dtypes"] == "float32" and mean["args"]["output_bytes"] == 4
    step = next(e for e in complete if e["cat"] == "TraceContext")
    assert step["name"] == "step" and step["ts"] <= mean["ts"]
    meta = {e["name"] for e in doc["traceEvents"] if e["ph"] == "M"}
    assert meta == {"process_name", "thread_name"}


def test_profile_context_manager_and_summary_table(tmp_path):
    x = tf.ones([8, 8])
    with prof.Profile(str(tmp_path)):
        for _ in range(3):
            tf.matmul(x, x)
        tf.add(x, x)
    table = summary_table()
    lines = table.splitlines()
    assert lines[0].split() == ["Op", "Total", "(ms)", "Calls", "Average", "(us)", "Share"]
    rows = {line.split()[0]: line.split() for line in lines[1:-1]}
    assert rows["MatMul"][2] == "3" and rows["AddV2"][2] == "1"
    shares = [float(r[4].rstrip("%")) for r in rows.values()]
    assert abs(sum(shares) - 100.0) < 0.5
    totals = [float(r[1]) for r in rows.values()]
    assert totals == sorted(totals, reverse=True)
    assert lines[-1].split()[-1] == str(sum(int(r[2]) for r in rows.values()))
    assert "MatMul" in summary_table(group_by="name") or "MatMul_" in summary_table(group_by="name")
    with pytest.raises(ValueError, match="group_by"):
        summary_table(group_by="device")


def test_start_twice_and_stop_without_start_raise_as_tensorflow(tmp_path):
    with pytest.raises(tf.errors.UnavailableError,
                       match="Cannot export profiling results. No profiler is running."):
        prof.stop()
    prof.start(str(tmp_path))
    with pytest.raises(tf.errors.AlreadyExistsError, match="Another profiler is running."):
        prof.start(str(tmp_path))
    prof.stop()


def test_nothing_is_recorded_when_off(tmp_path):
    prof.start(str(tmp_path))
    prof.stop()
    tf.add(1.0, 2.0)
    assert last_events()[0] == []
    assert state.profiler is None
    assert tf.profiler.experimental.start is prof.start


def test_options_levels_and_delay(tmp_path):
    opts = prof.ProfilerOptions(host_tracer_level=1, python_tracer_level=0,
                                device_tracer_level=1)
    assert prof.ProfilerOptions() == (2, 0, 1, None)
    prof.start(str(tmp_path), options=opts)
    with prof.Trace("only", step_num=0):
        tf.add(1.0, 2.0)
    prof.stop()
    assert [e[0] for e in last_events()[0]] == ["region"]
    prof.start(str(tmp_path), options=prof.ProfilerOptions(delay_ms=60_000))
    tf.add(1.0, 2.0)
    prof.stop()
    assert last_events()[0] == []
    with pytest.raises(TypeError, match="ProfilerOptions"):
        prof.start(str(tmp_path), options={"host_tracer_level": 2})
    with pytest.raises(tf.errors.UnavailableError):
        prof.stop()


def test_ops_of_other_threads_are_recorded(tmp_path):
    prof.start(str(tmp_path))
    worker = threading.Thread(target=lambda: tf.add(1.0, 2.0, name="in_thread"))
    worker.start()
    worker.join()
    tf.add(1.0, 2.0, name="in_main")
    prof.stop()
    events = {e[1]: e[3] for e in ops_of(last_events()[0])}
    assert events["in_thread"] != events["in_main"]


def test_server_start_is_accepted_and_says_it_is_unavailable(monkeypatch):
    said = []
    monkeypatch.setattr(tf.get_logger(), "warning", lambda *args: said.append(args[0] % args[1:]))
    prof.server.start(6009)
    assert "remote profiling is not available" in said[0]
    with pytest.raises(ValueError, match="port"):
        prof.server.start("6009")
    with pytest.raises(tf.errors.UnavailableError, match="remote profiling is not available"):
        prof.client.trace("grpc://localhost:6009", "logs", 2000)
    with pytest.raises(tf.errors.UnavailableError, match="remote profiling is not available"):
        prof.client.monitor("grpc://localhost:6009", 1000, level=2)


def test_stop_without_save_writes_nothing(tmp_path):
    prof.start(str(tmp_path))
    tf.add(1.0, 2.0)
    prof.stop(save=False)
    assert not (tmp_path / "plugins").exists()
    assert len(last_events()[0]) == 1


def test_a_failing_kernel_raises_as_without_the_profiler(tmp_path):
    g = tf.Graph()
    with g.as_default():
        p = tf.compat.v1.placeholder(tf.float32, [None], name="p")
        y = tf.linalg.matmul(tf.reshape(p, [1, -1]), tf.ones([3, 2]), name="product")
    errors = []
    with tf.compat.v1.Session(graph=g) as sess:
        for profiled in (False, True):
            if profiled:
                prof.start(str(tmp_path))
            with pytest.raises(tf.errors.InvalidArgumentError) as info:
                sess.run(y, {p: np.ones(4, np.float32)})
            errors.append(info.value)
        prof.stop()
    assert "product" in str(errors[0]) and "product" in str(errors[1])
    assert errors[1].op is not None and errors[1].op.name == "product"


def _traced_helper(x):
    return tf.square(x, name="inside_helper")


def test_python_tracer_level_one_records_python_calls(tmp_path):
    prof.start(str(tmp_path), options=prof.ProfilerOptions(python_tracer_level=1))
    with prof.Trace("step", step_num=3):
        _traced_helper(tf.constant(2.0))
    prof.stop()
    events, path = last_events()
    calls = [e for e in events if e[0] == "python" and e[1].endswith(" _traced_helper")]
    assert len(calls) == 1 and calls[0][1].startswith("$" + __file__ + ":")
    op = next(e for e in events if e[1] == "inside_helper")
    assert calls[0][4] <= op[4] and op[5] <= calls[0][5] and calls[0][6] == 3
    assert "_traced_helper" not in summary_table()
    with gzip.open(path, "rt") as f:
        cats = {e["cat"] for e in json.load(f)["traceEvents"] if e["ph"] == "X"}
    assert cats == {"Op", "Python", "TraceContext"}
    assert sys.getprofile() is None


def test_while_and_cond_bodies_are_timed_kernel_by_kernel(tmp_path):
    @tf.function
    def f(x, n):
        i = tf.constant(0)
        while i < n:
            x = tf.sin(x, name="wave") * 2.0
            if tf.reduce_sum(x) > 0:
                x = x - 1.0
            else:
                x = x + 1.0
            i += 1
        return x

    x = tf.constant([0.3, 0.7])
    expected = f(x, tf.constant(5)).numpy()
    prof.start(str(tmp_path))
    got = f(x, tf.constant(5)).numpy()
    prof.stop()
    np.testing.assert_array_equal(got, expected)
    events = ops_of(last_events()[0], "kernel")
    types = [e[2] for e in events]
    assert types.count("While") == 1 and types.count("If") == 5
    assert types.count("Sin") == 5 and types.count("Mul") == 5
    assert types.count("Sub") + types.count("AddV2") == 5 + 5  # a branch each, and i += 1
    sin = next(e for e in events if e[2] == "Sin")
    assert sin[7][0] == (((2,), "float32"),) and sin[1].endswith("wave")
    loop = next(e for e in events if e[2] == "While")
    assert all(loop[4] <= e[4] and e[5] <= loop[5] for e in events if e[2] == "Sin")
    rows = {line.split()[0]: line.split() for line in summary_table().splitlines()[1:-1]}
    assert rows["Sin"][2] == "5" and rows["If"][2] == "5"
    shares = [float(r[4].rstrip("%")) for r in rows.values()]
    assert abs(sum(shares) - 100.0) < 0.5  # a loop's own time excludes its body's kernels
    with gzip.open(last_events()[1], "rt") as fh:
        names = [e["args"].get("op_type") for e in json.load(fh)["traceEvents"]
                 if e["ph"] == "X"]
    assert names.count("Sin") == 5 and names.count("While") == 1
