"""A transformer encoder block, forward and backward (issue 19): wengert's Keras layers against
PyTorch's nn.TransformerEncoderLayer, on CPU.

    python bench/bench_transformer.py [--rounds N]

Workload: batch 32, length 64, model width 128, 4 heads (key_dim 32), feed-forward 512 (relu),
post-norm as PyTorch's default (x = LayerNorm(x + MHA(x, x)); x = LayerNorm(x + FFN(x))),
dropout 0; one step = the block's output, a scalar loss sum(y * y) / size, and the gradients of
every weight and the input. Contenders:
- wengert traced: the step inside `wengert.function` (traced once, then replayed);
- wengert eager:  the step on a GradientTape, op by op;
- pytorch:        nn.TransformerEncoderLayer(128, 4, 512, dropout=0, batch_first=True),
                  loss.backward().
Rounds are interleaved (harness.py); the report gives medians and ratios. Goal (issue 19):
within 1.3x of PyTorch.
"""
import argparse
import os
import sys

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import harness  # noqa: E402
import wengert as tf  # noqa: E402

try:
    import torch
except ImportError:  # PyTorch is optional: `pip install torch==2.13.0`
    torch = None

BATCH, LENGTH, WIDTH, HEADS, FFN = 32, 64, 128, 4, 512


class EncoderBlock(tf.keras.layers.Layer):
    """Post-norm encoder block, as nn.TransformerEncoderLayer (norm_first=False)."""

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


def wengert_contenders(x):
    tf.keras.utils.set_random_seed(0)
    block = EncoderBlock()
    xt = tf.constant(x)
    block(xt)
    size = float(x.size)

    def step(inputs):
        with tf.GradientTape() as tape:
            tape.watch(inputs)
            y = block(inputs)
            loss = tf.reduce_sum(y * y) / size
        return loss, tape.gradient(loss, [inputs] + block.trainable_weights)
    traced = tf.function(step)
    traced(xt)
    return {"wengert-traced": lambda: traced(xt), "wengert-eager": lambda: step(xt)}


def torch_contender(x):
    torch.manual_seed(0)
    block = torch.nn.TransformerEncoderLayer(WIDTH, HEADS, FFN, dropout=0.0, batch_first=True)
    xt = torch.tensor(x, requires_grad=True)
    size = float(x.size)

    def step():
        block.zero_grad()
        xt.grad = None
        y = block(xt)
        loss = (y * y).sum() / size
        loss.backward()
        return loss
    step()
    return step


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    x = np.random.default_rng(0).normal(size=(BATCH, LENGTH, WIDTH)).astype(np.float32)
    contenders = wengert_contenders(x)
    if torch is not None:
        contenders["pytorch"] = torch_contender(x)
    medians = harness.compare(contenders, rounds=args.rounds, target_seconds=0.3)
    title = (f"transformer encoder block fwd+bwd, batch {BATCH}, length {LENGTH}, width {WIDTH},"
             f" {HEADS} heads, ffn {FFN}")
    for mine in ("wengert-traced", "wengert-eager"):
        shown = {mine: medians[mine]}
        if "pytorch" in medians:
            shown["pytorch"] = medians["pytorch"]
        harness.report(f"{title} ({mine})", shown, baseline=mine,
                       goals=["within 1.3x of pytorch"])


if __name__ == "__main__":
    main()
