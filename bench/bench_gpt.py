"""A small GPT-style decoder's training step (issue 33): wengert's Keras layers against PyTorch and
TensorFlow's Keras, on CPU.

    python bench/bench_gpt.py [rounds] [--only NAME ...]

Workload: token ids [B=8, T=128] from a vocabulary of 1,000 -> token embedding + position
embedding (width D=256) -> 4 pre-norm decoder blocks (x += MHA(LN(x)) with a causal mask, 4 heads
of 64; x += Dense(D)(gelu(Dense(4D)(LN(x))))) -> LayerNorm -> Dense(1,000) logits; loss the mean
sparse cross-entropy of the next token (targets = the ids shifted by one); one Adam(1e-3) step.
Every contender trains on the same fixed batch. Contenders:
- wengert-traced: the step (tape, gradients, apply_gradients) inside `wengert.function`;
- wengert-eager:  the same step run op by op;
- tensorflow:     the same Keras model in TensorFlow 2.21 (Keras 3), the step in tf.function,
                  $TF_PYTHON (/work/tfvenv);
- pytorch:        the same network written as PyTorch users write it (nanoGPT's layout: one
                  Linear(D, 3D) for q, k, v, F.scaled_dot_product_attention(is_causal=True),
                  nn.GELU, nn.LayerNorm), F.cross_entropy, torch.optim.Adam,
                  $TORCH_PYTHON (/work/torchvenv).
FLOPs per step (for the fraction of the machine's GEMM peak): the matmuls only, per block
forward 24 B T D^2 (q, k, v, output projections: 8; MLP: 16) + 4 B T^2 D (scores and weighted
values, the whole T x T square: the causal mask halves the useful part, not the work of a dense
kernel), plus 2 B T D V for the logits; backward twice the forward: 3x the forward in all.
Protocol (bench/README.md, harness.py): each contender in a fresh process of its own with its
framework's default threading; rounds interleave; every round's figure, per-round ratios, medians,
peak memory and fraction of peak are printed. Goal (issue 33): traced <= 1.0x PyTorch,
eager <= 1.2x.
"""
import argparse
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import harness  # noqa: E402

BATCH, LENGTH, WIDTH, HEADS, LAYERS, VOCAB = 8, 128, 256, 4, 4, 1000
CONTENDERS = [("wengert-traced", "wengert", "setup_wengert", {"traced": True}),
              ("wengert-eager", "wengert", "setup_wengert", {"traced": False}),
              ("tensorflow", "tensorflow", "setup_tensorflow", {}),
              ("pytorch", "pytorch", "setup_pytorch", {})]
PAIRS = [(w, o) for w in ("wengert-traced", "wengert-eager") for o in ("pytorch", "tensorflow")]
FLOPS = 3 * (LAYERS * (24 * BATCH * LENGTH * WIDTH ** 2 + 4 * BATCH * LENGTH ** 2 * WIDTH)
             + 2 * BATCH * LENGTH * WIDTH * VOCAB)


def token_batch():
    """Inputs [B, T] and next-token targets [B, T], int32, the same for every contender."""
    ids = np.random.default_rng(0).integers(0, VOCAB, size=(BATCH, LENGTH + 1)).astype(np.int32)
    return ids[:, :-1].copy(), ids[:, 1:].copy()


def keras_gpt(tf):
    """The decoder as a Keras model of `tf` (wengert or TensorFlow)."""
    layers = tf.keras.layers

    class Block(layers.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.norm1 = layers.LayerNormalization(epsilon=1e-5)
            self.attention = layers.MultiHeadAttention(HEADS, WIDTH // HEADS)
            self.norm2 = layers.LayerNormalization(epsilon=1e-5)
            self.mlp_in = layers.Dense(4 * WIDTH, activation="gelu")
            self.mlp_out = layers.Dense(WIDTH)

        def call(self, x):
            h = self.norm1(x)
            x = x + self.attention(h, h, use_causal_mask=True)
            return x + self.mlp_out(self.mlp_in(self.norm2(x)))

    class GPT(tf.keras.Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.tokens = layers.Embedding(VOCAB, WIDTH)
            self.positions = layers.Embedding(LENGTH, WIDTH)
            self.blocks = [Block() for _ in range(LAYERS)]
            self.norm = layers.LayerNormalization(epsilon=1e-5)
            self.head = layers.Dense(VOCAB)

        def call(self, ids):
            x = self.tokens(ids) + self.positions(tf.range(LENGTH))
            for block in self.blocks:
                x = block(x)
            return self.head(self.norm(x))
    return GPT()


def keras_step(tf, traced):
    """One Adam training step of the Keras GPT in `tf`, traced or eager."""
    tf.keras.utils.set_random_seed(0)
    model = keras_gpt(tf)
    inputs, targets = (tf.constant(a) for a in token_batch())
    model(inputs)
    optimizer = tf.keras.optimizers.Adam(1e-3)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    def step(ids, labels):
        with tf.GradientTape() as tape:
            loss = loss_fn(labels, model(ids))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss
    run = tf.function(step) if traced else step
    return {"step": lambda: run(inputs, targets)}


def setup_wengert(traced):
    import wengert
    return keras_step(wengert, traced)


def setup_tensorflow():
    import tensorflow
    return keras_step(tensorflow, True)


def torch_gpt(torch):
    nn, F = torch.nn, torch.nn.functional

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.norm1, self.norm2 = nn.LayerNorm(WIDTH), nn.LayerNorm(WIDTH)
            self.qkv, self.proj = nn.Linear(WIDTH, 3 * WIDTH), nn.Linear(WIDTH, WIDTH)
            self.mlp = nn.Sequential(nn.Linear(WIDTH, 4 * WIDTH), nn.GELU(),
                                     nn.Linear(4 * WIDTH, WIDTH))

        def forward(self, x):
            b, t, d = x.shape
            q, k, v = self.qkv(self.norm1(x)).split(d, dim=2)
            q, k, v = (z.view(b, t, HEADS, d // HEADS).transpose(1, 2) for z in (q, k, v))
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            x = x + self.proj(y.transpose(1, 2).contiguous().view(b, t, d))
            return x + self.mlp(self.norm2(x))

    class GPT(nn.Module):
        def __init__(self):
            super().__init__()
            self.tokens, self.positions = nn.Embedding(VOCAB, WIDTH), nn.Embedding(LENGTH, WIDTH)
            self.blocks = nn.Sequential(*(Block() for _ in range(LAYERS)))
            self.norm, self.head = nn.LayerNorm(WIDTH), nn.Linear(WIDTH, VOCAB)

        def forward(self, ids):
            x = self.tokens(ids) + self.positions(torch.arange(ids.shape[1]))
            return self.head(self.norm(self.blocks(x)))
    return GPT()


def setup_pytorch():
    import torch
    torch.manual_seed(0)
    model = torch_gpt(torch)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    inputs, targets = (torch.tensor(a.astype(np.int64)) for a in token_batch())

    def step():
        optimizer.zero_grad()
        logits = model(inputs)
        loss = torch.nn.functional.cross_entropy(logits.view(-1, VOCAB), targets.view(-1))
        loss.backward()
        optimizer.step()
        return loss
    return {"step": step}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rounds", type=int, nargs="?", default=5)
    parser.add_argument("--only", nargs="*", help="contenders to run (default: all)")
    args = parser.parse_args()
    harness.header(f"bench_gpt: one training step of a {LAYERS}-layer GPT, "
                   f"{args.rounds} interleaved rounds")
    workers = harness.start_all("bench_gpt", CONTENDERS, args.only, target_seconds=0.5)
    try:
        result = harness.run_rounds(workers, "step", args.rounds)
    finally:
        harness.close_all(workers)
    harness.report_rounds(
        f"GPT training step: batch {BATCH}, length {LENGTH}, width {WIDTH}, {LAYERS} pre-norm "
        f"blocks of {HEADS} heads, MLP {4 * WIDTH} gelu, vocabulary {VOCAB}, Adam", result, PAIRS,
        ["wengert-traced <= 1.0x pytorch, wengert-eager <= 1.2x pytorch"], flops=FLOPS)


if __name__ == "__main__":
    main()
