"""TensorFlow's `tf.config` for the one device wengert runs on, the CPU (`wengert.config`).

Devices: `list_physical_devices()` / `list_logical_devices()` list the CPU (a "GPU" query gives
an empty list), `get/set_visible_devices` accept the CPU. Functions:
`run_functions_eagerly(True)` makes every `tf.function` call its Python function directly (for
debugging), `functions_run_eagerly()` says whether it is on. Threads: the intra-op setting limits
the BLAS thread pool NumPy uses, through threadpoolctl when it is installed (the optional extra
`threads`); the inter-op setting is recorded. `experimental.enable_op_determinism()` is accepted
(wengert's ops are deterministic given their seeds). Logical devices (the CPU split into
several) and the memory calls are in logical_devices.py; switches of TensorFlow's runtime
(device policy, TensorFloat-32, tf.config.optimizer) in runtime_options.py.
"""
import collections
import types

from . import logical_devices as logical
from . import runtime_options as options
from .device import settings
from .logical_devices import LogicalDeviceConfiguration

__all__ = ["PhysicalDevice", "LogicalDevice", "list_physical_devices", "list_logical_devices",
           "get_visible_devices", "set_visible_devices", "run_functions_eagerly",
           "functions_run_eagerly", "get_soft_device_placement", "set_soft_device_placement",
           "threading", "experimental", "experimental_run_functions_eagerly",
           "experimental_functions_run_eagerly", "LogicalDeviceConfiguration",
           "set_logical_device_configuration", "get_logical_device_configuration", "optimizer"]

PhysicalDevice = collections.namedtuple("PhysicalDevice", ["name", "device_type"])
LogicalDevice = collections.namedtuple("LogicalDevice", ["name", "device_type"])
_CPU = PhysicalDevice("/physical_device:CPU:0", "CPU")


def list_physical_devices(device_type=None):
    """[PhysicalDevice('/physical_device:CPU:0', 'CPU')] (for device_type None or 'CPU')."""
    return [_CPU] if device_type in (None, "CPU", "cpu") else []


def list_logical_devices(device_type=None):
    """The CPU's logical devices ("/device:CPU:0", ...: one unless the CPU was split); the
    runtime starts here, so the split is fixed from now on."""
    logical.mark_initialized()
    if device_type not in (None, "CPU", "cpu"):
        return []
    return [LogicalDevice(f"/device:CPU:{i}", "CPU") for i in range(logical.logical_cpu_count())]


def set_logical_device_configuration(device, logical_devices):
    """Split the physical `device` into `logical_devices` (LogicalDeviceConfiguration each)
    before the runtime starts (RuntimeError after, unless the configuration is the same)."""
    logical.set_logical_device_configuration(device, logical_devices, [_CPU])


def get_logical_device_configuration(device):
    """The [LogicalDeviceConfiguration] `device` was split into, or None."""
    return logical.get_logical_device_configuration(device, [_CPU])


def get_visible_devices(device_type=None):
    return list_physical_devices(device_type)


def set_visible_devices(devices, device_type=None):
    """Only the CPU can be made visible (it always is)."""
    devices = [devices] if isinstance(devices, PhysicalDevice) else list(devices)
    for d in devices:
        if d != _CPU:
            raise ValueError(f"set_visible_devices: unknown device {d!r}; the only device is "
                             f"{_CPU!r}.")
    if device_type not in (None, "CPU", "cpu") and devices:
        raise ValueError(f"set_visible_devices: no devices of type {device_type!r}.")


def run_functions_eagerly(run_eagerly):
    """When True, tf.function calls its Python function directly instead of tracing."""
    settings.run_functions_eagerly = bool(run_eagerly)


def functions_run_eagerly():
    return settings.run_functions_eagerly


experimental_run_functions_eagerly = run_functions_eagerly
experimental_functions_run_eagerly = functions_run_eagerly


def set_soft_device_placement(enabled):
    """When True, ops asked for a device that does not exist run on the CPU (TF's fallback)."""
    settings.soft_device_placement = bool(enabled)


def get_soft_device_placement():
    return settings.soft_device_placement


# -- threads -------------------------------------------------------------------------------------
class _Threads:
    intra = 0
    inter = 0
    limiter = None


def _blas_limit(n):
    try:
        from threadpoolctl import threadpool_limits  # optional dependency
    except ImportError:
        return False
    _Threads.limiter = threadpool_limits(limits=n if n > 0 else None, user_api="blas")
    return True


def set_intra_op_parallelism_threads(num_threads):
    """Threads used inside one op: the BLAS pool (needs threadpoolctl; 0 = the default)."""
    _Threads.intra = int(num_threads)
    if _Threads.limiter is not None:
        _Threads.limiter.restore_original_limits()
        _Threads.limiter = None
    if _Threads.intra > 0:
        _blas_limit(_Threads.intra)


def get_intra_op_parallelism_threads():
    return _Threads.intra


def set_inter_op_parallelism_threads(num_threads):
    """Threads running independent ops (recorded; wengert runs one op at a time)."""
    _Threads.inter = int(num_threads)


def get_inter_op_parallelism_threads():
    return _Threads.inter


threading = types.SimpleNamespace(
    set_intra_op_parallelism_threads=set_intra_op_parallelism_threads,
    get_intra_op_parallelism_threads=get_intra_op_parallelism_threads,
    set_inter_op_parallelism_threads=set_inter_op_parallelism_threads,
    get_inter_op_parallelism_threads=get_inter_op_parallelism_threads)


# -- experimental ----------------------------------------------------------------------------------
def enable_op_determinism():
    settings.op_determinism = True


def set_memory_growth(device, enable):
    """A GPU setting: on the CPU TensorFlow's ValueError (`enable` is not read)."""
    logical.set_memory_growth(device, enable, [_CPU])


def get_memory_growth(device):
    """KeyError for the CPU, as in TensorFlow (only GPUs have the setting)."""
    return logical.get_memory_growth(device, [_CPU])


def get_device_details(device):
    """{} for the CPU (TensorFlow reports details of GPUs only)."""
    if device != _CPU:
        raise ValueError("The PhysicalDevice must be one obtained from calling "
                         f"`tf.config.list_physical_devices`, but got: {device!r}")
    return {}


experimental = types.SimpleNamespace(
    enable_op_determinism=enable_op_determinism, list_physical_devices=list_physical_devices,
    list_logical_devices=list_logical_devices, get_visible_devices=get_visible_devices,
    set_visible_devices=set_visible_devices, set_memory_growth=set_memory_growth,
    get_memory_growth=get_memory_growth,
    set_virtual_device_configuration=set_logical_device_configuration,
    get_virtual_device_configuration=get_logical_device_configuration,
    VirtualDeviceConfiguration=LogicalDeviceConfiguration,
    get_memory_info=logical.get_memory_info, get_memory_usage=logical.get_memory_usage,
    reset_memory_stats=logical.reset_memory_stats,
    get_device_details=get_device_details,
    get_device_policy=options.get_device_policy, set_device_policy=options.set_device_policy,
    get_synchronous_execution=options.get_synchronous_execution,
    set_synchronous_execution=options.set_synchronous_execution,
    tensor_float_32_execution_enabled=options.tensor_float_32_execution_enabled,
    enable_tensor_float_32_execution=options.enable_tensor_float_32_execution,
    enable_mlir_bridge=options.enable_mlir_bridge, disable_mlir_bridge=options.disable_mlir_bridge)
optimizer = options.optimizer
