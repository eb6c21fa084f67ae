"""The names of TensorFlow's SavedModel format, as `tf.saved_model` and TensorFlow 1's
`tf.compat.v1.saved_model.tag_constants`, `signature_constants` and `constants` give them:
the tags of a MetaGraph (SERVING "serve", TRAINING "train", GPU, TPU), the keys and method
names of signatures (the serving default, and the inputs and outputs of the classify, predict
and regress methods TensorFlow Serving calls), and the files and directories of a SavedModel
directory. wengert's own SavedModel directories (save.py) use the same tag and signature key."""

__all__ = ["SERVING", "TRAINING", "GPU", "TPU", "DEFAULT_SERVING_SIGNATURE_DEF_KEY",
           "CLASSIFY_INPUTS", "CLASSIFY_METHOD_NAME", "CLASSIFY_OUTPUT_CLASSES",
           "CLASSIFY_OUTPUT_SCORES", "PREDICT_INPUTS", "PREDICT_METHOD_NAME", "PREDICT_OUTPUTS",
           "REGRESS_INPUTS", "REGRESS_METHOD_NAME", "REGRESS_OUTPUTS", "ASSETS_DIRECTORY",
           "ASSETS_KEY", "DEBUG_DIRECTORY", "DEBUG_INFO_FILENAME_PB", "LEGACY_INIT_OP_KEY",
           "MAIN_OP_KEY", "SAVED_MODEL_FILENAME_PB", "SAVED_MODEL_FILENAME_PBTXT",
           "SAVED_MODEL_SCHEMA_VERSION", "VARIABLES_DIRECTORY", "VARIABLES_FILENAME"]

SERVING, TRAINING, GPU, TPU = "serve", "train", "gpu", "tpu"

DEFAULT_SERVING_SIGNATURE_DEF_KEY = "serving_default"
CLASSIFY_INPUTS = "inputs"
CLASSIFY_METHOD_NAME = "tensorflow/serving/classify"
CLASSIFY_OUTPUT_CLASSES = "classes"
CLASSIFY_OUTPUT_SCORES = "scores"
PREDICT_INPUTS = "inputs"
PREDICT_METHOD_NAME = "tensorflow/serving/predict"
PREDICT_OUTPUTS = "outputs"
REGRESS_INPUTS = "inputs"
REGRESS_METHOD_NAME = "tensorflow/serving/regress"
REGRESS_OUTPUTS = "outputs"

ASSETS_DIRECTORY = "assets"
ASSETS_KEY = "saved_model_assets"
DEBUG_DIRECTORY = "debug"
DEBUG_INFO_FILENAME_PB = "saved_model_debug_info.pb"
LEGACY_INIT_OP_KEY = "legacy_init_op"
MAIN_OP_KEY = "saved_model_main_op"
SAVED_MODEL_FILENAME_PB = "saved_model.pb"
SAVED_MODEL_FILENAME_PBTXT = "saved_model.pbtxt"
SAVED_MODEL_SCHEMA_VERSION = 1
VARIABLES_DIRECTORY = "variables"
VARIABLES_FILENAME = "variables"
