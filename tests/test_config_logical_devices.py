"""tf.config's logical devices and memory calls on the CPU (issue 30 item 6). TensorFlow 2.21's
behaviour, recorded from it on a CPU machine, is written into the assertions: the CPU splits into
logical devices before the runtime starts, the split is fixed afterwards ("Virtual devices cannot
be modified after being initialized", unless set to the same), memory growth and the allocator
statistics raise TensorFlow's errors for a CPU."""
import pytest

import wengert as tf
from wengert.framework import logical_devices
from wengert.framework.device import settings


@pytest.fixture
def fresh_runtime(monkeypatch):
    """A runtime that has not started and a CPU that was never split (restored after)."""
    monkeypatch.setattr(logical_devices._Runtime, "initialized", False)
    monkeypatch.setattr(logical_devices._Runtime, "configurations", {})
    monkeypatch.setattr(settings, "logical_cpus", 1)
    return tf.config.list_physical_devices("CPU")[0]


def test_split_cpu_lists_logical_devices(fresh_runtime):
    cpu = fresh_runtime
    assert tf.config.get_logical_device_configuration(cpu) is None
    two = [tf.config.LogicalDeviceConfiguration(), tf.config.LogicalDeviceConfiguration()]
    tf.config.set_logical_device_configuration(cpu, two)
    assert tf.config.get_logical_device_configuration(cpu) == two
    assert repr(two[0]) == ("LogicalDeviceConfiguration(memory_limit=None, "
                            "experimental_priority=None, experimental_device_ordinal=None)")
    assert [d.name for d in tf.config.list_logical_devices("CPU")] == ["/device:CPU:0",
                                                                       "/device:CPU:1"]
    assert tf.config.list_logical_devices("GPU") == []
    tf.config.set_soft_device_placement(False)
    try:
        with tf.device("/cpu:1"):
            assert float(tf.constant(1.0) + 1.0) == 2.0
        with pytest.raises(tf.errors.InvalidArgumentError):
            with tf.device("/cpu:2"):
                pass
    finally:
        tf.config.set_soft_device_placement(True)


def test_split_is_fixed_once_the_runtime_started(fresh_runtime):
    cpu = fresh_runtime
    two = [tf.config.LogicalDeviceConfiguration()] * 2
    tf.config.set_logical_device_configuration(cpu, two)
    tf.config.list_logical_devices()
    with pytest.raises(RuntimeError,
                       match="^Virtual devices cannot be modified after being initialized$"):
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()])
    with pytest.raises(RuntimeError, match="Virtual devices cannot be modified"):
        tf.config.experimental.set_virtual_device_configuration(
            cpu, [tf.config.experimental.VirtualDeviceConfiguration()] * 3)
    tf.config.set_logical_device_configuration(cpu, list(two))  # the same: accepted
    assert len(tf.config.list_logical_devices("CPU")) == 2


def test_cpu_logical_devices_take_no_limits(fresh_runtime):
    cpu = fresh_runtime
    with pytest.raises(ValueError, match="memory limit on CPU virtual devices"):
        tf.config.set_logical_device_configuration(
            cpu, [tf.config.LogicalDeviceConfiguration(memory_limit=10)])
    with pytest.raises(ValueError, match="Unrecognized device"):
        tf.config.set_logical_device_configuration(
            tf.config.PhysicalDevice("/physical_device:CPU:7", "CPU"), [])
    assert tf.config.get_logical_device_configuration(cpu) is None


def test_memory_calls_raise_as_tensorflow_on_cpu(fresh_runtime):
    cpu = fresh_runtime
    with pytest.raises(ValueError, match="^Cannot set memory growth on non-GPU and "
                                         "non-Pluggable devices$"):
        tf.config.experimental.set_memory_growth(cpu, True)
    with pytest.raises(KeyError):
        tf.config.experimental.get_memory_growth(cpu)
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    with pytest.raises(ValueError, match="^Cannot set memory growth on device when virtual "
                                         "devices configured$"):
        tf.config.experimental.set_memory_growth(cpu, True)
    with pytest.raises(ValueError, match="^Allocator stats not available for device 'CPU:0'$"):
        tf.config.experimental.get_memory_info("CPU:0")
    with pytest.raises(ValueError, match="^No matching devices found for 'GPU:0'$"):
        tf.config.experimental.get_memory_info("GPU:0")
    with pytest.raises(ValueError, match="^Cannot reset memory stats for device 'CPU:0'$"):
        tf.config.experimental.reset_memory_stats("CPU:0")
    with pytest.raises(ValueError, match="Allocator stats not available"):
        tf.config.experimental.get_memory_usage("CPU:0")
    assert tf.config.experimental.get_device_details(cpu) == {}
    tf.config.set_soft_device_placement(True)
    assert tf.config.get_soft_device_placement()


def test_runtime_switches_read_back_as_tensorflow(monkeypatch):
    from wengert.framework import runtime_options
    for name in ("device_policy", "synchronous", "tensor_float_32", "jit", "grappler"):
        monkeypatch.setattr(runtime_options._Options, name,
                            getattr(runtime_options._Options, name))
    e = tf.config.experimental
    assert (e.get_device_policy(), e.get_synchronous_execution(),
            e.tensor_float_32_execution_enabled()) == ("silent", True, True)
    for policy in ("warn", "explicit", "silent", "silent_for_int32"):
        e.set_device_policy(policy)
        assert e.get_device_policy() == policy
    e.set_device_policy(None)
    assert e.get_device_policy() == "silent"
    with pytest.raises(ValueError, match="Invalid argument `device_policy`: 'bad'"):
        e.set_device_policy("bad")
    e.set_synchronous_execution(False)
    e.enable_tensor_float_32_execution(False)
    assert not e.get_synchronous_execution() and not e.tensor_float_32_execution_enabled()
    e.enable_mlir_bridge()
    e.disable_mlir_bridge()
    opt = tf.config.optimizer
    assert opt.get_jit() == ""
    opt.set_jit(True)
    assert opt.get_jit() == "autoclustering"
    opt.set_jit(False)
    assert opt.get_jit() == ""
    opt.set_experimental_options({"constant_folding": False, "layout_optimizer": True,
                                  "bogus": True})
    assert opt.get_experimental_options() == {
        "layout_optimizer": True, "constant_folding": False, "disable_model_pruning": False,
        "disable_meta_optimizer": False}
    assert list(opt.get_experimental_options())[:2] == ["layout_optimizer", "constant_folding"]
