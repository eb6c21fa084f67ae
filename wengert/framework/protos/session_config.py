"""TensorFlow 1's session options, as tensorflow/core/protobuf/config.proto declares them (the
fields programs set; fields not declared here are kept and written back unchanged):

    ConfigProto       device_count (1): map<string, int32>, intra_op_parallelism_threads (2),
                      placement_period (3), device_filters (4), inter_op_parallelism_threads (5),
                      gpu_options (6), allow_soft_placement (7), log_device_placement (8),
                      use_per_session_threads (9), graph_options (10),
                      operation_timeout_in_ms (11), session_inter_op_thread_pool (12),
                      isolate_session_state (15), share_cluster_devices_in_session (17)
    GPUOptions        per_process_gpu_memory_fraction (1), allocator_type (2),
                      deferred_deletion_bytes (3), allow_growth (4), visible_device_list (5),
                      polling_active_delay_usecs (6), polling_inactive_delay_msecs (7),
                      force_gpu_compatible (8)
    GraphOptions      enable_recv_scheduling (2), optimizer_options (3), build_cost_model (4),
                      infer_shapes (5), place_pruned_graph (6), enable_bfloat16_sendrecv (7),
                      timeline_step (8), build_cost_model_after (9)
    OptimizerOptions  do_common_subexpression_elimination (1), do_constant_folding (2),
                      opt_level (3), do_function_inlining (4), global_jit_level (5),
                      max_folded_constant_in_bytes (6), cpu_global_jit (7)
    RunOptions        trace_level (1), timeout_in_ms (2), inter_op_thread_pool (3),
                      output_partition_graphs (5), report_tensor_allocations_upon_oom (7)
    RunMetadata       what a traced run reports (filled by TensorFlow's runtime; empty here)

`Session(config=...)` and `Session.run(options=..., run_metadata=...)` take them as TensorFlow
does on a machine with one CPU: device counts, thread pools, GPU memory and graph rewrites have
nothing to act on, so they change no result.
"""
from .message import Field, Message

__all__ = ["ConfigProto", "GPUOptions", "GraphOptions", "OptimizerOptions", "RunMetadata",
           "RunOptions", "ThreadPoolOptionProto"]


class ThreadPoolOptionProto(Message):
    """A session thread pool: `num_threads`, `global_name`."""
    FULL_NAME = "tensorflow.ThreadPoolOptionProto"
    FIELDS = (Field(1, "num_threads", "int32"), Field(2, "global_name", "string"))


class GPUOptions(Message):
    """GPU memory options (`allow_growth`, `per_process_gpu_memory_fraction`, ...)."""
    FULL_NAME = "tensorflow.GPUOptions"
    FIELDS = (Field(1, "per_process_gpu_memory_fraction", "double"),
              Field(2, "allocator_type", "string"), Field(3, "deferred_deletion_bytes", "int64"),
              Field(4, "allow_growth", "bool"), Field(5, "visible_device_list", "string"),
              Field(6, "polling_active_delay_usecs", "int32"),
              Field(7, "polling_inactive_delay_msecs", "int32"),
              Field(8, "force_gpu_compatible", "bool"))


class OptimizerOptions(Message):
    """Graph optimisation levels; `opt_level` takes L1/L0, `global_jit_level` OFF/ON_1/ON_2."""
    FULL_NAME = "tensorflow.OptimizerOptions"
    FIELDS = (Field(1, "do_common_subexpression_elimination", "bool"),
              Field(2, "do_constant_folding", "bool"), Field(3, "opt_level", "enum"),
              Field(4, "do_function_inlining", "bool"), Field(5, "global_jit_level", "enum"),
              Field(6, "max_folded_constant_in_bytes", "int64"),
              Field(7, "cpu_global_jit", "bool"))
    L1, L0 = 0, -1
    DEFAULT, OFF, ON_1, ON_2 = 0, -1, 1, 2


class GraphOptions(Message):
    """Graph building options, holding the `optimizer_options`."""
    FULL_NAME = "tensorflow.GraphOptions"
    FIELDS = (Field(2, "enable_recv_scheduling", "bool"),
              Field(3, "optimizer_options", "message", message=OptimizerOptions),
              Field(4, "build_cost_model", "int64"), Field(5, "infer_shapes", "bool"),
              Field(6, "place_pruned_graph", "bool"), Field(7, "enable_bfloat16_sendrecv", "bool"),
              Field(8, "timeline_step", "int32"), Field(9, "build_cost_model_after", "int64"))


class ConfigProto(Message):
    """A Session's configuration: `ConfigProto(allow_soft_placement=True)`,
    `config.gpu_options.allow_growth = True`."""
    FULL_NAME = "tensorflow.ConfigProto"
    FIELDS = (Field(1, "device_count", "int32", map_key="string"),
              Field(2, "intra_op_parallelism_threads", "int32"),
              Field(3, "placement_period", "int32"),
              Field(4, "device_filters", "string", repeated=True),
              Field(5, "inter_op_parallelism_threads", "int32"),
              Field(6, "gpu_options", "message", message=GPUOptions),
              Field(7, "allow_soft_placement", "bool"), Field(8, "log_device_placement", "bool"),
              Field(9, "use_per_session_threads", "bool"),
              Field(10, "graph_options", "message", message=GraphOptions),
              Field(11, "operation_timeout_in_ms", "int64"),
              Field(12, "session_inter_op_thread_pool", "message", repeated=True,
                    message=ThreadPoolOptionProto),
              Field(15, "isolate_session_state", "bool"),
              Field(17, "share_cluster_devices_in_session", "bool"))


class RunOptions(Message):
    """Options of one `Session.run`: `RunOptions(trace_level=RunOptions.FULL_TRACE)`."""
    FULL_NAME = "tensorflow.RunOptions"
    FIELDS = (Field(1, "trace_level", "enum"), Field(2, "timeout_in_ms", "int64"),
              Field(3, "inter_op_thread_pool", "int32"),
              Field(5, "output_partition_graphs", "bool"),
              Field(7, "report_tensor_allocations_upon_oom", "bool"))
    NO_TRACE, SOFTWARE_TRACE, HARDWARE_TRACE, FULL_TRACE = 0, 1, 2, 3


class RunMetadata(Message):
    """What a traced `Session.run` reports (step stats, cost graph): nothing on this runtime."""
    FULL_NAME = "tensorflow.RunMetadata"
    FIELDS = ()
