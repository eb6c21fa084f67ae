"""The members TensorFlow 1 gave `tf.Variable` that TensorFlow 2's resource variables keep for
compatibility: `eval`, `load`, `initialized_value`, `set_shape`, `to_proto`/`from_proto` and the
`SaveSliceInfo` class. `Variable` inherits them from `V1Members`; a graph variable
(graph/variables.py) overrides `eval` and `load` with its Session's.

As in TensorFlow 2.21 with resource variables:
- `eval(session)` evaluates a graph variable in a Session; an eager variable has its value
  (`numpy()`), so it is a NotImplementedError there.
- `load(value, session)` assigns eagerly; a graph variable assigns through its Session; inside a
  traced function there is neither, a ValueError.
- `initialized_value()` is a RuntimeError eagerly and a NotImplementedError otherwise (only TF 1's
  reference variables had it; wengert's variables are resource variables).
- `set_shape(shape)` checks that `shape` is compatible (ValueError "Shapes a and b are not
  compatible") and refines a graph variable's static shape.
- `to_proto` would write a VariableDef protocol buffer: wengert has no codec for it, so it is a
  clear refusal (RuntimeError eagerly, as TF's); `from_proto` is a NotImplementedError in TF too.
- `SaveSliceInfo(full_name, full_shape, var_offset, var_shape)`: where a partition lies in the
  full variable; `spec` is the string a Saver writes ("4 2 2,2:0,2": the full shape, then
  offset,size per axis).
"""
from .context import state
from .tensor_shape import TensorShape

__all__ = ["V1Members", "SaveSliceInfo"]


class SaveSliceInfo:
    """Where a slice (a partition) of a variable lies within the full variable."""

    def __init__(self, full_name=None, full_shape=None, var_offset=None, var_shape=None,
                 save_slice_info_def=None, import_scope=None):
        if save_slice_info_def is not None:
            raise NotImplementedError(
                "Variable.SaveSliceInfo(save_slice_info_def=...): wengert has no codec for the "
                "SaveSliceInfoDef protocol buffer; pass full_name, full_shape, var_offset and "
                "var_shape.")
        self.full_name = full_name
        self.full_shape = None if full_shape is None else [int(d) for d in full_shape]
        self.var_offset = None if var_offset is None else [int(d) for d in var_offset]
        self.var_shape = None if var_shape is None else [int(d) for d in var_shape]

    @property
    def spec(self):
        """The full shape, then "offset,size" per axis: "4 2 2,2:0,2"."""
        full = " ".join(str(d) for d in self.full_shape) + " "
        return full + ":".join(f"{o},{s}" for o, s in zip(self.var_offset, self.var_shape))

    @classmethod
    def from_spec(cls, spec):
        """The slice a `spec` string describes (full_name left None)."""
        *full, slices = spec.split(" ")
        pairs = [tuple(int(n) for n in part.split(",")) for part in slices.split(":")]
        return cls(None, [int(d) for d in full], [p[0] for p in pairs], [p[1] for p in pairs])

    def to_proto(self, export_scope=None):
        raise NotImplementedError(
            "SaveSliceInfo.to_proto: wengert has no codec for the SaveSliceInfoDef protocol "
            "buffer; `spec` gives the slice as the string a Saver writes.")

    def __repr__(self):
        return (f"SaveSliceInfo(full_name={self.full_name!r}, full_shape={self.full_shape}, "
                f"var_offset={self.var_offset}, var_shape={self.var_shape})")


class V1Members:
    """TensorFlow 1's members of `tf.Variable` (see the module docstring)."""

    __slots__ = ()
    SaveSliceInfo = SaveSliceInfo

    def eval(self, session=None):
        """A graph variable's value in `session` (graph/variables.py); eagerly an error."""
        raise NotImplementedError(
            f"Variable '{self.name}'.eval(): eval is not supported when eager execution is "
            "enabled (or inside a tf.function); is .numpy() what you're looking for?")

    def load(self, value, session=None):
        """Assign `value` (eagerly; a graph variable assigns through its Session)."""
        if state.graph is not None:
            raise ValueError("Either session argument should be provided or default session "
                             "should be established")
        self.assign(value, read_value=False)

    def initialized_value(self):
        if state.graph is None:
            raise RuntimeError("This operation is not supported when eager execution is "
                               "enabled.")
        raise NotImplementedError(
            f"Variable '{self.name}'.initialized_value(): TensorFlow's resource variables do "
            "not have it (only TensorFlow 1's reference variables did); read the variable "
            "after running its initializer, or use its initial_value.")

    def set_shape(self, shape):
        """ValueError unless `shape` is compatible with the variable's; a graph variable's
        static shape becomes the two merged."""
        shape = TensorShape(shape)
        if not self.shape.is_compatible_with(shape):
            raise ValueError(f"Shapes {self.shape} and {shape} are not compatible")
        if "_shape" in getattr(self, "__dict__", ()):
            self._shape = self._shape.merge_with(shape)

    def to_proto(self, export_scope=None):
        if state.graph is None:
            raise RuntimeError("This operation is not supported when eager execution is "
                               "enabled.")
        raise NotImplementedError(
            f"Variable '{self.name}'.to_proto(): wengert has no codec for the VariableDef "
            "protocol buffer; save variables with tf.train.Checkpoint or tf.compat.v1.train."
            "Saver (export_meta_graph keeps the graph's variables).")

    @staticmethod
    def from_proto(variable_def, import_scope=None):
        raise NotImplementedError(
            "Variable.from_proto: wengert has no codec for the VariableDef protocol buffer "
            "(TensorFlow's resource variables do not implement it either); restore variables "
            "with tf.train.Checkpoint or tf.compat.v1.train.import_meta_graph.")
