"""One epoch of the demo's MNIST CNN (issues 18, 33): wengert against TensorFlow's Keras and PyTorch.

    python bench/bench_cnn.py [rounds] [--only NAME ...]

Workload: examples/mnist_cnn_keras.py's network, 28x28x1 -> Conv2D(16, 3x3, relu) -> 2x2 max
pool -> Conv2D(32, 3x3, relu) -> 2x2 max pool -> Flatten -> Dense(10), Adam(1e-3), sparse
categorical cross-entropy from logits, batch 32, one shuffled epoch over 8,000 images
(load_split's; every contender reads the same arrays from one .npz). Contenders, each timed for
a whole epoch after one warm-up epoch (which traces):
- wengert-traced: Keras `fit` as compiled (the step traced into a graph by `wengert.function`);
- wengert-eager:  `compile(run_eagerly=True)`, the step run op by op on the tape;
- tensorflow:     TensorFlow's own Keras `fit` (tf.function), $TF_PYTHON (/work/tfvenv);
- pytorch:        torch.nn with the same layers, NCHW, the usual hand-written loop,
                  $TORCH_PYTHON (/work/torchvenv).
FLOPs per epoch (for the fraction of the machine's GEMM peak): per image the convolutions'
multiply-adds, 2 * 26*26*16 * 3*3*1 + 2 * 11*11*32 * 3*3*16, and the Dense layer's 2 * 800 * 10;
backward twice the forward (3x in all, the first convolution's unneeded input gradient counted
too), times 8,000 images: 31.8 GFLOP.
Protocol (bench/README.md, harness.py): each contender in a fresh process of its own with its
framework's default threading; rounds interleave; every round's figure, per-round ratios and
medians are printed. Goal (issue 33): traced <= 1.0x PyTorch and faster than TensorFlow.
"""
import argparse
import os
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import harness  # noqa: E402

BATCH = 32
CONTENDERS = [("wengert-traced", "wengert", "setup_wengert", {"eager": False}),
              ("wengert-eager", "wengert", "setup_wengert", {"eager": True}),
              ("tensorflow", "tensorflow", "setup_tensorflow", {}),
              ("pytorch", "pytorch", "setup_pytorch", {})]
PAIRS = [(w, o) for w in ("wengert-traced", "wengert-eager") for o in ("pytorch", "tensorflow")]
FLOPS_PER_IMAGE = 3 * (2 * 26 * 26 * 16 * 9 * 1 + 2 * 11 * 11 * 32 * 9 * 16 + 2 * 800 * 10)


def save_data(folder):
    """The training split as float32 images in [0, 1] (NHWC) and int64 labels, in one .npz."""
    sys.path.insert(0, os.path.dirname(HERE))
    from wengert.datasets import mnist
    (x, y), _ = mnist.load_split()
    path = os.path.join(folder, "mnist.npz")
    np.savez(path, x=x.astype(np.float32)[..., None] / np.float32(255.0), y=y.astype(np.int64))
    return path, len(x)


def setup_wengert(data, eager):
    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "examples"))
    import wengert as tf
    from mnist_cnn_keras import build_model
    arrays = np.load(data)
    x, y = arrays["x"], arrays["y"]
    tf.keras.utils.set_random_seed(0)
    model = build_model()
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-3),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"], run_eagerly=eager)

    def epoch():
        model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0)
    epoch()
    return {"epoch": epoch}


def setup_tensorflow(data):
    import tensorflow
    arrays = np.load(data)
    x, y = arrays["x"], arrays["y"]
    tensorflow.keras.utils.set_random_seed(0)
    layers = tensorflow.keras.layers
    model = tensorflow.keras.Sequential([
        tensorflow.keras.Input((28, 28, 1)),
        layers.Conv2D(16, 3, activation="relu"), layers.MaxPooling2D(),
        layers.Conv2D(32, 3, activation="relu"), layers.MaxPooling2D(),
        layers.Flatten(), layers.Dense(10)])
    model.compile(optimizer=tensorflow.keras.optimizers.Adam(1e-3),
                  loss=tensorflow.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])

    def epoch():
        model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0)
    epoch()
    return {"epoch": epoch}


def setup_pytorch(data):
    import torch
    arrays = np.load(data)
    torch.manual_seed(0)
    nn = torch.nn
    model = nn.Sequential(nn.Conv2d(1, 16, 3), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Conv2d(16, 32, 3), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Flatten(), nn.Linear(800, 10))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.CrossEntropyLoss()
    xt = torch.tensor(arrays["x"]).permute(0, 3, 1, 2).contiguous()
    yt = torch.tensor(arrays["y"])
    generator = torch.Generator().manual_seed(0)

    def epoch():
        order = torch.randperm(len(xt), generator=generator)
        for i in range(0, len(xt), BATCH):
            index = order[i:i + BATCH]
            optimizer.zero_grad()
            loss = loss_fn(model(xt[index]), yt[index])
            loss.backward()
            optimizer.step()
    epoch()
    return {"epoch": epoch}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rounds", type=int, nargs="?", default=3)
    parser.add_argument("--only", nargs="*", help="contenders to run (default: all)")
    args = parser.parse_args()
    harness.header(f"bench_cnn: one epoch of the MNIST CNN, {args.rounds} interleaved rounds")
    with tempfile.TemporaryDirectory() as folder:
        data, count = save_data(folder)
        specs = [(name, framework, setup, {**extra, "data": data})
                 for name, framework, setup, extra in CONTENDERS]
        workers = harness.start_all("bench_cnn", specs, args.only, number=1, pause_gc=False)
        try:
            result = harness.run_rounds(workers, "epoch", args.rounds)
        finally:
            harness.close_all(workers)
    harness.report_rounds(f"one epoch of the MNIST CNN ({count} images, batch {BATCH}, Adam)",
                          result, PAIRS, ["wengert-traced <= 1.0x pytorch, < tensorflow"],
                          flops=FLOPS_PER_IMAGE * count)


if __name__ == "__main__":
    main()
