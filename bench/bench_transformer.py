"""A transformer encoder block, forward and backward (issues 19, 33): wengert's Keras layers against
PyTorch's nn.TransformerEncoderLayer and TensorFlow's Keras layers, on CPU.

    python bench/bench_transformer.py [rounds]

Workload: batch 32, length 64, model width 128, 4 heads (key_dim 32), feed-forward 512 (relu),
post-norm as PyTorch's default (x = LayerNorm(x + MHA(x, x)); x = LayerNorm(x + FFN(x))),
dropout 0; one step = the block's output, a scalar loss sum(y * y) / size, and the gradients of
every weight and the input. Contenders:
- wengert-traced: the step inside `wengert.function` (traced once, then replayed);
- wengert-eager:  the step on a GradientTape, op by op;
- tensorflow:     the same Keras block in TensorFlow 2.21 (Keras 3), the step in tf.function,
                  $TF_PYTHON (/work/tfvenv);
- pytorch:        nn.TransformerEncoderLayer(128, 4, 512, dropout=0, batch_first=True),
                  loss.backward(), $TORCH_PYTHON (/work/torchvenv).
FLOPs per step (for the fraction of the machine's GEMM peak): the matmuls only, forward
8 B T D^2 (q, k, v, output projections) + 4 B T^2 D (scores, weighted values) + 4 B T D F
(feed-forward), and backward twice the forward: 3x the forward in all, 2.6 GFLOP.
Protocol (bench/README.md, harness.py): each contender in a fresh process of its own with its
framework's default threading; rounds interleave; every round's figure, per-round ratios and
medians are printed. Goal (issue 33): traced <= 1.0x PyTorch, eager <= 1.2x.
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import harness  # noqa: E402

BATCH, LENGTH, WIDTH, HEADS, FFN = 32, 64, 128, 4, 512
CONTENDERS = [("wengert-traced", "wengert", "setup_wengert", {"traced": True}),
              ("wengert-eager", "wengert", "setup_wengert", {"traced": False}),
              ("tensorflow", "tensorflow", "setup_tensorflow", {}),
              ("pytorch", "pytorch", "setup_pytorch", {})]
PAIRS = [(w, o) for w in ("wengert-traced", "wengert-eager") for o in ("pytorch", "tensorflow")]
FLOPS = 3 * (8 * BATCH * LENGTH * WIDTH ** 2 + 4 * BATCH * LENGTH ** 2 * WIDTH
             + 4 * BATCH * LENGTH * WIDTH * FFN)


def inputs():
    return np.random.default_rng(0).normal(size=(BATCH, LENGTH, WIDTH)).astype(np.float32)


def encoder_block(tf):
    """Post-norm encoder block, as nn.TransformerEncoderLayer (norm_first=False)."""
    class EncoderBlock(tf.keras.layers.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            layers = tf.keras.layers
            self.attention = layers.MultiHeadAttention(HEADS, WIDTH // HEADS)
            self.norm1 = layers.LayerNormalization(epsilon=1e-5)
            self.norm2 = layers.LayerNormalization(epsilon=1e-5)
            self.ffn1 = layers.Dense(FFN, activation="relu")
            self.ffn2 = layers.Dense(WIDTH)

        def call(self, x):
            x = self.norm1(x + self.attention(x, x))
            return self.norm2(x + self.ffn2(self.ffn1(x)))
    return EncoderBlock()


def keras_step(tf, traced):
    """The block's fwd+bwd step in `tf` (wengert or TensorFlow), traced or eager."""
    tf.keras.utils.set_random_seed(0)
    block = encoder_block(tf)
    x = inputs()
    xt = tf.constant(x)
    block(xt)
    size = float(x.size)

    def step(data):
        with tf.GradientTape() as tape:
            tape.watch(data)
            y = block(data)
            loss = tf.reduce_sum(y * y) / size
        return loss, tape.gradient(loss, [data] + block.trainable_weights)
    run = tf.function(step) if traced else step
    return {"step": lambda: run(xt)}


def setup_wengert(traced):
    import wengert
    return keras_step(wengert, traced)


def setup_tensorflow():
    import tensorflow
    return keras_step(tensorflow, True)


def setup_pytorch():
    import torch
    torch.manual_seed(0)
    block = torch.nn.TransformerEncoderLayer(WIDTH, HEADS, FFN, dropout=0.0, batch_first=True)
    x = inputs()
    xt = torch.tensor(x, requires_grad=True)
    size = float(x.size)

    def step():
        block.zero_grad()
        xt.grad = None
        y = block(xt)
        loss = (y * y).sum() / size
        loss.backward()
        return loss
    return {"step": step}


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    harness.header(f"bench_transformer: encoder block fwd+bwd, {rounds} interleaved rounds")
    workers = harness.start_all("bench_transformer", CONTENDERS, target_seconds=0.3)
    try:
        result = harness.run_rounds(workers, "step", rounds)
    finally:
        harness.close_all(workers)
    harness.report_rounds(
        f"transformer encoder block fwd+bwd, batch {BATCH}, length {LENGTH}, width {WIDTH}, "
        f"{HEADS} heads, ffn {FFN}", result, PAIRS,
        ["wengert-traced <= 1.0x pytorch, wengert-eager <= 1.2x pytorch"], flops=FLOPS)


if __name__ == "__main__":
    main()
