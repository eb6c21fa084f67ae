"""`tf.saved_model.load`: rebuild a saved object from its directory, in any process.

Loading reads `saved_model.json` (plain JSON, checked: format, version, and every reference in
range) and the variables checkpoint (every tensor's checksum verified), makes a fresh eager
Variable per saved variable and a lookup table per saved table (saved_tables.py, holding the
saved contents), rebuilds each traced function's graph op by op through wengert's
own op registry (graph_json.py), then the object tree: each saved module becomes a restored
object (a tf.Module, so `.variables` and `.trainable_variables` work and train.Checkpoint can
save it) with its children as attributes (containers as lists or dicts) and its functions as
`RestoredFunction`s, which call the saved trace whose argument structure, dtypes and shapes
match. The root's `signatures` maps names to `SignatureFunction`s: keyword arguments in, a dict
of outputs out. Everything restored is differentiable: a tape around a call records the traced
ops as a freshly traced function's would.

A directory without `saved_model.json` but with TensorFlow's `saved_model.pb` is read by the loader
tf1_in_v2.py adds to TENSORFLOW_LOADERS (TensorFlow 1 SavedModels, their signatures as functions;
TensorFlow 2 SavedModels, their objects, functions and signatures, through tf2_loader.py).

Nothing in the directory is executed: no pickle, no eval; an unknown op type, attribute tag,
dtype or a reference out of range is a DataLossError, before any variable is made.
"""
import inspect
import json
import os

from ..framework.errors import DataLossError, NotFoundError, UnimplementedError
from ..framework.tensor import convert_to_tensor
from ..framework.variables import Variable
from ..tracing.func_graph import init_scope
from ..tracing.signatures import TensorSpec
from ..module.module import Module
from ..util import nest
from .checkpoint_format import CheckpointReader
from .composite_values import COMPOSITE_SPECS, output_specs, pack, width
from .graph_json import decode_function, decode_subgraphs
from .saved_tables import ARRAY_PREFIX, decode_tables, restore_table_object
from .save import FORMAT, JSON_FILE, VARIABLES, VERSION
from .tf1_loader import contains_saved_model

__all__ = ["load", "RestoredFunction", "SignatureFunction", "TENSORFLOW_LOADERS"]

TENSORFLOW_LOADERS = []  # tf1_in_v2.py adds the loader of SavedModels TensorFlow wrote


def _bad(what):
    return DataLossError(f"SavedModel is corrupted or not a wengert SavedModel: {what}.")


def _read_document(export_dir):
    path = os.path.join(export_dir, JSON_FILE)
    if not os.path.isfile(path):
        raise NotFoundError(f"SavedModel file does not exist at: {export_dir}"
                            f"{os.sep}{{{JSON_FILE}}}")
    try:
        with open(path, "rb") as f:
            document = json.loads(f.read().decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError) as err:
        raise _bad(f"'{path}' is not valid JSON ({type(err).__name__})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise _bad(f"'{path}' is not a {FORMAT} file")
    if document.get("version") != VERSION:
        raise _bad(f"unknown version {str(document.get('version'))[:20]!r}")
    return document


_LOAD_OPTIONS = ("allow_partial_checkpoint", "experimental_io_device",
                 "experimental_skip_checkpoint", "experimental_variable_policy",
                 "experimental_load_function_aliases")
_REFUSED = ("experimental_skip_checkpoint", "experimental_load_function_aliases")


def _check_options(options):
    """TensorFlow's LoadOptions as they apply here: experimental_io_device (the device that
    reads the files) and experimental_variable_policy (where variables go among devices)
    change nothing on one CPU; allow_partial_checkpoint only relaxes a check every load here
    passes (all its values are restored); skipping the checkpoint and building function
    aliases are not done here, so asking for them is refused."""
    if options is None:
        return
    given = getattr(options, "options", None)
    if not isinstance(given, dict):
        raise TypeError(f"load: options must be a tf.saved_model.LoadOptions, got "
                        f"{options!r:.80}.")
    for key, value in given.items():
        if key not in _LOAD_OPTIONS:
            raise TypeError(f"LoadOptions got an unexpected keyword argument '{key}'.")
        if key in _REFUSED and value:
            raise UnimplementedError(f"load: LoadOptions({key}={value!r}) is not supported "
                                     "here; every variable is restored from the checkpoint "
                                     "and no function aliases are built. Leave it False.")


def load(export_dir, tags=None, options=None):
    """The object saved in `export_dir` by `tf.saved_model.save` (see the module docstring);
    `options` a tf.saved_model.LoadOptions (see _check_options)."""
    _check_options(options)
    export_dir = os.fspath(export_dir)
    if not os.path.isfile(os.path.join(export_dir, JSON_FILE)) and contains_saved_model(
            export_dir) and TENSORFLOW_LOADERS:
        return TENSORFLOW_LOADERS[0](export_dir, tags)
    document = _read_document(export_dir)
    reader = CheckpointReader(os.path.join(export_dir, VARIABLES))
    try:
        return _restore(document, reader)
    except (KeyError, TypeError, IndexError, AttributeError, ValueError) as err:
        if isinstance(err, DataLossError):
            raise
        raise _bad(f"{type(err).__name__}: {str(err)[:200]}") from None


def _restore(document, reader):
    saved = reader.get_variable_to_shape_map()
    var_meta = document["variables"]
    constants = [k for k in saved if k.startswith(("constants/", ARRAY_PREFIX))]
    arrays = reader.get_tensors(list(var_meta) + constants)
    tables = decode_tables(document.get("tables", []), arrays)
    with init_scope():
        variables = {key: Variable(arrays[key], trainable=bool(meta["trainable"]),
                                   name=str(meta["name"]))
                     for key, meta in var_meta.items()}
    subgraphs = decode_subgraphs(document.get("subgraphs", []), variables, arrays, tables)
    functions = [decode_function(f, variables, arrays, f"#{i}", subgraphs, tables)
                 for i, f in enumerate(document["functions"])]
    objects = _restore_objects(document["objects"], variables, functions,
                               lambda node: restore_table_object(node, tables, arrays))
    root = objects[0]
    if not isinstance(root, _Restored):
        raise _bad("the root object is not a module")
    signatures = {}
    for name, entry in document["signatures"].items():
        concrete = functions[_index(entry["function"], functions)]
        specs = output_specs(concrete)
        signatures[str(name)] = SignatureFunction(
            concrete, [str(n) for n in entry["inputs"]], [str(n) for n in entry["outputs"]],
            specs if any(isinstance(s, COMPOSITE_SPECS) for s in specs) else None)
    root.signatures = signatures
    tracked = {id(v) for v in root.variables}
    captured = [v for v in variables.values() if id(v) not in tracked]
    if captured:
        root._captured_variables = captured  # reached by .variables like any attribute
    return root


def _index(i, table):
    if not isinstance(i, int) or not 0 <= i < len(table):
        raise _bad(f"reference {str(i)[:20]} out of range")
    return i


def _restore_objects(nodes, variables, functions, restore_table):
    objects = []
    for node in nodes:
        if "variable" in node:
            objects.append(variables[node["variable"]])
        elif "table" in node:
            objects.append(restore_table(node))
        else:
            objects.append(_Restored())
    for obj, node in zip(objects, nodes):
        if "variable" in node or "table" in node:
            continue
        children = {str(k): objects[_index(i, objects)] for k, i in node["children"].items()}
        if node.get("container"):
            obj._set_container(children)
        else:
            for name, child in children.items():
                setattr(obj, name if name.isidentifier() else f"_{name}", child)
        for name, ids in node["functions"].items():
            fn = RestoredFunction(str(name), [functions[_index(i, functions)] for i in ids],
                                  _signature(node.get("parameters", {}).get(name)))
            if name == "__call__":
                obj._call_function = fn
            else:
                setattr(obj, str(name), fn)
    for obj in objects:  # containers become lists or dicts in their parents
        if isinstance(obj, _Restored):
            for name, value in list(vars(obj).items()):
                if isinstance(value, _Restored) and value._container is not None:
                    setattr(obj, name, value._container)
    return objects


class _Restored(Module):
    """An object rebuilt from a SavedModel: children and functions as attributes."""

    def __init__(self):
        super().__init__(name="restored")
        self._call_function = None
        self._container = None

    def _set_container(self, children):
        if all(k.isdigit() for k in children) and \
                sorted(int(k) for k in children) == list(range(len(children))):
            self._container = [children[str(i)] for i in range(len(children))]
        else:
            self._container = dict(children)

    def __call__(self, *args, **kwargs):
        if self._call_function is None:
            raise TypeError("This restored object is not callable: the saved object had no "
                            "__call__ tf.function. Use its signatures or functions.")
        return self._call_function(*args, **kwargs)


# -- calling restored functions ---------------------------------------------------------------------
def _conformed(value, placeholder):
    """`value` as a tensor for `placeholder`, or None if its dtype or shape does not fit."""
    try:
        tensor = convert_to_tensor(value, dtype=placeholder.dtype)
    except (TypeError, ValueError):
        return None
    if tensor.dtype is not placeholder.dtype or \
            not placeholder.shape.is_compatible_with(tensor.shape):
        return None
    return tensor


def _same(saved, given):
    return saved is given or (type(saved) is type(given) and saved == given)


def _match(concrete, args, kwargs):
    """The flat tensor arguments of `concrete` for this call, or None if it does not fit."""
    graph = concrete.graph
    sig_args, sig_kwargs = graph.structured_input_signature
    if len(args) != len(sig_args) or set(kwargs) != set(sig_kwargs):
        return None
    index = {id(p): i for i, p in enumerate(graph.inputs)}
    flat = [None] * len(graph.inputs)
    pairs = list(zip(sig_args, args)) + [(sig_kwargs[k], kwargs[k]) for k in sorted(kwargs)]
    for saved, given in pairs:
        saved_leaves = nest.flatten(saved)
        given_leaves = nest.flatten(given) if nest.is_nested(saved) else [given]
        if len(saved_leaves) != len(given_leaves):
            return None
        for s, g in zip(saved_leaves, given_leaves):
            if id(s) in index:
                tensor = _conformed(g, s)
                if tensor is None:
                    return None
                flat[index[id(s)]] = tensor
            elif not _same(s, g):
                return None
    return flat


def _signature(parameters):
    """The Python signature saved for a function ([[name, kind, has_default, default]]), or
    None (not saved, or not one this reader accepts: the call is then matched as given)."""
    if not isinstance(parameters, list):
        return None
    kinds = {k.name: k for k in (inspect.Parameter.POSITIONAL_ONLY,
                                 inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                 inspect.Parameter.VAR_POSITIONAL,
                                 inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.VAR_KEYWORD)}
    params = []
    try:
        for name, kind, has_default, default in parameters:
            if not isinstance(name, str) or kind not in kinds or \
                    not isinstance(default, (type(None), bool, int, float, str)):
                return None
            value = default if has_default is True else inspect.Parameter.empty
            params.append(inspect.Parameter(name, kinds[kind], default=value))
        return inspect.Signature(params)
    except (TypeError, ValueError):
        return None


class RestoredFunction:
    """A saved tf.function: calls the saved trace that matches the arguments (bound to the
    saved Python signature with its defaults applied, as the traces were keyed, when the call
    as given matches none)."""

    def __init__(self, name, concrete_functions, signature=None):
        self.name = name
        self.concrete_functions = list(concrete_functions)
        self._signature = signature

    def __call__(self, *args, **kwargs):
        for concrete in self.concrete_functions:
            flat = _match(concrete, args, kwargs)
            if flat is not None:
                return concrete._call(flat)
        bound = self._bound(args, kwargs)
        for concrete in self.concrete_functions if bound is not None else ():
            flat = _match(concrete, *bound)
            if flat is not None:
                return concrete._call(flat)
        accepted = "; ".join(str(c.structured_input_signature) for c in self.concrete_functions)
        raise TypeError(f"Restored function '{self.name}': no saved trace matches these "
                        f"arguments. The saved traces accept: {accepted or 'nothing'}.")

    def _bound(self, args, kwargs):
        if self._signature is None:
            return None
        try:
            bound = self._signature.bind(*args, **kwargs)
        except TypeError:
            return None
        bound.apply_defaults()
        return bound.args, bound.kwargs

    def __repr__(self):
        return f"<RestoredFunction {self.name}: {len(self.concrete_functions)} trace(s)>"


class SignatureFunction:
    """A SavedModel signature: keyword arguments in (or one positional argument, where the
    signature has one input, as TensorFlow's loaded signatures allow), a dict of outputs out."""

    def __init__(self, concrete, input_names, output_names, output_specs=None):
        """`output_specs`: each output's TensorSpec, RaggedTensorSpec or SparseTensorSpec
        (composite_values.py), where an output stands for more than one of the function's
        tensors; None when each is one tensor."""
        count = len(output_names) if output_specs is None else sum(
            width(s) for s in output_specs)
        if len(input_names) != len(concrete.inputs) or count != len(concrete.outputs) or \
                (output_specs is not None and len(output_specs) != len(output_names)):
            raise _bad("a signature's names do not match its function")
        self._concrete = concrete
        self.input_names, self.output_names = input_names, output_names
        self._output_specs = output_specs

    # The traced function's own:
    graph = property(lambda self: self._concrete.graph)
    inputs = property(lambda self: self._concrete.inputs)
    outputs = property(lambda self: self._concrete.outputs)
    variables = property(lambda self: self._concrete.variables)
    trainable_variables = property(lambda self: self._concrete.trainable_variables)

    @property
    def structured_input_signature(self):
        return ((), {n: TensorSpec(p.shape, p.dtype, n)
                     for n, p in zip(self.input_names, self._concrete.inputs)})

    @property
    def structured_outputs(self):
        if self._output_specs is not None:
            return dict(zip(self.output_names, self._output_specs))
        return {n: TensorSpec(t.shape, t.dtype, n)
                for n, t in zip(self.output_names, self._concrete.outputs)}

    def __call__(self, *args, **kwargs):
        if args:  # TensorFlow allows one positional argument where the signature has one input
            if len(args) > 1 or len(self.input_names) != 1 or self.input_names[0] in kwargs:
                raise TypeError(f"Binding inputs to tf.function failed due to `too many "
                                f"positional arguments`: a signature takes keyword arguments "
                                f"({', '.join(self.input_names)}), or one positional argument "
                                f"when it has one input; got {len(args)} positional.")
            kwargs = {self.input_names[0]: args[0], **kwargs}
        missing = [n for n in self.input_names if n not in kwargs]
        extra = sorted(set(kwargs) - set(self.input_names))
        if missing or extra:
            raise TypeError(f"Signature arguments are {self.input_names}; missing {missing}, "
                            f"unexpected {extra}.")
        flat = []
        for name, placeholder in zip(self.input_names, self._concrete.inputs):
            tensor = _conformed(kwargs[name], placeholder)
            if tensor is None:
                raise TypeError(f"Signature argument {name!r} must be {placeholder.dtype.name} "
                                f"of shape {placeholder.shape}; got {kwargs[name]!r:.80}.")
            flat.append(tensor)
        result = self._concrete._call(flat)
        leaves = [t for t in nest.flatten(result, True) if t is not None]
        if self._output_specs is not None:
            leaves = pack(self._output_specs, leaves)
        return dict(zip(self.output_names, leaves))

    def __repr__(self):
        return f"<SignatureFunction ({', '.join(self.input_names)}) -> {self.output_names}>"
