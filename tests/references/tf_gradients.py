"""TensorFlow 2.21's gradient registry, stored: for every op type with a registered gradient
entry, whether it has a gradient function (True) or is marked NotDifferentiable (False); and the
names of tf.raw_ops. tests/test_gradient_registry_tf.py compares wengert's registry with it.

    /work/tfvenv/bin/python tests/references/tf_gradients.py record [PATH]   # under TensorFlow
"""
import json
import os
import pathlib
import sys

STORED = pathlib.Path(__file__).resolve().parent / "tf_gradients.json"


def record(path):
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    from tensorflow.python.framework import ops  # the registry has no public accessor
    registry = ops._gradient_registry
    data = {"tensorflow": tf.__version__,
            "gradients": {name: registry.lookup(name) is not None
                          for name in sorted(registry.list())},
            "raw_ops": sorted(n for n in dir(tf.raw_ops) if not n.startswith("_"))}
    pathlib.Path(path).write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")


def stored():
    return json.loads(STORED.read_text())


if __name__ == "__main__":
    if sys.argv[1:2] != ["record"]:
        sys.exit(__doc__)
    record(sys.argv[2] if len(sys.argv) > 2 else STORED)
