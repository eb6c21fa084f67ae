"""TensorFlow 1's assignment functions: `tf.compat.v1.assign(ref, value)`, `assign_add`,
`assign_sub`: `ref = value`, `ref += value`, `ref -= value` as ops of `ref`'s graph (run by a
Session) or at once for an eager variable; each returns the variable's new value."""
__all__ = ["assign", "assign_add", "assign_sub"]


def _variable(ref, who):
    if not hasattr(ref, "assign_add"):
        raise TypeError(f"tf.compat.v1.{who}: ref must be a variable, got {type(ref).__name__}; "
                        "only variables can be assigned to.")
    return ref


def assign(ref, value, validate_shape=None, use_locking=None, name=None):
    """`ref = value`; the value's shape must be the variable's (validate_shape=False, which
    lets TensorFlow change a variable's shape, is refused)."""
    if validate_shape is False:
        raise NotImplementedError("tf.compat.v1.assign: validate_shape=False (changing a "
                                  "variable's shape) is not supported; assign a value of the "
                                  "variable's shape.")
    return _variable(ref, "assign").assign(value, use_locking=use_locking, name=name)


def assign_add(ref, value, use_locking=None, name=None):
    """`ref += value`."""
    return _variable(ref, "assign_add").assign_add(value, use_locking=use_locking, name=name)


def assign_sub(ref, value, use_locking=None, name=None):
    """`ref -= value`."""
    return _variable(ref, "assign_sub").assign_sub(value, use_locking=use_locking, name=name)
