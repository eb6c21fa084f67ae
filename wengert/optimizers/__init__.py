"""`wengert.optimizers` (also `keras.optimizers`): the Keras 3 optimizers.

SGD (momentum, Nesterov), Adam (amsgrad), AdamW, Adamax, Nadam, Lamb, Lion, RMSprop, Adagrad,
Adadelta, Adafactor and Ftrl share the `Optimizer` base (optimizer.py): `apply(grads,
trainable_variables=None)`, `apply_gradients(zip(grads, variables))`, `minimize(loss,
var_list, tape=None)`, and every Keras 3 option: weight_decay, clipnorm, clipvalue,
global_clipnorm, use_ema (ema_momentum, ema_overwrite_frequency), gradient_accumulation_steps
and loss_scale_factor. Users subclass `Optimizer` as in Keras 3 (build + update_step).
`LossScaleOptimizer` wraps any of them with dynamic loss scaling. Learning rates may be
schedules (`optimizers.schedules`). `get("adam")` makes one by name. Each `apply_gradients`
call is one training step. TensorFlow 1's optimizers (`compat.v1.train.AdamOptimizer`,
`minimize` building graph ops) are in `wengert.train`; SciPy's whole-problem minimizers are
`wengert.optimize`.
"""
from . import schedules
from .adadelta import Adadelta
from .adafactor import Adafactor
from .adagrad import Adagrad
from .adam import Adam, AdamW
from .adamax import Adamax
from .ftrl import Ftrl
from .lamb import Lamb
from .lion import Lion
from .loss_scale import LossScaleOptimizer
from .nadam import Nadam
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "Adamax", "Nadam", "Lamb", "Lion", "RMSprop",
           "Adagrad", "Adadelta", "Adafactor", "Ftrl", "LossScaleOptimizer", "schedules", "get",
           "serialize", "deserialize"]

_BY_NAME = {cls.__name__.lower(): cls for cls in (
    SGD, Adam, AdamW, Adamax, Nadam, Lamb, Lion, RMSprop, Adagrad, Adadelta, Adafactor, Ftrl,
    LossScaleOptimizer)}


def get(identifier):
    """An optimizer from an Optimizer (returned as is), a name ("sgd", "adam", "adamw",
    "nadam", ...; any case) or a config dict {"class_name": ..., "config": ...}."""
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, str):
        cls = _BY_NAME.get(identifier.lower())
        if cls is None or cls is LossScaleOptimizer:
            raise ValueError(f"Unknown optimizer {identifier!r}; known: "
                             f"{sorted(set(_BY_NAME) - {'lossscaleoptimizer'})}.")
        return cls()
    if isinstance(identifier, dict):
        return deserialize(identifier)
    raise ValueError(f"Could not interpret optimizer identifier: {identifier!r} (pass an "
                     f"Optimizer or one of {sorted(_BY_NAME)}).")


def serialize(optimizer):
    return {"class_name": type(optimizer).__name__, "config": optimizer.get_config()}


def deserialize(config, custom_objects=None):
    classes = dict(_BY_NAME)
    classes.update({k.lower(): v for k, v in (custom_objects or {}).items()})
    name = str(config.get("class_name", "")).lower()
    if name not in classes:
        raise ValueError(f"Unknown optimizer {config.get('class_name')!r}; known: "
                         f"{sorted(classes)}.")
    return classes[name].from_config(config.get("config", {}), custom_objects)
