"""`tf.function`: tracing Python functions into graphs (FuncGraph) once per input signature, the
signature rules, and calling the traced graphs, differentiably."""
