"""Connectionist temporal classification (Graves et al. 2006): the loss, the decoders and the label
helpers of tf.nn."""
