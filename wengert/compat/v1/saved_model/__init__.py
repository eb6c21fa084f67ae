"""`wengert.compat.v1.saved_model`: `tf.saved_model` as TensorFlow 1 code reaches it, with the
namespaces of its constants (`tag_constants.SERVING`, `signature_constants.PREDICT_METHOD_NAME`,
`constants.SAVED_MODEL_FILENAME_PB`; wengert/saved_model/constants.py). `load` (and
`loader.load`) is TensorFlow 1's: a SavedModel TensorFlow wrote, loaded into a Session
(wengert/saved_model/tf1_loader.py). TensorFlow 1's `Builder` (`builder.SavedModelBuilder`),
`simple_save` and the SignatureDef builders write TF 1 SavedModels that `load` reads back
(wengert/tf1/saved_model_builder.py, signature_defs.py)."""
from ....saved_model.constants import *  # noqa: F403
from ....saved_model.constants import __all__ as _constant_names
from ....util.lazy import lazy_attributes as _lazy_attributes
from ....saved_model.tf1_loader import contains_saved_model, load, maybe_saved_model_directory
from ....tf1.saved_model_builder import SavedModelBuilder as Builder, simple_save
from ....tf1.signature_defs import (build_signature_def, build_tensor_info,
                                    classification_signature_def, get_tensor_from_tensor_info,
                                    is_valid_signature, predict_signature_def,
                                    regression_signature_def)
from . import (builder, constants, loader, signature_constants, signature_def_utils,
               tag_constants, utils)

__all__ = [*_constant_names, "constants", "signature_constants", "tag_constants", "load",
           "loader", "contains_saved_model", "maybe_saved_model_directory", "Builder",
           "simple_save", "build_signature_def", "build_tensor_info",
           "classification_signature_def", "get_tensor_from_tensor_info", "is_valid_signature",
           "predict_signature_def", "regression_signature_def", "builder",
           "signature_def_utils", "utils"]

__getattr__, __dir__ = _lazy_attributes(globals(), {}, fallback="wengert.saved_model")
