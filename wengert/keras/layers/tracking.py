"""What a Keras layer holds: its sublayers and Variables, tracked as they are assigned, and
the keys they are checkpointed under.

Assigning a Layer (or a list of Layers) or a `keras.Variable` to an attribute of a layer tracks
it: the sublayers in the order they were added, the Variables as trainable or not (with their
attribute name). A `tf.Variable` is not tracked, as in Keras 3: `fit` does not train it.
`weights` walks the tree of sublayers depth first in tracking order, layer by layer as Keras 3
lists them: each layer's own trainable weights, then its other weights, then
its sublayers'; each weight once. `trainable_weights` and `non_trainable_weights` keep that
order and split it: a weight under a frozen layer (trainable=False) is non-trainable.
`submodules` lists every layer below.

Weights are checkpointed through `_checkpoint_children()`: sublayers by the attribute that
holds them ("conv1", "blocks/0", else "layer-<i>"), then the layer's own weights by the
attribute Keras 3 holds them in, as TensorFlow's checkpoints of Keras 3 models key them: the
name given to `add_weight` ("bias", "gamma"), or `_checkpoint_weight_keys[name]` where Keras 3
keeps the weight under another attribute (Dense's kernel in `_kernel`, lora.py). Values restored into a layer that is not built yet
wait in `_pending_restores` until add_weight creates the weight.
"""
from collections import OrderedDict

import numpy as np

from ..variables import KerasVariable

__all__ = ["Tracking", "UNTRACKED", "depth_first"]

UNTRACKED = {"_trainable_weights", "_non_trainable_weights", "_named_weights", "_sublayers",
             "_inbound_nodes", "_output_shape", "_build_input_shape", "_losses"}


def depth_first(roots, children):
    """Every layer reachable from `roots`, each once, depth first: a layer, then what
    `children(layer)` lists below it, in order (a layer met again is skipped)."""
    out, seen, stack = [], set(), list(reversed(roots))
    while stack:
        layer = stack.pop()
        if id(layer) in seen:
            continue
        seen.add(id(layer))
        out.append(layer)
        stack.extend(reversed(children(layer)))
    return out


def _sublayers(layer):
    return layer._sublayers


def _trainable_sublayers(layer):
    return [sub for sub in layer._sublayers if sub._trainable] if layer._trainable else []


class Tracking:
    """The tracking half of `Layer` (see the module docstring); Layer sets `_trainable`."""

    _checkpoint_weight_keys = {}  # add_weight name -> checkpoint key, where Keras 3's differs

    # -- attribute tracking -----------------------------------------------------------------------
    def _init_tracking(self):
        d = self.__dict__
        d.setdefault("_trainable_weights", [])
        d.setdefault("_non_trainable_weights", [])
        d.setdefault("_named_weights", OrderedDict())
        d.setdefault("_sublayers", [])
        d.setdefault("_sublayer_keys", {})  # id(layer) -> its checkpoint key (attribute path)
        d.setdefault("_losses", [])

    def __setattr__(self, key, value):
        self._track(key, value)
        object.__setattr__(self, key, value)

    def _track(self, key, value):
        self._init_tracking()
        if key in UNTRACKED:
            return
        public = not key.startswith("_")
        if isinstance(value, Tracking) and value is not self:
            if value not in self._sublayers:
                self._sublayers.append(value)
            if public:
                self._sublayer_keys.setdefault(id(value), key)
        elif isinstance(value, KerasVariable):
            if not any(v is value for v in self._trainable_weights + self._non_trainable_weights):
                (self._trainable_weights if value.trainable else
                 self._non_trainable_weights).append(value)
                self._named_weights[key] = value
        elif isinstance(value, (list, tuple)) and value and all(
                isinstance(v, Tracking) for v in value):
            for i, layer in enumerate(value):
                if layer not in self._sublayers:
                    self._sublayers.append(layer)
                if public:
                    self._sublayer_keys.setdefault(id(layer), f"{key}/{i}")

    # -- the weights and layers below ------------------------------------------------------------
    def _weights_with_trainability(self):
        """[(Variable, trains)] for this layer and its sublayers, each once, in Keras 3's
        order: a layer's own weights (trainable ones, then the others, in creation order), then
        each sublayer's in tracking order. `trains` is False under a frozen layer and for a
        variable whose own `trainable` is False (a kernel frozen by enable_lora, as Keras 3
        filters)."""
        out, seen = [], set()
        for layer in depth_first([self], _sublayers):
            for v in layer._trainable_weights + layer._non_trainable_weights:
                if id(v) not in seen:
                    seen.add(id(v))
                    out.append(v)
        trainers = depth_first([self], _trainable_sublayers) if self._trainable else []
        trains = {id(v) for layer in trainers for v in layer._trainable_weights if v.trainable}
        return [(v, id(v) in trains) for v in out]

    @property
    def weights(self):
        return [v for v, _ in self._weights_with_trainability()]

    @property
    def trainable_weights(self):
        return [v for v, trains in self._weights_with_trainability() if trains]

    @property
    def non_trainable_weights(self):
        return [v for v, trains in self._weights_with_trainability() if not trains]

    @property
    def trainable_variables(self):
        return self.trainable_weights

    @property
    def non_trainable_variables(self):
        return self.non_trainable_weights

    @property
    def variables(self):
        return self.weights

    @property
    def submodules(self):
        """Every layer under this one (not itself), depth first in tracking order."""
        return tuple(depth_first([self], _sublayers)[1:])

    # -- checkpoints ------------------------------------------------------------------------------
    def _checkpoint_children(self):
        """{sublayer key: sublayer, ..., weight name: Variable, ...} for train.Checkpoint. A
        sublayer's key is its place in the object graph, as TensorFlow's: the attribute holding
        it ("conv1", "blocks/0"), else its position ("layer-2"), never its name, which comes
        from a process-wide counter ("dense_7"): a model built again later, or in another
        process, restores from the same keys."""
        children = OrderedDict()
        for key, layer in self._keyed_sublayers().items():
            children[key] = layer
        renamed = self._checkpoint_weight_keys
        for key, variable in self._named_weights.items():
            children[renamed.get(key, key)] = variable
        return children

    def _checkpoint_legacy_children(self):
        """The keys wengert wrote before it keyed weights as Keras 3 does (every weight by its
        add_weight name), for restoring such checkpoints (train/object_graph.py)."""
        children = OrderedDict(self._keyed_sublayers())
        children.update(self._named_weights)
        return children

    def _keyed_sublayers(self):
        keys = self.__dict__.get("_sublayer_keys", {})
        return OrderedDict((keys.get(id(layer), f"layer-{i}"), layer)
                           for i, layer in enumerate(self._sublayers))

    def _defer_restore(self, values):
        """Keep checkpointed values {"kernel": array, "dense/bias": array, ...} for weights
        not created yet (an unbuilt layer); add_weight starts from them."""
        sublayers = self._keyed_sublayers()
        names = {key: name for name, key in self._checkpoint_weight_keys.items()}
        for key, value in values.items():
            head, _, rest = key.partition("/")
            if rest and head in sublayers:
                sublayers[head]._defer_restore({rest: value})
            else:
                self.__dict__.setdefault("_pending_restores", {})[names.get(key, key)] = value

    def _restored_value(self, name, shape, dtype):
        pending = self.__dict__.get("_pending_restores")
        if not pending or name not in pending:
            return None
        value = np.asarray(pending.pop(name))
        if value.shape != shape or value.dtype != dtype.as_numpy_dtype:
            raise ValueError(f"Layer {self.name!r}: the checkpointed value of weight {name!r} "
                             f"has shape {value.shape} and dtype {value.dtype}, but the weight "
                             f"is created with shape {shape} and dtype {dtype.name}.")
        return value
