"""`keras.export.ExportArchive` and `model.export(path)`: an inference artifact as a SavedModel.

An archive gathers what a server needs and nothing of the Python code that built it: `track`
a built layer or model (its variables go into the artifact), `add_endpoint(name, fn,
input_signature)` to trace `fn` (a callable, or a tf.function already called) for a signature of
TensorSpecs, `add_variable_collection(name, variables)` to expose variables by name, and
`write_out(path)` to save it all with `tf.saved_model.save`: every endpoint becomes a method of
the loaded object and a signature of the same name, the first one also `serving_default`.
Signatures take keyword arguments named after the TensorSpecs and answer a dict ("output_0",
... for unnamed outputs), as TensorFlow's do.

`model.export(path, format="tf_saved_model")` is Keras 3's shortcut: it tracks the model and
adds the endpoint "serve", the model called with training=False, for its input signature (the
functional inputs with their names and dtypes, or the built input shape; a list of specs for a
multi-input model), unless `input_signature` is given. Other formats (onnx, openvino, litert)
need converters wengert does not have: asking for one is an error saying so.
"""
from ...framework.variables import Variable
from ...module.module import Module
from ...tracing.function import Function, function
from ...tracing.signatures import TensorSpec, model_input_specs
from ... import saved_model
from ..layers.base import Layer
from ..utils.interactive_logging import print_msg

__all__ = ["ExportArchive", "export_model", "DEFAULT_ENDPOINT_NAME"]

DEFAULT_ENDPOINT_NAME = "serve"
FORMATS = ("tf_saved_model", "onnx", "openvino", "litert")


class ExportArchive:
    """Endpoints and variables of built layers, written as a SavedModel (see the module
    docstring)."""

    def __init__(self, format="saved_model"):
        if format != "saved_model":
            raise ValueError(f"ExportArchive: unsupported format {format!r}; only "
                             "'saved_model' is available.")
        self._tf_trackable = Module()
        self._endpoint_names = []
        self._tracked = []

    @property
    def endpoint_names(self):
        return list(self._endpoint_names)

    def track(self, resource):
        """Keep `resource` (a built Layer or Model, or a tf.Module) and its variables."""
        if isinstance(resource, Layer) and not resource.built:
            raise ValueError(f"ExportArchive.track: the layer {resource.name!r} has not yet "
                             "been built; call it on data (or build it) before export.")
        if not isinstance(resource, (Layer, Module)):
            raise ValueError(f"ExportArchive.track: invalid resource type: expected a Keras "
                             f"Layer or Model or a tf.Module, got {type(resource).__name__}.")
        self._tracked.append(resource)
        self._tf_trackable._tracked = list(self._tracked)

    def add_endpoint(self, name, fn, input_signature=None, **kwargs):
        """Trace `fn` for `input_signature` and expose it as `name`; returns the tf.function."""
        if name in self._endpoint_names:
            raise ValueError(f"ExportArchive.add_endpoint: endpoint name {name!r} is already "
                             "taken.")
        if kwargs:
            raise ValueError(f"ExportArchive.add_endpoint: unsupported arguments "
                             f"{sorted(kwargs)} (jax2tf_kwargs and is_static need the JAX "
                             "backend).")
        decorated = _traced(name, fn, input_signature)
        setattr(self._tf_trackable, name, decorated)
        self._endpoint_names.append(name)
        return decorated

    def track_and_add_endpoint(self, name, resource, input_signature, **kwargs):
        """track(resource), then add_endpoint(name, resource.__call__, input_signature)."""
        self.track(resource)
        return self.add_endpoint(name, _inference_call(resource), input_signature, **kwargs)

    def add_variable_collection(self, name, variables):
        """Expose `variables` (a list/tuple/set of Variables) as attribute `name`."""
        if not isinstance(variables, (list, tuple, set)):
            raise ValueError(f"ExportArchive.add_variable_collection: expected `variables` to "
                             f"be a list/tuple/set, got {type(variables).__name__}.")
        kinds = {type(v).__name__ for v in variables if not isinstance(v, Variable)}
        if kinds:
            raise ValueError("ExportArchive.add_variable_collection: expected Variables, found "
                             f"{sorted(kinds)}.")
        setattr(self._tf_trackable, name, list(variables))

    def write_out(self, filepath, options=None, verbose=True):
        """Save the archive as a SavedModel directory at `filepath`."""
        if not self._endpoint_names:
            raise ValueError("ExportArchive.write_out: no endpoints have been set yet; call "
                             "add_endpoint() first.")
        signatures = {name: _concrete(getattr(self._tf_trackable, name))
                      for name in self._endpoint_names}
        if "serving_default" not in signatures:
            signatures["serving_default"] = signatures[self._endpoint_names[0]]
        saved_model.save(self._tf_trackable, filepath, signatures=signatures, options=options)
        if verbose:
            print_msg(f"Saved artifact at '{filepath}'. The following endpoints are available: "
                      + ", ".join(self._endpoint_names))


def _traced(name, fn, input_signature):
    if input_signature is None:
        if isinstance(fn, Function) and fn._list_all_concrete_functions():
            return fn
        raise ValueError(f"ExportArchive.add_endpoint({name!r}): pass an `input_signature` "
                         "(a list of TensorSpecs) unless `fn` is a tf.function that was "
                         "already called.")
    if isinstance(fn, Function):
        fn = fn.python_function
    return function(fn, input_signature=list(input_signature), name=name)


def _concrete(endpoint):
    concretes = endpoint._list_all_concrete_functions()
    return concretes[0] if concretes else endpoint.get_concrete_function()


def _inference_call(resource):
    if isinstance(resource, Layer):
        return lambda inputs: resource(inputs, training=False)
    return resource.__call__


def _input_signature(model):
    specs = model_input_specs(model, name="inputs")
    if specs is None:
        raise ValueError(f"Model.export: the model {model.name!r} has not been built; call it "
                         "on data (or pass input_signature=) before export.")
    return [specs if len(specs) > 1 else specs[0]]


def export_model(model, filepath, format="tf_saved_model", verbose=None, input_signature=None,
                 **kwargs):
    """Keras 3's `model.export`: a SavedModel with the endpoint "serve"."""
    if format not in FORMATS:
        raise ValueError(f"Model.export: unrecognized format={format!r}; use one of {FORMATS}.")
    if format != "tf_saved_model":
        raise NotImplementedError(f"Model.export(format={format!r}) needs a converter wengert "
                                  "does not have; use format='tf_saved_model'.")
    archive = ExportArchive()
    if input_signature is None:
        input_signature = _input_signature(model)
    elif not isinstance(input_signature, (list, tuple)) or isinstance(input_signature, TensorSpec):
        input_signature = [input_signature]
    archive.track_and_add_endpoint(DEFAULT_ENDPOINT_NAME, model, input_signature, **kwargs)
    archive.write_out(filepath, verbose=True if verbose is None else verbose)
