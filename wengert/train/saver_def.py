"""`SaverDef` and `CheckpointState`: TensorFlow 1's protocol buffers about Savers, as
tensorflow/core/protobuf/saver.proto and checkpoint_state.proto declare them (proto3):

    SaverDef         filename_tensor_name (1), save_tensor_name (2), restore_op_name (3): string;
                     max_to_keep (4): int32; sharded (5): bool;
                     keep_checkpoint_every_n_hours (6): float; version (7): enum (LEGACY 0,
                     V1 1, V2 2)
    CheckpointState  model_checkpoint_path (1): string; all_model_checkpoint_paths (2): repeated
                     string; all_model_checkpoint_timestamps (3): repeated double;
                     last_preserved_timestamp (4): double

A SaverDef names a Saver's graph entry points (the filename tensor, the save tensor, the
restore op) and says how many checkpoints it keeps and how often it keeps one for good; a meta
graph carries it so that `import_meta_graph` can rebuild the Saver. A CheckpointState is the
content of a checkpoint directory's state file (train/checkpoint_state.py).
"""
from ..framework.protos.message import Field, Message
from ..framework.protos.meta_graph import SaverDef as _SaverDefMessage

__all__ = ["SaverDef", "CheckpointState"]

_NAMES = ("filename_tensor_name", "save_tensor_name", "restore_op_name")


class SaverDef(_SaverDefMessage):
    """A Saver's configuration (see the module docstring); its fields are declared once, with
    the meta-graph messages (framework/protos/meta_graph.py)."""

    def as_dict(self):
        return {f.name: getattr(self, f.name) for f in self.FIELDS}

    def scoped(self, scope, strip):
        """A copy with `scope/` stripped from (strip) or put before (not strip) its names."""
        data = self.as_dict()
        for name in _NAMES if scope else ():
            value = data[name]
            if strip and value.startswith(scope + "/"):
                data[name] = value[len(scope) + 1:]
            elif not strip and value:
                data[name] = f"{scope}/{value}"
        return SaverDef(**data)


class CheckpointState(Message):
    """The newest checkpoint, all kept ones (oldest first), their save times and the time of
    the last one kept for good."""
    FULL_NAME = "tensorflow.CheckpointState"
    FIELDS = (Field(1, "model_checkpoint_path", "string"),
              Field(2, "all_model_checkpoint_paths", "string", repeated=True),
              Field(3, "all_model_checkpoint_timestamps", "double", repeated=True),
              Field(4, "last_preserved_timestamp", "double"))
