"""`tf.compat.v1.saved_model.constants`: the files and directories of a SavedModel."""
from ....saved_model.constants import (ASSETS_DIRECTORY, ASSETS_KEY, DEBUG_DIRECTORY,
                                       DEBUG_INFO_FILENAME_PB, LEGACY_INIT_OP_KEY, MAIN_OP_KEY,
                                       SAVED_MODEL_FILENAME_PB, SAVED_MODEL_FILENAME_PBTXT,
                                       SAVED_MODEL_SCHEMA_VERSION, VARIABLES_DIRECTORY,
                                       VARIABLES_FILENAME)

__all__ = ["ASSETS_DIRECTORY", "ASSETS_KEY", "DEBUG_DIRECTORY", "DEBUG_INFO_FILENAME_PB",
           "LEGACY_INIT_OP_KEY", "MAIN_OP_KEY", "SAVED_MODEL_FILENAME_PB",
           "SAVED_MODEL_FILENAME_PBTXT", "SAVED_MODEL_SCHEMA_VERSION", "VARIABLES_DIRECTORY",
           "VARIABLES_FILENAME"]
