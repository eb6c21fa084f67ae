"""`tf.train.CheckpointOptions`: how Checkpoint.write/save/restore and CheckpointManager.save run.

    experimental_io_device   the device that does the file I/O: accepted (one device here)
    enable_async (and experimental_enable_async_checkpoint)   write in the background: wengert
                             always writes and renames the files before returning and flushes
                             them to disk in the background; `sync()` waits for that flush
    experimental_write_callbacks   functions called after each write or save finished, each
                             with the checkpoint's path when it takes one argument, else with none
    experimental_skip_slot_variables   restore without optimizer slots: not supported (a clear
                             NotImplementedError from restore)
    experimental_sharding_callback   how a checkpoint is split into shards: wengert writes one
                             shard, so only None is accepted
"""
import inspect

__all__ = ["CheckpointOptions"]


class CheckpointOptions:
    """Options for writing and reading checkpoints (see the module docstring)."""

    __slots__ = ("experimental_io_device", "enable_async", "experimental_enable_async_checkpoint",
                 "experimental_write_callbacks", "experimental_sharding_callback",
                 "experimental_skip_slot_variables")

    def __init__(self, experimental_io_device=None, experimental_enable_async_checkpoint=False,
                 experimental_write_callbacks=None, enable_async=False,
                 experimental_skip_slot_variables=False, experimental_sharding_callback=None):
        for callback in experimental_write_callbacks or ():
            if len(inspect.signature(callback).parameters) > 1:
                raise AssertionError(f"CheckpointOptions: a write callback takes the path or "
                                     f"nothing, but {callback!r} takes more arguments.")
        if experimental_sharding_callback is not None:
            raise NotImplementedError(
                "CheckpointOptions(experimental_sharding_callback=...): wengert writes every "
                "checkpoint as one shard; leave it None.")
        self.experimental_io_device = experimental_io_device
        self.enable_async = bool(experimental_enable_async_checkpoint or enable_async)
        self.experimental_enable_async_checkpoint = self.enable_async
        self.experimental_write_callbacks = experimental_write_callbacks
        self.experimental_sharding_callback = experimental_sharding_callback
        self.experimental_skip_slot_variables = experimental_skip_slot_variables


def checked_options(options, who, restoring=False):
    """`options` (default CheckpointOptions()), or TypeError naming `who`."""
    if options is None:
        return CheckpointOptions()
    if not isinstance(options, CheckpointOptions):
        raise TypeError(f"{who}: options must be a tf.train.CheckpointOptions, got "
                        f"{type(options).__name__}.")
    if restoring and options.experimental_skip_slot_variables:
        raise NotImplementedError(
            f"{who}: CheckpointOptions(experimental_skip_slot_variables=True) is not supported; "
            "restore the optimizer's slots too, or restore a Checkpoint without the optimizer.")
    return options


def after_write(options, path):
    """Run the write callbacks of `options` for the checkpoint written at `path`."""
    for callback in options.experimental_write_callbacks or ():
        if inspect.signature(callback).parameters:
            callback(path)
        else:
            callback()
