"""`tf.compat.v1.flags`: command-line flags as TensorFlow 1 scripts define them (tf1/flags.py)."""
from ...tf1.flags import (DEFINE_bool, DEFINE_boolean, DEFINE_enum, DEFINE_float,  # noqa: F401
                          DEFINE_integer, DEFINE_list, DEFINE_multi_float, DEFINE_multi_integer,
                          DEFINE_multi_string, DEFINE_string, FLAGS, DuplicateFlagError, Error,
                          Flag, FlagValues, IllegalFlagValueError, UnparsedFlagAccessError,
                          UnrecognizedFlagError)
