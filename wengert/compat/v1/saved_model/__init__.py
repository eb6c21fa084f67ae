"""`wengert.compat.v1.saved_model`: `tf.saved_model` as TensorFlow 1 code reaches it, with the
namespaces of its constants (`tag_constants.SERVING`, `signature_constants.PREDICT_METHOD_NAME`,
`constants.SAVED_MODEL_FILENAME_PB`; wengert/saved_model/constants.py). `load` (and
`loader.load`) is TensorFlow 1's: a SavedModel TensorFlow wrote, loaded into a Session
(wengert/saved_model/tf1_loader.py). TensorFlow 1's Builder
and signature-building functions write TensorFlow's MetaGraphDef protos, which wengert's
SavedModel directories do not hold."""
from ....saved_model.constants import *  # noqa: F403
from ....saved_model.constants import __all__ as _constant_names
from ....util.lazy import lazy_attributes as _lazy_attributes
from ....saved_model.tf1_loader import contains_saved_model, load, maybe_saved_model_directory
from . import constants, loader, signature_constants, tag_constants

__all__ = [*_constant_names, "constants", "signature_constants", "tag_constants", "load",
           "loader", "contains_saved_model", "maybe_saved_model_directory"]

__getattr__, __dir__ = _lazy_attributes(globals(), {}, fallback="wengert.saved_model")
