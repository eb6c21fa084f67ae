"""Graph-mode benchmarks (issue 3): traced `function` and TF1 `Session` vs hand-written NumPy.

    python bench/bench_graph.py [--rounds N] [--show-plan]

Same workloads and data as bench_core.py (imported from it), run side by side in one process
(all of them wengert or NumPy: the comparison with PyTorch under the protocol of
bench/README.md, each contender in its own process, is bench_core.py's wengert-traced):
- mlp:   batch 128, 784-512-512-10 float32, relu, sparse softmax cross-entropy; gradients of
         the three weight matrices by a GradientTape *inside* the traced function and the SGD
         update by `assign_sub` inside it. Goal: traced function within 1.05x of NumPy by hand.
         Also: the same step as a TF1 graph (placeholders, `gradients`, `assign_sub` ops) run by
         `Session.run` / `Session.make_callable`, and the eager step, for comparison; and the
         tracing time of the mlp step (first call: trace + compile the plan).
- chain: float64 vector of 64, 300 steps y = tanh(y * w[i]) for a Variable w of 300 values,
         gradient of sum(y) w.r.t. w by a tape inside the traced function. Goal: within 1.3x of
         NumPy by hand.
Only ratios are meaningful (the machine is shared); absolute times are shown for context.
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# this checkout's wengert first, not an installed one
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import bench_core  # noqa: E402
import harness  # noqa: E402
import wengert as tf  # noqa: E402
from bench_core import LR, STEPS  # noqa: E402

v1 = tf.compat.v1


# -- mlp ----------------------------------------------------------------------------------------
def _mlp_loss(x, labels, weights):
    h = x
    for w in weights[:-1]:
        h = tf.nn.relu(tf.matmul(h, w))
    logits = tf.matmul(h, weights[-1])
    return tf.reduce_mean(
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))


def make_traced_mlp(batch=bench_core.BATCH):
    """(the traced training step, x, labels, the weight Variables)."""
    x, labels, weights = bench_core.mlp_data(batch)
    tw = [tf.Variable(w) for w in weights]
    lr = tf.constant(np.float32(LR))

    @tf.function
    def train_step(x, labels):
        with tf.GradientTape() as tape:
            loss = _mlp_loss(x, labels, tw)
        grads = tape.gradient(loss, tw)
        for w, g in zip(tw, grads):
            w.assign_sub(lr * g)
        return loss
    return train_step, tf.constant(x), tf.constant(labels), tw


def make_session_mlp():
    """(Session, a callable running one step by make_callable, Session.run step, feeds)."""
    x, labels, weights = bench_core.mlp_data()
    graph = tf.Graph()
    with graph.as_default():
        px = v1.placeholder(tf.float32, [None, 784], name="x")
        pl = v1.placeholder(tf.int32, [None], name="labels")
        tw = [tf.Variable(w) for w in weights]
        loss = _mlp_loss(px, pl, tw)
        grads = tf.gradients(loss, tw)
        updates = [w.assign_sub(LR * g) for w, g in zip(tw, grads)]
        train = [u.op for u in updates]  # fetch the ops: no copies of the new weights
        init = v1.global_variables_initializer()
    sess = v1.Session(graph=graph)
    sess.run(init)
    call = sess.make_callable([loss, train], [px, pl])
    feed = {px: x, pl: labels}
    return sess, lambda: call(x, labels), lambda: sess.run([loss, train], feed)


def tracing_seconds(repeats=5):
    """Median seconds of the first call of a fresh traced mlp step (trace + compile + run) and
    of one later call, so the difference is the tracing cost."""
    first, later = [], []
    for _ in range(repeats):
        step, tx, tl, _ = make_traced_mlp()
        start = time.perf_counter()
        step(tx, tl)
        first.append(time.perf_counter() - start)
        start = time.perf_counter()
        step(tx, tl)
        later.append(time.perf_counter() - start)
    return statistics.median(first), statistics.median(later)


def mlp_contenders():
    step, tx, tl, _ = make_traced_mlp()
    _, session_callable, session_run = make_session_mlp()
    return {"wengert": lambda: step(tx, tl),
            "numpy (by hand)": bench_core.numpy_mlp(),
            "session callable": session_callable,
            "session.run": session_run,
            "eager": bench_core.wengert_mlp(tf)}


def check_mlp_agrees():
    """The traced step, the session step and NumPy by hand give the same losses and weights."""
    step, tx, tl, tw = make_traced_mlp()
    sess, session_callable, _ = make_session_mlp()
    by_hand = bench_core.numpy_mlp()
    for _ in range(3):
        a = float(step(tx, tl).numpy())
        b = float(session_callable()[0])
        c = float(by_hand())
        np.testing.assert_allclose([a, b], [c, c], rtol=1e-4)
    sess.close()
    x, labels, weights = bench_core.mlp_data()
    assert not np.array_equal(tw[0].numpy(), weights[0]), "the traced step did not train"


# -- chain --------------------------------------------------------------------------------------
def chain_contenders():
    eager_chain, numpy_chain = bench_core.wengert_chain(tf), bench_core.numpy_chain()
    chain = tf.function(eager_chain)  # the same step as bench_core's, traced

    np.testing.assert_allclose(chain().numpy(), numpy_chain(), rtol=1e-10)
    return {"wengert": chain, "numpy (by hand)": numpy_chain, "eager": eager_chain}, chain


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--only", choices=("mlp", "chain"), help="run one workload")
    parser.add_argument("--show-plan", action="store_true",
                        help="print the generated code of the traced mlp step")
    args = parser.parse_args()
    print(f"wengert {tf.__version__}, NumPy {np.__version__}; {os.cpu_count()} CPUs, "
          f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}")
    check_mlp_agrees()
    if args.show_plan:
        step, tx, tl, _ = make_traced_mlp()
        print(step.get_concrete_function(tx, tl)._plan.source)
    if args.only != "chain":
        mlp(args.rounds)
    if args.only != "mlp":
        chain(args.rounds)


def mlp(rounds):
    harness.report("mlp: 784-512-512-10 training step as a traced function, batch 128",
                   harness.compare(mlp_contenders(), rounds=rounds),
                   goals=["wengert / numpy (by hand) <= 1.05"])
    first, later = tracing_seconds()
    print(f"  tracing: first call {harness.format_seconds(first)}, a later call "
          f"{harness.format_seconds(later)}: tracing + compiling costs "
          f"{harness.format_seconds(first - later)}")


def chain(rounds):
    chain, _ = chain_contenders()
    harness.report(f"chain: {STEPS} x tanh(y * w[i]), d sum(y) / dw, as a traced function",
                   harness.compare(chain, rounds=rounds),
                   goals=["wengert / numpy (by hand) <= 1.30"])


if __name__ == "__main__":
    main()
