"""Devices: wengert runs every op on one device, the CPU, named as TensorFlow names it.

`device("/CPU:0")` (also "cpu", "/device:CPU:0", "/job:localhost/replica:0/task:0/device:CPU:0",
None or "") is accepted and changes nothing, and so is "/CPU:1" and on when tf.config split the
CPU into that many logical devices. A well-formed name of a device that does not exist here
("/GPU:0", "/CPU:1", "/TPU:0") places its ops on the CPU, as TensorFlow's soft device placement
(on by default) does, so programs written for an accelerator run unchanged; with
`tf.config.set_soft_device_placement(False)` such a name raises InvalidArgumentError naming it and
the devices there are. A malformed name raises ValueError, as TensorFlow's parser does, and a job
other than 'localhost' raises InvalidArgumentError whatever the setting, as TensorFlow's does.
"""
import contextlib
import re

from .errors import InvalidArgumentError

__all__ = ["device", "parse_device", "CPU_NAME", "settings"]

CPU_NAME = "/job:localhost/replica:0/task:0/device:CPU:0"
_PART = re.compile(r"^(job:[A-Za-z0-9_]+|replica:\d+|task:\d+|device:[A-Za-z_]+:(\d+|\*)|"
                   r"[A-Za-z_]+:(\d+|\*)|[A-Za-z_]+)$")


class settings:  # noqa: N801 - module-level switches set by tf.config
    soft_device_placement = True  # TensorFlow's default
    run_functions_eagerly = False
    op_determinism = False
    logical_cpus = 1  # tf.config.set_logical_device_configuration splits the CPU


def parse_device(name):
    """(device type, index) named by a TensorFlow device string; (None, None) for no device."""
    if name is None or name == "":
        return None, None
    if hasattr(name, "to_string"):
        name = name.to_string()
    if not isinstance(name, str):
        raise TypeError(f"tf.device: expected a device name string, got {type(name).__name__}.")
    kind, index = None, None
    for part in [p for p in name.strip("/").split("/") if p]:
        if not _PART.match(part):
            raise ValueError(f"Unknown attribute {part!r} is encountered while parsing the "
                             f"device spec: {name!r}.")
        if part.startswith(("job:", "replica:", "task:")):
            if part.startswith("job:") and part != "job:localhost":
                raise InvalidArgumentError(f"tf.device: job {part[4:]!r} does not exist; "
                                           f"this process is job 'localhost' ({CPU_NAME}).")
            continue
        pieces = part.split(":")
        if pieces[0] == "device":
            pieces = pieces[1:]
        kind = pieces[0].upper()
        index = pieces[1] if len(pieces) > 1 else "0"
    return kind, index


def _exists(kind, index):
    if kind not in (None, "CPU"):
        return False
    return index in (None, "*") or (index.isdigit() and int(index) < settings.logical_cpus)


@contextlib.contextmanager
def device(device_name):
    """`with tf.device("/CPU:0"):` places ops on the CPU (the only device); see the module
    docstring for other names."""
    kind, index = parse_device(device_name)
    if not _exists(kind, index) and not settings.soft_device_placement:
        raise InvalidArgumentError(
            f"Could not satisfy device specification {device_name!r}: wengert runs on one "
            f"device, {CPU_NAME} ('/CPU:0'). Use tf.device('/CPU:0'), or "
            "tf.config.set_soft_device_placement(True) to place such ops on the CPU.")
    yield
