"""Functional models: `Model(inputs, outputs)` on the KerasTensors of `keras.Input` and layer
calls, the part of `Model` that records and replays that graph.

`inputs` and `outputs` may each be one KerasTensor, a list, or a dict keyed by name. The nodes
that compute the outputs are put in order once (an iterative topological sort, no recursion) and
replayed on every call: the call's inputs, given in the structure of `inputs` (or, for a list
of inputs, as a dict keyed by the Input layers' names), are substituted for the symbolic ones,
each node's layer is called on its inputs' values, and the outputs come back in the structure of
`outputs`. A `training` given to the model's call overrides the one a node was built with (Keras
3 propagates the call context: `base(x, training=False)` inside a model that fit trains runs in
training mode; a layer with trainable=False, such as a frozen BatchNormalization, still infers).
A dict's tensors are taken in the order of their sorted keys, as Keras flattens a structure (so
the layers, their weights and the outputs are listed as Keras lists them).
`input_names` / `output_names` are the dict keys, else the Input layers' and the output
layers' names (per-output losses and metrics are keyed by them); `input` / `output` are the
symbolic tensors in the structure given.

`layers` lists the layers in Keras 3's order, which `.weights.h5` files number layers by: by
decreasing depth (the longest path from the layer to an output), ties in the order a depth-first
walk from the outputs (through each node's inputs in turn) first meets them.
"""
from .layers.base import Layer
from .layers.input_layer import InputLayer
from .layers.keras_tensor import KerasTensor, substitute

__all__ = ["FunctionalMixin"]


class FunctionalMixin:
    """Model(inputs, outputs): the graph of layer calls (see the module docstring)."""

    def _init_functional(self, inputs, outputs, name=None, trainable=True, **kwargs):
        Layer.__init__(self, name=name, trainable=trainable, **kwargs)
        self._is_functional = True
        self._nested_inputs, self._nested_outputs = inputs, outputs
        self.inputs = _flat(inputs)
        self.outputs = _flat(outputs)
        for t in self.inputs + self.outputs:
            if not isinstance(t, KerasTensor):
                raise TypeError(f"Model(inputs, outputs) expects KerasTensors from keras.Input "
                                f"and layer calls, got {t!r}.")
        self._nodes = _topological_nodes(self.outputs)
        known = {id(t) for t in self.inputs}
        for node in self._nodes:
            if isinstance(node.layer, InputLayer) and id(node.outputs) not in known:
                raise ValueError(f"Graph disconnected: the output depends on input "
                                 f"{node.layer.name!r}, which is not in the model's inputs.")
        self._functional_layers = _keras_layer_order(self._nodes, self.outputs)
        self.built = True
        shapes = [t.shape for t in self.inputs]
        self._build_input_shape = shapes if len(shapes) > 1 else shapes[0]
        out_shapes = [t.shape for t in self.outputs]
        self._output_shape = out_shapes if len(out_shapes) > 1 else out_shapes[0]

    @property
    def input_names(self):
        """The names of the inputs: a dict of inputs' keys, else the Input layers' names."""
        if isinstance(self._nested_inputs, dict):
            return sorted(self._nested_inputs)
        return [t._keras_history[0].name for t in self.inputs]

    @property
    def output_names(self):
        """The names of the outputs (losses and metrics per output are keyed by them): a dict
        of outputs' keys, else the names of the layers that produced them."""
        if not getattr(self, "_is_functional", False):
            return None
        if isinstance(self._nested_outputs, dict):
            return sorted(self._nested_outputs)
        return [t._keras_history[0].name for t in self.outputs]

    @property
    def input(self):
        """The model's input KerasTensor(s), in the structure given to Model(inputs, ...)."""
        return self._symbolic_io()[0]

    @property
    def output(self):
        """The model's output KerasTensor(s), in the structure given to Model(..., outputs)."""
        return self._symbolic_io()[1]

    def _symbolic_io(self):
        if not getattr(self, "_is_functional", False):
            raise AttributeError(f"Model {self.name!r} has no symbolic inputs and outputs: only "
                                 "a functional model (or a Sequential model with an input "
                                 "shape) defines `input` and `output`.")
        nested_in, nested_out = self._nested_inputs, self._nested_outputs
        if isinstance(nested_in, (list, tuple)) and len(nested_in) == 1:
            nested_in = nested_in[0]
        if isinstance(nested_out, (list, tuple)) and len(nested_out) == 1:
            nested_out = nested_out[0]
        return nested_in, nested_out

    def _flat_call_inputs(self, inputs):
        """The call's inputs in the order of self.inputs: from a dict (keyed like a dict of
        inputs, or by the Input layers' names), a list, or one tensor."""
        if not isinstance(inputs, dict):
            return list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
        names = self.input_names
        missing = [name for name in names if name not in inputs]
        if missing:
            raise ValueError(f"Model {self.name!r}: the dict of inputs lacks {missing}; it has "
                             f"keys {sorted(inputs)} and the model's inputs are {names}.")
        return [inputs[name] for name in names]

    def _run_functional(self, inputs, training, layer_for=None, call_function=None):
        """The outputs for `inputs`; `layer_for(layer)` (cloning) stands in another layer for
        each of the graph's, and `call_function(layer, *args, **kwargs)` makes each call."""
        flat = self._flat_call_inputs(inputs)
        if len(flat) != len(self.inputs):
            raise ValueError(f"Model {self.name!r} expects {len(self.inputs)} input(s), but it "
                             f"received {len(flat)} input tensors.")
        values = {id(t): x for t, x in zip(self.inputs, flat)}
        for node in self._nodes:
            if isinstance(node.layer, InputLayer):
                continue
            layer_in = substitute(node.inputs, values)
            node_training = training if training is not None else node.training
            layer = node.layer if layer_for is None else layer_for(node.layer)
            call = layer if call_function is None else \
                (lambda *a, _layer=layer, **k: call_function(_layer, *a, **k))
            out = call(layer_in, *substitute(node.args, values), training=node_training,
                       **substitute(node.kwargs, values))
            outs = out if isinstance(node.outputs, (list, tuple)) else [out]
            for t, value in zip(node.output_tensors, outs):
                values[id(t)] = value
        results = [values[id(t)] for t in self.outputs]
        if isinstance(self._nested_outputs, dict):
            return dict(zip(sorted(self._nested_outputs), results))
        if isinstance(self._nested_outputs, (list, tuple)):
            return results
        return results[0]


def _flat(tensors):
    """A structure's tensors in Keras's order: a dict's by sorted key, as keras.tree flattens."""
    if isinstance(tensors, dict):
        return [tensors[key] for key in sorted(tensors)]
    return list(tensors) if isinstance(tensors, (list, tuple)) else [tensors]


def _topological_nodes(outputs):
    """The nodes that compute `outputs`, each after the nodes of its inputs (explicit stack)."""
    order, done, stack = [], set(), [(t.node, False) for t in reversed(outputs)]
    while stack:
        node, expanded = stack.pop()
        if id(node) in done:
            continue
        if expanded:
            done.add(id(node))
            order.append(node)
            continue
        stack.append((node, True))
        for t in reversed(node.input_tensors):
            if id(t.node) not in done:
                stack.append((t.node, False))
    return order


def _keras_layer_order(nodes, outputs):
    """The layers of `nodes` (topologically sorted) in Keras 3's order (module docstring)."""
    first_seen, seen, stack = {}, set(), [t.node for t in reversed(outputs)]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        first_seen.setdefault(id(node.layer), len(first_seen))
        stack.extend(t.node for t in reversed(node.input_tensors))
    node_depth, layer_depth, layers = {}, {}, {}
    for node in reversed(nodes):
        depth = node_depth.setdefault(id(node), 0)
        layer_depth[id(node.layer)] = max(layer_depth.get(id(node.layer), 0), depth)
        layers[id(node.layer)] = node.layer
        for t in node.input_tensors:
            node_depth[id(t.node)] = max(node_depth.get(id(t.node), 0), depth + 1)
    return sorted(layers.values(), key=lambda layer: (-layer_depth[id(layer)],
                                                       first_seen[id(layer)]))
