"""`keras.utils.Config`: a dict of named values reached as attributes too, that can be frozen.

    config = Config(learning_rate=0.1)
    config.seed = 123          # same as config["seed"] = 123
    config.freeze()            # any later change is a ValueError

It serializes to JSON (`to_json`) and back to a dict (`as_dict`); an unknown attribute is an
AttributeError suggesting the closest known name.
"""
import copy
import difflib
import json

__all__ = ["Config"]


class Config:
    """A dict-like container of named values, readable and writable as attributes."""

    def __init__(self, **kwargs):
        object.__setattr__(self, "_config", dict(kwargs))
        object.__setattr__(self, "_frozen", False)

    @property
    def frozen(self):
        """True once `freeze()` was called (until `unfreeze()`)."""
        return self._frozen

    def freeze(self):
        """Refuse every later change."""
        object.__setattr__(self, "_frozen", True)

    def unfreeze(self):
        object.__setattr__(self, "_frozen", False)

    def _raise_if_frozen(self):
        if self._frozen:
            raise ValueError("Config: cannot mutate attribute(s) because the config is frozen; "
                             "call config.unfreeze() first.")

    def as_dict(self):
        return copy.copy(self._config)

    def to_json(self):
        return json.dumps(self._config)

    def keys(self):
        return self._config.keys()

    def values(self):
        return self._config.values()

    def items(self):
        return self._config.items()

    def pop(self, *args):
        self._raise_if_frozen()
        return self._config.pop(*args)

    def update(self, *args, **kwargs):
        self._raise_if_frozen()
        return self._config.update(*args, **kwargs)

    def get(self, keyname, value=None):
        return self._config.get(keyname, value)

    def __setattr__(self, name, value):
        if name in type(self).__dict__ or name.startswith("__"):
            return object.__setattr__(self, name, value)
        self._raise_if_frozen()
        self._config[name] = value

    def __getattr__(self, name):
        config = object.__getattribute__(self, "_config")
        if name in config:
            return config[name]
        message = f"Config: unknown attribute: '{name}'."
        close = difflib.get_close_matches(name, list(config), n=1, cutoff=0.7)
        if close:
            message += f" Did you mean '{close[0]}'?"
        raise AttributeError(message)

    def __setitem__(self, key, item):
        self._raise_if_frozen()
        self._config[key] = item

    def __getitem__(self, key):
        return self._config[key]

    def __repr__(self):
        return f"<Config {self._config}>"

    def __iter__(self):
        return iter(self._config.keys())

    def __len__(self):
        return len(self._config)

    def __delitem__(self, key):
        self._raise_if_frozen()
        del self._config[key]

    def __contains__(self, item):
        return item in self._config
