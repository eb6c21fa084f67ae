"""TensorFlow 1's `tf.compat.v1.DeviceSpec`: a device name, "/job:<name>/replica:<id>/task:<id>
/device:<TYPE>:<index>", as its parts. Each part may be absent (None); `to_string` writes the
parts present in that order (a type without an index as "<TYPE>:*"), `from_string` and
`parse_from_string` read one (also the short "/cpu:0" and "gpu:*" forms; CPU and GPU are
upper-cased), `make_merged_spec(other)` gives a copy with other's present parts over these, and
the TF 1 class also updates itself in place: `merge_from(other)`, `parse_from_string(text)`.
wengert runs on one device, so specs are names only."""

__all__ = ["DeviceSpec"]

_FIELDS = ("job", "replica", "task", "device_type", "device_index")


class DeviceSpec:
    """A device name's job, replica, task, device type and device index."""

    def __init__(self, job=None, replica=None, task=None, device_type=None, device_index=None):
        self.job = None if job is None else str(job)
        self.replica = None if replica is None else int(replica)
        self.task = None if task is None else int(task)
        self.device_type = _device_type(device_type)
        self.device_index = None if device_index is None else int(device_index)

    @classmethod
    def from_string(cls, spec):
        """The spec a device name describes."""
        return cls(**_parse(spec))

    def parse_from_string(self, spec):
        """Replace every part with those `spec` names; returns self."""
        parts = _parse(spec)
        self.__init__(**parts)
        return self

    def merge_from(self, dev):
        """Take the parts dev has (in place)."""
        for field in _FIELDS:
            value = getattr(dev, field)
            if value is not None:
                setattr(self, field, value)

    def make_merged_spec(self, dev):
        """A copy of this spec with dev's present parts over its own."""
        merged = DeviceSpec(**{f: getattr(self, f) for f in _FIELDS})
        merged.merge_from(dev)
        return merged

    def replace(self, **kwargs):
        """A copy with the given parts replaced."""
        unknown = set(kwargs) - set(_FIELDS)
        if unknown:
            raise TypeError(f"DeviceSpec.replace: unknown parts {sorted(unknown)}; the parts "
                            f"are {list(_FIELDS)}.")
        return DeviceSpec(**{**{f: getattr(self, f) for f in _FIELDS}, **kwargs})

    def to_string(self):
        """The device name, "/job:.../replica:.../task:.../device:TYPE:index"."""
        text = ""
        for field in ("job", "replica", "task"):
            if getattr(self, field) is not None:
                text += f"/{field}:{getattr(self, field)}"
        if self.device_type is not None:
            index = "*" if self.device_index is None else self.device_index
            text += f"/device:{self.device_type}:{index}"
        return text

    def __eq__(self, other):
        return isinstance(other, DeviceSpec) and self.to_string() == other.to_string()

    def __hash__(self):
        return hash(self.to_string())

    def __repr__(self):
        return f"<DeviceSpec {self.to_string()!r}>"


def _device_type(value):
    if value is None:
        return None
    return value.upper() if value.upper() in ("CPU", "GPU") else str(value)


def _parse(spec):
    """{part: value} of a device name."""
    parts = {}
    for piece in (spec or "").split("/"):
        if not piece:
            continue
        fields = piece.split(":")
        key = fields[0].lower()
        if key in ("job", "replica", "task") and len(fields) == 2:
            parts[key] = fields[1]
        elif key in ("cpu", "gpu") and len(fields) == 2:
            parts["device_type"] = key.upper()
            parts["device_index"] = None if fields[1] == "*" else int(fields[1])
        elif key == "device" and len(fields) in (2, 3):
            parts["device_type"] = fields[1]
            if len(fields) == 3 and fields[2] != "*":
                parts["device_index"] = int(fields[2])
        else:
            raise ValueError(f"Unknown attribute '{fields[0]}' is encountered while parsing "
                             f"the device spec: '{spec}'.")
    return parts
