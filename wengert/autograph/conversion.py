"""Converting a function: its source parsed with `ast`, rewritten, compiled, cached per function.

    source --parse--> FunctionDef --lower jumps--> --analyse--> --rewrite--> --compile--> code

1. `inspect.getsourcelines` gives the source and its first line; the tree's line numbers are moved
   to the file's, and its columns back to the file's indentation, so the compiled code reports
   the user's own file and lines in tracebacks (no generated file is involved).
2. lowering.py turns break/continue/return into flags; analysis.py finds the state of each
   statement; transformer.py and expressions.py rewrite statements and expressions.
3. The function is compiled inside a factory `def __ag_factory(ag__, <free variables>)`, so its
   free variables compile as closure variables; the converted function is then built with
   `types.FunctionType` from that code, the original function's globals, defaults and its own
   closure cells (so later changes to closed-over variables are seen), plus a cell holding the
   runtime module `ag__`.
The compiled factory is cached per code object, the converted function per function object.
Nested functions are converted in place with their parent; every code object that conversion
produced is remembered, so calling one never converts it again.
"""
import ast
import copy
import inspect
import textwrap
import types
import weakref

from .analysis import Analysis
from .expressions import ExpressionRewriter, mangle_private_names
from .lowering import lower_jumps
from .transformer import LoadChecker, StatementConverter

__all__ = ["ConversionError", "convert", "converted_source", "is_converted_code",
           "set_runtime"]

_RUNTIME = [None]          # the module generated code calls as `ag__` (ag.py registers it)
_FACTORIES = {}            # code object -> _Factory
_CONVERTED = weakref.WeakKeyDictionary()   # function -> converted function
_CONVERTED_CODES = set()   # code objects made by conversion


class ConversionError(Exception):
    """A function AutoGraph cannot convert (no source, unsupported syntax, ...)."""


def set_runtime(module):
    _RUNTIME[0] = module


def is_converted_code(code):
    return code in _CONVERTED_CODES


class _Factory:
    __slots__ = ("make", "node", "freevars")

    def __init__(self, make, node, freevars):
        self.make, self.node, self.freevars = make, node, freevars


# -- parsing --------------------------------------------------------------------------------------
def _parse(fn):
    """(the FunctionDef or Lambda node of `fn`, its module tree), located in the file."""
    try:
        lines, first = inspect.getsourcelines(fn)
    except (OSError, TypeError) as err:
        raise ConversionError(f"its source code is not available ({err})") from None
    source = "".join(lines)
    dedented = textwrap.dedent(source)
    indent = _indent(lines, dedented)
    tree = _parse_text(dedented, fn)
    ast.increment_lineno(tree, first - 1)
    if indent:
        for node in ast.walk(tree):
            if hasattr(node, "col_offset"):
                node.col_offset += indent
                if getattr(node, "end_col_offset", None) is not None:
                    node.end_col_offset += indent
    code = fn.__code__
    if code.co_name == "<lambda>":
        return _find_lambda(tree, code), tree
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                node.name == code.co_name:
            if isinstance(node, ast.AsyncFunctionDef):
                raise ConversionError("async functions are not converted")
            return node, tree
    raise ConversionError(f"could not find the definition of {code.co_name} in its source")


def _indent(lines, dedented):
    first = next((line for line in lines if line.strip()), "")
    first_dedented = next((line for line in dedented.splitlines() if line.strip()), "")
    return len(first) - len(first_dedented)


def _parse_text(text, fn):
    try:
        return ast.parse(text)
    except SyntaxError:
        pass
    if fn.__code__.co_name == "<lambda>":  # lambdas inside a larger expression: cut them out
        found = []
        start = text.find("lambda")
        while start >= 0:
            lines_before = text.count("\n", 0, start)
            for end in range(len(text), start, -1):
                try:
                    piece = ast.parse("\n" * lines_before + "(" + text[start:end] + ")")
                except SyntaxError:
                    continue
                found.extend(piece.body)
                break
            start = text.find("lambda", start + 1)
        if found:
            return ast.Module(body=found, type_ignores=[])
    raise ConversionError("its source code could not be parsed")


def _find_lambda(tree, code):
    params = list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Lambda):
            args = node.args
            names = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
            if names == params:
                found.append(node)
    if len({ast.dump(n) for n in found}) > 1:  # tell them apart by the names and constants used
        found = [n for n in found if _lambda_signature(n) == _code_signature(code)]
    if len({ast.dump(n) for n in found}) != 1:
        raise ConversionError("the lambda could not be told apart from others on its line"
                              if found else "the lambda was not found in its source")
    return found[0]


def _code_signature(code):
    consts = tuple(c for c in code.co_consts if not isinstance(c, types.CodeType))
    return frozenset(code.co_names) | frozenset(code.co_freevars), consts


def _lambda_signature(node):
    try:
        module = compile(ast.Expression(body=copy.deepcopy(node)), "<lambda>", "eval")
    except (SyntaxError, ValueError, TypeError):
        return None
    inner = next(c for c in module.co_consts if isinstance(c, types.CodeType))
    return _code_signature(inner)


def _class_name(fn):
    parts = fn.__qualname__.split(".")
    if len(parts) >= 2 and parts[-2] != "<locals>":
        return parts[-2]
    return None


# -- rewriting ------------------------------------------------------------------------------------
def _identifiers(tree):
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            out.add(node.id)
        elif isinstance(node, ast.arg):
            out.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
    return out


def convert_function_node(node, taken, self_name=None):
    """Rewrite FunctionDef `node` in place (see the module docstring)."""
    if any(isinstance(n, (ast.Yield, ast.YieldFrom, ast.Await)) for n in _own_nodes(node)):
        return node  # generators keep Python semantics
    extra_tests = lower_jumps(node, taken)
    analysis = Analysis(node, extra_reads=extra_tests)
    converter = StatementConverter(
        analysis, extra_tests, taken, ExpressionRewriter(self_name),
        lambda nested: convert_function_node(nested, taken))
    node.body = converter.block(node.body) or [ast.Pass()]
    if converter.undefined:
        checker = LoadChecker(converter.undefined, converter.state_getters)
        node.body = [checker.visit(stmt) for stmt in node.body]
    return node


def _own_nodes(node):
    stack = list(node.body)
    while stack:
        item = stack.pop()
        yield item
        if not isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                                 ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(item))


def _strip_header(node):
    """No decorators, defaults or annotations on the converted definition: the defaults are the
    original function's values, set when the function is built."""
    args = node.args
    args.defaults = []
    args.kw_defaults = [None] * len(args.kwonlyargs)
    if isinstance(node, ast.FunctionDef):
        node.decorator_list = []
        node.returns = None
        for a in args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]:
            if a is not None:
                a.annotation = None


_DEFINED = "__ag_converted"  # the converted function's name inside its factory


def _build_factory(fn):
    node, tree = _parse(fn)
    mangle_private_names(node, _class_name(fn))
    code = fn.__code__
    taken = _identifiers(tree) | set(code.co_freevars) | {"ag__"}
    _strip_header(node)
    if isinstance(node, ast.Lambda):
        node.body = ExpressionRewriter().rewrite(node.body)
        inner = [ast.Return(value=node)]
    else:
        params = node.args.posonlyargs + node.args.args
        self_name = params[0].arg if params and "__class__" in code.co_freevars else None
        convert_function_node(node, taken, self_name)
        defined = copy.copy(node)  # its own name inside its body stays the original's global
        defined.name = _DEFINED
        inner = [defined, ast.Return(value=ast.Name(id=_DEFINED, ctx=ast.Load()))]
    factory_args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=n) for n in
                                                       ("ag__",) + code.co_freevars],
                                 vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
                                 defaults=[])
    factory = ast.FunctionDef(name="__ag_factory", args=factory_args, body=inner,
                              decorator_list=[], returns=None, type_comment=None)
    module = ast.Module(body=[factory], type_ignores=[])
    for item in ast.walk(module):
        if "lineno" in getattr(item, "_attributes", ()) and not hasattr(item, "lineno"):
            ast.copy_location(item, node)
    try:
        compiled = compile(module, code.co_filename, "exec")
    except (SyntaxError, ValueError, TypeError) as err:
        raise ConversionError(f"the converted code did not compile ({err})") from None
    namespace = {}
    exec(compiled, namespace)  # noqa: S102 - the user's own function, rewritten above
    _remember_codes(compiled)
    return _Factory(namespace["__ag_factory"], node, code.co_freevars)


def _remember_codes(code):
    stack = [code]
    while stack:
        item = stack.pop()
        _CONVERTED_CODES.add(item)
        stack.extend(c for c in item.co_consts if isinstance(c, types.CodeType))


def _factory(fn):
    code = fn.__code__
    hit = _FACTORIES.get(code)
    if hit is None:
        hit = _FACTORIES[code] = _build_factory(fn)
    return hit


# -- building converted functions -----------------------------------------------------------------
def convert(fn, runtime=None):
    """The converted version of the Python function `fn` (ConversionError if impossible);
    `runtime`: the module its code calls as `ag__` (default: ag.py's; other runtimes' versions
    are not cached)."""
    hit = _CONVERTED.get(fn) if runtime is None else None
    if hit is not None:
        return hit
    if not isinstance(fn, types.FunctionType):
        raise ConversionError(f"{fn!r} is not a Python function")
    runtime = _RUNTIME[0] if runtime is None else runtime
    factory = _factory(fn)
    made = factory.make(runtime, *([None] * len(factory.freevars)))
    closure = fn.__closure__ or ()
    cells = dict(zip(fn.__code__.co_freevars, closure))
    own = []
    for name in made.__code__.co_freevars:
        own.append(types.CellType(runtime) if name == "ag__" else cells[name])
    code = made.__code__
    if code.co_name == _DEFINED:  # tracebacks name the user's function
        code = code.replace(co_name=fn.__code__.co_name, co_qualname=fn.__code__.co_qualname)
        _remember_codes(code)
    new = types.FunctionType(code, fn.__globals__, fn.__name__, fn.__defaults__, tuple(own))
    new.__kwdefaults__ = fn.__kwdefaults__
    new.__qualname__ = fn.__qualname__
    new.__module__ = fn.__module__
    new.__doc__ = fn.__doc__
    new.__dict__.update(fn.__dict__)
    new.__wrapped__ = fn
    if runtime is not _RUNTIME[0]:
        return new
    try:
        _CONVERTED[fn] = new
    except TypeError:
        pass
    return new


def converted_source(fn):
    """The converted source of `fn` as text (tf.autograph.to_code)."""
    node = copy.deepcopy(_factory(fn).node)
    if isinstance(node, ast.FunctionDef):
        node.name = f"tf__{node.name}"
    return ast.unparse(node) + "\n"
