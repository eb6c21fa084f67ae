"""`Operation`: the record of one executed (eager) or planned (graph) op.

The record is what a gradient function sees: the op type, its inputs and outputs from the forward
pass, and its attributes. A tape keeps these records in execution order; a Graph keeps them in
creation order; the one reverse pass in `autodiff.backprop` walks either list backwards.
"""

from .context import default_session

__all__ = ["Operation"]


class Operation:
    """One op: `.type`, `.name`, `.inputs`, `.outputs`, `.get_attr(name)`."""

    __slots__ = ("op_def", "type", "inputs", "outputs", "attrs", "_name", "graph",
                 "gradient_override", "control_inputs", "traceback", "shared", "__weakref__")
    # The inputs whose gradient a reverse pass does not need, as a gradient rule reads it. The
    # record never holds its own: a pass hands the rule a view carrying the pass's (backprop.
    # PassView) when there are some, and the record, with this default, when there are none.
    skip_input_indices = ()

    def __init__(self, op_def, inputs, outputs, attrs, name=None, graph=None):
        self.op_def = op_def
        self.type = op_def.type
        self.inputs = inputs
        self.outputs = outputs
        self.attrs = attrs
        self._name = name
        self.graph = graph
        self.gradient_override = None
        self.control_inputs = ()
        self.traceback = None
        self.shared = False  # recorded by more than one tape

    @property
    def name(self):
        return self._name or self.op_def.type

    @property
    def num_inputs(self):
        return len(self.inputs)

    def values(self):
        return self.outputs

    def get_attr(self, name):
        try:
            return self.attrs[name]
        except KeyError:
            raise ValueError(f"Operation '{self.name}' (type {self.type}) has no attribute "
                             f"{name!r}; it has {sorted(self.attrs) or 'none'}.") from None

    def colocation_groups(self):
        """The ops this one is placed with, as TensorFlow names them: [b"loc:@<name>"] of the
        op its graph's colocate_with gave it, else of itself."""
        colocation_of = getattr(self.graph, "colocation_of", None)
        groups = colocation_of(self) if colocation_of is not None else None
        return groups or [f"loc:@{self.name}".encode()]

    @property
    def node_def(self):
        return {"name": self.name, "op": self.type, "attr": dict(self.attrs),
                "input": [getattr(t, "name", "?") for t in self.inputs]}

    def run(self, feed_dict=None, session=None):
        """Run this graph op in `session` (default: the default session)."""
        (session or default_session()).run(self, feed_dict)

    def __repr__(self):
        return f"<tf.Operation '{self.name}' type={self.type}>"
