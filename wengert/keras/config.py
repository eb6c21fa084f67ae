"""`keras.config`: Keras 3's global settings, one place to read and set them.

The settings themselves live where they act: the float type, fuzz factor and image layout in
backend.py, the dtype policy in mixed_precision.py, interactive logging in
utils/interactive_logging.py. This module names them as Keras 3 does, and adds the switches
that only record a preference:
- traceback filtering (Keras trims its own frames from tracebacks; wengert's tracebacks are
  short already, so the switch is kept and reported, nothing is trimmed);
- flash attention (wengert has no fused attention kernel: `None` means "use it when it can", as
  in Keras, and attention layers compute the same values either way);
- unsafe deserialization: wengert never runs code read from a file (a `Lambda` layer's Python
  bytecode in a `.keras` file is refused whatever this says), so enabling it changes nothing
  and loading such a layer still names the fix (pass the function in `custom_objects`).

`backend()` is "tensorflow" and `set_backend` accepts only that: wengert is TensorFlow's
backend. `max_epochs`/`max_steps_per_epoch` cap what `fit` runs (None: no cap), as Keras 3's
settings of the same names do.
"""
import warnings

from . import backend as _backend
from .mixed_precision import global_policy, set_global_policy
from .utils.interactive_logging import (disable_interactive_logging, enable_interactive_logging,
                                        is_interactive_logging_enabled)

__all__ = ["backend", "set_backend", "floatx", "set_floatx", "epsilon", "set_epsilon",
           "image_data_format", "set_image_data_format", "dtype_policy", "set_dtype_policy",
           "enable_interactive_logging", "disable_interactive_logging",
           "is_interactive_logging_enabled", "enable_traceback_filtering",
           "disable_traceback_filtering", "is_traceback_filtering_enabled",
           "enable_flash_attention", "disable_flash_attention", "is_flash_attention_enabled",
           "enable_unsafe_deserialization", "is_nnx_enabled", "max_epochs", "set_max_epochs",
           "max_steps_per_epoch", "set_max_steps_per_epoch"]

backend = _backend.backend
floatx, set_floatx = _backend.floatx, _backend.set_floatx
epsilon, set_epsilon = _backend.epsilon, _backend.set_epsilon
image_data_format, set_image_data_format = (_backend.image_data_format,
                                            _backend.set_image_data_format)
_SETTINGS = {"traceback_filtering": True, "flash_attention": None, "max_epochs": None,
             "max_steps_per_epoch": None}


def set_backend(backend):
    """Keras 3 switches backends and reloads; wengert is the TensorFlow backend only."""
    if backend != "tensorflow":
        raise ValueError(f"keras.config.set_backend: wengert runs Keras on TensorFlow's backend "
                         f"only, got backend={backend!r}; use 'tensorflow'.")


def dtype_policy():
    """The global DTypePolicy (keras.mixed_precision.global_policy)."""
    return global_policy()


def set_dtype_policy(policy):
    """Set the global DTypePolicy: a name such as "mixed_float16" or a DTypePolicy."""
    set_global_policy(policy)


def enable_traceback_filtering():
    _SETTINGS["traceback_filtering"] = True


def disable_traceback_filtering():
    _SETTINGS["traceback_filtering"] = False


def is_traceback_filtering_enabled():
    return _SETTINGS["traceback_filtering"]


def enable_flash_attention():
    _SETTINGS["flash_attention"] = True


def disable_flash_attention():
    _SETTINGS["flash_attention"] = False


def is_flash_attention_enabled():
    """True or False once set; None (the default) lets Keras decide per call."""
    return _SETTINGS["flash_attention"]


def enable_unsafe_deserialization():
    """Accepted for Keras 3 programs; wengert still never runs code read from a file."""


def is_nnx_enabled():
    """Flax NNX integration is a JAX-backend feature: never on here."""
    return False


def fit_limits(epochs, steps_per_epoch):
    """`fit`'s (epochs, steps_per_epoch) under the caps, with Keras's warning when one cuts."""
    cap = _SETTINGS["max_epochs"]
    if cap and cap < epochs:
        warnings.warn(f"Limiting epochs to {cap}")
        epochs = cap
    cap = _SETTINGS["max_steps_per_epoch"]
    if cap and (not steps_per_epoch or cap < steps_per_epoch):
        warnings.warn(f"Limiting steps_per_epoch to {cap}")
        steps_per_epoch = cap
    return epochs, steps_per_epoch


def _checked_cap(name, value):
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                              or value < 1):
        raise ValueError(f"keras.config.set_{name}: expected a positive int or None, got "
                         f"{value!r}.")
    _SETTINGS[name] = value


def max_epochs():
    """The most epochs `fit` runs whatever `epochs=` says (None: no cap)."""
    return _SETTINGS["max_epochs"]


def set_max_epochs(max_epochs):
    _checked_cap("max_epochs", max_epochs)


def max_steps_per_epoch():
    """The most steps an epoch of `fit` runs (None: no cap)."""
    return _SETTINGS["max_steps_per_epoch"]


def set_max_steps_per_epoch(max_steps_per_epoch):
    _checked_cap("max_steps_per_epoch", max_steps_per_epoch)
