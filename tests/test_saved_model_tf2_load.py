"""`tf.saved_model.load` of SavedModels that TensorFlow 2.21 wrote (wengert/saved_model/
tf2_loader.py), without TensorFlow: the fixtures under tests/fixtures/saved_model_tf2/ (written by
write_fixtures.py there: Keras exports of an MLP, a CNN with BatchNormalization and an LSTM, a
tf.Module with a while_loop and a cond, a tf.Module with a two-argument function and captured
variables) are loaded, their signatures and restored functions called and compared with
TensorFlow's outputs (expected.npz), gradients through a restored function compared with
TensorFlow's, a few optimizer steps fine-tune a loaded model; bad input: an op type wengert
lacks, a py_function, a truncated saved_model.pb."""
import os
import shutil

import numpy as np
import pytest

import wengert as tf
from wengert.framework.errors import DataLossError, NotFoundError, UnimplementedError
from wengert.framework.protos.meta_graph import SavedModel
from wengert.saved_model import tf2_loader

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "saved_model_tf2")
E = np.load(os.path.join(HERE, "expected.npz"))


def _load(name):
    return tf.saved_model.load(os.path.join(HERE, name))


def _close(actual, expected):
    np.testing.assert_allclose(np.asarray(actual), expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", ["mlp", "cnn", "lstm"])
def test_keras_export_serves_tensorflows_outputs(name):
    model = _load(name)
    assert sorted(model.signatures) == ["serve", "serving_default"]
    signature = model.signatures["serving_default"]
    (keyword,) = signature.input_names
    result = signature(**{keyword: E[f"{name}_x"]})
    assert list(result) == ["output_0"]
    _close(result["output_0"], E[f"{name}_y"])
    _close(model.serve(E[f"{name}_x"]), E[f"{name}_y"])
    _close(model.serve(tf.constant(E[f"{name}_x"][:1])), E[f"{name}_y"][:1])


def test_keras_export_restores_its_variables_and_lists():
    model = _load("cnn")
    assert isinstance(model.variables, list) and len(model.variables) == 10
    assert len(model.trainable_variables) == 8
    names = sorted(v.name for v in model.non_trainable_variables)
    assert [n.split("/")[-1].split(":")[0] for n in names] == ["moving_mean", "moving_variance"]
    assert all(not v.trainable for v in model.non_trainable_variables)


def test_module_functions_and_signatures():
    module = _load("module")
    assert sorted(module.signatures) == ["loss", "serving_default"]
    x, y, shift = E["module_x"], E["module_y"], E["module_shift"]
    _close(module.predict(x, shift), E["module_predict"])
    _close(module.predict(x=x, shift=shift), E["module_predict"])
    _close(module.signatures["serving_default"](x=x, shift=shift)["output_0"],
           E["module_predict"])
    _close(module.signatures["loss"](x=x, y=y)["output_0"], E["module_loss"])
    _close(module.w, np.array([[0.5, -1.0], [2.0, 0.25], [-0.75, 1.5]], np.float32))


def test_calls_read_the_variables_current_values():
    module = _load("module")
    x, shift = E["module_x"], E["module_shift"]
    module.scale.assign(0.0)
    _close(module.predict(x, shift), shift)
    module.scale.assign(3.0)
    _close(module.predict(x, shift) - shift, (E["module_predict"] - shift) * 2.0)


def test_while_loop_and_cond():
    loops = _load("loops")
    _close(loops.run(E["loops_x"], 3), E["loops_pos"])
    _close(loops.run(tf.constant(-3 * E["loops_x"]), tf.constant(2)), E["loops_neg"])
    out = loops.signatures["serving_default"](x=-3 * E["loops_x"], n=np.int32(2))
    _close(out["output_0"], E["loops_neg"])


def test_a_function_with_several_traces_picks_the_one_its_arguments_fit():
    poly = _load("poly")
    x = tf.constant([1.0, 2.0])
    _close(poly.f(x), [2.0, 4.0])
    _close(poly.f(x, training=True), [3.0, 5.0])
    _close(poly.f(x, True), [3.0, 5.0])
    _close(poly.f(tf.constant(3.0)), 6.0)
    assert int(poly.count) == 3 + 4  # TensorFlow's three calls, then these four
    with pytest.raises(ValueError, match="Could not find matching concrete function"):
        poly.f(tf.constant([[1.0]]))
    poly.v.assign(3.0)
    _close(poly.f(x), [3.0, 6.0])


def test_tensor_arrays_map_fn_and_switch_case():
    poly = _load("poly")
    _close(poly.grow(tf.constant([1.0, 2.0, 3.0])), E["poly_grow"])
    _close(poly.mapped(np.arange(6.0, dtype=np.float32).reshape(2, 3)), E["poly_mapped"])
    for i in range(4):
        _close(poly.switch(np.int32(i), [1.0, 2.0]), E["poly_switch"][i])


def test_keras_embedding_gru_and_a_two_input_attention_model():
    _close(_load("gru").serve(E["gru_x"]), E["gru_y"])
    attn = _load("attn")
    _close(attn.serve([E["attn_a"], E["attn_b"]]), E["attn_y"])
    signature = attn.signatures["serving_default"]
    assert len(signature.input_names) == 2
    result = signature(**dict(zip(signature.input_names, [E["attn_a"], E["attn_b"]])))
    _close(result["output_0"], E["attn_y"])


def test_a_lookup_table_is_made_and_filled_by_its_resource_functions():
    model = _load("lookup")
    x = np.array([["a"], ["c"], ["zz"], ["b"]])
    np.testing.assert_array_equal(np.asarray(model.serve(x)), E["lookup_y"])
    signature = model.signatures["serving_default"]
    out = signature(**{signature.input_names[0]: tf.constant(x)})["output_0"]
    np.testing.assert_array_equal(np.asarray(out), E["lookup_y"])


def test_gradients_flow_through_a_restored_while_loop_and_cond():
    loops = _load("loops")
    x = E["loops_x"]
    with tf.GradientTape() as tape:
        out = tf.reduce_sum(loops.run(x, 3))
    # three steps of acc = acc / 2 + x * v from acc = x, doubled: d/dv = 2 * 1.75 * x
    _close(tape.gradient(out, loops.v), 3.5 * x)


def test_a_table_filled_from_an_asset_file():
    vocab = _load("vocab")
    words = tf.constant(["banana", "kiwi", "cherry", "apple"])
    np.testing.assert_array_equal(np.asarray(vocab.ids(words)), E["vocab_y"])
    np.testing.assert_array_equal(E["vocab_y"], [1, -1, 2, 0])


def test_a_mutable_tables_contents_come_back_from_the_checkpoint():
    module = _load("mutable")
    keys = tf.constant(["b", "z", "a"])
    np.testing.assert_array_equal(np.asarray(module.find(keys)), E["mutable_y"])
    np.testing.assert_array_equal(E["mutable_y"], [9, -1, 7])
    module.table.insert(tf.constant(["z"]), tf.constant([5], tf.int64))
    np.testing.assert_array_equal(np.asarray(module.find(keys)), [9, 5, 7])


def test_gradients_through_a_restored_function_match_tensorflow():
    module = _load("module")
    with tf.GradientTape() as tape:
        loss = module.loss(E["module_x"], E["module_y"])
    grads = tape.gradient(loss, [module.w, module.b, module.scale])
    _close(loss, E["module_loss"])
    for grad, key in zip(grads, ["w", "b", "scale"]):
        _close(grad, E[f"module_grad_{key}"])


def test_gradients_through_the_lstm_loop_match_tensorflow():
    model = _load("lstm")
    with tf.GradientTape() as tape:
        y = model.serve(E["lstm_x"])
        loss = tf.reduce_sum(y * y)
    grads = tape.gradient(loss, model.trainable_variables)
    assert len(grads) == 5
    for i, grad in enumerate(grads):
        _close(grad, E[f"lstm_grad_{i}"])


def test_fine_tuning_a_loaded_keras_model_lowers_its_loss():
    model = _load("mlp")
    x, target = E["mlp_x"], np.eye(4, dtype=np.float32)[[0, 1, 2, 3, 0]]
    optimizer = tf.keras.optimizers.SGD(0.5)
    losses = []
    for _ in range(5):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model.serve(x) - target))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        losses.append(float(loss))
    assert all(b < a for a, b in zip(losses, losses[1:]))
    after = model.signatures["serving_default"](keras_tensor=x)["output_0"]
    assert not np.allclose(np.asarray(after), E["mlp_y"])


def test_a_call_no_trace_accepts_is_an_error():
    module = _load("module")
    with pytest.raises(ValueError, match="Could not find matching concrete function"):
        module.predict(np.zeros((2, 4), np.float32), np.zeros((2, 2), np.float32))
    with pytest.raises(TypeError, match="predict|argument"):
        module.predict(E["module_x"])
    with pytest.raises(TypeError, match="Signature arguments"):
        module.signatures["serving_default"](x=E["module_x"])


def _edited(tmp_path, name, edit):
    """A copy of fixture `name` whose saved_model.pb `edit(meta)` changed."""
    path = str(tmp_path / name)
    shutil.copytree(os.path.join(HERE, name), path)
    with open(os.path.join(path, "saved_model.pb"), "rb") as f:
        saved = SavedModel.FromString(f.read())
    edit(saved.meta_graphs[0])
    with open(os.path.join(path, "saved_model.pb"), "wb") as f:
        f.write(saved.SerializeToString())
    return path


def _node(meta, function_prefix, op):
    for function in meta.graph_def.library.function:
        if function.signature.name.startswith(function_prefix):
            for node in function.node_def:
                if node.op == op:
                    return node
    raise AssertionError(f"no {op} in {function_prefix}")


def test_an_op_type_wengert_lacks_names_the_op_and_node(tmp_path):
    def edit(meta):
        _node(meta, "__inference_predict", "Tanh").op = "NoSuchOpType"
    path = _edited(tmp_path, "module", edit)
    with pytest.raises(NotFoundError, match=r"node 'Tanh' of function '__inference_predict_\d+' "
                                            r"has op type 'NoSuchOpType'"):
        tf.saved_model.load(path)


def test_bad_ops_are_found_before_any_variable_is_made(tmp_path, monkeypatch):
    def edit(meta):
        _node(meta, "__inference_loss", "Mean").op = "NoSuchOpType"
    path = _edited(tmp_path, "module", edit)

    def no_variables(*args, **kwargs):
        raise AssertionError("a variable was made before the check")
    monkeypatch.setattr(tf2_loader, "Variable", no_variables)
    with pytest.raises(NotFoundError, match="'NoSuchOpType'"):
        tf.saved_model.load(path)


def test_a_function_calling_itself_is_refused(tmp_path):
    def edit(meta):
        for function in meta.graph_def.library.function:
            if function.signature.name.startswith("__inference_loss"):
                call = next(n for n in function.node_def if n.op == "StatefulPartitionedCall")
                call.attr["f"].func.name = function.signature.name
    path = _edited(tmp_path, "module", edit)
    with pytest.raises(UnimplementedError, match="call each other in a cycle"):
        tf.saved_model.load(path)


def test_python_functions_in_a_saved_model_are_refused(tmp_path):
    def edit(meta):
        node = _node(meta, "__inference_predict", "Tanh")
        node.op = "EagerPyFunc"
        node.attr["token"].s = b"pyfunc_0"
    path = _edited(tmp_path, "module", edit)
    with pytest.raises(UnimplementedError, match="EagerPyFunc, which runs Python code"):
        tf.saved_model.load(path)


def test_a_truncated_saved_model_pb_is_data_loss(tmp_path):
    path = str(tmp_path / "mlp")
    shutil.copytree(os.path.join(HERE, "mlp"), path)
    pb = os.path.join(path, "saved_model.pb")
    with open(pb, "rb") as f:
        data = f.read()
    with open(pb, "wb") as f:
        f.write(data[:len(data) // 2])
    with pytest.raises(DataLossError, match="truncated"):
        tf.saved_model.load(path)


def test_missing_variable_values_are_named(tmp_path):
    path = str(tmp_path / "module")
    shutil.copytree(os.path.join(HERE, "module"), path)
    other = os.path.join(HERE, "loops", "variables")
    for name in os.listdir(other):
        shutil.copy(os.path.join(other, name), os.path.join(path, "variables", name))
    with pytest.raises(NotFoundError, match="no values for the variables"):
        tf.saved_model.load(path)


class _Scaled(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[1.0, -1.0], [0.5, 2.0]])

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def __call__(self, x):
        return tf.nn.relu(tf.matmul(x, self.w))


def test_wengerts_own_tensorflow_format_loads_through_the_same_path(tmp_path):
    path = str(tmp_path / "out")
    module = _Scaled()
    tf.saved_model.save(module, path)
    os.remove(os.path.join(path, "saved_model.json"))
    loaded = tf.saved_model.load(path)
    x = np.array([[1.0, 2.0], [-1.0, 0.5]], np.float32)
    _close(loaded(x), module(x))
    _close(loaded.signatures["serving_default"](x=x)["output_0"], module(x))


def test_the_tf_format_fixture_loads_with_call_dict_outputs_and_child_modules():
    folder = os.path.join(os.path.dirname(HERE), "saved_model_tf")
    expected = np.load(os.path.join(folder, "expected.npz"))
    module = tf.saved_model.load(os.path.join(folder, "module"))
    _close(module(expected["x"]), expected["call"])
    _close(module.get_w(), expected["get_w"])
    scaled = module.scaled(expected["x"], tf.constant(3.0))
    assert sorted(scaled) == ["k", "y"]
    _close(scaled["y"], expected["scaled_y"])
    _close(module.scale.s, 2.0)
    _close(module.signatures["serving_default"](x=expected["x"])["output_0"], expected["call"])


def test_a_one_input_signature_takes_its_argument_by_position():
    """TensorFlow 2.21's loaded signatures allow one positional argument when they have one
    input (allowed_positional_arguments = 1) and refuse positional arguments otherwise."""
    serve = _load("mlp").signatures["serving_default"]
    (keyword,) = serve.input_names
    _close(serve(E["mlp_x"])["output_0"], E["mlp_y"])
    with pytest.raises(TypeError, match="too many positional arguments"):
        serve(E["mlp_x"], E["mlp_x"])
    with pytest.raises(TypeError, match="too many positional arguments"):
        serve(E["mlp_x"], **{keyword: E["mlp_x"]})
