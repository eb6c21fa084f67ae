"""`keras.callbacks`: hooks called by fit/evaluate/predict (callback_list.py: CallbackList;
core.py: the Callback protocol,
History, the progress bar, EarlyStopping, LambdaCallback, BackupAndRestore; tensorboard.py:
TensorBoard; training.py: ModelCheckpoint, ReduceLROnPlateau, LearningRateScheduler, CSVLogger,
TerminateOnNaN; swap_ema_weights.py: SwapEMAWeights)."""
from .core import *  # noqa: F401,F403
from .core import __all__ as _core
from .callback_list import CallbackList
from .swap_ema_weights import SwapEMAWeights
from .tensorboard import TensorBoard
from .training import *  # noqa: F401,F403
from .training import __all__ as _training

__all__ = list(_core) + ["CallbackList", "SwapEMAWeights", "TensorBoard"] + list(_training)
