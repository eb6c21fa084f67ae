"""LSTM text-classifier training (issue 19): wengert against PyTorch's nn.LSTM and TensorFlow's
Keras LSTM, on CPU.

    python bench/bench_lstm.py [--rounds N] [--length T] [--tf-python /work/tfvenv/bin/python]

Workload: Embedding(10,000, 128) -> LSTM(128) -> Dense(1), sigmoid cross-entropy, Adam, batch 64,
sequences of T = 80 token ids (--length), 50 training steps (one pass over 3,200 sequences, not
shuffled). Contenders, each timed for the 50 steps:
- wengert traced: Keras `fit` as compiled (the step traced into a graph by `wengert.function`;
                  the LSTM is one fused LSTMSequence op with its own back-propagation);
- wengert eager:  `compile(run_eagerly=True)`, the step run op by op on the tape;
- tensorflow:     TensorFlow's own Keras `fit` (tf.function), in a subprocess of the TF venv
                  (TensorFlow is never imported here; skipped when the venv is missing);
- pytorch:        nn.Embedding + nn.LSTM(batch_first) + nn.Linear, the usual hand-written loop.
Rounds are interleaved (each round runs every contender once, in rotating order); the report
gives medians and ratios. Goal (issue 19): traced within 1.5x of PyTorch and faster than
TensorFlow.
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
import wengert as tf  # noqa: E402

try:
    import torch
except ImportError:  # PyTorch is optional: `pip install torch==2.13.0`
    torch = None

VOCAB, EMBED, UNITS, BATCH, STEPS = 10_000, 128, 128, 64, 50
DEFAULT_TF_PYTHON = "/work/tfvenv/bin/python"


def make_data(length):
    rng = np.random.default_rng(0)
    x = rng.integers(1, VOCAB, size=(BATCH * STEPS, length)).astype(np.int32)
    y = rng.integers(0, 2, size=(BATCH * STEPS, 1)).astype(np.float32)
    return x, y


def wengert_steps(x, y, eager):
    tf.keras.utils.set_random_seed(0)
    layers = tf.keras.layers
    model = tf.keras.Sequential([tf.keras.Input((x.shape[1],), dtype="int32"),
                                 layers.Embedding(VOCAB, EMBED), layers.LSTM(UNITS),
                                 layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-3),
                  loss=tf.keras.losses.BinaryCrossentropy(from_logits=True), run_eagerly=eager)
    model.fit(x[:2 * BATCH], y[:2 * BATCH], batch_size=BATCH, epochs=1, verbose=0)  # traces

    def run():
        start = time.perf_counter()
        model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0, shuffle=False)
        return time.perf_counter() - start
    return run


def torch_steps(x, y):
    torch.manual_seed(0)
    nn = torch.nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(VOCAB, EMBED)
            self.lstm = nn.LSTM(EMBED, UNITS, batch_first=True)
            self.out = nn.Linear(UNITS, 1)

        def forward(self, ids):
            _, (h, _) = self.lstm(self.embed(ids))
            return self.out(h[-1])
    model = Net()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.BCEWithLogitsLoss()
    xt, yt = torch.tensor(x.astype(np.int64)), torch.tensor(y)

    def run():
        start = time.perf_counter()
        for i in range(0, len(xt), BATCH):
            optimizer.zero_grad()
            loss = loss_fn(model(xt[i:i + BATCH]), yt[i:i + BATCH])
            loss.backward()
            optimizer.step()
        return time.perf_counter() - start
    run()
    return run


class TensorFlowWorker:
    """bench/lstm_tf_worker.py in the TF venv: the 50 steps per request, timed inside TF."""

    def __init__(self, python, x, y):
        self._dir = tempfile.TemporaryDirectory()
        path = os.path.join(self._dir.name, "data.npz")
        np.savez(path, x=x, y=y, batch_size=BATCH)
        self._proc = subprocess.Popen(
            [python, os.path.join(HERE, "lstm_tf_worker.py"), path], stdin=subprocess.PIPE,
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
    parser.add_argument("--length", type=int, default=80)
    parser.add_argument("--tf-python", default=DEFAULT_TF_PYTHON)
    parser.add_argument("--only", nargs="*", help="contenders to run (default: all)")
    args = parser.parse_args()
    x, y = make_data(args.length)
    contenders, worker = {}, None
    wanted = lambda name: not args.only or name in args.only  # noqa: E731
    if wanted("wengert-traced"):
        contenders["wengert-traced"] = wengert_steps(x, y, eager=False)
    if wanted("wengert-eager"):
        contenders["wengert-eager"] = wengert_steps(x, y, eager=True)
    if wanted("tensorflow") and os.path.exists(args.tf_python):
        worker = contenders["tensorflow"] = TensorFlowWorker(args.tf_python, x, y)
    if wanted("pytorch") and torch is not None:
        contenders["pytorch"] = torch_steps(x, y)
    names = list(contenders)
    samples = {name: [] for name in names}
    for r in range(args.rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            samples[name].append(contenders[name]())
    if worker is not None:
        worker.close()
    print(f"\n## LSTM classifier, {STEPS} steps of batch {BATCH}, length {args.length}, "
          f"Embedding {VOCAB}x{EMBED} -> LSTM {UNITS} -> Dense 1, {args.rounds} rounds")
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
    print("  goal: traced within 1.5x of pytorch and faster than tensorflow")


if __name__ == "__main__":
    main()
