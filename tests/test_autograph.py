"""AutoGraph (issue 15 item 1): each conversion rule, with its gradient checked against the same
computation written by hand with tf.cond / tf.while_loop: a tape around the traced call, a tape
inside the traced function, and tf.gradients inside it, to second order."""
import numpy as np
import pytest

import wengert as tf


def f64(x):
    return tf.constant(np.asarray(x, np.float64))


def op_types(fn, *args):
    """The op types of the trace of tf.function `fn` for `args`."""
    return [op.type for op in fn.get_concrete_function(*args).graph.get_operations()]


def check_like_hand_written(converted, hand, *points):
    """`converted` (plain Python with control flow) computes what `hand` (tf.cond/while_loop)
    computes, with the same first and second derivatives, however they are asked for."""
    traced, traced_hand = tf.function(converted), tf.function(hand)
    for x in points:
        x = f64(x)
        np.testing.assert_allclose(traced(x).numpy(), hand(x).numpy(), rtol=1e-12)
        for fn in (traced, tf.function(converted, autograph=True)):   # tape around the call
            with tf.GradientTape() as outer:
                outer.watch(x)
                with tf.GradientTape() as inner:
                    inner.watch(x)
                    y = fn(x)
                g = inner.gradient(y, x)
            gg = outer.gradient(g, x)
            with tf.GradientTape() as outer:
                outer.watch(x)
                with tf.GradientTape() as inner:
                    inner.watch(x)
                    y = traced_hand(x)
                g_ref = inner.gradient(y, x)
            gg_ref = outer.gradient(g_ref, x)
            np.testing.assert_allclose(g.numpy(), g_ref.numpy(), rtol=1e-10)
            np.testing.assert_allclose(gg.numpy(), gg_ref.numpy(), rtol=1e-10)

        @tf.function
        def inside(x, use=converted):     # tapes inside the traced function
            with tf.GradientTape() as t2:
                t2.watch(x)
                with tf.GradientTape() as t1:
                    t1.watch(x)
                    y = use(x)
                g = t1.gradient(y, x)
            return g, t2.gradient(g, x)

        @tf.function
        def symbolic(x, use=converted):   # tf.gradients inside
            g = tf.gradients(use(x), x)[0]
            return g, tf.gradients(g, x)[0]
        want = inside(x, hand)
        for got in (inside(x), symbolic(x), symbolic(x, hand)):
            np.testing.assert_allclose(got[0].numpy(), want[0].numpy(), rtol=1e-10)
            np.testing.assert_allclose(got[1].numpy(), want[1].numpy(), rtol=1e-10)


# -- if / elif / else and conditional expressions -------------------------------------------------
def piecewise(x):
    if x > 1.0:
        y = x * x * x
    elif x > 0.0:
        y = tf.sin(x) * x
    else:
        y = -x * x
    return y


def piecewise_by_hand(x):
    return tf.cond(x > 1.0, lambda: x * x * x,
                   lambda: tf.cond(x > 0.0, lambda: tf.sin(x) * x, lambda: -x * x))


def test_if_elif_else_on_a_tensor_is_a_cond_with_its_gradients():
    check_like_hand_written(piecewise, piecewise_by_hand, 2.0, 0.5, -1.5)
    assert op_types(tf.function(piecewise), f64(1.0)).count("If") == 1  # elif: inside the else


def test_if_on_a_python_value_stays_python():
    @tf.function
    def f(x, mode):
        if mode == "square":
            y = x * x
        else:
            y = x + 1.0
        return y
    assert f(f64(3.0), "square").numpy() == 9.0 and f(f64(3.0), "add").numpy() == 4.0
    assert "If" not in op_types(f, f64(3.0), "square")


def test_conditional_expression_on_a_tensor():
    def absolute(x):
        return x * x if x > 0 else -x * tf.exp(x)
    check_like_hand_written(
        absolute, lambda x: tf.cond(x > 0, lambda: x * x, lambda: -x * tf.exp(x)), 1.5, -0.5)
    assert tf.function(lambda k: 1 if k else 2)(True) == 1  # on Python values: Python


def test_logical_operators_on_tensors_are_lazy_conds():
    @tf.function
    def inside(x):
        return x > 0 and x < 5, not x > 0, x < 0 or x > 4
    got = [t.numpy() for t in inside(tf.constant(3.0))]
    assert got == [True, False, False]
    calls = []

    @tf.function
    def lazy(flag):
        return flag and calls.append(1)  # Python: the right side never runs
    assert lazy(False) is not None and calls == []


def test_variable_defined_in_one_branch_is_an_error_naming_it_and_the_line():
    @tf.function
    def f(x):
        if x > 0:
            y = x * 2
        return y
    line = f.python_function.__code__.co_firstlineno + 2
    with pytest.raises(ValueError, match=rf"'y' must also be initialized in the else branch.*"
                                         rf"test_autograph.py, line {line}: `if x > 0:`"):
        f(tf.constant(1.0))


def test_branches_must_agree_on_dtypes_and_structure():
    @tf.function
    def dtypes(x):
        if x > 0:
            y = 1
        else:
            y = 2.0
        return y
    with pytest.raises(TypeError, match="'y' has dtype int32 in the main branch, but dtype "
                                        "float32 in the else branch"):
        dtypes(tf.constant(1.0))

    @tf.function
    def returns(x):
        if x > 0:
            return x
    with pytest.raises(ValueError, match="else branch must also have a return statement"):
        returns(tf.constant(1.0))

    @tf.function
    def python_values(x, note=None):
        if x > 0:
            y, label = x, note
        else:
            y, label = -x, note
        return y if label is None else y * 2  # the same Python value in both: passes through
    assert python_values(tf.constant(-3.0)).numpy() == 3.0


# -- while and for loops --------------------------------------------------------------------------
def newton_sqrt(x):
    guess = x
    i = 0
    while i < 6:
        guess = 0.5 * (guess + x / guess)
        i += 1
    return guess


def test_while_on_a_python_condition_is_unrolled_and_on_a_tensor_is_a_while_loop():
    assert "While" not in op_types(tf.function(newton_sqrt), f64(2.0))

    def halve(x):
        steps = tf.constant(0.0, tf.float64)
        while x > 1.0:
            x = x / 2.0 + 0.1 * tf.sin(x)
            steps += x
        return steps + x

    def halve_by_hand(x):
        x, s = tf.while_loop(lambda x, s: x > 1.0, lambda x, s: (
            x / 2.0 + 0.1 * tf.sin(x), s + x / 2.0 + 0.1 * tf.sin(x)),
            [x, tf.constant(0.0, tf.float64)])
        return s + x
    check_like_hand_written(halve, halve_by_hand, 7.0, 0.5)
    ops = tf.function(halve).get_concrete_function(f64(2.0)).graph.get_operations()
    loop = next(op for op in ops if op.type == "While")
    assert loop.get_attr("n_vars") == 2  # x and steps; no temporaries


def test_loop_temporaries_and_variables_first_defined_in_the_loop():
    @tf.function
    def f(n):
        i = 0
        while i < n:
            twice = i * 2      # a temporary, and live after the loop: starts as zeros
            i += 1
        return twice
    assert f(tf.constant(3)).numpy() == 4
    with pytest.raises(tf.errors.InvalidArgumentError, match="must run at least once"):
        f(tf.constant(0))


def test_for_over_tf_range_and_over_a_tensor():
    def power_sum(x):
        total = tf.zeros_like(x)
        for k in tf.range(1, 4):
            total += x ** tf.cast(k, tf.float64)
        return total

    def power_sum_by_hand(x):
        return tf.while_loop(lambda k, t: k < 4, lambda k, t: (
            k + 1, t + x ** tf.cast(k, tf.float64)), [tf.constant(1), tf.zeros_like(x)])[1]
    check_like_hand_written(power_sum, power_sum_by_hand, 1.5, -0.7)
    plan = tf.function(power_sum).get_concrete_function(f64(1.0))._plan
    assert "Range" not in [step.op.type for step in plan.steps]  # counted, never built

    @tf.function
    def rows(m):
        s = tf.zeros([2])
        for row in m:
            s += row * row
        return s, len(m)
    s, n = rows(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
    np.testing.assert_allclose(s.numpy(), [35.0, 56.0])
    assert n == 3


def test_for_over_python_lists_and_ranges_is_unrolled():
    @tf.function
    def f(x, weights):
        for w in weights:
            x = x * w
        for _ in range(2):
            x = x + 1.0
        return x
    assert f(tf.constant(1.0), [2.0, 3.0]).numpy() == 8.0
    assert "While" not in op_types(f, tf.constant(1.0), [2.0, 3.0])


def test_range_and_len_with_tensor_arguments():
    @tf.function
    def f(x, n):
        s = tf.constant(0)
        for i in range(n):
            s += i
        return s, len(x)
    s, n = f(tf.ones([5, 2]), tf.constant(4))
    assert s.numpy() == 6 and n == 5

    @tf.function(input_signature=[tf.TensorSpec([None])])
    def dynamic(x):
        return len(x)
    assert dynamic(tf.ones([7])).numpy() == 7


# -- break, continue, return ----------------------------------------------------------------------
def test_break_and_continue_in_a_tensor_loop():
    @tf.function
    def f(n):
        s = 0
        for i in tf.range(n):
            if i > 5:
                break
            if i % 2 == 0:
                continue
            s += i
        return s
    assert f(tf.constant(10)).numpy() == 9 and f(tf.constant(4)).numpy() == 4

    def damped(x):
        total = tf.zeros_like(x)
        k = tf.constant(0)
        while k < 10:
            k += 1
            if total > 3.0:
                break
            total += x * tf.cast(k, tf.float64)
        return total

    def damped_by_hand(x):
        return tf.while_loop(lambda k, t: tf.logical_and(k < 10, t <= 3.0),
                             lambda k, t: (k + 1, t + x * tf.cast(k + 1, tf.float64)),
                             [tf.constant(0), tf.zeros_like(x)])[1]
    check_like_hand_written(damped, damped_by_hand, 0.4, 2.0)


def test_return_inside_a_tensor_loop_and_under_tensor_conditions():
    @tf.function
    def first_over(x):
        i = tf.constant(0)
        while i < 10:
            if i > x:
                return i
            i += 1
        return -1
    assert first_over(tf.constant(3)).numpy() == 4 and first_over(tf.constant(20)).numpy() == -1

    def early(x):
        if x > 1.0:
            return x * x
        return tf.exp(x)
    check_like_hand_written(early, lambda x: tf.cond(x > 1.0, lambda: x * x, lambda: tf.exp(x)),
                            2.0, 0.3)


def test_break_under_a_tensor_condition_in_a_python_loop_guards_later_iterations():
    @tf.function
    def f(x):
        for k in [1.0, 2.0, 3.0]:
            if x < k:
                break
            x = x + 0.25
        return x
    assert [f(tf.constant(v)).numpy() for v in (0.5, 1.5, 9.0)] == [0.5, 1.75, 9.75]


# -- loop variables that change -------------------------------------------------------------------
def test_loop_variable_changing_shape_or_dtype_is_a_clear_error():
    @tf.function
    def grows(x):
        while tf.reduce_sum(x) < 10.0:
            x = tf.concat([x, x], 0)
        return x
    with pytest.raises(ValueError, match=r"'x' has shape \(1,\) before the loop, but shape "
                                         r"\(2,\) after one iteration.*set_loop_options"):
        grows(tf.constant([3.0]))

    @tf.function
    def casts(x):
        while x[0] > 0:
            x = tf.cast(x, tf.int32)
        return x
    with pytest.raises(TypeError, match="'x' has dtype float32 before the loop, but dtype int32"):
        casts(tf.constant([3.0]))


def test_shape_invariants_from_set_loop_options():
    @tf.function
    def grows(x):
        while tf.reduce_sum(x) < 10.0:
            tf.autograph.experimental.set_loop_options(
                shape_invariants=[(x, tf.TensorShape([None]))], maximum_iterations=10)
            x = tf.concat([x, x], 0)
        return x
    np.testing.assert_allclose(grows(tf.constant([3.0])).numpy(), [3.0] * 4)
    tf.autograph.experimental.set_loop_options(maximum_iterations=3)  # outside: a no-op

    @tf.function
    def bounded(x):
        while x > 0:
            tf.autograph.experimental.set_loop_options(maximum_iterations=3)
            x -= 1
        return x
    assert bounded(tf.constant(10)).numpy() == 7


# -- accumulating ---------------------------------------------------------------------------------
def test_tensor_array_accumulates_in_a_converted_loop_and_differentiates():
    def squares(x):
        ta = tf.TensorArray(tf.float64, size=4)
        for i in tf.range(4):
            ta = ta.write(i, x * tf.cast(i, tf.float64) ** 2)
        return tf.reduce_sum(ta.stack() * ta.stack())

    def by_hand(x):
        return tf.reduce_sum((x * np.arange(4.0) ** 2) ** 2)
    check_like_hand_written(squares, by_hand, 1.5)


def test_python_list_appended_in_a_tensor_loop_says_use_a_tensor_array():
    @tf.function
    def f(n):
        values = []
        for i in tf.range(n):
            values.append(i)
        return tf.stack(values)
    with pytest.raises(ValueError, match="TensorArray"):
        f(tf.constant(3))


def test_an_error_inside_a_converted_while_body_names_the_op():
    # the While kernel calls its plans' compiled functions directly; errors are still explained
    @tf.function
    def f(x, n):
        i = tf.constant(0)
        while i < n:
            x = x + tf.gather(x, i)
            i += 1
        return x

    with pytest.raises(tf.errors.InvalidArgumentError, match="GatherV2.*not in \\[0, 2\\)"):
        f(tf.constant([1.0, 2.0]), tf.constant(5))
