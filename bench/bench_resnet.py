"""A ResNet-20 training step on CIFAR-10 shapes (issue 33): wengert against TensorFlow's Keras and
PyTorch.

    python bench/bench_resnet.py [rounds] [--only NAME ...] [--steps 10]
    python bench/bench_resnet.py --profile [--steps 10]   (wengert's step, per op type)

Workload: ResNet-20 (He et al. 2016, the CIFAR form of Keras's "resnet_v1" example): conv3x3(16)
-BN-ReLU, then 3 stages of 3 basic blocks with 16, 32 and 64 filters (each block conv3x3-BN-ReLU-
conv3x3-BN, plus its input, then ReLU; the first block of stages 2 and 3 has stride 2 and a
1x1 convolution with stride 2 as its shortcut, the projection of Keras's example), global
average pooling and Dense(10) logits; convolutions with bias, BatchNormalization with Keras's
defaults (momentum 0.99, epsilon 1e-3; PyTorch's momentum 0.01 and eps 1e-3 are the same).
Synthetic data: one fixed batch of 64 float32 32x32x3 images (normal) and int labels in
[0, 10); sparse softmax cross-entropy from logits; SGD with learning rate 0.01 and momentum
0.9. One step = forward, loss, gradients and update. Each round times `--steps` steps (10)
back to back and reports seconds per step. Contenders:
- wengert-traced: a custom train step (GradientTape inside `wengert.function`), traced once;
- wengert-eager:  the same step run op by op on the tape;
- tensorflow:     the same model in TensorFlow's Keras, the same step in `tf.function`;
- pytorch:        torch.nn with the same layers, NCHW, the usual hand-written step (eager).
FLOPs per step (for the fraction of the machine's GEMM peak, `flops_per_step`): the convolutions'
and Dense layer's multiply-adds x 2, backward twice the forward: 15.7 GFLOP.
Protocol (bench/README.md, harness.py): each contender in a fresh process of its own with its
framework's default threading; rounds interleave; every round's figure, per-round ratios and
medians are printed. Goal (issue 33): wengert-traced <= 1.2x PyTorch and faster than
TensorFlow.
"""
import argparse
import os
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import harness  # noqa: E402

BATCH = 64
STAGES = (16, 32, 64)
BLOCKS = 3
CONTENDERS = [("wengert-traced", "wengert", "setup_wengert", {"eager": False}),
              ("wengert-eager", "wengert", "setup_wengert", {"eager": True}),
              ("tensorflow", "tensorflow", "setup_tensorflow", {}),
              ("pytorch", "pytorch", "setup_pytorch", {})]
PAIRS = [(w, o) for w in ("wengert-traced", "wengert-eager") for o in ("pytorch", "tensorflow")]


def flops_per_step():
    """The step's convolution and Dense multiply-adds x 2, forward, times 3 for forward and
    backward (for the fraction of the machine's GEMM peak): 81.6 MFLOP forward per image (the
    40.8M multiply-adds usually quoted for ResNet-20), 15.7 GFLOP per step of 64."""
    side, channels, macs = 32, 16, 32 * 32 * 16 * 9 * 3  # the stem's conv3x3 of 3 channels
    for stage, filters in enumerate(STAGES):
        for block in range(BLOCKS):
            stride = 2 if stage and not block else 1
            side //= stride
            macs += side * side * filters * 9 * channels + side * side * filters * 9 * filters
            if stride == 2:
                macs += side * side * filters * channels  # the 1x1 projection shortcut
            channels = filters
    macs += channels * 10
    return 3 * 2 * macs * BATCH


def save_data(folder):
    """One batch of synthetic CIFAR-10-shaped data (NHWC float32, int64 labels) in one .npz."""
    rng = np.random.default_rng(0)
    path = os.path.join(folder, "batch.npz")
    np.savez(path, x=rng.standard_normal((BATCH, 32, 32, 3)).astype(np.float32),
             y=rng.integers(0, 10, BATCH).astype(np.int64))
    return path


def build_keras(keras):
    """ResNet-20 with `keras` (wengert's or TensorFlow's: the same calls build both)."""
    layers = keras.layers

    def conv_bn(x, filters, strides=1, relu=True):
        x = layers.Conv2D(filters, 3, strides=strides, padding="same")(x)
        x = layers.BatchNormalization()(x)
        return layers.Activation("relu")(x) if relu else x

    inputs = keras.Input((32, 32, 3))
    x = conv_bn(inputs, STAGES[0])
    for stage, filters in enumerate(STAGES):
        for block in range(BLOCKS):
            strides = 2 if stage > 0 and block == 0 else 1
            y = conv_bn(x, filters, strides)
            y = conv_bn(y, filters, relu=False)
            if strides != 1:
                x = layers.Conv2D(filters, 1, strides=strides, padding="same")(x)
            x = layers.Activation("relu")(layers.Add()([x, y]))
    x = layers.GlobalAveragePooling2D()(x)
    return keras.Model(inputs, layers.Dense(10)(x))


def keras_step(tf, data, eager):
    """A training step of ResNet-20 in `tf` (wengert or TensorFlow), traced unless `eager`."""
    arrays = np.load(data)
    x, y = tf.constant(arrays["x"]), tf.constant(arrays["y"])
    tf.keras.utils.set_random_seed(0)
    model = build_keras(tf.keras)
    optimizer = tf.keras.optimizers.SGD(0.01, momentum=0.9)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    def step():
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss
    return step if eager else tf.function(step)


def setup_wengert(data, eager):
    import wengert as tf
    step = keras_step(tf, data, eager)
    step()
    return {"step": step}


def setup_tensorflow(data):
    import tensorflow as tf
    step = keras_step(tf, data, False)
    step()
    return {"step": lambda: step().numpy()}


def torch_model(torch):
    nn = torch.nn

    class Block(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.c1, self.b1 = nn.Conv2d(cin, cout, 3, stride, 1), nn.BatchNorm2d(cout, 1e-3, 0.01)
            self.c2, self.b2 = nn.Conv2d(cout, cout, 3, 1, 1), nn.BatchNorm2d(cout, 1e-3, 0.01)
            self.short = nn.Conv2d(cin, cout, 1, stride) if stride != 1 else nn.Identity()

        def forward(self, x):
            y = torch.relu(self.b1(self.c1(x)))
            return torch.relu(self.short(x) + self.b2(self.c2(y)))

    parts = [nn.Conv2d(3, STAGES[0], 3, 1, 1), nn.BatchNorm2d(STAGES[0], 1e-3, 0.01), nn.ReLU()]
    cin = STAGES[0]
    for stage, filters in enumerate(STAGES):
        for block in range(BLOCKS):
            parts.append(Block(cin, filters, 2 if stage > 0 and block == 0 else 1))
            cin = filters
    parts += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(cin, 10)]
    return nn.Sequential(*parts)


def setup_pytorch(data):
    import torch
    arrays = np.load(data)
    torch.manual_seed(0)
    model = torch_model(torch)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    loss_fn = torch.nn.CrossEntropyLoss()
    x = torch.tensor(arrays["x"]).permute(0, 3, 1, 2).contiguous()
    y = torch.tensor(arrays["y"])

    def step():
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        return loss.item()
    step()
    return {"step": step}


def profile(steps):
    """wengert's traced and eager steps under its profiler: ms per step for each op type."""
    sys.path.insert(0, os.path.dirname(HERE))
    import wengert as tf
    from wengert.framework.context import state
    from wengert.profiler.op_summary import format_table, op_totals
    with tempfile.TemporaryDirectory() as folder:
        data = save_data(folder)
        for eager in (False, True):
            step = keras_step(tf, data, eager)
            step()
            start = time.perf_counter()
            for _ in range(steps):
                step()
            plain = (time.perf_counter() - start) / steps
            tf.profiler.experimental.start(os.path.join(folder, "log"))
            recorder = state.profiler
            recorder.events.clear()
            for _ in range(steps):
                step()
            events = list(recorder.events)
            tf.profiler.experimental.stop()
            rows = [(k, t / steps, n // steps) for k, t, n in op_totals(events)]
            kind = "eager" if eager else "traced"
            print(f"\n## wengert-{kind}: {plain * 1e3:.1f} ms per step unprofiled; per step, by "
                  f"op type (Total = ms per step in kernels/ops, Calls per step):")
            print(format_table(rows, limit=25))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rounds", type=int, nargs="?", default=5)
    parser.add_argument("--only", nargs="*", help="contenders to run (default: all)")
    parser.add_argument("--steps", type=int, default=10, help="training steps per round")
    parser.add_argument("--profile", action="store_true", help="profile wengert's step instead")
    args = parser.parse_args()
    if args.profile:
        return profile(args.steps)
    harness.header(f"bench_resnet: ResNet-20 training step, {args.rounds} interleaved rounds "
                   f"of {args.steps} steps")
    with tempfile.TemporaryDirectory() as folder:
        data = save_data(folder)
        specs = [(name, framework, setup, {**extra, "data": data})
                 for name, framework, setup, extra in CONTENDERS]
        workers = harness.start_all("bench_resnet", specs, args.only, number=args.steps,
                                    pause_gc=False)
        try:
            result = harness.run_rounds(workers, "step", args.rounds)
        finally:
            harness.close_all(workers)
    harness.report_rounds(f"one ResNet-20 training step (batch {BATCH}, 32x32x3, SGD momentum), "
                          f"seconds per step over {args.steps} steps", result, PAIRS,
                          ["wengert-traced <= 1.2x pytorch, < tensorflow"], flops=flops_per_step())


if __name__ == "__main__":
    main()
