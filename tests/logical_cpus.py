"""The CPU split into logical devices for one test, as a program does before its runtime starts:
`fresh_runtime(monkeypatch)` makes the runtime unstarted and the CPU unsplit, and
`split_cpu(monkeypatch, n)` then splits it into n logical CPUs (all restored after the test)."""
import wengert as tf
from wengert.framework import logical_devices
from wengert.framework.device import settings


def fresh_runtime(monkeypatch):
    monkeypatch.setattr(logical_devices._Runtime, "initialized", False)
    monkeypatch.setattr(logical_devices._Runtime, "configurations", {})
    monkeypatch.setattr(settings, "logical_cpus", 1)


def split_cpu(monkeypatch, count):
    fresh_runtime(monkeypatch)
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(
        cpu, [tf.config.LogicalDeviceConfiguration()] * count)
