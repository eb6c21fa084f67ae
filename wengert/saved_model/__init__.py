"""`tf.saved_model`: save an object's traced functions, variables and signatures to a directory,
and load them back in any process without the Python code that built them.

    tf.saved_model.save(module, "/tmp/export")            # or a Keras model, or a tf.function
    loaded = tf.saved_model.load("/tmp/export")
    loaded.signatures["serving_default"](x=batch)["output_0"]
    loaded(batch)                                         # its __call__, if it had one

The directory holds TensorFlow's SavedModel (saved_model.pb: the traced functions as a function
library, the signatures and the SavedObjectGraph, tensorflow_format.py; TensorFlow's object graph
and keys in the variables checkpoint), which TensorFlow's `tf.saved_model.load` and
`saved_model_cli` read, and wengert's own format, which wengert's load reads:

    saved_model.json     {"format": "wengert-saved-model", "version": 1,
                          "objects":    the object tree; node 0 is the root: {"children":
                                        {name: node}, "functions": {name: [function ids]}} or
                                        {"variable": key, "name", "trainable"},
                          "functions":  traced graphs (graph_json.py): ops by TensorFlow op type,
                                        inputs, attributes, argument and output structure,
                          "subgraphs":  the branches and loop bodies of cond / while_loop ops,
                                        which refer to them by index,
                          "signatures": {name: {"function", "inputs": [keyword names],
                                                "outputs": [names]}},
                          "variables":  {key: {"name", "trainable"}}}
    variables/variables.index, variables/variables.data-00000-of-00001
                         the checkpoint format (checkpoint_format.py): every variable's value
                         ("variables/<n>") and every constant array of the graphs
                         ("constants/<function>/<n>"), each with its SHA-256
    assets/              the files of tables filled from text files (TensorFlow's form reads them)

Loading runs nothing stored in the directory (no pickle, no eval): see load.py. A TensorFlow 1
SavedModel that TensorFlow wrote (saved_model.pb) loads too, its signatures as functions
(tf1_in_v2.py); tf.compat.v1.saved_model.loader.load puts one into a Session (tf1_loader.py). A
TensorFlow 2 SavedModel (tf.saved_model.save, Keras' model.export) loads as TensorFlow loads it:
its objects, variables, restored functions and signatures, its FunctionDefs run as wengert ops
(tf2_loader.py, function_import.py).
"""
from .constants import *  # noqa: F403 (the format's tags, signature keys and file names)
from .constants import __all__ as _constant_names
from .load import RestoredFunction, SignatureFunction, load
from . import tf1_in_v2  # noqa: F401 - tf.saved_model.load reads TensorFlow 1 SavedModels
from .save import save

__all__ = ["save", "load", "SaveOptions", "LoadOptions", "RestoredFunction",
           "SignatureFunction", *_constant_names]


class SaveOptions:
    """TensorFlow's options are accepted and kept; wengert reads one of its own:
    `experimental_tensorflow_format` True requires TensorFlow's saved_model.pb (an op with no
    TensorFlow form is then an error before anything is written), False leaves it out, None
    (the default) writes it whenever every saved function has a TensorFlow form."""

    def __init__(self, **options):
        self.options = options


class LoadOptions(SaveOptions):
    """Accepted for TensorFlow compatibility; loading has no options."""
