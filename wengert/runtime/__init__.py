"""Running graphs: `Session` (TensorFlow 1's runs of fetches with feeds), the executor that compiles the
ops a run needs into a flat plan of kernel calls, the plan's buffer planning, and the stores that
hold variables' values while a plan runs."""
