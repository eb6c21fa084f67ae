"""Serving a SavedModel that TensorFlow wrote (issue 31): a small Keras CNN exported by TensorFlow
2.21 (`model.export`), its `serving_default` signature called on a batch of 256 images, in
wengert (`tf.saved_model.load`, wengert/saved_model/tf2_loader.py) and in TensorFlow.

    python bench/bench_tf_saved_model.py [rounds] [--only NAME ...]

The model: 32x32x3 inputs, Conv2D(16, 3, same) - BatchNormalization - ReLU - MaxPooling2D -
Conv2D(32, 3, same, relu) - MaxPooling2D - Conv2D(32, 3, relu) - GlobalAveragePooling2D -
Dense(10). TensorFlow's interpreter ($TF_PYTHON, /work/tfvenv) writes it once to a temporary
directory before the contenders start (untimed); without TensorFlow the script stops. Each
contender loads it (untimed) and times the signature call on one fixed batch (seed 0).
Protocol (bench/README.md, harness.py): each contender in a fresh process with its framework's
default threading; rounds interleave; every round's figure, per-round ratios and medians are
printed. Goal (issue 31): wengert within 1.5x of TensorFlow.

Measured 2026-11-29 02:00 UTC, 2 cores shared at load average 42 (every round flagged): wengert
685, 693, 569, 604, 585 ms against TensorFlow 577, 328, 285, 229, 276 ms, ratios 1.19x, 2.11x,
2.00x, 2.64x, 2.12x, median 2.11x; at 02:52 UTC, load average 10.6 (every round flagged):
wengert 647, 625, 573, 557, 518, 639, 640 ms against 281, 333, 225, 228, 225, 244, 195 ms,
ratios 2.30x, 1.88x, 2.55x, 2.45x, 2.30x, 2.62x, 3.29x, median 2.45x. Not yet within the goal.
The loaded signature runs as fast as the same model built in wengert's own Keras and traced
(0.91x-1.09x of it, measured alongside), so the gap was wengert's kernels: 70% of the call in
its Conv2D kernel (im2col and the matmul), the rest in BiasAdd, pooling and elementwise
kernels; the loaded function adds no Python overhead of its own (about 480 Python calls).

After the chunked, threaded convolution products and threaded tiled pools (issue 31), A/B
against the checkout before them, 2026-11-29 05:25-05:31 UTC, load average 9.4-12.7 (every
round flagged): before 467, 463, 368, 384, 373 / 337, 365, 409, 294, 471 / 375, 383, 287,
286, 285 / 441, 398, 442, 426, 406 ms, medians 2.19x, 2.16x, 2.38x, 2.70x TensorFlow; after,
medians 254 and 111 ms (1.29x, 0.74x), then 252, 181, 289, 159, 280 ms (median 1.04x) and 200,
242, 253, 170, 140 ms (median 1.02x). Per call in one process, OpenBLAS's default threads: 410
ms wall / 137 ms CPU before, 208 ms / 69 ms after. On a quiet machine, 2026-11-29 morning (the
lead's run): wengert 92, 79, 87 ms against TensorFlow 39, 38, 36 ms, median 2.34x.

After the fused convolutions (compiled plans run Conv2D, BiasAdd, the batch norm's Mul and
AddV2, Relu and MaxPool as one step a cache-sized chunk of images at a time: runtime/
conv_fusion.py, ops/nn/conv/epilogues.py; the outputs are bit for bit the unfused ones), A/B
against main before them (6d151f2), every round flagged (load average above 1):
- 07:19-07:27 UTC, load 11-16: before, medians 877 and 633 ms against 681 and 433 ms
  (median ratios 1.36x and 1.53x); after, 496, 340, 275, 396, 341 ms against 369, 615, 449,
  529, 377 ms (0.75x) and 589, 518, 680, 401, 308 against 508, 592, 668, 608, 313 (0.98x).
- 08:06-08:10 UTC, load 10.4-11.3: before 179, 281, 199, 297, 121 ms against 181, 353, 332,
  172, 156 ms (median ratio 0.79x, ratio of medians 1.10x) and 96.8, 218, 250, 209, 235
  against 337, 164, 184, 124, 173 (1.36x, 1.26x); after 158, 148, 199, 87.1, 51.2 against
  161, 193, 180, 171, 116 (0.77x, 0.87x) and 127, 87.3, 90.6, 55.2, 100 against 143, 197,
  75.6, 129, 103 (0.89x, 0.70x).
Per call in one process (30 calls; before and after alternating, load 10-12): CPU 105, 84,
79, 114 ms before, 84, 60, 71, 83 ms after; in one process with the fusion switched off and on
alternately (15 rounds), 80.8 against 64.2 ms CPU (medians). Where the CPU goes now (one
thread, first layer, load 10): patches 4.9 ms, the product 7.5, the four elementwise ops on the
cached chunks 5.8, the pool 4.5.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import harness  # noqa: E402

BATCH = 256
CONTENDERS = [("wengert", "wengert", "setup_wengert"),
              ("tensorflow", "tensorflow", "setup_tensorflow")]
PAIRS = [("wengert", "tensorflow")]


def batch():
    return np.random.default_rng(0).standard_normal((BATCH, 32, 32, 3)).astype(np.float32)


def write_model(path):
    """Run by TensorFlow's interpreter: export the CNN to `path`."""
    import keras  # optional dependency: only TensorFlow's interpreter runs this
    keras.utils.set_random_seed(0)
    layers = keras.layers
    model = keras.Sequential([
        keras.Input((32, 32, 3)), layers.Conv2D(16, 3, padding="same"),
        layers.BatchNormalization(), layers.ReLU(), layers.MaxPooling2D(),
        layers.Conv2D(32, 3, padding="same", activation="relu"), layers.MaxPooling2D(),
        layers.Conv2D(32, 3, activation="relu"), layers.GlobalAveragePooling2D(),
        layers.Dense(10)])
    model.export(path, verbose=False)


def _workloads(tf, path):
    loaded = tf.saved_model.load(path)
    signature = loaded.signatures["serving_default"]
    keyword = list(signature.structured_input_signature[1])[0]
    x = tf.constant(batch())

    def serve():
        return signature(**{keyword: x})
    serve()
    return {"serve": serve}


def setup_wengert(path):
    import wengert as tf
    return _workloads(tf, path)


def setup_tensorflow(path):
    import tensorflow as tf
    return _workloads(tf, path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rounds", type=int, nargs="?", default=7)
    parser.add_argument("--only", nargs="*", help="contenders to run (default: all)")
    parser.add_argument("--write", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.write:
        write_model(args.write)
        return
    with tempfile.TemporaryDirectory(prefix="bench_tf_saved_model_") as directory:
        _measure(args, os.path.join(directory, "cnn"))


def _measure(args, path):
    tensorflow = harness.interpreter("tensorflow")
    if not os.path.exists(tensorflow):
        sys.exit(f"bench_tf_saved_model: TensorFlow's interpreter {tensorflow} is needed to "
                 "write the SavedModel (set $TF_PYTHON).")
    subprocess.run([tensorflow, os.path.abspath(__file__), "--write", path], check=True,
                   env=harness.clean_environment("tensorflow"), stdout=subprocess.DEVNULL)
    harness.header(f"bench_tf_saved_model: a Keras CNN SavedModel's signature on a batch of "
                   f"{BATCH}, {args.rounds} interleaved rounds")
    specs = [(name, framework, setup, {"path": path}) for name, framework, setup in CONTENDERS]
    workers = harness.start_all("bench_tf_saved_model", specs, args.only)
    try:
        result = harness.run_rounds(workers, "serve", args.rounds)
    finally:
        harness.close_all(workers)
    harness.report_rounds(f"serving_default on {BATCH} images of 32x32x3 (seconds per call)",
                          result, PAIRS, ["wengert <= 1.5x tensorflow"])


if __name__ == "__main__":
    main()
