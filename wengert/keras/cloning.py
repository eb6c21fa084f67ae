"""`keras.models.clone_model`: a new model computing what a model computes, with new layers.

Cloning makes a model that computes what the original computes, with new layers and so new,
freshly initialized weights (copy them with `set_weights(model.get_weights())`). Each layer is
cloned by `clone_function(layer)`, by default `type(layer).from_config(layer.get_config())`; a
layer met twice (shared) is cloned once. A Sequential model gets its cloned layers in order,
behind an Input of the original's shape when it had one; a functional model is its graph
replayed on new inputs (`input_tensors`, or new `keras.Input`s of the original's shapes, dtypes
and names) with each layer swapped for its clone, `call_function(layer, *args, **kwargs)`
making each call when given. `recursive=True` clones the Sequential and functional models found
among the layers the same way. Any other model is rebuilt from its config. A compiled original
gives a clone compiled with the same configuration. (keras/__init__.py names it in
keras.models, which this module builds on.)
"""
from .layers.input_layer import Input, InputLayer
from .layers.keras_tensor import KerasTensor
from .models import Model, Sequential
from .saving.keras_file import compile_from_config
from .serialization import deserialize_keras_object, serialize_keras_object

__all__ = ["clone_model"]


def _default_clone(layer):
    return type(layer).from_config(layer.get_config())


def _cloner(clone_function, call_function, recursive, cache):
    clone_function = clone_function or _default_clone
    if not callable(clone_function):
        raise ValueError(f"clone_model: `clone_function` must be callable, got "
                         f"{clone_function!r}.")

    def clone(layer):
        if id(layer) not in cache:
            if recursive and isinstance(layer, Model) and (
                    isinstance(layer, Sequential) or getattr(layer, "_is_functional", False)):
                cache[id(layer)] = clone_model(layer, clone_function=clone_function,
                                               call_function=call_function, recursive=True,
                                               cache=cache)
            else:
                cache[id(layer)] = clone_function(layer)
        return cache[id(layer)]
    return clone


def clone_model(model, input_tensors=None, clone_function=None, call_function=None,
                recursive=False, **kwargs):
    """A new model computing what `model` computes, with new layers (module docstring)."""
    cache = kwargs.pop("cache", None)
    if kwargs:
        raise ValueError(f"clone_model: unexpected keyword argument(s) {tuple(kwargs)}.")
    if not isinstance(model, Model):
        raise ValueError(f"clone_model: expected a keras Model, got {type(model).__name__}.")
    cache = {} if cache is None else cache
    if isinstance(model, Sequential):
        if call_function is not None:
            raise ValueError("clone_model: `call_function` is not supported with Sequential "
                             "models (their layers are listed, not called, when they are "
                             "built); use it with functional models.")
        clone = _clone_sequential(model, _cloner(clone_function, None, recursive, cache),
                                  input_tensors)
    elif getattr(model, "_is_functional", False):
        clone = _clone_functional(model, _cloner(clone_function, call_function, recursive,
                                                 cache), input_tensors, call_function)
    else:
        if clone_function is not None or input_tensors is not None or call_function is not None:
            raise ValueError(f"clone_model: `clone_function`, `input_tensors` and "
                             f"`call_function` need a Sequential or functional model; "
                             f"{type(model).__name__} is subclassed (it is rebuilt from its "
                             f"get_config()).")
        return deserialize_keras_object(serialize_keras_object(model),
                                        custom_objects={type(model).__name__: type(model)})
    config = model.get_compile_config()
    if config is not None:
        compile_from_config(clone, config)
    return clone


def _clone_sequential(model, clone, input_tensors):
    layers = [clone(layer) for layer in model.layers]
    if input_tensors is not None:
        tensors = input_tensors if isinstance(input_tensors, (list, tuple)) else [input_tensors]
        if len(tensors) != 1 or not isinstance(tensors[0], KerasTensor):
            raise ValueError(f"clone_model: a Sequential model's `input_tensors` must be one "
                             f"KerasTensor (from keras.Input), got {input_tensors!r}.")
        layers = [InputLayer(input_tensor=tensors[0])] + layers
    elif getattr(model, "_batch_input_shape", None) is not None:
        layers = [Input(batch_shape=tuple(model._batch_input_shape),
                        dtype=model.inputs[0].dtype if model.inputs else None)] + layers
    cloned = Sequential(layers, name=model.name)
    cloned.trainable = model.trainable
    return cloned


def _clone_functional(model, clone, input_tensors, call_function):
    if input_tensors is None:
        def new_input(t):
            return Input(batch_shape=tuple(t.shape), dtype=t.dtype, name=t._keras_history[0].name)
        if isinstance(model._nested_inputs, dict):
            input_tensors = {k: new_input(t) for k, t in model._nested_inputs.items()}
        else:
            input_tensors = [new_input(t) for t in model.inputs]
            if not isinstance(model._nested_inputs, (list, tuple)):
                input_tensors = input_tensors[0]
    flat = list(input_tensors.values()) if isinstance(input_tensors, dict) else \
        list(input_tensors) if isinstance(input_tensors, (list, tuple)) else [input_tensors]
    if len(flat) != len(model.inputs) or not all(isinstance(t, KerasTensor) for t in flat):
        raise ValueError(f"clone_model: `input_tensors` must be {len(model.inputs)} "
                         f"KerasTensor(s) in the structure of model.input; got "
                         f"{input_tensors!r}.")
    outputs = model._run_functional(input_tensors, None, layer_for=clone,
                                    call_function=call_function)
    return Model(input_tensors, outputs, name=model.name)
