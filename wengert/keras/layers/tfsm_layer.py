"""`keras.layers.TFSMLayer`: a SavedModel's endpoint used as a layer, as Keras 3 wraps one.

`TFSMLayer(filepath, call_endpoint="serve", call_training_endpoint=None, trainable=True,
name=None, dtype=None)` loads `filepath` with `saved_model.load` (a SavedModel that wengert
wrote, `model.export`'s or `saved_model.save`'s, or one TensorFlow wrote that wengert loads)
and calls the endpoint: an attribute of the loaded object (`serve`, `__call__`, any saved
function), else an entry of its `signatures` ("serving_default"); an endpoint that is neither
is a ValueError listing the signatures there. `call(inputs, training=False, **kwargs)` calls
`call_training_endpoint` when training and one was given, else `call_endpoint` (a signature,
which takes keyword arguments, gets the inputs under its input names in order). The layer's
weights are the loaded object's variables themselves (trainable, then the others), so training
the layer changes the variables its endpoints compute with (Keras copies the variables the
endpoints use into new ones). `get_config` records filepath and the endpoints;
`from_config` loads the SavedModel again, which Keras refuses in safe mode (a SavedModel is
code): pass safe_mode=False or use `keras.config.enable_unsafe_deserialization()`.
"""
from ...saved_model.load import load as load_saved_model
from ..serialization import in_safe_mode
from .base import Layer

__all__ = ["TFSMLayer"]


def _endpoint(loaded, name):
    if hasattr(loaded, name):
        return getattr(loaded, name)
    signatures = getattr(loaded, "signatures", {}) or {}
    if name in signatures:
        return signatures[name]
    raise ValueError(f"The endpoint '{name}' is neither an attribute of the reloaded "
                     "SavedModel, nor an entry in the `signatures` field of the reloaded "
                     "SavedModel. Select another endpoint via the `call_endpoint` argument. "
                     f"Available endpoints for this SavedModel: {list(signatures.keys())}")


class TFSMLayer(Layer):
    """A layer whose call is a loaded SavedModel's endpoint (see the module docstring)."""

    def __init__(self, filepath, call_endpoint="serve", call_training_endpoint=None,
                 trainable=True, name=None, dtype=None):
        super().__init__(trainable=trainable, name=name, dtype=dtype)
        self._reloaded_obj = load_saved_model(filepath)
        self.filepath = filepath
        self.call_endpoint = call_endpoint
        self.call_training_endpoint = call_training_endpoint
        self.call_endpoint_fn = _endpoint(self._reloaded_obj, call_endpoint)
        self.call_training_endpoint_fn = (_endpoint(self._reloaded_obj, call_training_endpoint)
                                          if call_training_endpoint else None)
        seen = set()
        for variable in list(getattr(self._reloaded_obj, "variables", ()) or ()):
            if id(variable) in seen:
                continue
            seen.add(id(variable))
            own = self._trainable_weights if variable.trainable else self._non_trainable_weights
            own.append(variable)
        self.built = True

    def call(self, inputs, training=False, **kwargs):
        fn = self.call_endpoint_fn
        if training and self.call_training_endpoint_fn is not None:
            fn = self.call_training_endpoint_fn
        names = getattr(fn, "input_names", None)
        if names is not None and not kwargs:  # a signature: its inputs by name, in order
            flat = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
            return fn(**dict(zip(names, flat)))
        return fn(inputs, **kwargs)

    def get_config(self):
        config = super().get_config()
        config.update(filepath=self.filepath, call_endpoint=self.call_endpoint,
                      call_training_endpoint=self.call_training_endpoint)
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None, safe_mode=None):
        if (safe_mode if safe_mode is not None else in_safe_mode()) is not False:
            raise ValueError("Requested the deserialization of a `TFSMLayer`, which loads an "
                             "external SavedModel. This carries a potential risk of arbitrary "
                             "code execution and thus it is disallowed by default. If you "
                             "trust the source of the artifact, you can override this error by "
                             "passing `safe_mode=False` to the loading function, or calling "
                             "`keras.config.enable_unsafe_deserialization()`.")
        return cls(**config)
