"""Logical devices and memory settings of `tf.config` on the one physical device, the CPU.

TensorFlow lets a program split a physical device into several logical ones before its runtime
starts: `set_logical_device_configuration(cpu, [LogicalDeviceConfiguration()] * 2)` makes
`/device:CPU:0` and `/device:CPU:1`, which `list_logical_devices()` lists, `tf.device("/cpu:1")`
accepts and a `MirroredStrategy(["/cpu:0", "/cpu:1"])` names. Here every logical CPU runs on the
same NumPy process, so the split only decides which names exist.

The runtime starts, as in TensorFlow, the first time something asks it about its devices
(`list_logical_devices`, the memory queries, `tf.device` with a logical device name). After
that the configuration is fixed: setting a different one raises TensorFlow's RuntimeError
("Virtual devices cannot be modified after being initialized"); setting the same one again is
accepted. A CPU's logical devices take no memory limit, priority or ordinal (TensorFlow's
ValueErrors). Memory growth is a GPU setting: on the CPU it raises TensorFlow's ValueError,
and reading it raises KeyError, as TensorFlow's does. The allocator statistics
(`get_memory_info`, `get_memory_usage`, `reset_memory_stats`) are not kept for the CPU,
and TensorFlow raises ValueError for them there too.
"""
import collections

from .device import parse_device, settings

__all__ = ["LogicalDeviceConfiguration", "set_logical_device_configuration",
           "get_logical_device_configuration", "logical_cpu_count", "mark_initialized",
           "set_memory_growth", "get_memory_growth", "get_memory_info", "get_memory_usage",
           "reset_memory_stats", "check_physical"]

LogicalDeviceConfiguration = collections.namedtuple(
    "LogicalDeviceConfiguration",
    ["memory_limit", "experimental_priority", "experimental_device_ordinal"])
LogicalDeviceConfiguration.__new__.__defaults__ = (None, None, None)
LogicalDeviceConfiguration.__doc__ = (
    "One logical device of a physical device: its memory limit (GPU only), priority and "
    "ordinal (None on a CPU).")


class _Runtime:
    initialized = False
    configurations = {}  # physical device -> [LogicalDeviceConfiguration]


def mark_initialized():
    """The runtime has started: the logical devices are fixed from now on."""
    _Runtime.initialized = True


def check_physical(device, physical_devices):
    if device not in physical_devices:
        raise ValueError(f"Unrecognized device: {device!r}")


def set_logical_device_configuration(device, logical_devices, physical_devices):
    """Split `device` into the logical devices `logical_devices` describe (see the module
    docstring for the rules)."""
    check_physical(device, physical_devices)
    logical_devices = list(logical_devices)
    for field, what in (("memory_limit", "memory limit"),
                        ("experimental_priority", "experimental_priority"),
                        ("experimental_device_ordinal", "experimental_device_ordinal")):
        if any(getattr(d, field) is not None for d in logical_devices):
            raise ValueError(f"Setting {what} on CPU virtual devices is currently not "
                             "supported")
    if _Runtime.configurations.get(device) == logical_devices:
        return
    if _Runtime.initialized:
        raise RuntimeError("Virtual devices cannot be modified after being initialized")
    _Runtime.configurations[device] = logical_devices
    settings.logical_cpus = max(1, len(logical_devices))


def get_logical_device_configuration(device, physical_devices):
    """The logical devices set for `device`, or None when it was never split."""
    check_physical(device, physical_devices)
    return _Runtime.configurations.get(device)


def logical_cpu_count():
    return settings.logical_cpus


def set_memory_growth(device, enable, physical_devices):
    check_physical(device, physical_devices)
    if device in _Runtime.configurations:
        raise ValueError("Cannot set memory growth on device when virtual devices configured")
    raise ValueError("Cannot set memory growth on non-GPU and non-Pluggable devices")


def get_memory_growth(device, physical_devices):
    check_physical(device, physical_devices)
    raise KeyError(device)


def _device_name(device):
    """`device` ("CPU:0", "/device:CPU:1", ...) after checking that it exists."""
    kind, index = parse_device(device)
    mark_initialized()
    if kind != "CPU" or index is None or not index.isdigit() or \
            int(index) >= settings.logical_cpus:
        raise ValueError(f"No matching devices found for '{device}'")
    return device


def get_memory_info(device):
    """TensorFlow keeps no allocator statistics for a CPU: ValueError, as there."""
    raise ValueError(f"Allocator stats not available for device '{_device_name(device)}'")


def get_memory_usage(device):
    return get_memory_info(device)


def reset_memory_stats(device):
    raise ValueError(f"Cannot reset memory stats for device '{_device_name(device)}'")
