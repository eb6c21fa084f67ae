"""LSTM text-classifier training (issues 19, 33): wengert against PyTorch's nn.LSTM and TensorFlow's
Keras LSTM, on CPU.

    python bench/bench_lstm.py [rounds] [--length T] [--only NAME ...]

Workload: Embedding(10,000, 128) -> LSTM(128) -> Dense(1), sigmoid cross-entropy, Adam, batch 64,
sequences of T = 80 token ids (--length), 50 training steps (one pass over 3,200 sequences, not
shuffled; every contender reads the same arrays from one .npz). Contenders, each timed for the
50 steps after one warm-up pass (which traces):
- wengert-traced: Keras `fit` as compiled (the step traced into a graph by `wengert.function`;
                  the LSTM is one fused LSTMSequence op with its own back-propagation);
- wengert-eager:  `compile(run_eagerly=True)`, the step run op by op on the tape;
- tensorflow:     TensorFlow's own Keras `fit` (tf.function), $TF_PYTHON (/work/tfvenv);
- pytorch:        nn.Embedding + nn.LSTM(batch_first) + nn.Linear, the usual hand-written loop,
                  $TORCH_PYTHON (/work/torchvenv).
FLOPs per round (for the fraction of the machine's GEMM peak): the gate matmuls, 2 B (E + U) 4U
per time step, over T steps, backward twice the forward (3x in all), for 50 steps: 201 GFLOP at
T = 80; the embedding lookup and the Dense(1) head are left out.
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

VOCAB, EMBED, UNITS, BATCH, STEPS = 10_000, 128, 128, 64, 50
CONTENDERS = [("wengert-traced", "wengert", "setup_wengert", {"eager": False}),
              ("wengert-eager", "wengert", "setup_wengert", {"eager": True}),
              ("tensorflow", "tensorflow", "setup_tensorflow", {}),
              ("pytorch", "pytorch", "setup_pytorch", {})]
PAIRS = [(w, o) for w in ("wengert-traced", "wengert-eager") for o in ("pytorch", "tensorflow")]


def flops(length):
    """The gate matmuls of the 50 steps, forward and backward (3x the forward)."""
    return STEPS * 3 * length * 2 * BATCH * (EMBED + UNITS) * 4 * UNITS


def save_data(folder, length):
    rng = np.random.default_rng(0)
    x = rng.integers(1, VOCAB, size=(BATCH * STEPS, length)).astype(np.int32)
    y = rng.integers(0, 2, size=(BATCH * STEPS, 1)).astype(np.float32)
    path = os.path.join(folder, "sequences.npz")
    np.savez(path, x=x, y=y)
    return path


def setup_wengert(data, eager):
    import wengert as tf
    arrays = np.load(data)
    x, y = arrays["x"], arrays["y"]
    tf.keras.utils.set_random_seed(0)
    layers = tf.keras.layers
    model = tf.keras.Sequential([tf.keras.Input((x.shape[1],), dtype="int32"),
                                 layers.Embedding(VOCAB, EMBED), layers.LSTM(UNITS),
                                 layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-3),
                  loss=tf.keras.losses.BinaryCrossentropy(from_logits=True), run_eagerly=eager)

    def run():
        model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0, shuffle=False)
    run()
    return {"steps": run}


def setup_tensorflow(data):
    import tensorflow
    arrays = np.load(data)
    x, y = arrays["x"], arrays["y"]
    keras = tensorflow.keras
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((x.shape[1],), dtype="int32"),
                              keras.layers.Embedding(VOCAB, EMBED), keras.layers.LSTM(UNITS),
                              keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.Adam(1e-3),
                  loss=keras.losses.BinaryCrossentropy(from_logits=True))

    def run():
        model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0, shuffle=False)
    run()
    return {"steps": run}


def setup_pytorch(data):
    import torch
    arrays = np.load(data)
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
    xt, yt = torch.tensor(arrays["x"].astype(np.int64)), torch.tensor(arrays["y"])

    def run():
        for i in range(0, len(xt), BATCH):
            optimizer.zero_grad()
            loss = loss_fn(model(xt[i:i + BATCH]), yt[i:i + BATCH])
            loss.backward()
            optimizer.step()
    run()
    return {"steps": run}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rounds", type=int, nargs="?", default=3)
    parser.add_argument("--length", type=int, default=80)
    parser.add_argument("--only", nargs="*", help="contenders to run (default: all)")
    args = parser.parse_args()
    harness.header(f"bench_lstm: {STEPS} training steps, {args.rounds} interleaved rounds")
    with tempfile.TemporaryDirectory() as folder:
        data = save_data(folder, args.length)
        specs = [(name, framework, setup, {**extra, "data": data})
                 for name, framework, setup, extra in CONTENDERS]
        workers = harness.start_all("bench_lstm", specs, args.only, number=1, pause_gc=False)
        try:
            result = harness.run_rounds(workers, "steps", args.rounds)
        finally:
            harness.close_all(workers)
    harness.report_rounds(
        f"LSTM classifier, {STEPS} steps of batch {BATCH}, length {args.length}, "
        f"Embedding {VOCAB}x{EMBED} -> LSTM {UNITS} -> Dense 1", result, PAIRS,
        ["wengert-traced <= 1.0x pytorch, < tensorflow"], flops=flops(args.length))


if __name__ == "__main__":
    main()
