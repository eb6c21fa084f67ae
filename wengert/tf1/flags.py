"""`tf.compat.v1.flags` (`tf.app.flags`): command-line flags as TensorFlow 1 scripts define them,
absl's API without absl. `DEFINE_integer("batch_size", 100, "help")` declares a flag on the
global `FLAGS`; `FLAGS(argv)` parses `--name=value`, `--name value`, `--flag`/`--noflag` for
booleans, and `--` ending the flags, returning the program name and the arguments left over.
Reading `FLAGS.name` before any parse parses `sys.argv` first, skipping flags it does not know
(as TensorFlow's wrapper does). A bad value raises IllegalFlagValueError, an unknown flag
UnrecognizedFlagError, a flag defined twice DuplicateFlagError, each naming the flag. After a
parse, the validators added with `add_validator` (tf1/flag_validators.py) check the values.
"""
import sys

__all__ = ["DEFINE_bool", "DEFINE_boolean", "DEFINE_enum", "DEFINE_float", "DEFINE_integer",
           "DEFINE_list", "DEFINE_multi_float", "DEFINE_multi_integer", "DEFINE_multi_string",
           "DEFINE_string", "DuplicateFlagError", "Error", "FLAGS", "Flag", "FlagValues",
           "IllegalFlagValueError", "UnparsedFlagAccessError", "UnrecognizedFlagError",
           "ValidationError", "DEFINE_multi_enum", "DEFINE_spaceseplist", "declare_key_flag",
           "adopt_module_key_flags", "disclaim_key_flags"]


class Error(Exception):
    """The base of the flag errors."""


class IllegalFlagValueError(Error):
    pass


class UnrecognizedFlagError(Error):
    pass


class DuplicateFlagError(Error):
    pass


class UnparsedFlagAccessError(Error):
    pass


class ValidationError(Error):
    """A validator's check failed (the parse reports it as IllegalFlagValueError)."""


_TRUE, _FALSE = ("true", "t", "1", "yes", "y"), ("false", "f", "0", "no", "n")


def _boolean(text):
    lowered = str(text).lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ValueError(f"Non-boolean argument to boolean flag: {text!r}")


class Flag:
    """One flag: its name, default, help text, parser and current value."""

    def __init__(self, name, default, help_text, parse, kind, multi=False):
        self.name, self.help, self._parse, self.kind, self.multi = name, help_text, parse, kind, multi
        self.default = self._convert(default) if default is not None else None
        self.value, self.present = self.default, 0

    def _convert(self, value):
        if self.multi:
            values = value if isinstance(value, (list, tuple)) else [value]
            return [self._parse(v) for v in values]
        return value if not isinstance(value, str) and self.kind != "list" else self._parse(value)

    def parse(self, text):
        try:
            value = self._parse(text)
        except ValueError as error:
            raise IllegalFlagValueError(f"flag --{self.name}={text}: {error}") from None
        if self.multi:
            self.value = ([] if not self.present else self.value) + [value]
        else:
            self.value = value
        self.present += 1


class FlagValues:
    """The registry of flags (`FLAGS`): attributes are the flags' values."""

    def __init__(self):
        self.__dict__.update(_flags={}, _parsed=False, _validators=[])

    def define(self, flag):
        if flag.name in self._flags:
            raise DuplicateFlagError(f"The flag '{flag.name}' is defined twice. Description "
                                     f"from first occurrence: {self._flags[flag.name].help}")
        self._flags[flag.name] = flag
        return flag

    def add_validator(self, names, checker, message, shown):
        """Run checker({name: value}) after each parse; `shown` formats the flags' values."""
        self._validators.append((list(names), checker, message, shown))

    def validate_all_flags(self):
        """IllegalFlagValueError listing the validators that fail, in registration order."""
        messages, bad = [], set()
        for names, checker, message, shown in self._validators:
            if bad.intersection(names):
                continue
            values = {n: self._flags[n].value for n in names}
            try:
                ok, reason = checker(values), message
            except ValidationError as error:
                ok, reason = False, str(error)
            if not ok:
                bad.update(names)
                messages.append(f"{shown.format(**values)}: {reason}")
        if messages:
            raise IllegalFlagValueError("\n".join(messages))

    def __getattr__(self, name):
        flag = self._flags.get(name)
        if flag is None:
            raise AttributeError(name)
        if not self._parsed:
            self(sys.argv, known_only=True)
        return flag.value

    def __setattr__(self, name, value):
        if name not in self._flags:
            raise AttributeError(f"Unknown flag {name!r}: define it with flags.DEFINE_*.")
        self._flags[name].value = value

    def __contains__(self, name):
        return name in self._flags

    def __getitem__(self, name):
        return self._flags[name]

    def __iter__(self):
        return iter(self._flags)

    def is_parsed(self):
        return self._parsed

    def mark_as_parsed(self):
        self.__dict__["_parsed"] = True

    def unparse_flags(self):
        for flag in self._flags.values():
            flag.value, flag.present = flag.default, 0
        self.__dict__["_parsed"] = False

    def flag_values_dict(self):
        return {name: flag.value for name, flag in self._flags.items()}

    def __call__(self, argv, known_only=False):
        """Parse `argv` (program name first); the program name and the unparsed arguments."""
        argv = list(argv)
        rest, args = argv[:1], argv[1:]
        while args:
            arg = args.pop(0)
            if arg == "--":
                rest += args
                break
            if not arg.startswith("-") or arg == "-":
                rest.append(arg)
                continue
            if not self._parse_one(arg.lstrip("-"), args, known_only):
                rest.append(arg)
        self.mark_as_parsed()
        self.validate_all_flags()
        return rest

    def _parse_one(self, body, args, known_only):
        name, has_value, value = body.partition("=")
        flag = self._flags.get(name)
        if flag is None and name.startswith("no") and not has_value:
            negated = self._flags.get(name[2:])
            if negated is not None and negated.kind == "bool":
                negated.parse("false")
                return True
        if flag is None:
            if known_only:
                return False
            raise UnrecognizedFlagError(f"Unknown command line flag '{name}'")
        if not has_value:
            if flag.kind == "bool":
                value = "true"
            elif args:
                value = args.pop(0)
            else:
                raise IllegalFlagValueError(f"flag --{name}: a value is expected")
        flag.parse(value)
        return True


FLAGS = FlagValues()


def _define(parse, kind, name, default, help, flag_values, multi=False):  # noqa: A002
    return flag_values.define(Flag(name, default, help, parse, kind, multi))


def DEFINE_string(name, default, help, flag_values=FLAGS, **args):  # noqa: N802,A002
    return _define(str, "string", name, default, help, flag_values)


def DEFINE_integer(name, default, help, lower_bound=None, upper_bound=None,  # noqa: N802
                   flag_values=FLAGS, **args):
    return _define(_bounded(int, lower_bound, upper_bound), "int", name, default, help,
                   flag_values)


def DEFINE_float(name, default, help, lower_bound=None, upper_bound=None,  # noqa: N802
                 flag_values=FLAGS, **args):
    return _define(_bounded(float, lower_bound, upper_bound), "float", name, default, help,
                   flag_values)


def DEFINE_boolean(name, default, help, flag_values=FLAGS, **args):  # noqa: N802,A002
    return _define(_boolean, "bool", name, default, help, flag_values)


DEFINE_bool = DEFINE_boolean


def DEFINE_enum(name, default, enum_values, help, flag_values=FLAGS, **args):  # noqa: N802
    def parse(text):
        if text not in enum_values:
            raise ValueError(f"value should be one of <{'|'.join(enum_values)}>")
        return text
    return _define(parse, "enum", name, default, help, flag_values)


def DEFINE_list(name, default, help, flag_values=FLAGS, **args):  # noqa: N802,A002
    def parse(text):
        return list(text) if isinstance(text, (list, tuple)) else [
            s.strip() for s in text.split(",") if s.strip()]
    return _define(parse, "list", name, default, help, flag_values)


def DEFINE_multi_string(name, default, help, flag_values=FLAGS, **args):  # noqa: N802,A002
    return _define(str, "multi", name, default, help, flag_values, multi=True)


def DEFINE_multi_integer(name, default, help, flag_values=FLAGS, **args):  # noqa: N802,A002
    return _define(int, "multi", name, default, help, flag_values, multi=True)


def DEFINE_multi_float(name, default, help, flag_values=FLAGS, **args):  # noqa: N802,A002
    return _define(float, "multi", name, default, help, flag_values, multi=True)


def DEFINE_multi_enum(name, default, enum_values, help, flag_values=FLAGS,  # noqa: N802,A002
                      case_sensitive=True, **args):
    """A flag given any number of times, each value one of enum_values."""
    def parse(text):
        match = [v for v in enum_values if v == text or not case_sensitive and
                 v.lower() == str(text).lower()]
        if not match:
            raise ValueError(f"value should be one of <{'|'.join(enum_values)}>")
        return match[0]
    return _define(parse, "multi", name, default, help, flag_values, multi=True)


def DEFINE_spaceseplist(name, default, help, comma_compat=False, flag_values=FLAGS,  # noqa: N802,A002
                        **args):
    """A list flag whose items are separated by whitespace (or commas too, comma_compat)."""
    def parse(text):
        if isinstance(text, (list, tuple)):
            return list(text)
        return (text.replace(",", " ") if comma_compat else text).split()
    return _define(parse, "list", name, default, help, flag_values)


def declare_key_flag(flag_name, flag_values=FLAGS):
    """Accepted: which flags a module's --help lists first (help output is not generated)."""
    if flag_name not in flag_values:
        raise KeyError(f"Flag --{flag_name} is undefined; define it before declaring it key.")


def adopt_module_key_flags(module, flag_values=FLAGS):
    """Accepted: another module's key flags become this module's (no help output here)."""
    if not hasattr(module, "__name__") or flag_values is None:
        raise TypeError(f"adopt_module_key_flags: expected a module, got {module!r}.")


def disclaim_key_flags():
    """Accepted: the calling module declares no key flags."""


def _bounded(kind, lower, upper):
    def parse(text):
        value = kind(text)
        if (lower is not None and value < lower) or (upper is not None and value > upper):
            raise ValueError(f"{value} is outside [{lower}, {upper}]")
        return value
    return parse
