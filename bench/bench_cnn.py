"""One epoch of the demo's MNIST CNN (issue 18): wengert against TensorFlow's Keras and PyTorch.

    python bench/bench_cnn.py [--rounds N] [--tf-python /work/tfvenv/bin/python]

Workload: examples/mnist_cnn_keras.py's network, 28x28x1 -> Conv2D(16, 3x3, relu) -> 2x2 max
pool -> Conv2D(32, 3x3, relu) -> 2x2 max pool -> Flatten -> Dense(10), Adam, sparse categorical
cross-entropy from logits, batch 32, one shuffled epoch over 8,000 images (load_split's).
Contenders, each timed for a whole epoch of Keras `fit` (PyTorch: the usual hand-written loop):
- wengert traced: `fit` as compiled (the step traced into a graph by `wengert.function`);
- wengert eager:  `compile(run_eagerly=True)`, the step run op by op on the tape;
- tensorflow:     TensorFlow's own Keras `fit` (tf.function), in a subprocess of the TF venv
                  (TensorFlow is never imported here; skipped when the venv is missing);
- pytorch:        torch.nn with the same layers, NCHW.
Rounds are interleaved (each round runs every contender once, in rotating order) and the report
gives medians and ratios. Goal (issue 18): wengert faster than TensorFlow and within 1.3x of
PyTorch, eager and traced alike. Data: $WENGERT_DATA_DIR or ../shared/data/mnist, else the
digits fallback of load_split.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "examples"))
import wengert as tf  # noqa: E402
from wengert.datasets import mnist  # noqa: E402

try:
    import torch
except ImportError:  # PyTorch is optional: `pip install torch==2.13.0`
    torch = None

BATCH = 32
DEFAULT_TF_PYTHON = "/work/tfvenv/bin/python"


def load_data():
    (x, y), _ = mnist.load_split()
    return x.astype(np.float32)[..., None] / np.float32(255.0), y.astype(np.int64)


def wengert_epoch(x, y, eager):
    from mnist_cnn_keras import build_model
    tf.keras.utils.set_random_seed(0)
    model = build_model()
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-3),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"], run_eagerly=eager)
    model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0)  # warm up (tracing)

    def epoch():
        start = time.perf_counter()
        model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0)
        return time.perf_counter() - start
    return epoch


def torch_epoch(x, y):
    torch.manual_seed(0)
    nn = torch.nn
    model = nn.Sequential(nn.Conv2d(1, 16, 3), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Conv2d(16, 32, 3), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Flatten(), nn.Linear(800, 10))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.CrossEntropyLoss()
    xt = torch.tensor(x).permute(0, 3, 1, 2).contiguous()
    yt = torch.tensor(y)
    generator = torch.Generator().manual_seed(0)

    def epoch():
        start = time.perf_counter()
        order = torch.randperm(len(xt), generator=generator)
        for i in range(0, len(xt), BATCH):
            index = order[i:i + BATCH]
            optimizer.zero_grad()
            loss = loss_fn(model(xt[index]), yt[index])
            loss.backward()
            optimizer.step()
        return time.perf_counter() - start
    epoch()
    return epoch


class TensorFlowWorker:
    """bench/cnn_tf_worker.py in the TF venv: one epoch per request, timed inside TF's process."""

    def __init__(self, python, x, y):
        self._dir = tempfile.TemporaryDirectory()
        path = os.path.join(self._dir.name, "data.npz")
        np.savez(path, x=x, y=y, batch_size=BATCH)
        self._proc = subprocess.Popen(
            [python, os.path.join(HERE, "cnn_tf_worker.py"), path], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self._proc.stdout.readline().strip()
        if line != "ready":
            raise RuntimeError(f"the TensorFlow worker did not start (said {line!r})")

    def __call__(self):
        self._proc.stdin.write("epoch\n")
        self._proc.stdin.flush()
        return float(self._proc.stdout.readline().split()[0])

    def close(self):
        self._proc.stdin.write("quit\n")
        self._proc.stdin.flush()
        self._proc.wait(timeout=60)
        self._dir.cleanup()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--tf-python", default=DEFAULT_TF_PYTHON)
    parser.add_argument("--only", nargs="*", help="contenders to run (default: all)")
    args = parser.parse_args()
    x, y = load_data()
    contenders, worker = {}, None
    wanted = lambda name: not args.only or name in args.only  # noqa: E731
    if wanted("wengert-traced"):
        contenders["wengert-traced"] = wengert_epoch(x, y, eager=False)
    if wanted("wengert-eager"):
        contenders["wengert-eager"] = wengert_epoch(x, y, eager=True)
    if wanted("tensorflow") and os.path.exists(args.tf_python):
        worker = contenders["tensorflow"] = TensorFlowWorker(args.tf_python, x, y)
    if wanted("pytorch") and torch is not None:
        contenders["pytorch"] = torch_epoch(x, y)
    names = list(contenders)
    samples = {name: [] for name in names}
    for r in range(args.rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            samples[name].append(contenders[name]())
    if worker is not None:
        worker.close()
    print(f"\n## one epoch of the MNIST CNN ({len(x)} images, batch {BATCH}, Adam), "
          f"{args.rounds} interleaved rounds")
    medians = {name: statistics.median(v) for name, v in samples.items()}
    for name in names:
        print(f"  {name:<16} median {medians[name]:7.3f} s   rounds "
              + " ".join(f"{s:.2f}" for s in samples[name]))
    for mine in ("wengert-traced", "wengert-eager"):
        for other in ("tensorflow", "pytorch"):
            if mine in medians and other in medians:
                ratios = [a / b for a, b in zip(samples[mine], samples[other])]
                print(f"  {mine} / {other:<10} median {medians[mine] / medians[other]:5.2f}x"
                      f"   per round {min(ratios):.2f}-{max(ratios):.2f}")
    print("  goal: faster than tensorflow, within 1.3x of pytorch")


if __name__ == "__main__":
    main()
