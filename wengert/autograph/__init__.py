"""AutoGraph: Python control flow on tensors inside `tf.function`, converted at trace time.

    @tf.function
    def f(x):
        while tf.reduce_sum(x) > 1:    # a while_loop
            x = tf.tanh(x)
        return x

When a `tf.function` traces (autograph=True, the default), its Python function is converted:
its source is parsed with `ast`, `break`/`continue`/`return` become flags (lowering.py), each
`if`/`while`/`for` becomes a call of a runtime operator with the state the analysis found
(analysis.py, transformer.py), calls and conditional/logical expressions are rewritten
(expressions.py), and the result is compiled with the user's file and line numbers and cached
(conversion.py). At run time the operators (conditionals.py, loops.py) keep Python semantics for
Python values and build `cond`/`while_loop` for graph tensors, so gradients flow through them as
through hand-written control flow. `tf.autograph.to_code`, `to_graph`,
`experimental.do_not_convert` and `experimental.set_loop_options` are in api.py.
"""
from . import ag  # noqa: F401  registers the runtime module generated code calls
from . import experimental
from .api import Feature, do_not_convert, for_function, set_verbosity, to_code, to_graph, trace
from ..tracing import function as _function

_function.AUTOGRAPH[0] = for_function

__all__ = ["to_code", "to_graph", "do_not_convert", "experimental", "set_verbosity", "trace",
           "Feature", "for_function"]
