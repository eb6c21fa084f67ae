"""Run under TensorFlow's interpreter: `python tf1_metrics_runner.py request.json arrays.npz
results.npz` answers tests/test_tf1_metrics.py's cases with TensorFlow 2.21's tf.compat.v1 in
graph mode (tests/tf1_metrics_programs.py builds and runs each; reference_store.py stores the
answers)."""
import json
import os
import sys

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tensorflow  # noqa: E402

from tf1_metrics_programs import run_case  # noqa: E402

tf = tensorflow.compat.v1
tf.disable_eager_execution()
tf.logging.set_verbosity(tf.logging.ERROR)


def main(request_path, arrays_path, results_path):
    with open(request_path) as f:
        request = json.load(f)
    with np.load(arrays_path, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    results = {}
    for entry in request:
        results.update(run_case(tf, entry, arrays))
    np.savez(results_path, **results)


if __name__ == "__main__":
    main(*sys.argv[1:4])
