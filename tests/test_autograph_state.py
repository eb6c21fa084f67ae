"""State inside converted control flow (issue 15): variables read and assigned in branches and loop
bodies of a traced function, tf.print in loops, `for batch in dataset:` training loops, and
gradients through control flow that reads variables."""
import numpy as np
import pytest

import wengert as tf


def test_assignments_in_branches_and_loops_run_each_call():
    counter = tf.Variable(0)

    @tf.function
    def f(x):
        if x > 0:
            counter.assign_add(1)
        for _ in tf.range(3):
            counter.assign_add(10)
        return x
    f(tf.constant(1))
    assert counter.numpy() == 31
    f(tf.constant(-1))
    assert counter.numpy() == 61
    assert f.experimental_get_tracing_count() == 1


def test_reads_inside_a_loop_see_earlier_iterations_assignments():
    v = tf.Variable(1.0)

    @tf.function
    def doubling(n):
        seen = tf.constant(0.0)
        for _ in tf.range(n):
            seen += v            # read before this iteration's assignment
            v.assign(v * 2.0)
        return seen
    assert doubling(tf.constant(4)).numpy() == 15.0 and v.numpy() == 16.0


def test_no_output_branch_with_an_assignment_still_runs():
    v = tf.Variable(0.0)

    @tf.function
    def maybe_reset(x):
        if x > 10.0:
            v.assign(0.0)
        else:
            v.assign_add(x)
    maybe_reset(tf.constant(2.0))
    maybe_reset(tf.constant(3.0))
    assert v.numpy() == 5.0
    maybe_reset(tf.constant(11.0))
    assert v.numpy() == 0.0


def test_tf_print_inside_a_loop_prints_every_iteration(capsys):
    @tf.function
    def f(n):
        for i in tf.range(n):
            tf.print("step", i)
    f(tf.constant(3))
    assert capsys.readouterr().err.splitlines() == ["step 0", "step 1", "step 2"]


def test_for_over_a_dataset_inside_a_function_is_one_loop():
    ds = tf.data.Dataset.range(10).filter(lambda v: v % 3 == 0)   # length unknown

    @tf.function
    def total(dataset):
        s = tf.constant(0, tf.int64)
        for value in dataset:
            if value > 6:
                break
            s += value
        return s
    assert total(ds).numpy() == 9 and total(ds).numpy() == 9
    ops = [op.type for op in total.get_concrete_function(ds).graph.get_operations()]
    assert ops.count("While") == 1 and "IteratorGetNext" not in ops

    @tf.function
    def enumerated(dataset):
        s = tf.constant(0, tf.int64)
        for i, value in enumerate(dataset):
            s += i * value
        return s
    assert enumerated(tf.data.Dataset.range(4)).numpy() == 0 + 1 + 4 + 9


def test_training_loop_over_a_dataset_in_one_function_matches_per_batch_steps():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(48, 3)).astype(np.float32)
    y = x @ np.array([2.0, -1.0, 0.5], np.float32) + 0.3
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(16)

    def make():
        w, b = tf.Variable(np.zeros(3, np.float32)), tf.Variable(0.0)
        return w, b, tf.optimizers.Adam(0.05)

    def loss_fn(w, b, xb, yb):
        return tf.reduce_mean((tf.linalg.matvec(xb, w) + b - yb) ** 2)

    w1, b1, opt1 = make()

    @tf.function
    def epoch(dataset):
        total = 0.0
        for xb, yb in dataset:
            with tf.GradientTape() as tape:
                loss = loss_fn(w1, b1, xb, yb)
            opt1.apply_gradients(zip(tape.gradient(loss, [w1, b1]), [w1, b1]))
            total += loss
        return total

    w2, b2, opt2 = make()

    @tf.function
    def step(xb, yb):
        with tf.GradientTape() as tape:
            loss = loss_fn(w2, b2, xb, yb)
        opt2.apply_gradients(zip(tape.gradient(loss, [w2, b2]), [w2, b2]))
        return loss

    for _ in range(3):
        total = epoch(ds)
        per_batch = sum(float(step(xb, yb)) for xb, yb in ds)
        assert float(total) == pytest.approx(per_batch, rel=1e-5)
    np.testing.assert_allclose(w1.numpy(), w2.numpy(), rtol=1e-5)
    assert epoch.experimental_get_tracing_count() == 2  # slots created: traced again, as in TF


def test_gradients_from_outside_through_loops_and_branches_that_read_variables():
    u = tf.Variable(2.0)

    @tf.function
    def power(x, n):
        y = x
        for _ in tf.range(n):
            if y > 100.0:
                y = y + u
            else:
                y = y * u
        return y
    with tf.GradientTape() as tape:
        out = power(tf.constant(3.0), tf.constant(3))     # 3 u^3
    assert out.numpy() == 24.0 and tape.gradient(out, u).numpy() == 36.0

    @tf.function
    def inner_gradient(x):
        with tf.GradientTape() as tape:
            y = power(x, tf.constant(2))                     # 3 u^2 -> 6 u
        return tape.gradient(y, u)
    assert inner_gradient(tf.constant(3.0)).numpy() == 12.0


def test_tape_inside_a_loop_body_differentiates_with_respect_to_variables():
    w = tf.Variable([1.0, -1.0])

    @tf.function
    def descend(n):
        for _ in tf.range(n):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(w * w)
            w.assign_sub(0.25 * tape.gradient(loss, w))      # w <- w / 2
        return tf.reduce_sum(w * w)
    assert descend(tf.constant(3)).numpy() == pytest.approx(2 * (1 / 8) ** 2)


def test_differentiating_a_loop_that_assigns_does_not_assign_twice():
    v = tf.Variable(0.0)

    @tf.function
    def f(x):
        y = x
        for _ in tf.range(3):
            v.assign_add(1.0)
            y = y * x
        return y
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    assert tape.gradient(y, x).numpy() == 4 * 8.0
    assert v.numpy() == 3.0


def test_accumulating_with_a_growing_tensor_array():
    @tf.function
    def squares(n):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        for i in tf.range(n):
            ta = ta.write(i, tf.cast(i, tf.float32) ** 2)
        return ta.stack()
    np.testing.assert_allclose(squares(tf.constant(4)).numpy(), [0.0, 1.0, 4.0, 9.0])
    np.testing.assert_allclose(squares(tf.constant(2)).numpy(), [0.0, 1.0])


def test_session_graph_conds_still_read_variables_from_outside():
    with tf.Graph().as_default():
        v = tf.Variable(3.0)
        out = tf.cond(tf.constant(True), lambda: v * 2.0, lambda: v)
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            assert sess.run(out) == 6.0
