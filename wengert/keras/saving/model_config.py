"""Model configs as Keras 3 writes them, and models rebuilt from them.

Sequential: {"name", "trainable", "dtype", "layers": [InputLayer config when the input shape is
known, then each layer's config], "build_input_shape"}.
Functional ("keras.src.models.functional", "Functional"): {"name", "trainable", "layers": [each
layer's config with its "name" and "inbound_nodes"], "input_layers", "output_layers"}. A node is
{"args": [...], "kwargs": {...}} where each symbolic tensor is written
{"class_name": "__keras_tensor__", "config": {"shape", "dtype", "keras_history": [layer name,
node index, tensor index]}}; node indices count the layer's calls inside this model. Layers are
listed in Keras's order (deepest first, then in the order a depth-first walk from the outputs
meets them), which also fixes the weights file's numbering (dense, dense_1, ...).
Rebuilding replays the nodes: a node runs once every tensor it reads exists; Keras operations
such as NotEqual (op_layers.py) are rebuilt as small layers. Keras 2's node lists
[[name, node, tensor, kwargs], ...] are read too.
"""
from ..layers.base import Layer, _standard_config
from ..layers.input_layer import InputLayer
from ..layers.keras_tensor import KerasTensor
from ..serialization import deserialize_keras_object, serialize_keras_object

__all__ = ["functional_config", "functional_from_config", "sequential_config",
           "sequential_from_config", "keras_layer_order"]


# -- Keras's order of a functional model's layers ---------------------------------------------
def _producer(tensor):
    layer, node, index = tensor._keras_history
    return node


def keras_layer_order(outputs):
    """The layers that compute `outputs`, in the order Keras 3 lists a functional model's."""
    op_index, post_order, state = {}, [], {}
    stack = [(t, False) for t in reversed(outputs)]
    while stack:  # depth-first from the outputs: operations numbered when first met
        item, expanded = stack.pop()
        node = item if expanded else _producer(item)
        if expanded:
            state[id(node)] = "done"
            post_order.append(node)
            continue
        if state.get(id(node)) is not None:
            continue
        state[id(node)] = "open"
        op_index.setdefault(id(node.layer), (len(op_index), node.layer))
        stack.append((node, True))
        stack.extend((t, False) for t in reversed(node.input_tensors))
    node_depth, layer_depth = {}, {}
    for node in reversed(post_order):
        depth = max(node_depth.get(id(node), 0), layer_depth.get(id(node.layer), 0))
        layer_depth[id(node.layer)] = depth
        node_depth[id(node)] = depth
        for t in node.input_tensors:
            parent = _producer(t)
            node_depth[id(parent)] = max(depth + 1, node_depth.get(id(parent), 0))
    layers = [layer for _, layer in sorted(op_index.values(), key=lambda e: e[0])]
    return sorted(layers, key=lambda layer: (-layer_depth[id(layer)], op_index[id(layer)][0]))


# -- writing ----------------------------------------------------------------------------------
def _node_indices(model):
    """{id(node): index among its layer's nodes in this model}."""
    counts, out = {}, {}
    for node in model._nodes:
        key = id(node.layer)
        out[id(node)] = counts.get(key, 0)
        counts[key] = out[id(node)] + 1
    return out


def _tensor_config(t, indices):
    layer, node, index = t._keras_history
    return {"class_name": "__keras_tensor__",
            "config": {"shape": list(t.shape.as_list()), "dtype": t.dtype.name,
                       "keras_history": [layer.name, indices[id(node)], index]}}


def _arg_config(value, indices):
    if isinstance(value, KerasTensor):
        return _tensor_config(value, indices)
    if isinstance(value, (list, tuple)):
        return [_arg_config(v, indices) for v in value]
    if isinstance(value, dict):
        return {k: _arg_config(v, indices) for k, v in value.items()}
    return serialize_keras_object(value)


def _history(t, indices):
    layer, node, index = t._keras_history
    return [layer.name, indices[id(node)], index]


def functional_config(model):
    indices = _node_indices(model)
    layers = []
    for layer in model.layers:
        entry = serialize_keras_object(layer)
        entry["name"] = layer.name
        nodes = [n for n in model._nodes if n.layer is layer]
        entry["inbound_nodes"] = [] if isinstance(layer, InputLayer) else [
            {"args": [_arg_config(n.inputs, indices)] + [_arg_config(a, indices)
                                                         for a in n.args],
             "kwargs": _arg_config(n.kwargs, indices)} for n in nodes]
        layers.append(entry)
    return {"name": model.name, "trainable": model.trainable, "layers": layers,
            "input_layers": _structure(model._nested_inputs, model.inputs, indices),
            "output_layers": _structure(model._nested_outputs, model.outputs, indices)}


def _structure(nested, flat, indices):
    """Inputs or outputs as Keras writes them: one history, a list, or a dict keyed as given
    (`flat` holds the tensors in sorted-key order)."""
    histories = [_history(t, indices) for t in flat]
    if isinstance(nested, dict):
        return dict(zip(sorted(nested), histories))
    return histories if isinstance(nested, (list, tuple)) else histories[0]


def sequential_config(model):
    layers = []
    if model._batch_input_shape is not None:
        layers.append({"module": "keras.layers", "class_name": "InputLayer",
                       "config": {"batch_shape": list(model._batch_input_shape),
                                  "dtype": model.dtype, "sparse": False, "ragged": False,
                                  "name": "input_layer", "optional": False},
                       "registered_name": None})
    layers += [serialize_keras_object(layer) for layer in model.layers]
    config = {"name": model.name, "trainable": model.trainable, "dtype": model.dtype,
              "layers": layers}
    if model._build_input_shape is not None:
        config["build_input_shape"] = list(model._build_input_shape.as_list())
    return config


# -- reading ----------------------------------------------------------------------------------
def sequential_from_config(cls, config, custom_objects=None):
    config = _standard_config(config)
    layer_configs = config.get("layers", [])
    model = cls(name=config.get("name"))
    for layer_config in layer_configs:
        layer = deserialize_keras_object(layer_config, custom_objects=custom_objects)
        if isinstance(layer, InputLayer):
            model._batch_input_shape = tuple(layer._batch_input_shape)
            continue
        model.add(layer)
    shape = config.get("build_input_shape")
    if not model.built and shape is not None:
        model.build(tuple(shape))
    if config.get("trainable") is False:
        model.trainable = False
    return model


def _is_tensor_ref(value):
    return isinstance(value, dict) and value.get("class_name") == "__keras_tensor__"


def _refs(value, out):
    stack = [value]
    while stack:
        item = stack.pop()
        if _is_tensor_ref(item):
            out.append(tuple(item["config"]["keras_history"][:3]))
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
    return out


def _resolve(value, created):
    if _is_tensor_ref(value):
        name, node, index = value["config"]["keras_history"][:3]
        return created[(name, node)][index]
    if isinstance(value, list):
        return [_resolve(v, created) for v in value]
    if isinstance(value, dict):
        return {k: _resolve(v, created) for k, v in value.items()}
    return deserialize_keras_object(value) if isinstance(value, dict) else value


def _keras2_node(node):
    """Keras 2's [[name, node, tensor, kwargs], ...] as Keras 3's {"args", "kwargs"}."""
    refs = [{"class_name": "__keras_tensor__", "config": {"keras_history": entry[:3]}}
            for entry in node]
    kwargs = node[0][3] if node and len(node[0]) > 3 else {}
    return {"args": [refs[0] if len(refs) == 1 else refs], "kwargs": kwargs or {}}


def _call_node(layer, node):
    args = node.get("args", [])
    kwargs = dict(node.get("kwargs", {}))
    kwargs.pop("training", None)  # the call's training flag is decided when the model runs
    if not args:
        raise ValueError(f"Layer {layer.name!r}: a node without arguments cannot be rebuilt.")
    out = layer(args[0], *args[1:], **kwargs)
    return list(out) if isinstance(out, (list, tuple)) else [out]


def functional_from_config(cls, config, custom_objects=None):
    layers, pending, created = {}, [], {}
    for layer_config in config["layers"]:
        inner = {k: v for k, v in layer_config.items() if k not in ("inbound_nodes",)}
        layer = deserialize_keras_object(inner, custom_objects=custom_objects)
        name = layer_config.get("name") or layer.name
        layers[name] = layer
        if isinstance(layer, InputLayer):
            created[(name, 0)] = [layer.output]
        nodes = layer_config.get("inbound_nodes") or []
        nodes = [_keras2_node(n) if isinstance(n, list) else n for n in nodes]
        pending.append([name, layer, list(nodes), 0])
    progress = True
    while progress:
        progress = False
        for entry in pending:
            name, layer, nodes, done = entry
            while done < len(nodes) and all(ref[:2] in created or (ref[0], ref[1]) in created
                                            for ref in _refs(nodes[done], [])):
                node = nodes[done]
                resolved = {"args": _resolve(node.get("args", []), created),
                            "kwargs": _resolve(node.get("kwargs", {}), created)}
                created[(name, done)] = _call_node(layer, resolved)
                done += 1
                progress = True
            entry[3] = done
    unfinished = [e[0] for e in pending if e[3] < len(e[2])]
    if unfinished:
        raise ValueError(f"Functional model config: the calls of layers {unfinished} read "
                         "tensors no layer makes; the config is corrupt.")

    def pick(spec):
        if isinstance(spec, dict):
            return {key: pick(value) for key, value in spec.items()}
        if spec and isinstance(spec[0], str):
            return created[(spec[0], spec[1])][spec[2]]
        return [pick(s) for s in spec]
    inputs, outputs = pick(config["input_layers"]), pick(config["output_layers"])
    model = cls(inputs, outputs, name=config.get("name"))
    if config.get("trainable") is False:
        model.trainable = False
    return model


def is_layer(value):
    return isinstance(value, Layer)
