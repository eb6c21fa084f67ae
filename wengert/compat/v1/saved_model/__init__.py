"""`wengert.compat.v1.saved_model`: `tf.saved_model` as TensorFlow 1 code reaches it, with the
namespaces of its constants (`tag_constants.SERVING`, `signature_constants.PREDICT_METHOD_NAME`,
`constants.SAVED_MODEL_FILENAME_PB`; wengert/saved_model/constants.py). TensorFlow 1's
Builder, loader and signature-building functions write TensorFlow's MetaGraphDef protos, which
wengert's SavedModel directories do not hold."""
from ....saved_model.constants import *  # noqa: F403
from ....saved_model.constants import __all__ as _constant_names
from ....util.lazy import lazy_attributes as _lazy_attributes
from . import constants, signature_constants, tag_constants

__all__ = [*_constant_names, "constants", "signature_constants", "tag_constants"]

__getattr__, __dir__ = _lazy_attributes(globals(), {}, fallback="wengert.saved_model")
