"""tf.autograph (issue 15 item 1): to_code, to_graph, do_not_convert, autograph=False, what gets
converted (helpers, methods, lambdas, closures), and errors that point at the user's line."""
import traceback
import warnings

import numpy as np
import pytest

import wengert as tf


def clip_sum(x):
    total = tf.constant(0.0)
    for v in x:
        if v > 1.0:
            v = 1.0 + 0.0 * v
        total += v
    return total


def test_to_code_shows_readable_converted_source():
    code = tf.autograph.to_code(clip_sum)
    assert code.startswith("def tf__clip_sum(x):")
    assert "ag__.for_stmt(" in code and "ag__.if_stmt(" in code
    assert "def loop_body(itr):" in code and "nonlocal total" in code
    assert "('total',)" in code                       # the loop variables the analysis found
    compile(code, "<to_code>", "exec")                # it is valid Python
    assert tf.autograph.to_code(tf.function(clip_sum)) == code


def test_to_graph_runs_eagerly_and_builds_control_flow_in_graphs():
    converted = tf.autograph.to_graph(clip_sum)
    x = tf.constant([0.5, 3.0, 0.25])
    assert converted(x).numpy() == pytest.approx(1.75)          # eagerly: Python control flow
    with tf.Graph().as_default() as g:
        out = converted(tf.compat.v1.placeholder(tf.float32, [3]))
        assert "While" in [op.type for op in g.get_operations()]
    with tf.compat.v1.Session(graph=g) as sess:
        feed = {g.get_operations()[0].outputs[0]: [0.5, 3.0, 0.25]}
        assert sess.run(out, feed) == pytest.approx(1.75)


def test_autograph_false_and_do_not_convert_keep_python_semantics():
    @tf.function(autograph=False)
    def raw(x):
        if x > 0:
            return x
        return -x
    with pytest.raises(TypeError, match="tf.cond"):
        raw(tf.constant(1.0))

    @tf.autograph.experimental.do_not_convert
    def helper(x):
        if x > 0:
            return x
        return -x

    @tf.function
    def uses(x):
        return helper(x)
    with pytest.raises(TypeError, match="as a Python bool"):
        uses(tf.constant(1.0))
    assert tf.autograph.experimental.do_not_convert(lambda v: v + 1)(1) == 2


class Scaler:
    def __init__(self, k):
        self.k = k
        self.__private = 2.0

    def helper(self, x):
        if x > 0:
            return x * self.k * self.__private
        return x

    def __call__(self, x):
        return self.helper(x) + 1.0


class Shifted(Scaler):
    def helper(self, x):
        y = super().helper(x)
        while y > 100.0:
            y = y / 2.0
        return y


def test_helpers_methods_callables_lambdas_and_closures_are_converted():
    offset = tf.constant(10.0)

    def helper(v):
        if v > 0:
            return v + offset
        return v

    @tf.function
    def f(x, scaler):
        squash = lambda v: v if v < 5.0 else 5.0 + 0.0 * v  # noqa: E731
        return helper(x) + scaler(x) + squash(x) + Shifted(1000.0)(x)
    got = f(tf.constant(1.0), Scaler(3.0)).numpy()
    assert got == pytest.approx(11.0 + 7.0 + 1.0 + 63.5)
    assert f(tf.constant(-1.0), Scaler(3.0)).numpy() == pytest.approx(-1.0 + 0.0 - 1.0 + 0.0)

    state = {"scale": tf.constant(2.0)}

    def closure(x):
        if x > 0:
            return x * state["scale"]
        return x
    traced = tf.function(closure)
    assert traced(tf.constant(3.0)).numpy() == 6.0


def test_nested_function_definitions_are_converted_with_their_parent():
    @tf.function
    def f(xs):
        def body(i, acc):
            if acc > 10.0:
                return i + 1, acc
            return i + 1, acc + xs[i]
        return tf.while_loop(lambda i, acc: i < 5, body, [0, tf.constant(0.0)])[1]
    assert f(tf.constant([4.0, 5.0, 6.0, 7.0, 8.0])).numpy() == 15.0


def test_unconvertible_function_warns_and_runs_as_is():
    namespace = {}
    exec("def no_source(x):\n    return x * 2\n", namespace)  # noqa: S102 - no file to read
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert tf.function(namespace["no_source"])(tf.constant(2.0)).numpy() == 4.0
    assert any("could not transform" in str(w.message) for w in caught)


def test_print_runs_while_tracing_and_tf_print_every_call(capsys):
    @tf.function
    def f(x):
        print("tracing with", x.shape)
        if x > 0:
            tf.print("positive", x)
        return x
    f(tf.constant(1.0))
    f(tf.constant(2.0))
    f(tf.constant(-3.0))
    captured = capsys.readouterr()
    assert captured.out.count("tracing with") == 1
    assert captured.err.count("positive") == 2 and "positive 2" in captured.err


# -- errors point at the user's file and line -----------------------------------------------------
def failing(x):
    total = x
    for i in tf.range(3):
        if tf.reduce_sum(total) > 0:
            total = tf.matmul(total, tf.ones([3, 3]))   # shapes do not fit
    return total


def test_errors_in_converted_code_point_at_the_users_line():
    line = failing.__code__.co_firstlineno + 4
    with pytest.raises(Exception) as info:
        tf.function(failing)(tf.constant([[1.0, 2.0]]))
    frames = traceback.extract_tb(info.value.__traceback__)
    ours = [f for f in frames if f.filename == __file__]
    assert ours[-1].lineno == line and "tf.matmul" in ours[-1].line
    assert not any("autograph_generated" in f.filename for f in frames)
    notes = "\n".join(getattr(info.value, "__notes__", []))
    assert "in user code:" in notes and f'{__file__}", line {line}' in notes


def test_operator_errors_name_the_line_of_the_statement():
    @tf.function
    def f(x):
        while x:
            x = x - 1.0
        return x
    line = f.python_function.__code__.co_firstlineno + 2
    with pytest.raises(ValueError, match=rf"while loop \(at .*line {line}: `while x:`\) must be "
                                         r"a `tf.bool` scalar"):
        f(tf.constant(3.0))

    @tf.function
    def g(x):
        y = undefined_later = None  # noqa: F841
        if x > 0:
            z = 1.0
        return z  # noqa: F821
    with pytest.raises(ValueError, match="'z' must also be initialized"):
        g(tf.constant(1.0))


def test_reading_a_variable_undefined_on_a_python_path_is_an_unbound_local_error():
    @tf.function
    def f(x, flag):
        if flag:
            y = x
        return y
    assert f(tf.constant(1.0), True).numpy() == 1.0
    with pytest.raises(UnboundLocalError, match="'y' is used before assignment"):
        f(tf.constant(1.0), False)


def test_converted_code_keeps_python_semantics_for_python_values():
    def python_only(items):
        out, seen = [], set()
        for item in items:
            if item in seen:
                continue
            if item is None:
                break
            seen.add(item)
            out.append(item * 2)
        else:
            out.append("done")
        return out
    converted = tf.autograph.to_graph(python_only)
    for items in ([1, 2, 1, 3], [1, None, 2], []):
        assert converted(items) == python_only(items)
    np.testing.assert_equal(converted([np.int64(4)]), [8, "done"])


def test_the_readme_example_collatz():
    @tf.function
    def collatz_steps(n):
        steps = 0
        while n != 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            steps += 1
        return steps

    assert int(collatz_steps(tf.constant(27))) == 111
    assert int(collatz_steps(tf.constant(1))) == 0
    assert "def tf__collatz_steps" in tf.autograph.to_code(collatz_steps.python_function)
