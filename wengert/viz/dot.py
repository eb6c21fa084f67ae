"""Pictures of the gradient graph: Graphviz DOT for a Graph, a traced function or a tape.

The classic picture of TensorFlow's autodiff is a forward graph (say C = sum(relu(W x + b))) and
the same graph with the nodes `gradients()` added for dC/dW and dC/db. `draw(obj)` produces it:

- forward ops are blue ellipses, gradient ops orange dashed boxes (in a graph, the ops under a
  "gradients/" or "gradient_tape/" name scope, and anything computed from them);
- variables are green cylinders, placeholders (and watched tensors of a tape) yellow houses,
  constants small grey boxes;
- each edge carries the dtype and shape of the tensor it moves.

For a tape there is no graph of gradient ops yet: with `gradients=True` the reverse pass runs
once over the tape's records (nothing is recorded on active tapes), with a per-op observer that
notes each op the gradient rules execute and, from the reverse pass's current op, which forward op
it belongs to. A persistent (or not yet used) tape is needed.

`Drawing.source` is the DOT text; `save("g.svg")` / `save("g.png")` runs Graphviz's `dot`
program (an error names what to install when it is missing; `.dot`/`.gv` needs nothing);
`_repr_svg_` shows the picture in notebooks.
"""
import re
import shutil
import subprocess
import sys

from ..autodiff import backprop
from ..autodiff.tape import GradientTape
from ..framework.context import state, state_scope
from ..framework.variables import Variable, variable_op_name
from ..graph.graph import PLACEHOLDER
from ..ops import broadcast_ops
from ..ops.creation_ops import CONST

__all__ = ["draw", "Drawing"]

_GRAD_SCOPE = re.compile(r"^(gradients|gradient_tape|hessians)(_\d+)?/")

STYLES = {
    "forward": 'shape=ellipse, style=filled, fillcolor="#cfe2f3", color="#3d85c6"',
    "gradient": 'shape=box, style="filled,dashed,rounded", fillcolor="#fce5cd", color="#e69138"',
    "variable": 'shape=cylinder, style=filled, fillcolor="#d9ead3", color="#6aa84f"',
    "placeholder": 'shape=invhouse, style=filled, fillcolor="#fff2cc", color="#bf9000"',
    "constant": 'shape=box, style=filled, fillcolor="#eeeeee", color="#999999", fontsize=9',
    "seed": 'shape=box, style="filled,rounded", fillcolor="#f4cccc", color="#cc0000"',
}


class Drawing:
    """DOT text (`.source`), node kinds (`.nodes`: id -> (label, kind)), `.edges` (src, dst,
    label, is_gradient) and rendering through Graphviz."""

    def __init__(self, nodes, edges, title=None):
        self.nodes = nodes
        self.edges = edges
        self.title = title
        self.source = _dot(nodes, edges, title)

    def __str__(self):
        return self.source

    def pipe(self, format="svg"):  # noqa: A002 - graphviz's name
        """The rendered picture as bytes (needs Graphviz's `dot`)."""
        dot = shutil.which("dot")
        if dot is None:
            raise RuntimeError("Rendering needs the Graphviz `dot` program, which is not on "
                               "PATH. Install Graphviz (apt-get install graphviz, brew install "
                               "graphviz, conda install graphviz), or save the DOT text with "
                               "save('graph.dot').")
        done = subprocess.run([dot, f"-T{format}"], input=self.source.encode(),
                              capture_output=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"dot failed: {done.stderr.decode(errors='replace')}")
        return done.stdout

    def save(self, path, format=None):  # noqa: A002
        """Write `path`: DOT text for .dot/.gv, else the format its suffix names (svg, png,
        pdf) rendered by `dot`. Returns the path."""
        path = str(path)
        fmt = format or path.rsplit(".", 1)[-1].lower()
        if fmt in ("dot", "gv"):
            with open(path, "w") as f:
                f.write(self.source)
            return path
        data = self.pipe(fmt)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def _repr_svg_(self):
        if shutil.which("dot") is None:
            return None
        return self.pipe("svg").decode()


def draw(obj, gradients=True, target=None, title=None):
    """A Drawing of a Graph, a traced function (tf.function or ConcreteFunction) or a
    GradientTape; `gradients=False` leaves gradient nodes out. For a tape, `target` is the
    tensor to differentiate (default: the output of the tape's last record)."""
    if isinstance(obj, GradientTape):
        return _draw_tape(obj, gradients, target, title)
    graph = _graph_of(obj)
    return _draw_graph(graph, gradients, title or getattr(graph, "name", None))


def _graph_of(obj):
    if hasattr(obj, "get_operations"):
        return obj
    if hasattr(obj, "graph") and hasattr(obj.graph, "get_operations"):
        return obj.graph  # a ConcreteFunction
    cache = getattr(obj, "_cache", None)
    if cache is not None:  # a tf.function: its latest trace
        if not cache:
            raise ValueError("draw: this tf.function has not been traced yet; call it (or "
                             "get_concrete_function(...)) first.")
        return list(cache.values())[-1].graph
    raise TypeError(f"draw expects a Graph, a tf.function, a ConcreteFunction or a "
                    f"GradientTape, got {type(obj).__name__}.")


# -- graphs ---------------------------------------------------------------------------------------
def _draw_graph(graph, gradients, title):
    nodes, edges = {}, []
    grad_ids = set()
    for op in graph.get_operations():
        is_grad = bool(_GRAD_SCOPE.match(op.name)) or any(
            id(getattr(t, "op", None)) in grad_ids for t in op.inputs)
        if is_grad:
            grad_ids.add(id(op))
            if not gradients:
                continue
        kind = "gradient" if is_grad else _graph_kind(op)
        nodes[op.name] = (_op_label(op), kind)
        for t in op.inputs:
            if isinstance(t, Variable):
                vid = f"var:{variable_op_name(t)}:0"
                nodes.setdefault(vid, (f"Variable\n{variable_op_name(t)}\n{_spec(t)}",
                                       "variable"))
                edges.append((vid, op.name, _spec(t), is_grad))
            else:
                edges.append((t.op.name, op.name, _spec(t), is_grad))
        for c in op.control_inputs:
            if c.name in nodes:
                edges.append((c.name, op.name, "control", is_grad))
    return Drawing(nodes, [e for e in edges if e[0] in nodes], title)


def _graph_kind(op):
    if op.op_def is PLACEHOLDER:
        return "placeholder"
    if op.op_def is CONST:
        return "constant"
    return "forward"


def _op_label(op):
    if op.op_def is PLACEHOLDER:
        return f"Placeholder\n{op.name}\n{_spec(op.outputs[0])}"
    if op.name == op.type or op.name.endswith("/" + op.type):
        return op.name
    return f"{op.name}\n{op.type}"


def _spec(t):
    dtype, shape = getattr(t, "dtype", None), getattr(t, "shape", None)
    if dtype is None or shape is None:
        return ""
    dims = "?" if shape.rank is None else ",".join("?" if d is None else str(d) for d in shape)
    return f"{dtype.name}[{dims}]"


# -- tapes ----------------------------------------------------------------------------------------
def _draw_tape(tape, gradients, target, title):
    records = tape._records
    if records is None:
        raise RuntimeError("draw: this tape released its records after gradient(); draw it "
                           "before, or use GradientTape(persistent=True).")
    nodes, edges, names = {}, [], {}
    for i, op in enumerate(records):
        nid = f"op{i}"
        nodes[nid] = (f"{op.type}" if op.name == op.type else f"{op.name}\n{op.type}", "forward")
        for t in op.outputs:
            names[id(t)] = nid
    watched = {id(t) for t in tape._keep}
    leaves = {}
    for i, op in enumerate(records):
        for t in op.inputs:
            src = names.get(id(t)) or _leaf(t, nodes, leaves, watched)
            edges.append((src, f"op{i}", _spec(t), False))
    if gradients and records:
        _add_gradient_nodes(tape, records, target, nodes, edges, names, leaves, watched)
    return Drawing(nodes, edges, title)


def _leaf(t, nodes, leaves, watched):
    key = id(t)
    if key in leaves:
        return leaves[key]
    nid = f"in{len(leaves)}"
    if isinstance(t, Variable):
        nodes[nid] = (f"Variable\n{variable_op_name(t)}\n{_spec(t)}", "variable")
    elif key in watched:
        nodes[nid] = (f"watched\n{_spec(t)}", "placeholder")
    else:
        nodes[nid] = (f"Const\n{_spec(t)}", "constant")
    leaves[key] = nid
    return nid


def _add_gradient_nodes(tape, records, target, nodes, edges, names, leaves, watched):
    """Run the reverse pass once, noting each op its rules execute and for which forward op."""
    if target is None:
        target = records[-1].outputs[0]
    sources = list(tape._keep) + list(tape._watched_vars)
    seed = broadcast_ops.ones_like_gradient(target)
    names[id(seed)] = "seed"
    nodes["seed"] = (f"seed d(target)/d(target) = 1\n{_spec(seed)}", "seed")
    code = backprop.backward.__code__
    created = []

    def note(op_def, inputs, outputs, attrs, name):
        frame = sys._getframe(1)
        while frame is not None and frame.f_code is not code:
            frame = frame.f_back
        forward = frame.f_locals.get("op") if frame is not None else None
        created.append((op_def.type, name, inputs, outputs, forward))

    with state_scope(state.graph, (), (note,)):
        results = backprop.backward(records, [target], sources, [seed])
    index = {id(op): i for i, op in enumerate(records)}
    for k, (op_type, name, inputs, outputs, forward) in enumerate(created):
        nid = f"grad{k}"
        owner = f"\nfor op{index[id(forward)]}" if forward is not None and id(forward) in index \
            else ""
        nodes[nid] = (f"{name or op_type}{owner}" if (name or op_type) == op_type else
                      f"{name}\n{op_type}{owner}", "gradient")
        for t in inputs:
            src = names.get(id(t)) or _leaf(t, nodes, leaves, watched)
            edges.append((src, nid, _spec(t), True))
        for t in outputs:
            names[id(t)] = nid
    for s, g in zip(sources, results):
        if g is not None and id(g) in names:
            sid = names.get(id(s)) or _leaf(s, nodes, leaves, watched)
            what = " ".join(nodes[sid][0].splitlines()[:2])
            nodes[f"d_{sid}"] = (f"gradient of {what}\n{_spec(g)}", "seed")
            edges.append((names[id(g)], f"d_{sid}", _spec(g), True))


# -- DOT text -------------------------------------------------------------------------------------
def _q(text):
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _dot(nodes, edges, title):
    lines = ["digraph wengert {", "  rankdir=BT;", '  node [fontname="Helvetica", fontsize=11];',
             '  edge [fontname="Helvetica", fontsize=9];']
    if title:
        lines.append(f"  label={_q(title)}; labelloc=t;")
    for nid, (label, kind) in nodes.items():
        lines.append(f"  {_q(nid)} [label={_q(label)}, {STYLES[kind]}];")
    for src, dst, label, is_grad in edges:
        style = ', color="#e69138", style=dashed' if is_grad else ""
        lines.append(f"  {_q(src)} -> {_q(dst)} [label={_q(label)}{style}];")
    lines.append("}")
    return "\n".join(lines) + "\n"
