"""TensorFlow 1's renamed arguments: a function of `tf.compat.v1` takes both its old argument
name (`reduction_indices`, `keep_dims`, `dim`, `keep_prob`, `value`, `filter`) and the new one,
and uses whichever was given, as TensorFlow's `deprecation.deprecated_argument_lookup` does:

    old given, new not  -> old
    new given, old not  -> new
    both given          -> ValueError("Cannot specify both '<old>' and '<new>'.")

(None means "not given"). TensorFlow also logs a deprecation warning; wengert does not."""

__all__ = ["either"]


def either(new_name, new_value, old_name, old_value):
    """The value given under the new or the old name of one argument (see the module)."""
    if old_value is not None:
        if new_value is not None:
            raise ValueError(f"Cannot specify both '{old_name}' and '{new_name}'.")
        return old_value
    return new_value
