"""Short-time transforms: `tf.signal.stft` / `inverse_stft` (with `inverse_stft_window_fn`) and
`mdct` / `inverse_mdct`, as TensorFlow 2 computes them from framing (frames.py), windows
(windows.py) and the Fourier and cosine transforms (fft.py, dct.py); their gradients are those
ops'.

`stft` frames the signal, multiplies each frame by the window and takes its rfft; `inverse_stft`
takes the irfft of each frame, crops or pads it to frame_length, windows it and overlap-adds:
with `inverse_stft_window_fn` as the synthesis window the pair reconstructs the signal. The MDCT
folds each windowed frame of quarters [a, b, c, d] into [-rev(c) - d, a - rev(b)] and takes its
type-4 DCT; the inverse unfolds and overlap-adds, so with a power-complementary window (Vorbis,
KBD) the two invert each other.
"""
import numpy as np

from ...framework.tensor import convert_to_tensor
from ...framework.context import op_scope
from ..array_ops import concat
from ..creation_ops import tile
from ..indexing_ops import reverse
from ..pad_ops import pad
from ..reduce_ops import reduce_sum
from ..reshape_ops import reshape
from .dct import dct, idct
from .fft import irfft, rfft
from .frames import frame, overlap_and_add, static_int
from .windows import hann_window, vorbis_window

__all__ = ["stft", "inverse_stft", "inverse_stft_window_fn", "mdct", "inverse_mdct"]


_VORBIS = object()  # window_fn left out: the Vorbis window


def _quarters_or_halves(x, parts):
    size = x.shape.as_list()[-1] // parts
    return [x[..., i * size:(i + 1) * size] for i in range(parts)]


def mdct(signals, frame_length, window_fn=_VORBIS, pad_end=False, norm=None, name=None):
    """Modified DCT of frames `frame_length` long (a multiple of 4), half a frame apart: each
    windowed frame `[a, b, c, d]` (quarters) becomes `[-c' - d, a - b']` (' reversed) and goes
    through a type-4 DCT; `window_fn=None` scales by 1/sqrt(2) instead of windowing."""
    with op_scope(name, "mdct"):
        window_fn = vorbis_window if window_fn is _VORBIS else window_fn
        frame_length = int(frame_length)
        if frame_length % 4 != 0:
            raise ValueError(f"tf.signal.mdct: frame_length must be a multiple of 4, got "
                             f"{frame_length}")
        frames = frame(signals, frame_length, frame_length // 2, pad_end=pad_end)
        if window_fn is not None:
            frames = frames * window_fn(frame_length, dtype=frames.dtype)
        else:
            frames = frames * (1.0 / np.sqrt(2.0))
        a, b, c, d = _quarters_or_halves(frames, 4)
        rearranged = concat([-reverse(c, [-1]) - d, a - reverse(b, [-1])], axis=-1)
        return dct(rearranged, type=4, norm=norm)


def inverse_mdct(mdcts, window_fn=_VORBIS, norm=None, name=None):
    """Inverse of `mdct`: a type-4 inverse DCT, unfolded to full frames, windowed (or scaled by
    1/sqrt(2)) and overlap-added half a frame apart (scaled by 1/(2 half_len) when norm=None)."""
    with op_scope(name, "inverse_mdct"):
        window_fn = vorbis_window if window_fn is _VORBIS else window_fn
        mdcts = convert_to_tensor(mdcts)
        half_len = mdcts.shape.as_list()[-1]
        first, second = _quarters_or_halves(idct(mdcts, type=4, norm=norm), 2)
        frames = concat([second, -reverse(second, [-1]), -reverse(first, [-1]), -first], axis=-1)
        if norm is None:
            frames = frames * (1.0 / (2.0 * half_len))
        if window_fn is not None:
            frames = frames * window_fn(2 * half_len, dtype=mdcts.dtype)
        else:
            frames = frames * (1.0 / np.sqrt(2.0))
        return overlap_and_add(frames, half_len)


def inverse_stft_window_fn(frame_step, forward_window_fn=hann_window, name=None):
    """A window function for `inverse_stft`: the forward window divided by the sum of the
    squared forward windows overlapping each sample (frames `frame_step` apart), so that
    analysis followed by synthesis reconstructs the signal."""
    frame_step = static_int(frame_step, "frame_step")

    def inverse_window(frame_length, dtype):
        with op_scope(name, "inverse_stft_window_fn"):
            frame_length = static_int(frame_length, "frame_length")
            forward = convert_to_tensor(forward_window_fn(frame_length, dtype=dtype))
            overlaps = -(-frame_length // frame_step)
            squares = pad(forward * forward, [[0, overlaps * frame_step - frame_length]])
            summed = reduce_sum(reshape(squares, [overlaps, frame_step]), 0, keepdims=True)
            denominator = reshape(tile(summed, [overlaps, 1]), [overlaps * frame_step])
            return forward / denominator[:frame_length]
    return inverse_window


def _enclosing_power_of_two(n):
    return 1 << max(int(n) - 1, 0).bit_length()


def stft(signals, frame_length, frame_step, fft_length=None, window_fn=hann_window,
         pad_end=False, name=None):
    """The short-time Fourier transform: rfft of each windowed frame, [..., frames,
    fft_length // 2 + 1]; fft_length defaults to the smallest power of 2 >= frame_length."""
    with op_scope(name, "stft"):
        signals = convert_to_tensor(signals)
        frame_length = static_int(frame_length, "frame_length")
        fft_length = (_enclosing_power_of_two(frame_length) if fft_length is None
                      else static_int(fft_length, "fft_length"))
        frames = frame(signals, frame_length, static_int(frame_step, "frame_step"), pad_end=pad_end)
        if window_fn is not None:
            frames = frames * window_fn(frame_length, dtype=frames.dtype)
        return rfft(frames, [fft_length])


def inverse_stft(stfts, frame_length, frame_step, fft_length=None, window_fn=hann_window,
                 name=None):
    """The signal whose stft is `stfts`: irfft of each frame, cropped or zero-padded to
    frame_length, windowed by window_fn, overlap-added (use inverse_stft_window_fn(frame_step)
    to invert stft exactly)."""
    with op_scope(name, "inverse_stft"):
        stfts = convert_to_tensor(stfts)
        frame_length = static_int(frame_length, "frame_length")
        fft_length = (_enclosing_power_of_two(frame_length) if fft_length is None
                      else static_int(fft_length, "fft_length"))
        frames = irfft(stfts, [fft_length])
        if fft_length > frame_length:
            frames = frames[..., :frame_length]
        elif fft_length < frame_length:
            rank = len(frames.shape.as_list())
            frames = pad(frames, [[0, 0]] * (rank - 1) + [[0, frame_length - fft_length]])
        if window_fn is not None:
            frames = frames * window_fn(frame_length, dtype=stfts.dtype.real_dtype)
        return overlap_and_add(frames, static_int(frame_step, "frame_step"))
