"""`tf.compat.v1.flags`: command-line flags as TensorFlow 1 scripts define them (tf1/flags.py)
and the validators and required-flag marks of absl's API (tf1/flag_validators.py)."""
from ...tf1.flag_validators import (mark_bool_flags_as_mutual_exclusive,  # noqa: F401
                                    mark_flag_as_required, mark_flags_as_mutual_exclusive,
                                    mark_flags_as_required, multi_flags_validator,
                                    register_multi_flags_validator, register_validator,
                                    validator)
from ...tf1.flags import (DEFINE_bool, DEFINE_boolean, DEFINE_enum, DEFINE_float,  # noqa: F401
                          DEFINE_integer, DEFINE_list, DEFINE_multi_enum, DEFINE_multi_float,
                          DEFINE_multi_integer, DEFINE_multi_string, DEFINE_spaceseplist,
                          DEFINE_string, FLAGS, DuplicateFlagError, Error, Flag, FlagValues,
                          IllegalFlagValueError, UnparsedFlagAccessError, UnrecognizedFlagError,
                          ValidationError, adopt_module_key_flags, declare_key_flag,
                          disclaim_key_flags)
