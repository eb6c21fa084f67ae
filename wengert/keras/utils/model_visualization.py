"""`keras.utils.model_to_dot` and `keras.utils.plot_model`: the model's layer graph drawn.

model_to_dot gives the DOT source (a string; Keras returns a pydot graph), plot_model writes it
to `to_file` (".dot" as text, any other extension rendered by Graphviz's `dot` program, which
must be installed).
"""
import os
import shutil
import subprocess

__all__ = ["model_to_dot", "plot_model"]


def _quote(text):
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _graph(model):
    """(layers in order, edges between layers) of a Sequential or functional model."""
    nodes = getattr(model, "_nodes", None)
    if getattr(model, "_is_functional", False) and nodes:
        layers, edges = [], []
        for node in nodes:
            if node.layer not in layers:
                layers.append(node.layer)
            for t in node.input_tensors:
                edge = (t.node.layer, node.layer)
                if edge not in edges:
                    edges.append(edge)
        return layers, edges
    layers = list(model.layers)
    return layers, list(zip(layers[:-1], layers[1:]))


def _label(layer, show_shapes, show_dtype, show_layer_names, show_layer_activations,
           show_trainable):
    lines = [f"{layer.name} ({type(layer).__name__})" if show_layer_names
             else type(layer).__name__]
    activation = getattr(layer, "activation", None)
    if show_layer_activations and activation is not None:
        lines.append(f"Activation: {getattr(activation, '__name__', activation)}")
    if show_shapes:
        shape = getattr(layer, "_output_shape", None)
        if shape is None and hasattr(layer, "_batch_input_shape"):
            shape = layer._batch_input_shape
        text = "multiple" if shape is None else (
            str([tuple(s) for s in shape]) if isinstance(shape, list) else str(tuple(shape)))
        lines.append(f"Output shape: {text}")
    if show_dtype:
        lines.append(f"Output dtype: {getattr(layer, 'dtype', None)}")
    if show_trainable:
        lines.append(f"Trainable: {'Y' if layer.trainable else 'N'}")
    return "\\n".join(lines)


def model_to_dot(model, show_shapes=False, show_dtype=False, show_layer_names=True,
                 rankdir="TB", expand_nested=False, dpi=200, subgraph=False,
                 show_layer_activations=False, show_trainable=False, **kwargs):
    """The DOT source (a string) of the model's layer graph."""
    if not model.layers:
        raise ValueError("model_to_dot: the model has no layers; build it first.")
    layers, edges = _graph(model)
    lines = [f"digraph {_quote(model.name)} {{", f"  rankdir={rankdir};", f"  dpi={dpi};",
             "  concentrate=true;", "  node [shape=record];"]
    for layer in layers:
        label = _label(layer, show_shapes, show_dtype, show_layer_names,
                       show_layer_activations, show_trainable)
        lines.append(f"  {_quote(id(layer))} [label={_quote(label)}];")
    for a, b in edges:
        lines.append(f"  {_quote(id(a))} -> {_quote(id(b))};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def plot_model(model, to_file="model.png", show_shapes=False, show_dtype=False,
               show_layer_names=False, rankdir="TB", expand_nested=False, dpi=200,
               show_layer_activations=False, show_trainable=False, **kwargs):
    """Write the model's layer graph to `to_file`: DOT text for ".dot", otherwise an image
    rendered by Graphviz's `dot` (its format from the extension: png, svg, pdf, ...)."""
    source = model_to_dot(model, show_shapes=show_shapes, show_dtype=show_dtype,
                          show_layer_names=show_layer_names, rankdir=rankdir,
                          expand_nested=expand_nested, dpi=dpi,
                          show_layer_activations=show_layer_activations,
                          show_trainable=show_trainable)
    extension = os.path.splitext(to_file)[1][1:].lower() or "png"
    if extension in ("dot", "gv"):
        with open(to_file, "w") as f:
            f.write(source)
        return None
    dot = shutil.which("dot")
    if dot is None:
        raise ImportError("plot_model: Graphviz's `dot` program was not found; install "
                          "Graphviz (e.g. `apt-get install graphviz`, see "
                          "https://graphviz.gitlab.io/download/) or write the DOT source with "
                          "to_file='model.dot'.")
    done = subprocess.run([dot, f"-T{extension}", "-o", to_file], input=source.encode(),
                          capture_output=True)
    if done.returncode != 0:
        raise ValueError(f"plot_model: Graphviz could not render {to_file!r} as "
                         f"{extension!r}: {done.stderr.decode(errors='replace').strip()}")
    return None
