"""The runtime switches of `tf.config` that choose how TensorFlow's runtime executes, kept as
TensorFlow keeps them although wengert's one CPU runs every op the same way whatever they say.

- `experimental.set_device_policy(policy)`: how ops treat inputs on another device ('warn',
  'explicit', 'silent', 'silent_for_int32'; None restores the default, 'silent'); any other value
  is TensorFlow's ValueError.
- `experimental.set_synchronous_execution(enable)`: eager ops wait for their results (True by
  default; wengert always does).
- `experimental.enable_tensor_float_32_execution(enabled)`: TensorFloat-32 matrix products on
  Ampere GPUs (True by default; the CPU computes in full float32 either way).
- `experimental.enable_mlir_bridge()` / `disable_mlir_bridge()`: TensorFlow's XLA bridge.
- `optimizer.set_jit(enabled)`: XLA auto-clustering; True reads back as 'autoclustering', False
  as ''. `optimizer.set_experimental_options(options)`: Grappler's graph rewrites by name (options
  TensorFlow does not know are ignored, as there); `get_experimental_options()` lists those set
  in TensorFlow's order, then the two TensorFlow always reports.
- `tf.compat.v1.enable_eager_execution(config, device_policy, execution_mode)` sets the first
  two for the eager context (`eager_context_options`), after TensorFlow's checks.
"""
import types

from .protos.session_config import ConfigProto

__all__ = ["get_device_policy", "set_device_policy", "get_synchronous_execution",
           "set_synchronous_execution", "tensor_float_32_execution_enabled",
           "enable_tensor_float_32_execution", "enable_mlir_bridge", "disable_mlir_bridge",
           "optimizer", "eager_context_options"]

_POLICIES = ("warn", "explicit", "silent", "silent_for_int32")
_GRAPPLER = ("layout_optimizer", "constant_folding", "shape_optimization", "remapping",
             "arithmetic_optimization", "dependency_optimization", "loop_optimization",
             "function_optimization", "debug_stripper", "disable_model_pruning",
             "scoped_allocator_optimization", "pin_to_host_optimization",
             "implementation_selector", "auto_mixed_precision", "disable_meta_optimizer",
             "auto_parallel", "min_graph_nodes")


class _Options:
    device_policy = "silent"
    synchronous = True
    tensor_float_32 = True
    mlir_bridge = False
    jit = ""
    grappler = {}


def get_device_policy():
    return _Options.device_policy


def set_device_policy(device_policy):
    """Record how ops treat inputs placed on another device (see the module docstring)."""
    if device_policy is not None and device_policy not in _POLICIES:
        raise ValueError(f"Invalid argument `device_policy`: {device_policy!r}. Please refer to "
                         "https://www.tensorflow.org/api_docs/python/tf/config/experimental/"
                         "set_device_policy for valid `device_policy` arguments.")
    _Options.device_policy = "silent" if device_policy is None else device_policy


# TensorFlow's context.DEVICE_PLACEMENT_* (EXPLICIT, WARN, SILENT, SILENT_FOR_INT32) and
# context.SYNC / ASYNC, by value
_PLACEMENT_BY_VALUE = {0: "explicit", 1: "warn", 2: "silent", 3: "silent_for_int32"}
_SYNC, _ASYNC = 0, 1


def eager_context_options(config, device_policy, execution_mode):
    """enable_eager_execution's options for the eager context, checked as TensorFlow checks
    them: the device policy and the execution mode (ASYNC: not synchronous) are recorded; the
    ConfigProto's settings (threads, devices) change nothing on wengert's one CPU."""
    if config is not None and not isinstance(config, ConfigProto):
        raise TypeError(f"config must be a tf.ConfigProto, but got {type(config)}")
    policy = device_policy if device_policy in _POLICIES else _PLACEMENT_BY_VALUE.get(
        _enum_value(device_policy), False)
    if device_policy is not None and policy is False:
        raise ValueError("device_policy must be one of None, DEVICE_PLACEMENT_*")
    if execution_mode not in (None, _SYNC, _ASYNC):
        raise ValueError("execution_mode must be one of None, SYNC, ASYNC")
    if device_policy is not None:
        set_device_policy(policy)
    if execution_mode is not None:
        set_synchronous_execution(execution_mode == _SYNC)


def _enum_value(value):
    try:
        return int(getattr(value, "value", value))
    except (TypeError, ValueError):
        return None


def get_synchronous_execution():
    return _Options.synchronous


def set_synchronous_execution(enable):
    _Options.synchronous = bool(enable)


def tensor_float_32_execution_enabled():
    return _Options.tensor_float_32


def enable_tensor_float_32_execution(enabled):
    _Options.tensor_float_32 = bool(enabled)


def enable_mlir_bridge():
    _Options.mlir_bridge = True


def disable_mlir_bridge():
    _Options.mlir_bridge = False


def get_jit():
    return _Options.jit


def set_jit(enabled):
    """XLA auto-clustering on (True or 'autoclustering') or off (False): recorded only."""
    _Options.jit = enabled if isinstance(enabled, str) else ("autoclustering" if enabled else "")


def get_experimental_options():
    out = {k: _Options.grappler[k] for k in _GRAPPLER if k in _Options.grappler}
    out.setdefault("disable_model_pruning", False)
    out.setdefault("disable_meta_optimizer", False)
    return out


def set_experimental_options(options):
    """Grappler's rewrites by name ({'constant_folding': False, ...}): recorded only."""
    grappler = dict(_Options.grappler)
    grappler.update({k: v for k, v in dict(options).items() if k in _GRAPPLER})
    _Options.grappler = grappler


optimizer = types.SimpleNamespace(get_jit=get_jit, set_jit=set_jit,
                                  get_experimental_options=get_experimental_options,
                                  set_experimental_options=set_experimental_options)
