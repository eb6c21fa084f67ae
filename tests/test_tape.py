"""GradientTape behaviour: watching, gradient() structure and options, persistence, nesting,
stop_recording/reset, threads, jacobian and batch_jacobian (TensorFlow 2 semantics)."""
import collections
import threading

import numpy as np
import pytest

import wengert as tf


def close(a, b, tol=1e-5):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=tol, atol=tol)


# -- watching ---------------------------------------------------------------------------------
def test_constant_needs_watch():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        y = x * x
    assert tape.gradient(y, x) is None
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    close(tape.gradient(y, x), 6.0)


def test_watch_nested_structure():
    a, b, c = tf.constant(1.0), tf.constant(2.0), tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch({"a": a, "rest": [b, (c,)]})
        y = a * b * c
    ga, gb, gc = tape.gradient(y, [a, b, c])
    close(ga, 6.0), close(gb, 3.0), close(gc, 2.0)


@pytest.mark.parametrize("bad", [3.0, np.array([1.0]), "x", None, [tf.constant(1.0), 2.0]])
def test_watch_non_tensor_raises(bad):
    with tf.GradientTape() as tape:
        with pytest.raises(ValueError, match="Tensor or Variable"):
            tape.watch(bad)


def test_trainable_variable_watched_when_read():
    v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = v * v * v
    close(tape.gradient(y, v), 12.0)
    assert tape.watched_variables() == (v,)


def test_non_trainable_variable_only_when_watched():
    v = tf.Variable(2.0, trainable=False)
    with tf.GradientTape(persistent=True) as tape:
        y = v * v
    assert tape.gradient(y, v) is None
    assert tape.watched_variables() == ()
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = v * v
    close(tape.gradient(y, v), 4.0)
    assert tape.watched_variables() == (v,)


def test_watch_accessed_variables_false():
    v, w = tf.Variable(2.0), tf.Variable(3.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(w)
        y = v * w
    gv, gw = tape.gradient(y, [v, w])
    assert gv is None
    close(gw, 2.0)
    assert tape.watched_variables() == (w,)


def test_watched_variables_order_and_uniqueness():
    a, b = tf.Variable(1.0), tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = b * a + b * b
    assert tape.watched_variables() == (b, a)


def test_variable_read_several_times_sums():
    v = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = v * v + v.read_value() * 2.0 + v
    close(tape.gradient(y, v), 2 * 3.0 + 2.0 + 1.0)


# -- gradient(): structure, targets, options ----------------------------------------------------
Pair = collections.namedtuple("Pair", "first second")


def test_gradient_returns_structure_of_sources():
    a, b = tf.Variable(2.0), tf.Variable(5.0)
    with tf.GradientTape(persistent=True) as tape:
        y = a * b
    single = tape.gradient(y, a)
    assert isinstance(single, tf.Tensor)
    close(single, 5.0)
    as_list = tape.gradient(y, [a, b])
    assert isinstance(as_list, list) and len(as_list) == 2
    as_tuple = tape.gradient(y, (a, b))
    assert isinstance(as_tuple, tuple)
    as_dict = tape.gradient(y, {"w": a, "b": b})
    assert set(as_dict) == {"w", "b"}
    close(as_dict["w"], 5.0), close(as_dict["b"], 2.0)
    nested = tape.gradient(y, {"outer": [a, (b, {"deep": a})]})
    close(nested["outer"][0], 5.0)
    close(nested["outer"][1][0], 2.0)
    close(nested["outer"][1][1]["deep"], 5.0)
    pair = tape.gradient(y, Pair(a, b))
    assert isinstance(pair, Pair)
    close(pair.first, 5.0), close(pair.second, 2.0)


def test_same_source_twice():
    v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = v * v
    g1, g2 = tape.gradient(y, [v, v])
    close(g1, 4.0), close(g2, 4.0)


def test_non_scalar_target_is_summed():
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    g = tape.gradient(y, x)
    assert g.shape == (3,)
    close(g, [2.0, 4.0, 6.0])


def test_list_of_targets_is_summed():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y1, y2 = x * x, x * 3.0
    close(tape.gradient([y1, y2], x), 4.0 + 3.0)
    # a dict of targets too
    with tf.GradientTape() as tape:
        tape.watch(x)
        out = {"a": x * x, "b": x * x * x}
    close(tape.gradient(out, x), 4.0 + 12.0)


def test_output_gradients_weight_the_target():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
    close(tape.gradient(y, x, output_gradients=tf.constant([10.0, -1.0])), [20.0, -4.0])
    close(tape.gradient(y, x, output_gradients=[3.0, 0.5]), [6.0, 2.0])
    with pytest.raises(ValueError, match="shape"):
        tape.gradient(y, x, output_gradients=tf.constant([1.0, 2.0, 3.0]))


def test_output_gradients_per_target():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        a, b = x * x, x * 5.0
    close(tape.gradient([a, b], x, output_gradients=[tf.constant(2.0), None]), 8.0 + 5.0)


def test_gradient_wrt_intermediate():
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    close(tape.gradient(z, y), 2 * 9.0)
    close(tape.gradient(z, x), 4 * 27.0)


def test_gradient_of_source_wrt_itself_is_one():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
    close(tape.gradient(x, x), [1.0, 1.0])


@pytest.mark.parametrize("mode", [tf.UnconnectedGradients.NONE, "none"])
def test_unconnected_none(mode):
    x, z = tf.constant(1.0), tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch([x, z])
        y = x * 2.0
    gx, gz = tape.gradient(y, [x, z], unconnected_gradients=mode)
    close(gx, 2.0)
    assert gz is None


@pytest.mark.parametrize("mode", [tf.UnconnectedGradients.ZERO, "zero"])
def test_unconnected_zero(mode):
    x, z = tf.constant(1.0), tf.constant([1.0, 2.0], dtype=tf.float64)
    v = tf.Variable([[1.0, 2.0]])
    with tf.GradientTape() as tape:
        tape.watch([x, z])
        y = x * 2.0
    gx, gz, gv = tape.gradient(y, [x, z, v], unconnected_gradients=mode)
    close(gx, 2.0)
    assert gz.dtype == tf.float64 and gz.shape == (2,)
    close(gz, [0.0, 0.0])
    assert gv.shape == (1, 2)
    close(gv, [[0.0, 0.0]])


def test_bad_unconnected_mode():
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * 2.0
    with pytest.raises(ValueError, match="unconnected_gradients"):
        tape.gradient(y, [tf.constant(2.0)], unconnected_gradients="ones")


def test_integer_and_bool_sources_get_none():
    i = tf.constant(3)
    b = tf.constant(True)
    f = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch([i, b, f])
        y = tf.cast(i * i, tf.float32) * f + tf.cast(b, tf.float32)
    gi, gb, gf = tape.gradient(y, [i, b, f])
    assert gi is None and gb is None
    close(gf, 9.0)


def test_bad_sources_raise():
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    with pytest.raises(ValueError, match="sources"):
        tape.gradient(y, [x, 2.0])


def test_none_target_raises():
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
    with pytest.raises(ValueError, match="target"):
        tape.gradient(None, x)


# -- persistence ---------------------------------------------------------------------------------
def test_second_gradient_on_non_persistent_tape_raises():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)
    with pytest.raises(RuntimeError, match="persistent=True"):
        tape.gradient(y, x)
    with pytest.raises(RuntimeError, match="persistent=True"):
        tape.jacobian(y, x)


def test_persistent_tape_many_gradients():
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    for _ in range(3):
        close(tape.gradient(z, x), 108.0)
        close(tape.gradient(y, x), 6.0)
    close(tape.jacobian(y, x), 6.0)


def test_gradient_inside_with_block():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x * x
        g = tape.gradient(y, x)
        after = y * 2.0  # no longer recorded: the tape was released
    close(g, 12.0)
    close(after, 16.0)


def test_persistent_gradient_inside_with_block_is_recorded():
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x * x
        g = tape.gradient(y, x)  # 3x^2, recorded by the tape itself
    close(tape.gradient(g, x), 12.0)


# -- higher order -----------------------------------------------------------------------------------
def test_nested_tapes_second_and_third_derivative():
    x = tf.Variable(2.0)
    with tf.GradientTape() as t3:
        with tf.GradientTape() as t2:
            with tf.GradientTape() as t1:
                y = x * x * x
            d1 = t1.gradient(y, x)
        d2 = t2.gradient(d1, x)
    d3 = t3.gradient(d2, x)
    close(d1, 12.0), close(d2, 12.0), close(d3, 6.0)


def test_nested_tapes_with_constant():
    x = tf.constant(1.5)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x * x * x
        dy = inner.gradient(y, x)
    close(dy, 3 * 1.5 ** 2)
    close(outer.gradient(dy, x), 6 * 1.5)


def test_nested_inner_only_watch():
    # the outer tape does not watch x: the inner gradient is a constant to it
    x = tf.constant(2.0)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x * x
        dy = inner.gradient(y, x)
    assert outer.gradient(dy, x) is None


def test_second_derivative_of_pow():
    x = tf.constant(2.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x ** 4.0
        dy = inner.gradient(y, x)
    close(dy, 32.0)
    close(outer.gradient(dy, x), 48.0)


# -- stop_recording, reset --------------------------------------------------------------------------
def test_stop_recording():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        with tape.stop_recording():
            z = y * 10.0  # not recorded
        w = z * x
    close(tape.gradient(w, x), 90.0)  # z treated as a constant


def test_stop_recording_only_affects_that_tape():
    x = tf.constant(3.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            with inner.stop_recording():
                y = x * x
        assert inner.gradient(y, x) is None
    close(outer.gradient(y, x), 6.0)


def test_stop_recording_outside_with_raises():
    tape = tf.GradientTape()
    with pytest.raises(RuntimeError):
        with tape.stop_recording():
            pass


def test_reset():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        tape.reset()
        tape.watch(x)
        z = x * x * x
    close(tape.gradient([z], x), 12.0)


def test_reset_forgets_records():
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        tape.reset()
        z = x * 3.0  # x is no longer watched
    assert tape.gradient(y, x) is None
    assert tape.gradient(z, x) is None


def test_reset_variables():
    v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = v * v
        tape.reset()
        assert tape.watched_variables() == ()
        z = v * 5.0
    close(tape.gradient(z, v), 5.0)


# -- assignments during the tape ------------------------------------------------------------------
def test_assign_during_tape():
    v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        a = v * v          # uses 2.0
        v.assign(5.0)
        b = v * 3.0        # uses 5.0
        y = a + b
    close(y, 4.0 + 15.0)
    close(tape.gradient(y, v), 2 * 2.0 + 3.0)


def test_assign_add_between_reads():
    v = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        a = v * v
        v.assign_add(1.0)
        y = a * v
    close(y, 2.0)
    close(tape.gradient(y, v), 2 * 1.0 * 2.0 + 1.0)


# -- threads -----------------------------------------------------------------------------------------
def test_tapes_are_thread_local():
    n_steps, barrier = 200, threading.Barrier(2)
    results, errors = {}, []

    def loop(name, scale):
        try:
            barrier.wait()
            grads = []
            for step in range(n_steps):
                x = tf.constant(float(step))
                with tf.GradientTape() as tape:
                    tape.watch(x)
                    y = x * x * scale
                grads.append(float(tape.gradient(y, x)))
            results[name] = grads
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=loop, args=("a", 1.0)),
               threading.Thread(target=loop, args=("b", 3.0))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    close(results["a"], [2.0 * s for s in range(n_steps)])
    close(results["b"], [6.0 * s for s in range(n_steps)])


def test_tape_does_not_record_other_threads():
    x = tf.constant(3.0)
    out = {}
    with tf.GradientTape() as tape:
        tape.watch(x)

        def other():
            out["y"] = x * x  # runs in another thread: not on this tape
        t = threading.Thread(target=other)
        t.start()
        t.join()
        mine = x * 2.0
    assert tape.gradient([out["y"], mine], x) is not None
    with tf.GradientTape() as tape:
        tape.watch(x)
        t = threading.Thread(target=other)
        t.start()
        t.join()
    assert tape.gradient(out["y"], x) is None


# -- jacobian ----------------------------------------------------------------------------------------
def test_jacobian_elementwise():
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    j = tape.jacobian(y, x)   # non-persistent: one call is fine
    assert j.shape == (3, 3)
    close(j, np.diag([2.0, 4.0, 6.0]))


def test_jacobian_shapes_and_structure():
    x = tf.constant(np.arange(6.0).reshape(2, 3))
    s = tf.constant(2.0, dtype=tf.float64)
    with tf.GradientTape() as tape:
        tape.watch([x, s])
        y = x * s
    jx, js = tape.jacobian(y, [x, s])
    assert jx.shape == (2, 3, 2, 3) and js.shape == (2, 3)
    close(jx, 2.0 * np.eye(6).reshape(2, 3, 2, 3))
    close(js, np.arange(6.0).reshape(2, 3))
    assert jx.dtype == tf.float64


def test_jacobian_scalar_target_is_gradient():
    v = tf.Variable([1.0, -2.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v * v)
    j = tape.jacobian(y, {"v": v})
    assert j["v"].shape == (2,)
    close(j["v"], [2.0, -4.0])


def test_jacobian_broadcast_and_matmul():
    a = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype=np.float32)
    x = tf.constant([0.5, -1.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reshape(tf.matmul(tf.constant(a), tf.reshape(x, (2, 1))), (3,))
    close(tape.jacobian(y, x), a)


def test_jacobian_unconnected():
    x, z = tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0, 5.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, z])
        y = x * 3.0
    jx, jz = tape.jacobian(y, [x, z])
    assert jz is None
    close(jx, 3.0 * np.eye(2))
    jz = tape.jacobian(y, z, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    assert jz.shape == (2, 3)
    close(jz, np.zeros((2, 3)))


def test_jacobian_empty_target():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.constant(np.zeros((0,), np.float32)) * 2.0
    j = tape.jacobian(y, x, unconnected_gradients="zero")
    assert j.shape == (0, 2)


def test_hessian_nested_tape_and_jacobian():
    x = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = tf.reduce_sum(x * x * x) + x[0] * x[1]
        g = inner.gradient(y, x)
    h = outer.jacobian(g, x)
    expected = np.diag([6.0, 12.0, 18.0])
    expected[0, 1] = expected[1, 0] = 1.0
    close(h, expected)


def test_jacobian_is_recorded_on_outer_tape():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x * x * x
        j = inner.jacobian(y, x)        # diag(3 x^2)
        total = tf.reduce_sum(j)
    close(outer.gradient(total, x), [6.0, 12.0])


def test_batch_jacobian():
    rng = np.random.default_rng(0)
    w = rng.normal(size=(3, 4))
    xv = rng.normal(size=(5, 3))
    x = tf.constant(xv)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.matmul(x, tf.constant(w)) * 2.0       # [5, 4]
    j = tape.batch_jacobian(y, x)
    assert j.shape == (5, 4, 3)
    close(j, np.broadcast_to(2.0 * w.T, (5, 4, 3)))


def test_batch_jacobian_elementwise_and_rank3():
    xv = np.arange(12.0).reshape(3, 2, 2)
    x = tf.constant(xv)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    j = tape.batch_jacobian(y, x)
    assert j.shape == (3, 2, 2, 2, 2)
    for b in range(3):
        close(j.numpy()[b].reshape(4, 4), np.diag(2.0 * xv[b].ravel()))


def test_batch_jacobian_errors_and_unconnected():
    x, other = tf.constant(np.ones((3, 2))), tf.constant(np.ones((4, 2)))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, other])
        y = x * 2.0
    with pytest.raises(ValueError, match="batch"):
        tape.batch_jacobian(y, other)
    with pytest.raises(ValueError, match="rank"):
        tape.batch_jacobian(tf.constant(1.0), x)
    z = tf.constant(np.ones((3, 5)))
    for mode in ("none", "zero"):  # TensorFlow's batch_jacobian: zeros either way
        zero = tape.batch_jacobian(y, z, unconnected_gradients=mode)
        assert zero.shape == (3, 2, 5)
        close(zero, np.zeros((3, 2, 5)))
    with pytest.raises(ValueError):
        tape.batch_jacobian(y, z, unconnected_gradients="sometimes")


def test_jacobian_of_nonlinear_map_matches_analytic():
    rng = np.random.default_rng(1)
    w = rng.normal(size=(4, 3))
    xv = rng.normal(size=(3, 1))
    x = tf.constant(xv)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.tanh(tf.matmul(tf.constant(w), x))          # [4, 1]
    j = tape.jacobian(y, x)
    assert j.shape == (4, 1, 3, 1)
    pre = w @ xv
    expected = (1 - np.tanh(pre) ** 2) * w                  # dy_i/dx_k = (1 - tanh^2) w_ik
    close(j.numpy().reshape(4, 3), expected, tol=1e-10)


def test_hessian_of_exp_quadratic():
    a = np.array([[2.0, 1.0], [1.0, 3.0]])
    x = tf.Variable(np.array([0.1, -0.2]))
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            ax = tf.reshape(tf.matmul(tf.constant(a), tf.reshape(x, (2, 1))), (2,))
            q = tf.reduce_sum(x * ax)
            f = tf.exp(q * 0.5)                             # exp(x^T A x / 2)
        g = inner.gradient(f, x)                            # f * A x
    h = outer.jacobian(g, x)                                # f * (A + A x x^T A)
    xv = x.numpy()
    fv = np.exp(0.5 * xv @ a @ xv)
    close(g, fv * a @ xv, tol=1e-10)
    close(h, fv * (a + np.outer(a @ xv, a @ xv)), tol=1e-10)


def test_reenter_persistent_tape_keeps_recording():
    x = tf.constant(2.0)
    tape = tf.GradientTape(persistent=True)
    with tape:
        tape.watch(x)
        y = x * x
    with tape:
        z = y * x
    close(tape.gradient(z, x), 12.0)


def test_exception_inside_with_block_leaves_no_active_tape():
    from wengert.framework.context import state
    with pytest.raises(KeyError):
        with tf.GradientTape():
            raise KeyError("boom")
    assert state.tapes == ()


def test_stop_gradient_blocks_the_path():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.stop_gradient(x * x) * x
    close(tape.gradient(y, x), 4.0)


def test_variable_as_its_own_target_gets_one_as_tensorflow():
    # the autodiff guide's `result = v0` branch: d v0 / d v0 = 1 even though v0 was never read
    v0, v1 = tf.Variable(2.0), tf.Variable(2.0)
    with tf.GradientTape() as tape:
        result = v0
    dv0, dv1 = tape.gradient(result, [v0, v1])
    assert float(dv0) == 1.0 and dv1 is None
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        pass
    assert float(tape.gradient(v0, v0)) == 1.0
    with tf.GradientTape() as tape:
        y = v0.read_value()
    assert float(tape.gradient([v0, y], v0)) == 2.0
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        pass
    assert tape.gradient(x, x) is None  # an unwatched tensor stays unconnected, as in TF


def test_non_persistent_tape_frees_forward_values_during_its_pass():
    """As TensorFlow's tape drops an op's saved tensors once its gradient has run, a
    non-persistent tape lets go of each record as its reverse pass passes it: by the time the
    first op's gradient runs, a later intermediate nobody else holds is gone; a persistent tape
    keeps it for its next call."""
    import gc
    import weakref

    for persistent in (False, True):
        x = tf.constant([1.0, 2.0])
        alive = []

        @tf.custom_gradient
        def first(v):
            def grad(g):
                gc.collect()
                alive.append(ref() is not None)
                return g
            return tf.identity(v), grad

        with tf.GradientTape(persistent=persistent) as tape:
            tape.watch(x)
            h = tf.exp(first(x))
            ref = weakref.ref(h)
            loss = tf.reduce_sum(h * 3.0)
            del h
        grad = tape.gradient(loss, x)
        np.testing.assert_allclose(grad.numpy(), 3.0 * np.exp([1.0, 2.0]), rtol=1e-6)
        assert alive == [persistent]
