"""tf.config and tf.device (issue 14 item 4): one CPU device, functions run eagerly on request,
thread settings, and device names checked with clear errors."""
import numpy as np
import pytest

import wengert as tf


def test_devices_listed():
    assert tf.config.list_physical_devices() == [
        tf.config.PhysicalDevice("/physical_device:CPU:0", "CPU")]
    assert tf.config.list_physical_devices("GPU") == []
    assert tf.config.list_logical_devices("CPU")[0].name == "/device:CPU:0"
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_visible_devices([cpu])
    assert tf.config.get_visible_devices() == [cpu]
    with pytest.raises(ValueError, match="non-GPU"):
        tf.config.experimental.set_memory_growth(cpu, True)
    tf.config.experimental.enable_op_determinism()


def test_device_names():
    for name in ["/CPU:0", "cpu:0", "/device:CPU:0", "/job:localhost/replica:0/task:0/device:CPU:0",
                 None, ""]:
        with tf.device(name):
            assert (tf.constant(1.0) + 1.0).device.endswith("CPU:0")
    assert tf.config.get_soft_device_placement()  # TensorFlow's default
    with tf.device("/GPU:0"):  # soft placement: runs on the CPU, as TensorFlow does
        assert (tf.constant(2.0) * 2.0).device.endswith("CPU:0")
    with pytest.raises(tf.errors.InvalidArgumentError, match="worker"):
        with tf.device("/job:worker/device:CPU:0"):  # an unknown job raises whatever the setting
            pass
    with pytest.raises(ValueError, match="garbage!"):
        with tf.device("garbage!"):
            pass
    tf.config.set_soft_device_placement(False)
    try:
        for name in ["/GPU:0", "/device:XPU:0", "/cpu:1"]:
            with pytest.raises(tf.errors.InvalidArgumentError, match="CPU:0"):
                with tf.device(name):
                    pass
    finally:
        tf.config.set_soft_device_placement(True)


def test_run_functions_eagerly():
    seen = []

    @tf.function
    def f(x):
        seen.append(x.numpy() if tf.executing_eagerly() else "traced")
        return x * 2.0
    tf.config.run_functions_eagerly(True)
    try:
        assert tf.config.functions_run_eagerly()
        assert float(f(tf.constant(3.0))) == 6.0 and seen == [3.0]
    finally:
        tf.config.run_functions_eagerly(False)
    f(tf.constant(1.0))
    assert seen[-1] == "traced" and not tf.config.functions_run_eagerly()


def test_threading_settings():
    tf.config.threading.set_inter_op_parallelism_threads(2)
    tf.config.threading.set_intra_op_parallelism_threads(1)
    try:
        assert tf.config.threading.get_inter_op_parallelism_threads() == 2
        assert tf.config.threading.get_intra_op_parallelism_threads() == 1
        a = np.ones((64, 64), np.float32)
        np.testing.assert_allclose(tf.matmul(a, a).numpy(), a @ a)
    finally:
        tf.config.threading.set_intra_op_parallelism_threads(0)
        tf.config.threading.set_inter_op_parallelism_threads(0)
