"""`wengert.optimizers` (also `keras.optimizers`): TensorFlow 2 / Keras 3 optimizers.

SGD (momentum, Nesterov), Adam (amsgrad), AdamW, RMSprop and Adagrad share the `Optimizer` base:
`apply_gradients(zip(grads, variables))`, `minimize(loss, var_list, tape=None)`, gradient clipping
(clipnorm, clipvalue, global_clipnorm), weight decay, and learning-rate schedules
(`optimizers.schedules`). `get("adam")` makes one by name. Each `apply_gradients` call is one
training step. TensorFlow 1's optimizers (`compat.v1.train.AdamOptimizer`, `minimize` building
graph ops) are in `wengert.train`; SciPy's whole-problem minimizers are `wengert.optimize`.
"""
from . import schedules
from .adagrad import Adagrad
from .adam import Adam, AdamW
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "schedules", "get",
           "serialize", "deserialize"]

_BY_NAME = {"sgd": SGD, "adam": Adam, "adamw": AdamW, "rmsprop": RMSprop, "adagrad": Adagrad}


def get(identifier):
    """An optimizer from an Optimizer (returned as is), a name ("sgd", "adam", "adamw",
    "rmsprop", "adagrad"; any case) or a config dict {"class_name": ..., "config": ...}."""
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, str):
        cls = _BY_NAME.get(identifier.lower())
        if cls is None:
            raise ValueError(f"Unknown optimizer {identifier!r}; known: {sorted(_BY_NAME)}.")
        return cls()
    if isinstance(identifier, dict):
        return deserialize(identifier)
    raise ValueError(f"Could not interpret optimizer identifier: {identifier!r} (pass an "
                     f"Optimizer or one of {sorted(_BY_NAME)}).")


def serialize(optimizer):
    return {"class_name": type(optimizer).__name__, "config": optimizer.get_config()}


def deserialize(config, custom_objects=None):
    classes = {cls.__name__.lower(): cls for cls in _BY_NAME.values()}
    classes.update({k.lower(): v for k, v in (custom_objects or {}).items()})
    name = str(config.get("class_name", "")).lower()
    if name not in classes:
        raise ValueError(f"Unknown optimizer {config.get('class_name')!r}; known: "
                         f"{sorted(classes)}.")
    return classes[name].from_config(config.get("config", {}), custom_objects)
