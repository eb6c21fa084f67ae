"""`wengert.onnx`: export traced functions and Keras models to ONNX, as `tf2onnx.convert` does.

    model_proto = wengert.onnx.from_function(fn, input_signature=[tf.TensorSpec([None, 784])])
    model_proto = wengert.onnx.from_keras(keras_model, output_path="model.onnx")

Both return an `onnx.ModelProto` (tf2onnx returns it with its external tensor storage; there is
none here) and write it to `output_path` when given. The function is traced with the signature
(None dimensions stay dynamic in the model); every op is lowered by its own OpDef's `onnx` rule
(see wengert/onnx/convert.py); variables are stored with their current values. Needs the `onnx`
package (`pip install 'wengert[onnx]'`); onnxruntime runs the result.
"""
from ..tracing.function import Function, function
from ..tracing.signatures import model_input_specs
from .context import LoweringContext, onnx_type
from .convert import DEFAULT_OPSET, concrete_to_model, input_names

__all__ = ["from_function", "from_keras", "DEFAULT_OPSET", "LoweringContext", "onnx_type"]


def from_function(function_, input_signature=None, opset=None, custom_ops=None,
                  custom_op_handlers=None, custom_rewriter=None, inputs_as_nchw=None,
                  outputs_as_nchw=None, extra_opset=None, shape_override=None, target=None,
                  large_model=False, output_path=None):
    """An onnx.ModelProto computing `function_` (a `tf.function` or a plain Python function of
    tensors) for inputs of `input_signature` (a list of TensorSpecs; optional when the function
    has one). `opset` defaults to 17."""
    _unsupported(custom_ops=custom_ops, custom_op_handlers=custom_op_handlers,
                 custom_rewriter=custom_rewriter, inputs_as_nchw=inputs_as_nchw,
                 outputs_as_nchw=outputs_as_nchw, extra_opset=extra_opset,
                 shape_override=shape_override, target=target, large_model=large_model or None)
    if not isinstance(function_, Function):
        function_ = function(function_, input_signature=input_signature)
    signature = input_signature or function_.input_signature
    if signature is None:
        raise ValueError("from_function needs an input_signature (a list of tf.TensorSpec) "
                         "when the function has none.")
    concrete = function_.get_concrete_function(*signature)
    names = input_names(function_, concrete)
    if input_signature is not None and function_.input_signature is None:
        names = [getattr(s, "name", None) or n for s, n in zip(input_signature, names)]
    model = concrete_to_model(concrete, names, opset, doc=f"wengert export of {function_.__name__}")
    return _save(model, output_path)


def from_keras(model, input_signature=None, opset=None, custom_ops=None,
               custom_op_handlers=None, custom_rewriter=None, inputs_as_nchw=None,
               outputs_as_nchw=None, extra_opset=None, shape_override=None, target=None,
               large_model=False, output_path=None, optimizers=None):
    """An onnx.ModelProto computing `model(x, training=False)`. The input signature defaults to
    the model's inputs (a functional model's `keras.Input`s, or a Sequential model's input
    shape as float32), with a dynamic batch dimension."""
    _unsupported(custom_ops=custom_ops, custom_op_handlers=custom_op_handlers,
                 custom_rewriter=custom_rewriter, inputs_as_nchw=inputs_as_nchw,
                 outputs_as_nchw=outputs_as_nchw, extra_opset=extra_opset,
                 shape_override=shape_override, target=target, large_model=large_model or None)
    signature = list(input_signature) if input_signature is not None else _keras_signature(model)

    def call(*inputs):
        return model(list(inputs) if len(inputs) > 1 else inputs[0], training=False)
    traced = function(call, input_signature=signature)
    concrete = traced.get_concrete_function()
    names = [s.name or n for s, n in zip(signature, _keras_input_names(model, len(signature)))]
    result = concrete_to_model(concrete, names, opset,
                               doc=f"wengert export of Keras model {getattr(model, 'name', '')}")
    return _save(result, output_path)


def _keras_signature(model):
    specs = model_input_specs(model)
    if specs is None:
        raise ValueError(f"from_keras: the model {getattr(model, 'name', model)!r} has no known "
                         "input shape; build it first or pass input_signature=[tf.TensorSpec("
                         "...)].")
    return specs


def _keras_input_names(model, count):
    inputs = getattr(model, "inputs", None) or []
    names = [getattr(t, "name", None) for t in inputs]
    if len(names) != count:
        names = ["input"] if count == 1 else [f"input_{i}" for i in range(count)]
    return names


def _unsupported(**options):
    given = sorted(k for k, v in options.items() if v is not None)
    if given:
        raise NotImplementedError(f"wengert.onnx does not support the tf2onnx options {given}.")


def _save(model, output_path):
    if output_path is not None:
        with open(output_path, "wb") as f:
            f.write(model.SerializeToString())
    return model
