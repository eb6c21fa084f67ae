"""Options of tf.function, tf.gradients/hessians, TensorArray, name_scope, Session and
enable_eager_execution, checked and honoured as TensorFlow 2.21 does (each expected error and
value below is TensorFlow 2.21's for the same call), or refused with a clear error where
wengert cannot honour them (a Session on a remote server, a TensorArray of differently shaped
elements)."""
import pytest

import wengert as tf
import wengert.compat.v1 as v1


def _double(x):
    return x * 2.


def test_function_checks_its_compiler_options_as_tensorflow_does():
    assert float(tf.function(_double, jit_compile=True)(tf.constant(2.))) == 4.
    assert float(tf.function(_double, experimental_compile=True)(tf.constant(2.))) == 4.
    with pytest.raises(ValueError, match="Cannot specify both 'experimental_compile' and "
                                         "'jit_compile'"):
        tf.function(_double, jit_compile=True, experimental_compile=True)
    with pytest.raises(ValueError, match="`foo is not supported by tf.function as an attribute"):
        tf.function(_double, experimental_attributes={"foo": 1})
    with pytest.raises(TypeError, match="not iterable"):
        tf.function(_double, experimental_autograph_options=3)
    traced = tf.function(_double, experimental_implements="my.double",
                         experimental_attributes={"_noinline": True},
                         experimental_autograph_options=(tf.autograph.experimental.Feature.ALL,),
                         experimental_follow_type_hints=True)
    assert float(traced(tf.constant(2.))) == 4.
    assert traced._attributes == {"_implements": "my.double", "_noinline": True}
    assert v1.function(_double, jit_compile=True, experimental_compile=None) is not None


def test_gradients_check_the_aggregation_method():
    graph = tf.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [])
        y = x * x + x * 3.
        for method in (None, 0, 1, 2):
            assert v1.gradients(y, x, aggregation_method=method, gate_gradients=True)[0] \
                is not None
        for call in (lambda: v1.gradients(y, x, aggregation_method=7),
                     lambda: v1.hessians(y, x, aggregation_method=7)):
            with pytest.raises(ValueError, match=r"Invalid `aggregation_method` specified 7\. "
                                                 r"Accepted values are \[0, 1, 2\]"):
                call()
        h = v1.hessians(y, x, colocate_gradients_with_ops=True, gate_gradients=True)[0]
        with v1.Session() as sess:
            assert sess.run(h, {x: 1.}) == 2.


def test_tensor_array_options():
    with pytest.raises(ValueError, match="TensorArray handles are not supported when eager "
                                         "execution is enabled"):
        tf.TensorArray(tf.float32, size=2, handle=tf.constant(1))
    loose = tf.TensorArray(tf.float32, size=2, infer_shape=False).write(0, [1.])
    assert loose.element_shape.rank is None
    assert tf.TensorArray(tf.float32, size=2).write(0, [1.]).element_shape == [1]
    with pytest.raises(ValueError, match=r"infer_shape=False\).write: an element of shape "
                                         r"\(2,\) after elements of shape \(1,\)"):
        loose.write(1, [1., 2.])
    same = tf.TensorArray(tf.float32, size=2, infer_shape=False, tensor_array_name="t",
                          colocate_with_first_write_call=False)
    assert same.write(0, [1.]).write(1, [2.]).stack().numpy().tolist() == [[1.], [2.]]
    graph = tf.Graph()
    with graph.as_default():
        tf.TensorArray(tf.float32, size=2, name="foo")
        assert all(op.name.startswith("foo/") for op in graph.get_operations())


def test_name_scope_values_choose_their_graph():
    other, mine = tf.Graph(), tf.Graph()
    with other.as_default():
        c = tf.constant(1.)
    with mine.as_default():
        with v1.name_scope("scope", values=[c]) as scope:
            assert scope == "scope/" and tf.constant(2.).graph is other
        assert tf.constant(3.).graph is mine
        with pytest.raises(ValueError, match="must be from the same graph"):
            v1.name_scope("s", values=[c, tf.constant(1.)])


def test_session_refuses_a_remote_target():
    with pytest.raises(tf.errors.UnimplementedError, match="Session: target='grpc://host:2222' "
                                                           "names a TensorFlow server"):
        v1.Session("grpc://host:2222")
    v1.Session("").close()


def test_enable_eager_execution_sets_the_context_options():
    try:
        v1.enable_eager_execution(device_policy=1, execution_mode=1)  # WARN, ASYNC
        assert tf.config.experimental.get_device_policy() == "warn"
        assert tf.config.experimental.get_synchronous_execution() is False
        with pytest.raises(TypeError, match="config must be a tf.ConfigProto"):
            v1.enable_eager_execution(config=1)
        with pytest.raises(ValueError, match="device_policy must be one of None"):
            v1.enable_eager_execution(device_policy=9)
        with pytest.raises(ValueError, match="execution_mode must be one of None, SYNC, ASYNC"):
            v1.enable_eager_execution(execution_mode=5)
    finally:
        v1.enable_eager_execution(config=v1.ConfigProto(), device_policy=2, execution_mode=0)
    assert tf.config.experimental.get_device_policy() == "silent"
    assert tf.config.experimental.get_synchronous_execution() is True


def test_saved_model_load_options(tmp_path):
    module = tf.Module()
    module.v = tf.Variable(3.)
    tf.saved_model.save(module, str(tmp_path))
    options = tf.saved_model.LoadOptions(experimental_io_device="/job:localhost",
                                         allow_partial_checkpoint=True)
    assert float(tf.saved_model.load(str(tmp_path), options=options).v) == 3.
    for refused in ("experimental_skip_checkpoint", "experimental_load_function_aliases"):
        with pytest.raises(tf.errors.UnimplementedError, match=f"LoadOptions\\({refused}=True"):
            tf.saved_model.load(str(tmp_path), options=tf.saved_model.LoadOptions(
                **{refused: True}))
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        tf.saved_model.load(str(tmp_path), options=tf.saved_model.LoadOptions(bogus=1))
    with pytest.raises(TypeError, match="options must be a tf.saved_model.LoadOptions"):
        tf.saved_model.load(str(tmp_path), options={"x": 1})
