"""Traced functions (`tf.function`): tracing and retracing, signatures, captured state, tapes and
gradients inside, nested functions, differentiation from outside, methods, errors."""
import numpy as np
import pytest

import wengert as tf
from wengert.tracing.function import ConcreteFunction, function
from wengert.tracing.signatures import TensorSpec


def f64(x):
    return tf.constant(np.asarray(x, dtype=np.float64))


# -- tracing and retracing ---------------------------------------------------------------------
def test_traces_once_per_signature_and_prints_only_while_tracing(capsys):
    @function
    def f(x, y):
        print("tracing f")
        return x * y + 1.0

    a, b = tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])
    np.testing.assert_allclose(f(a, b).numpy(), [4.0, 9.0])
    np.testing.assert_allclose(f(b, a).numpy(), [4.0, 9.0])
    assert f.experimental_get_tracing_count() == 1
    assert capsys.readouterr().out.count("tracing f") == 1
    f(tf.constant([1.0, 2.0, 3.0]), tf.constant([1.0, 1.0, 1.0]))  # new shape
    assert f.experimental_get_tracing_count() == 2
    f(f64([1.0, 2.0]), f64([1.0, 1.0]))                                # new dtype
    assert f.experimental_get_tracing_count() == 3
    f(a, b)
    assert f.experimental_get_tracing_count() == 3
    assert capsys.readouterr().out.count("tracing f") == 2


def test_python_values_are_part_of_the_signature():
    @function
    def scale(x, k, mode="mul"):
        return x * k if mode == "mul" else x + k

    x = tf.constant([1.0, 2.0])
    np.testing.assert_allclose(scale(x, 2.0).numpy(), [2.0, 4.0])
    np.testing.assert_allclose(scale(x, 3.0).numpy(), [3.0, 6.0])
    np.testing.assert_allclose(scale(x, 3.0, mode="add").numpy(), [4.0, 5.0])
    scale(tf.constant([5.0, 6.0]), 3.0)
    assert scale.experimental_get_tracing_count() == 3


def test_numpy_arrays_are_tensor_arguments():
    @function
    def f(x):
        return tf.reduce_sum(x * 2.0)

    assert f(np.array([1.0, 2.0], np.float32)).numpy() == pytest.approx(6.0)
    assert f(np.array([3.0, 4.0], np.float32)).numpy() == pytest.approx(14.0)
    assert f.experimental_get_tracing_count() == 1


def test_input_signature_fixes_one_trace_with_unknown_dims():
    @function(input_signature=[TensorSpec([None, 2], tf.float32)])
    def rowsum(x):
        return tf.reduce_sum(x, axis=1)

    np.testing.assert_allclose(rowsum(tf.ones((3, 2))).numpy(), [2.0, 2.0, 2.0])
    np.testing.assert_allclose(rowsum(tf.ones((5, 2))).numpy(), [2.0] * 5)
    np.testing.assert_allclose(rowsum([[1.0, 2.0]]).numpy(), [3.0])  # converted to the spec
    np.testing.assert_allclose(rowsum(x=tf.ones((1, 2))).numpy(), [2.0])
    assert rowsum.experimental_get_tracing_count() == 1
    assert rowsum.get_concrete_function().inputs[0].shape.as_list() == [None, 2]


@pytest.mark.parametrize("bad", [
    lambda: tf.ones((3, 3)),                       # wrong shape
    lambda: tf.ones((3,)),                         # wrong rank
    lambda: f64(np.ones((3, 2))),                  # wrong dtype
])
def test_input_signature_mismatch_is_a_clear_error(bad):
    @function(input_signature=[TensorSpec([None, 2], tf.float32)])
    def f(x):
        return x

    with pytest.raises(TypeError, match="input_signature"):
        f(bad())
    with pytest.raises(TypeError, match="input_signature"):
        f(tf.ones((1, 2)), tf.ones((1, 2)))        # too many arguments
    assert f.experimental_get_tracing_count() == 0


def test_input_signature_must_hold_specs():
    with pytest.raises(TypeError, match="TensorSpec"):
        function(lambda x: x, input_signature=[(None, 2)])


def test_reduce_retracing_generalizes_as_tensorflow():
    @function(reduce_retracing=True)
    def f(x):
        return x * 2.0

    for n in (2, 3, 7):
        np.testing.assert_allclose(f(tf.ones((n,))).numpy(), [2.0] * n)
    assert f.experimental_get_tracing_count() == 2  # (2,), then (None,): TensorFlow's count
    f(tf.ones((2, 2)))
    assert f.experimental_get_tracing_count() == 3  # another rank: the rank becomes unknown
    f(tf.ones((4, 5, 6)))
    assert f.experimental_get_tracing_count() == 3


def test_tensor_spec():
    spec = TensorSpec([None, 3], tf.float32, name="x")
    assert spec.is_compatible_with(tf.ones((4, 3)))
    assert not spec.is_compatible_with(tf.ones((4, 2)))
    assert not spec.is_compatible_with(f64(np.ones((4, 3))))
    assert spec == TensorSpec((None, 3), "float32", "x")
    assert "float32" in repr(spec) and "None" in repr(spec)
    assert TensorSpec.from_tensor(tf.ones((2,))).shape.as_list() == [2]


# -- structures in and out --------------------------------------------------------------------
def test_nested_structures_in_and_out():
    @function
    def f(batch, pair):
        a, b = pair
        return {"sum": batch["x"] + batch["y"], "parts": (a * 2.0, None, b), "n": 3}

    batch = {"y": tf.constant([1.0, 2.0]), "x": tf.constant([10.0, 20.0])}
    out = f(batch, [tf.constant(1.0), tf.constant(5.0)])
    assert set(out) == {"sum", "parts", "n"}
    np.testing.assert_allclose(out["sum"].numpy(), [11.0, 22.0])
    assert out["parts"][0].numpy() == 2.0 and out["parts"][1] is None
    assert out["parts"][2].numpy() == 5.0          # an input returned as it is
    assert isinstance(out["n"], tf.Tensor) and out["n"].numpy() == 3  # Python value: a constant
    f({"x": tf.constant([0.0, 0.0]), "y": tf.constant([1.0, 1.0])}, (tf.constant(1.0), 2.0))
    assert f.experimental_get_tracing_count() == 2  # a tuple with a Python float is new


def test_returning_none_and_nothing():
    v = tf.Variable(1.0)

    @function
    def bump():
        v.assign_add(1.0)

    assert bump() is None
    assert bump() is None
    assert v.numpy() == 3.0


def test_output_that_is_not_a_tensor_is_an_error():
    @function
    def f(x):
        return object()

    with pytest.raises(TypeError, match="must return zero or more Tensors"):
        f(tf.constant(1.0))


# -- captured state ---------------------------------------------------------------------------
def test_eager_tensors_are_captured_as_constants_and_variables_by_reference():
    c = tf.constant(10.0)
    v = tf.Variable(1.0)

    @function
    def f(x):
        return x * v + c

    assert f(tf.constant(2.0)).numpy() == 12.0
    v.assign(3.0)                                   # seen at the next call, no retrace
    assert f(tf.constant(2.0)).numpy() == 16.0
    assert f.experimental_get_tracing_count() == 1
    assert list(f.get_concrete_function(tf.constant(2.0)).variables) == [v]


def test_assignments_persist_and_follow_program_order():
    v = tf.Variable([1.0, 2.0])
    counter = tf.Variable(0, dtype=tf.int32)

    @function
    def step(x):
        before = v * 1.0
        v.assign_add(x)
        after = v.read_value()
        v.assign_sub(tf.ones_like(x))
        counter.assign_add(1)
        return before, after

    before, after = step(tf.constant([10.0, 10.0]))
    np.testing.assert_allclose(before.numpy(), [1.0, 2.0])
    np.testing.assert_allclose(after.numpy(), [11.0, 12.0])
    np.testing.assert_allclose(v.numpy(), [10.0, 11.0])
    step(tf.constant([1.0, 1.0]))
    np.testing.assert_allclose(v.numpy(), [10.0, 11.0])
    assert counter.numpy() == 2
    v.assign([0.0, 0.0])                            # eager writes are seen by the function
    np.testing.assert_allclose(step(tf.constant([1.0, 1.0]))[0].numpy(), [0.0, 0.0])


def test_bad_assign_inside_is_an_error_naming_the_variable():
    v = tf.Variable([1.0, 2.0], name="w")

    @function
    def f():
        v.assign([1.0, 2.0, 3.0])

    with pytest.raises(tf.errors.InvalidArgumentError, match="w"):
        f()
    np.testing.assert_allclose(v.numpy(), [1.0, 2.0])


def test_variable_created_on_first_trace_is_lifted_and_persists():
    class Counter:
        def __init__(self):
            self.v = None

        @function
        def __call__(self, x):
            if self.v is None:
                self.v = tf.Variable(tf.zeros_like(x))
            self.v.assign_add(x)
            return self.v.read_value()

    c = Counter()
    np.testing.assert_allclose(c(tf.constant([1.0, 2.0])).numpy(), [1.0, 2.0])
    np.testing.assert_allclose(c(tf.constant([1.0, 2.0])).numpy(), [2.0, 4.0])
    assert isinstance(c.v, tf.Variable) and tf.executing_eagerly()
    np.testing.assert_allclose(c.v.numpy(), [2.0, 4.0])


def test_variable_created_on_a_later_trace_is_an_error():
    @function
    def f(x):
        w = tf.Variable(lambda: tf.ones((2,)))
        return w * x

    # the first call traces twice when the body created variables (as TensorFlow does): the
    # second trace creates one again, so even the first call raises TF's ValueError
    with pytest.raises(ValueError, match="singleton tf.Variables created on the first call"):
        f(tf.constant(2.0))


# -- control flow ----------------------------------------------------------------------------
def test_python_control_flow_on_a_symbolic_tensor_says_use_cond():
    @function(autograph=False)  # with AutoGraph (the default) it becomes a cond: test_autograph
    def f(x):
        if x > 0:
            return x
        return -x

    with pytest.raises(TypeError, match="tf.cond"):
        f(tf.constant(1.0))


def test_python_control_flow_on_python_values_is_fine():
    @function
    def power(x, n):
        y = tf.ones_like(x)
        for _ in range(n):
            y = y * x
        return y

    assert power(tf.constant(2.0), 5).numpy() == 32.0


# -- gradients inside -----------------------------------------------------------------------------
def test_tape_inside_the_function():
    w = tf.Variable(f64([1.0, -2.0]))

    @function
    def grads(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.tanh(x * w))
        return tape.gradient(y, [x, w])

    x = f64([0.5, 0.25])
    gx, gw = grads(x)
    sech2 = 1.0 - np.tanh(x.numpy() * w.numpy()) ** 2
    np.testing.assert_allclose(gx.numpy(), sech2 * w.numpy(), rtol=1e-12)
    np.testing.assert_allclose(gw.numpy(), sech2 * x.numpy(), rtol=1e-12)


def test_nested_tapes_inside_give_second_derivatives():
    @function
    def second(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = x * x * x
            dy = inner.gradient(y, x)
        return dy, outer.gradient(dy, x)

    dy, d2y = second(f64(2.0))
    assert dy.numpy() == pytest.approx(12.0) and d2y.numpy() == pytest.approx(12.0)


def test_tf_gradients_inside_the_function():
    @function
    def f(x):
        y = tf.sin(x) * x
        return tf.gradients(y, x)[0]

    x = f64([0.3, 1.2])
    np.testing.assert_allclose(f(x).numpy(), np.cos(x.numpy()) * x.numpy() + np.sin(x.numpy()),
                               rtol=1e-12)


def test_training_step_matches_eager():
    rng = np.random.default_rng(0)
    xs, ys = f64(rng.normal(size=(8, 3))), f64(rng.normal(size=(8, 1)))
    w0 = rng.normal(size=(3, 1))

    def make_step(w):
        def step(x, y):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
            w.assign_sub(0.1 * tape.gradient(loss, w))
            return loss
        return step

    w_eager, w_traced = tf.Variable(w0), tf.Variable(w0)
    eager, traced = make_step(w_eager), function(make_step(w_traced))
    for _ in range(5):
        np.testing.assert_allclose(traced(xs, ys).numpy(), eager(xs, ys).numpy(), rtol=1e-12)
    np.testing.assert_allclose(w_traced.numpy(), w_eager.numpy(), rtol=1e-12)
    assert traced.experimental_get_tracing_count() == 1


# -- nested functions -----------------------------------------------------------------------------
def test_nested_functions_are_inlined():
    v = tf.Variable(2.0)

    @function
    def inner(x):
        v.assign_add(1.0)
        return x * v

    @function
    def outer(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = inner(x) + inner(x * 2.0)
        return y, tape.gradient(y, x)

    y, g = outer(tf.constant(1.0))
    assert y.numpy() == pytest.approx(1.0 * 3.0 + 2.0 * 4.0)
    assert g.numpy() == pytest.approx(3.0 + 2.0 * 4.0)
    assert v.numpy() == 4.0
    outer(tf.constant(1.0))
    assert v.numpy() == 6.0
    assert inner.experimental_get_tracing_count() == 1
    assert outer.experimental_get_tracing_count() == 1


# -- differentiating from outside --------------------------------------------------------------
def _model(w, b, c):
    def model(x, scale):
        h = tf.tanh(tf.matmul(x, w) + b)
        return tf.reduce_sum(h * h * scale) + tf.reduce_sum(c * x)
    return model


def test_outer_tape_gradients_match_eager():
    rng = np.random.default_rng(1)
    w, b = tf.Variable(rng.normal(size=(3, 2))), tf.Variable(rng.normal(size=(2,)))
    c = f64(rng.normal(size=(4, 3)))
    x, scale = f64(rng.normal(size=(4, 3))), f64(0.7)
    eager, traced = _model(w, b, c), function(_model(w, b, c))
    results = []
    for fn in (eager, traced):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch([x, scale, c])
            y = fn(x, scale)
        results.append([y] + tape.gradient(y, [x, scale, w, b, c]))
    for want, got in zip(*results):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12)


def test_outer_tape_second_order_through_a_function():
    @function
    def cube(x):
        return x * x * x

    x = f64(1.5)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = cube(x)
        dy = t1.gradient(y, x)
    assert dy.numpy() == pytest.approx(3 * 1.5 ** 2)
    assert t2.gradient(dy, x).numpy() == pytest.approx(6 * 1.5)


def test_outer_tape_through_a_function_with_an_inner_tape():
    v = tf.Variable(f64(0.5))

    @function
    def slope(x):
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.sin(x * v)
        return inner.gradient(y, x)               # v * cos(x v)

    x = f64(0.8)
    with tf.GradientTape() as tape:
        g = slope(x)
    dv = tape.gradient(g, v)                      # cos(xv) - x v sin(xv)
    assert g.numpy() == pytest.approx(0.5 * np.cos(0.4))
    assert dv.numpy() == pytest.approx(np.cos(0.4) - 0.4 * np.sin(0.4))


def test_assign_inside_under_an_outer_tape_still_happens_once():
    v = tf.Variable(1.0)

    @function
    def f(x):
        v.assign_add(1.0)
        return x * v

    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    assert y.numpy() == 6.0 and v.numpy() == 2.0
    assert tape.gradient(y, x).numpy() == 2.0


# -- methods, concrete functions, graphs -------------------------------------------------------
def test_methods_are_bound_per_instance():
    class Dense:
        def __init__(self, w):
            self.w = tf.Variable(w)

        @function
        def __call__(self, x):
            return tf.matmul(x, self.w)

    a, b = Dense(np.eye(2, dtype=np.float32)), Dense(2 * np.eye(2, dtype=np.float32))
    x = tf.constant([[1.0, 2.0]])
    np.testing.assert_allclose(a(x).numpy(), [[1.0, 2.0]])
    np.testing.assert_allclose(b(x).numpy(), [[2.0, 4.0]])
    assert a.__call__ is a.__call__
    assert a.__call__.experimental_get_tracing_count() == 1
    assert isinstance(Dense.__call__, type(a.__call__))


def test_concrete_function_and_its_graph():
    @function
    def f(x):
        return tf.exp(x) * 2.0

    concrete = f.get_concrete_function(TensorSpec([None], tf.float32))
    assert isinstance(concrete, ConcreteFunction)
    assert "Exp" in [op.type for op in concrete.graph.get_operations()]
    np.testing.assert_allclose(concrete(tf.constant([0.0, 0.0])).numpy(), [2.0, 2.0])
    assert f.experimental_get_tracing_count() == 1
    f(tf.constant([0.0]))                          # the (None,) trace covers it, as in TF
    assert f.experimental_get_tracing_count() == 1
    f(tf.constant(0.0))                            # another rank: traced again
    assert f.experimental_get_tracing_count() == 2


def test_function_called_while_building_a_graph_is_inlined():
    from wengert.compat import v1

    @function
    def f(x):
        return x * 3.0

    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None])
        y = f(x)
        with v1.Session() as sess:
            np.testing.assert_allclose(sess.run(y, {x: [1.0, 2.0]}), [3.0, 6.0])


def test_functools_metadata():
    @function
    def documented(x):
        """Docs."""
        return x

    assert documented.__name__ == "documented" and documented.__doc__ == "Docs."
    assert documented.python_function(1) == 1


def test_namedtuple_and_dict_outputs_keep_their_structure():
    import collections
    Pair = collections.namedtuple("Pair", "first second")

    @function
    def f(x):
        return Pair(x * 2.0, {"b": x, "a": [x + 1.0, None]})

    out = f(tf.constant(1.0))
    assert isinstance(out, Pair)
    assert out.first.numpy() == 2.0 and out.second["b"].numpy() == 1.0
    assert out.second["a"][0].numpy() == 2.0 and out.second["a"][1] is None


def test_control_dependencies_inside_run_under_an_outer_tape():
    v = tf.Variable(0.0)

    @function
    def f(x):
        with tf.control_dependencies([v.assign_add(1.0)]):
            y = x * 2.0
        return y

    x = tf.constant(1.5)
    assert f(x).numpy() == 3.0 and v.numpy() == 1.0
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    assert tape.gradient(y, x).numpy() == 2.0 and v.numpy() == 2.0


def test_variable_initialized_from_an_argument_on_the_first_trace():
    holder = []

    @function
    def f(x):
        if not holder:
            holder.append(tf.Variable(x * 2.0))
        return holder[0] + x

    np.testing.assert_allclose(f(tf.constant([1.0, 2.0])).numpy(), [3.0, 6.0])
    np.testing.assert_allclose(holder[0].numpy(), [2.0, 4.0])
    np.testing.assert_allclose(f(tf.constant([0.0, 0.0])).numpy(), [2.0, 4.0])


def test_function_calls_do_not_alias_numpy_arguments_into_variables():
    v = tf.Variable([0.0, 0.0])

    @function
    def set_to(x):
        v.assign(x)

    array = np.array([1.0, 2.0], np.float32)
    set_to(array)
    array[0] = 100.0
    np.testing.assert_allclose(v.numpy(), [1.0, 2.0])


def test_variable_numpy_inside_a_function_is_an_error():
    v = tf.Variable(1.0)

    @function
    def f():
        return v.numpy()

    with pytest.raises(NotImplementedError, match="traced function"):
        f()


def test_outer_tape_through_nested_functions():
    w = tf.Variable(f64([0.3, -0.2]))

    @function
    def inner(x):
        return tf.tanh(x * w)

    @function
    def outer(x):
        return tf.reduce_sum(inner(x) * inner(x * 2.0))

    def eager(x):
        return tf.reduce_sum(tf.tanh(x * w) * tf.tanh(x * 2.0 * w))

    x = f64([1.0, 2.0])
    results = []
    for fn in (eager, outer):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        results.append([y] + tape.gradient(y, [x, w]))
    for want, got in zip(*results):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12)


def test_live_variable_store_updates_in_place_only_when_nothing_shares_the_array():
    from wengert.runtime.variable_store import LIVE_VARIABLES
    v = tf.Variable(np.array([1.0, 2.0]))
    if not hasattr(v, "_owns_value"):
        pytest.skip("Variable._owns_value is not available")
    LIVE_VARIABLES.update(v, np.subtract, np.array([1.0, 1.0]))
    np.testing.assert_allclose(v.numpy(), [0.0, 1.0])
    kept = v.read_value()                      # a tensor now shares the array
    LIVE_VARIABLES.update(v, np.add, np.array([1.0, 1.0]))
    np.testing.assert_allclose(kept.numpy(), [0.0, 1.0])
    np.testing.assert_allclose(v.numpy(), [1.0, 2.0])


# -- in-place variable updates never change a value someone holds -----------------------------------
def test_assign_sub_updates_the_variable_array_in_place():
    v = tf.Variable(np.ones((4, 3)))

    @function
    def step(delta):
        v.assign_sub(delta * 2.0)

    step(f64(np.full((4, 3), 0.5)))
    array = id(v._value)
    step(f64(np.full((4, 3), 0.5)))
    assert id(v._value) == array  # nothing held the old value: updated in place
    np.testing.assert_array_equal(v.numpy(), np.full((4, 3), -1.0))


def test_in_place_updates_never_change_held_values():
    v = tf.Variable(np.zeros(5))
    one = f64(np.ones(5))

    @function
    def bump(d):
        return v.assign_add(d)

    @function
    def bump_and_read(d):
        before = v.read_value()
        v.assign_add(d)
        return before, v.read_value()

    held_read = v.read_value()               # an eager read shares the array
    held_slice = v.read_value()[1:3]         # a view of it
    held_numpy = np.asarray(v.read_value())  # NumPy's view of a tensor
    first = bump(one)                        # the traced function's output
    second = bump(one)
    before, after = bump_and_read(one)
    bump(one)
    np.testing.assert_array_equal(held_read.numpy(), np.zeros(5))
    np.testing.assert_array_equal(held_slice.numpy(), np.zeros(2))
    np.testing.assert_array_equal(held_numpy, np.zeros(5))
    np.testing.assert_array_equal(first.numpy(), np.ones(5))
    np.testing.assert_array_equal(second.numpy(), np.full(5, 2.0))
    np.testing.assert_array_equal(before.numpy(), np.full(5, 2.0))
    np.testing.assert_array_equal(after.numpy(), np.full(5, 3.0))
    np.testing.assert_array_equal(v.numpy(), np.full(5, 4.0))


def test_in_place_update_leaves_the_assigned_array_alone():
    v = tf.Variable(np.zeros(3))
    source = np.array([1.0, 2.0, 3.0])
    t = tf.constant(source)

    @function
    def set_then_add(x):
        v.assign(x)
        v.assign_add(tf.ones(3, tf.float64))

    set_then_add(t)
    np.testing.assert_array_equal(t.numpy(), [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(source, [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(v.numpy(), [2.0, 3.0, 4.0])


def test_a_first_trace_that_creates_variables_is_traced_again_as_tensorflow():
    class Scale(tf.Module):
        def __init__(self):
            self.v = None

        @function
        def __call__(self, x):
            if self.v is None:  # created on the first call only: allowed
                self.v = tf.Variable(2.0)
            return self.v * x

    m = Scale()
    assert float(m(tf.constant(1.0))) == 2.0 and float(m(tf.constant(3.0))) == 6.0
    assert m.__call__.experimental_get_tracing_count() == 2  # TensorFlow's count too


def test_pretty_printed_concrete_signatures_as_tensorflow_prints_them():
    @function
    def f(x, n=2):
        return {"y": x * n}

    f(tf.ones([2]))
    f(tf.ones([2]), 3)
    text = f.pretty_printed_concrete_signatures()
    first, second = text.split("\n\n")
    assert first.splitlines() == [
        "Input Parameters:",
        "  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(2,), dtype=tf.float32, name=None)",
        "  n (POSITIONAL_OR_KEYWORD): Literal[2]",
        "Output Type:",
        "  Dict[['y', TensorSpec(shape=(2,), dtype=tf.float32, name=None)]]",
        "Captures:",
        "  None"]
    assert "  n (POSITIONAL_OR_KEYWORD): Literal[3]" in second
    assert f.function_spec.fullargspec.args == ["x", "n"]
    assert f.function_spec.input_signature is None
