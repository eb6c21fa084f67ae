"""`Model` and `Sequential`: layers composed into a trainable whole.

Three ways to make a model, as in Keras:
- `Sequential([Dense(64, activation="relu", input_shape=(784,)), Dense(10)])`: a stack, each
  layer applied to the previous one's output. With an input shape (on the first layer, or a
  leading `keras.Input`) it is built at once; otherwise on its first call.
- functional: `inputs = keras.Input(shape=(784,)); outputs = Dense(10)(Dense(64)(inputs));
  Model(inputs, outputs)`: the recorded layer calls are replayed in order (functional.py).
- subclassing: `class MyModel(Model)` creating layers in `__init__` and using them in `call`.
A model is a Layer (weights, get/set_weights, checkpoints) with the training API of
training.py (its step functions step_functions.py's, its state tree model_state.py's) and
`summary()`, a table of layers, output shapes and parameter counts.

Checkpoints key a model's layers as TensorFlow's checkpoints of Keras 3 models do, so that
each restores the other's: a functional model's layers by their place among the graph's
operations ("_operations/<i>", its InputLayers counted), a Sequential's through the functional
model Keras 3 keeps inside it ("_functional/_operations/<i>", the input at 0, the layers from
1); a subclassed model's by the attributes holding them.
"""
import json
from collections import OrderedDict

from ..framework.tensor_shape import TensorShape
from ..train import Checkpoint
from .layers.base import Layer, _standard_config
from .layers.input_layer import InputLayer
from .layers.keras_tensor import KerasTensor, is_shape_list
from .layers.tracking import depth_first
from .saving import load_model, save_model, serving_functions
from .saving.export_archive import export_model
from .saving.h5_weights import load_weights, save_weights
from .saving.keras_file import compile_from_config, load_weights_from_keras_file
from .saving.model_config import (functional_config, functional_from_config, sequential_config,
                                  sequential_from_config)
from .serialization import deserialize_keras_object, serialize_keras_object
from .functional import FunctionalMixin
from .model_state import ModelState
from .step_functions import StepFunctions
from .training import TrainingMixin

__all__ = ["Model", "Sequential", "save_model", "load_model", "model_from_json"]

_NOT_BUILT = ("This model has not yet been built. Build the model first by calling `build()` "
              "or by calling the model on a batch of data.")


class Model(FunctionalMixin, StepFunctions, ModelState, TrainingMixin, Layer):
    """A model: subclass it (layers in __init__, computation in call) or call it as
    Model(inputs, outputs) on KerasTensors from keras.Input."""

    def __init__(self, *args, **kwargs):
        inputs = kwargs.pop("inputs", args[0] if len(args) > 0 else None)
        outputs = kwargs.pop("outputs", args[1] if len(args) > 1 else None)
        self.stop_training = False
        self.history = None
        self.loss = None  # compile's loss (the deprecated method loss() is step_functions.py's)
        self._is_compiled = False
        self._is_functional = False
        self.run_eagerly = False
        self._train_step_fn = None
        if inputs is not None or outputs is not None:
            self._init_functional(inputs, outputs, **kwargs)
        else:
            Layer.__init__(self, **kwargs)
        self._autocast = False  # a model's layers cast their own inputs

    def call(self, inputs, training=None, mask=None):
        if self._is_functional:
            return self._run_functional(inputs, training)
        raise NotImplementedError(f"Model {self.name!r}: subclasses of Model implement "
                                  "call(inputs, training=None).")

    def compute_output_shape(self, input_shape):
        if self._is_functional:
            return self._output_shape
        return Layer.compute_output_shape(self, input_shape)

    # -- structure --------------------------------------------------------------------------------
    @property
    def layers(self):
        if self._is_functional:
            return list(self._functional_layers)
        return list(self._sublayers)

    def get_layer(self, name=None, index=None):
        layers = self.layers
        if index is not None:
            if index >= len(layers):
                raise ValueError(f"Was asked to retrieve layer at index {index} but model only "
                                 f"has {len(layers)} layers.")
            return layers[index]
        for layer in layers:
            if layer.name == name:
                return layer
        raise ValueError(f"No such layer: {name}. Existing layers are: "
                         f"{[layer.name for layer in layers]}.")

    def _flatten_layers(self):
        """Every layer inside this model (depth first), without repeats."""
        return depth_first(self.layers, lambda layer: layer.layers if isinstance(layer, Model)
                           else layer._sublayers)

    def build(self, input_shape):
        if self._is_functional:
            return
        if input_shape is None:
            raise ValueError("You must provide an `input_shape` argument.")
        Layer.build(self, input_shape)
        if type(self).call is not Model.call:
            shape = [TensorShape(s) for s in input_shape] if is_shape_list(input_shape) else \
                TensorShape(input_shape)
            self._build_input_shape = shape
            self._output_shape = Layer.compute_output_shape(self, shape)
        self.built = True

    def _maybe_build(self, inputs):
        if not self.built and isinstance(inputs, dict):  # a dict of inputs: built by the call
            self._build_input_shape = {k: TensorShape(v.shape) for k, v in inputs.items()}
            self.built = True
            return
        Layer._maybe_build(self, inputs)

    def _checkpoint_children(self):
        children = Layer._checkpoint_children(self)
        if self._is_functional:  # the graph's layers under "_operations" (module docstring)
            listed = {id(layer) for layer in self._functional_layers}
            children = OrderedDict((k, v) for k, v in children.items() if id(v) not in listed)
            children["_operations"] = _CheckpointNode(
                (str(i), layer) for i, layer in enumerate(self._functional_layers))
        return children

    def _checkpoint_legacy_children(self):
        """The keys wengert wrote before the module docstring's (a functional model's layers
        as "layer-<i>" by their place in the graph), for restoring such checkpoints."""
        children = Layer._checkpoint_legacy_children(self)
        if self._is_functional:
            known = {id(layer) for layer in children.values()}
            for i, layer in enumerate(self._functional_layers):
                if id(layer) not in known:
                    key = f"layer-{i}"
                    children[key if key not in children else f"functional/layer-{i}"] = layer
        return children

    # -- saving ---------------------------------------------------------------------------------
    # -- whole-model saving (saving.py): the SavedModel directory form ---------------------------
    def save(self, filepath, overwrite=True, save_format=None, **kwargs):
        save_model(self, filepath, overwrite=overwrite, save_format=save_format, **kwargs)

    def export(self, filepath, format="tf_saved_model", verbose=None, input_signature=None,
               **kwargs):
        """Keras 3's inference artifact: a SavedModel serving "serve" (export_archive.py)."""
        export_model(self, filepath, format, verbose, input_signature, **kwargs)

    def _list_functions_for_serialization(self):
        return {"__call__": serving_functions(self)[0]}

    def _default_save_signature(self):
        return serving_functions(self)[1][0]

    def save_weights(self, filepath, overwrite=True, save_format=None, options=None):
        """Write the weights: Keras 3's HDF5 weights file for a path ending in `.weights.h5`
        (or `.h5`), else a checkpoint (train.Checkpoint's format, TensorFlow 2's default)."""
        path = str(filepath)
        if save_format == "h5" or path.endswith((".h5", ".hdf5")):
            return save_weights(self, path, overwrite=overwrite)
        return Checkpoint(model=self).write(filepath)

    def load_weights(self, filepath, skip_mismatch=False, by_name=False, options=None):
        """Read weights from a `.weights.h5` / `.h5` file, a `.keras` file, or a checkpoint
        written by save_weights (deferred until built for an unbuilt model). A file that does
        not fit the model changes nothing."""
        path = str(filepath)
        if path.endswith((".h5", ".hdf5")):
            return load_weights(self, path, skip_mismatch=skip_mismatch)
        if path.endswith(".keras"):
            return load_weights_from_keras_file(self, path, skip_mismatch=skip_mismatch)
        return Checkpoint(model=self).read(filepath)

    # -- summary ----------------------------------------------------------------------------------
    def summary(self, line_length=None, positions=None, print_fn=None, expand_nested=False,
                show_trainable=False, layer_range=None):
        """Print a table of the layers: name (type), output shape, number of parameters."""
        if not self.built:
            raise ValueError(_NOT_BUILT)
        print_fn = print_fn or print
        width = line_length or 65
        stops = [int(width * p) if p <= 1 else int(p) for p in (positions or (.45, .85, 1.))]
        print_fn(f'Model: "{self.name}"')
        print_fn("_" * width)
        print_fn(_row(["Layer (type)", "Output Shape", "Param #"], stops))
        print_fn("=" * width)
        for layer in self.layers:
            params = layer.count_params() if layer.built else 0
            print_fn(_row([f"{layer.name} ({type(layer).__name__})", _shape_text(layer),
                           f"{params:,}"], stops))
            print_fn(" " * width)
        print_fn("=" * width)
        trainable = sum(_size(v) for v in self.trainable_weights)
        frozen = sum(_size(v) for v in self.non_trainable_weights)
        print_fn(f"Total params: {trainable + frozen:,}")
        print_fn(f"Trainable params: {trainable:,}")
        print_fn(f"Non-trainable params: {frozen:,}")
        print_fn("_" * width)

    # -- configs ----------------------------------------------------------------------------------
    @property
    def _keras_class_name(self):
        return "Functional" if self._is_functional and type(self) is Model else type(
            self).__name__

    @property
    def _keras_registered_name(self):
        return "Functional" if self._is_functional and type(self) is Model else None

    @property
    def _keras_module(self):
        if self._is_functional and type(self) is Model:
            return "keras.src.models.functional"
        return "keras" if type(self).__module__.startswith("wengert.") else None

    def to_json(self, **kwargs):
        """The model's config as Keras 3 serializes it, as JSON text (`json.dumps`'s keyword
        arguments in `kwargs`); `keras.models.model_from_json` builds the model back."""
        return json.dumps(serialize_keras_object(self), **kwargs)

    def compile_from_config(self, config):
        """compile() as `get_compile_config()` (or a .keras file's compile_config) describes."""
        compile_from_config(self, config)

    def get_config(self):
        """Keras 3's config: a functional model's layers and their calls; a subclassed
        model's name and trainable flag (override it to add your own arguments)."""
        if self._is_functional:
            return functional_config(self)
        return {"name": self.name, "trainable": self.trainable}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        if "layers" in config and "input_layers" in config:
            return functional_from_config(cls, config, custom_objects)
        return cls(**_standard_config(config))

    def get_build_config(self):
        if self._is_functional:
            return {"input_shape": None}
        return Layer.get_build_config(self)

    def get_compile_config(self):
        if not getattr(self, "_is_compiled", False):
            return None
        loss = self.loss
        optimizer = self.optimizer
        try:
            optimizer_config = serialize_keras_object(optimizer)
        except TypeError:
            optimizer_config = None
        return {"optimizer": optimizer_config,
                "loss": loss if isinstance(loss, str) or loss is None else
                serialize_keras_object(loss),
                **{key: _plain(value) for key, value in self._compile_spec.items()},
                "run_eagerly": bool(self.run_eagerly), "steps_per_execution": 1,
                "jit_compile": False}


def _plain(spec):
    """A compile argument made of names and numbers only (lists, dicts), else None."""
    if isinstance(spec, dict):
        values = {k: _plain(v) for k, v in spec.items()}
        return values if all(v is not None for v in values.values()) else None
    if isinstance(spec, (list, tuple)):
        values = [_plain(v) for v in spec]
        return values if values and all(v is not None for v in values) else None
    return spec if isinstance(spec, (str, int, float)) else None


def _size(variable):
    n = 1
    for d in variable.shape:
        n *= d
    return n


def _shape_text(layer):
    shape = layer._output_shape
    if shape is None:
        return "multiple"
    if isinstance(shape, list):
        return str([tuple(s) for s in shape])
    return str(tuple(shape))


def _row(fields, stops):
    line, start = "", 0
    for field, stop in zip(fields, stops):
        cell = (" " + field) if start == 0 else field
        line += cell[: stop - start - 1].ljust(stop - start)
        start = stop
    return line.rstrip().ljust(stops[-1])


class Sequential(Model):
    """A linear stack of layers: `Sequential([layer, ...])`, `add(layer)`, `pop()`."""

    def __init__(self, layers=None, name=None, **kwargs):
        Model.__init__(self, name=name, **kwargs)
        self._stack = []
        for layer in layers or ():
            self.add(layer)

    @property
    def layers(self):
        return list(self._stack)

    def add(self, layer):
        """Append a layer (or a keras.Input, which fixes the input shape)."""
        if isinstance(layer, KerasTensor):
            input_layer = layer._keras_history[0]
            if self._stack or not isinstance(input_layer, InputLayer):
                raise ValueError("A keras.Input can only be the first element of a Sequential "
                                 "model.")
            self._batch_input_shape = tuple(layer.shape)
            self.__dict__["_input_tensor"] = layer
            return
        if isinstance(layer, InputLayer):
            self._batch_input_shape = tuple(layer._batch_input_shape)
            self.__dict__["_input_tensor"] = layer.output
            return
        if not isinstance(layer, Layer):
            raise TypeError(f"The added layer must be an instance of class Layer. Received: "
                            f"layer={layer!r} of type {type(layer)}.")
        if any(existing.name == layer.name for existing in self._stack):
            raise ValueError(f"All layers added to a Sequential model should have unique "
                             f"names. Name {layer.name!r} is already the name of a layer in "
                             "this model. Update the `name` argument to pass a unique name.")
        if not self._stack and layer._batch_input_shape is not None:
            self._batch_input_shape = tuple(layer._batch_input_shape)
        self._stack.append(layer)
        self._sublayers.append(layer)
        self._reset_steps()
        self.__dict__.pop("_symbolic", None)
        if self._batch_input_shape is not None:
            self.built = False
            self.build(self._batch_input_shape)

    @property
    def inputs(self):
        """[the keras.Input the model starts with]; with `outputs` the stack as a functional
        graph on it, made on first use, so that each layer's `output` is defined."""
        return [self._symbolic_graph()[0]]

    @property
    def outputs(self):
        return [self._symbolic_graph()[1]]

    def _symbolic_graph(self):
        graph = self.__dict__.get("_symbolic")
        if graph is None:
            inputs = self.__dict__.get("_input_tensor")
            if inputs is None:
                raise AttributeError(f"Sequential model {self.name!r} has no defined inputs: "
                                     "start it with a keras.Input (Sequential([keras.Input("
                                     "shape=...), ...])).")
            x = inputs
            for layer in self._stack:
                x = layer(x)
            graph = self.__dict__["_symbolic"] = (inputs, x)
        return graph

    def _symbolic_io(self):
        inputs, outputs = self._symbolic_graph()
        return inputs, outputs

    def pop(self):
        if not self._stack:
            raise TypeError("There are no layers in the model.")
        layer = self._stack.pop()
        self.__dict__.pop("_symbolic", None)
        self._sublayers.remove(layer)
        self._reset_steps()
        return layer

    def build(self, input_shape=None):
        """Build every layer from `input_shape` (batch axis first), following the shapes."""
        input_shape = input_shape or self._batch_input_shape
        if input_shape is None:
            raise ValueError("You must provide an `input_shape` argument.")
        shape = TensorShape(input_shape)
        self._build_input_shape = shape
        for layer in self._stack:
            layer._build_from_shape(shape)
            shape = layer.compute_output_shape(shape)
            if layer._output_shape is None:
                layer._output_shape = shape
        self._output_shape = shape
        self.built = True

    def _maybe_build(self, inputs):
        if not self.built:  # called on data: the layers build themselves as they are called
            self._build_input_shape = TensorShape(inputs.shape) if hasattr(inputs, "shape") \
                else None
            self.built = True

    def call(self, inputs, training=None, mask=None):
        x = inputs
        for layer in self._stack:
            x = layer(x, training=training)
        if self._output_shape is None and hasattr(x, "shape"):
            self._output_shape = TensorShape((None,) + tuple(x.shape)[1:])
        return x

    def compute_output_shape(self, input_shape):
        shape = TensorShape(input_shape)
        for layer in self._stack:
            shape = layer.compute_output_shape(shape)
        return shape

    def _checkpoint_children(self):
        operations = [("0", _CheckpointNode(()))] + [(str(i + 1), layer)
                                                     for i, layer in enumerate(self._stack)]
        return OrderedDict(_functional=_CheckpointNode(
            [("_operations", _CheckpointNode(operations))]))

    def _checkpoint_legacy_children(self):
        return Layer._checkpoint_legacy_children(self)  # "layer-<i>" in the stack's order

    def get_config(self):
        return sequential_config(self)

    @classmethod
    def from_config(cls, config, custom_objects=None):
        return sequential_from_config(cls, config, custom_objects)


class _CheckpointNode:
    """An object of a model's checkpoint graph that Keras 3 has and wengert does not keep (a
    Sequential's functional model, a list of operations, an InputLayer's place)."""

    def __init__(self, children):
        self._children = OrderedDict(children)

    def _checkpoint_children(self):
        return self._children


def model_from_json(json_string, custom_objects=None):
    """The model whose config `Model.to_json` wrote, its weights freshly initialized. Nothing in
    the text runs as code: layers are found by class name among Keras's and the registered
    custom objects."""
    try:
        config = json.loads(json_string)
    except (TypeError, ValueError, RecursionError) as err:
        raise ValueError(f"model_from_json: the text is not JSON ({err}).") from None
    return deserialize_keras_object(config, custom_objects=custom_objects)
