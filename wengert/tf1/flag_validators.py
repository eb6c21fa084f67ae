"""Validators of TensorFlow 1's command-line flags (absl's API, over tf1/flags.py): a validator
is a check of one flag's value (`register_validator(name, checker, message)`, the `@validator`
decorator) or of several flags' values as a dict (`register_multi_flags_validator`,
`@multi_flags_validator`). `FLAGS(argv)` runs them all, in the order they were registered,
after parsing: a checker returning False (or raising ValidationError) makes the parse raise
IllegalFlagValueError listing "flag --name=value: message" for each failure (a flag that
already failed is not checked again). `mark_flag_as_required` is the check "value is not None";
the mutual-exclusion marks check that at most (or, required, exactly) one of the flags is set
(not None, or for booleans True)."""
import warnings

from .flags import FLAGS, ValidationError

__all__ = ["register_validator", "validator", "register_multi_flags_validator",
           "multi_flags_validator", "mark_flag_as_required", "mark_flags_as_required",
           "mark_flags_as_mutual_exclusive", "mark_bool_flags_as_mutual_exclusive"]


def _known(flag_values, names):
    for name in names:
        if name not in flag_values:
            raise KeyError(f"Flag --{name} does not exist; define it before adding a "
                           "validator.")


def register_validator(flag_name, checker, message="Flag validation failed",
                       flag_values=FLAGS):
    """Check flag_name's value with checker(value) whenever the flags are parsed."""
    _known(flag_values, [flag_name])
    flag_values.add_validator([flag_name], lambda values: checker(values[flag_name]), message,
                              f"flag --{flag_name}={{{flag_name}}}")


def validator(flag_name, message="Flag validation failed", flag_values=FLAGS):
    """Decorator form of register_validator."""
    def decorate(checker):
        register_validator(flag_name, checker, message, flag_values)
        return checker
    return decorate


def register_multi_flags_validator(flag_names, multi_flags_checker,
                                   message="Flags validation failed", flag_values=FLAGS):
    """Check several flags' values, given as {name: value}, whenever the flags are parsed."""
    flag_names = list(flag_names)
    _known(flag_values, flag_names)
    shown = "flags " + ", ".join(f"{n}={{{n}}}" for n in flag_names)
    flag_values.add_validator(flag_names, multi_flags_checker, message, shown)


def multi_flags_validator(flag_names, message="Flag validation failed", flag_values=FLAGS):
    """Decorator form of register_multi_flags_validator."""
    def decorate(checker):
        register_multi_flags_validator(flag_names, checker, message, flag_values)
        return checker
    return decorate


def mark_flag_as_required(flag_name, flag_values=FLAGS):
    """The flag must be given a value (other than None)."""
    _known(flag_values, [flag_name])
    if flag_values[flag_name].default is not None:
        warnings.warn(f"Flag --{flag_name} has a non-None default value; therefore, "
                      "mark_flag_as_required will pass even if flag is not specified in the "
                      "command line!", stacklevel=2)
    register_validator(flag_name, lambda value: value is not None,
                       f"Flag --{flag_name} must have a value other than None.", flag_values)


def mark_flags_as_required(flag_names, flag_values=FLAGS):
    """Each of the flags must be given a value."""
    for name in flag_names:
        mark_flag_as_required(name, flag_values)


def mark_flags_as_mutual_exclusive(flag_names, required=False, flag_values=FLAGS):
    """At most one of the flags (exactly one when required) has a value other than None."""
    flag_names = list(flag_names)

    def exclusive(values):
        count = sum(1 for value in values.values() if value is not None)
        if count == 1 or (not required and count == 0):
            return True
        raise ValidationError(f"{'Exactly' if required else 'At most'} one of "
                              f"({', '.join(flag_names)}) must have a value other than None.")
    register_multi_flags_validator(flag_names, exclusive, flag_values=flag_values)


def mark_bool_flags_as_mutual_exclusive(flag_names, required=False, flag_values=FLAGS):
    """At most one of the boolean flags (exactly one when required) is True."""
    flag_names = list(flag_names)
    _known(flag_values, flag_names)
    for name in flag_names:
        if flag_values[name].kind != "bool":
            raise ValidationError(f'Flag --{name} is not Boolean, which is required for flags '
                                  'used in mark_bool_flags_as_mutual_exclusive.')

    def exclusive(values):
        count = sum(bool(value) for value in values.values())
        if count == 1 or (not required and count == 0):
            return True
        raise ValidationError(f"{'Exactly' if required else 'At most'} one of "
                              f"({', '.join(flag_names)}) must be True.")
    register_multi_flags_validator(flag_names, exclusive, flag_values=flag_values)
