"""The models that lesson 08 trains: softmax regression and a one-hidden-layer network, in NumPy.

Their parameters are one flat vector, so a per-example gradient is one row of a matrix: the shape
DP-SGD (:mod:`mic_dp_helpers.ml.dpsgd`) clips and sums. Nothing here is private on its own; the
privacy comes from how :mod:`~mic_dp_helpers.ml.dpsgd` clips, samples and adds noise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from mic_dp_helpers._validation import as_generator, as_number_array, check_int_at_least, check_size, describe

__all__ = ["Architecture", "init_params", "predict_proba", "per_example_loss", "per_example_gradients", "accuracy"]


@dataclass(frozen=True)
class Architecture:
    """Shape of a classifier whose parameters are one flat vector.

    Parameters
    ----------
    n_features : int
        Number of input features (>= 1).
    n_classes : int
        Number of classes (>= 2).
    hidden : int, default 0
        Units of the ``tanh`` hidden layer; 0 gives softmax (multinomial logistic) regression.

    Examples
    --------
    >>> Architecture(4, 3).n_params  # a 4 x 3 weight matrix and 3 biases
    15
    >>> Architecture(4, 3, hidden=8).n_params
    67
    """

    n_features: int
    n_classes: int
    hidden: int = 0

    def __post_init__(self) -> None:
        check_int_at_least(self.n_features, "n_features", 1)
        check_int_at_least(self.n_classes, "n_classes", 2)
        check_int_at_least(self.hidden, "hidden", 0)
        # Each layer has (inputs + 1) weights per output: the parameter vector stays under the shared size cap.
        check_size(self.n_features, "n_features", 1)
        check_size(self.hidden, "hidden", 0, per_item=self.n_features + 1)
        check_size(self.n_classes, "n_classes", 2, per_item=(self.hidden or self.n_features) + 1)

    @property
    def n_params(self) -> int:
        """Length of the flat parameter vector."""
        if self.hidden == 0:
            return (self.n_features + 1) * self.n_classes
        return (self.n_features + 1) * self.hidden + (self.hidden + 1) * self.n_classes

    def unpack(self, params: np.ndarray) -> list[np.ndarray]:
        """Views ``[W, b]`` (or ``[W1, b1, W2, b2]``) into the flat ``params``.

        Parameters
        ----------
        params : numpy.ndarray
            Flat parameter vector of length ``n_params``.

        Returns
        -------
        list of numpy.ndarray
            Weight matrices and bias vectors, views into ``params``.
        """
        params = _as_floats(params, "params")
        if params.shape != (self.n_params,):
            raise ValueError(f"params must be a flat vector of length {self.n_params} for {self}, "
                             f"got shape {params.shape}; create one with init_params.")
        if self.hidden == 0:
            shapes = [(self.n_features, self.n_classes), (self.n_classes,)]
        else:
            shapes = [(self.n_features, self.hidden), (self.hidden,), (self.hidden, self.n_classes), (self.n_classes,)]
        out, start = [], 0
        for shape in shapes:
            size = math.prod(shape)
            out.append(params[start:start + size].reshape(shape))
            start += size
        return out


def init_params(architecture: Architecture, rng=None) -> np.ndarray:
    """Starting parameters: zeros for logistic regression, small random weights for the network.

    Parameters
    ----------
    architecture : Architecture
        The model.
    rng : None, int or numpy.random.Generator, optional
        Source of the random weights (only used with a hidden layer).

    Returns
    -------
    numpy.ndarray
        Flat vector of length ``architecture.n_params``.

    Examples
    --------
    >>> init_params(Architecture(2, 2)).tolist()
    [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    """
    if not isinstance(architecture, Architecture):
        raise TypeError(f"architecture must be an Architecture, got {type(architecture).__name__}.")
    generator = as_generator(rng)
    params = np.zeros(architecture.n_params)
    if architecture.hidden:
        W1, _, W2, _ = architecture.unpack(params)  # views: filling them fills params
        W1[:] = generator.normal(0.0, 1.0 / math.sqrt(architecture.n_features), W1.shape)
        W2[:] = generator.normal(0.0, 1.0 / math.sqrt(architecture.hidden), W2.shape)
    return params


def _as_floats(values, name: str) -> np.ndarray:
    """``values`` as a finite float array (numbers only, booleans excluded)."""
    array = as_number_array(values, name, hint="; encode text columns first")
    if not np.isfinite(array).all():
        raise ValueError(f"{name} contains NaN or infinite values; impute or drop them first (or lower the "
                         "learning rate if training diverged).")
    return array


def _check_features(architecture: Architecture, X) -> np.ndarray:
    if not isinstance(architecture, Architecture):
        raise TypeError(f"architecture must be an Architecture, got {describe(architecture)}.")
    X = _as_floats(X, "X")
    if X.ndim != 2 or X.shape[1] != architecture.n_features:
        raise ValueError(f"X must have shape (n, {architecture.n_features}), got {X.shape}.")
    return X


def _check_data(architecture: Architecture, X, y) -> tuple[np.ndarray, np.ndarray]:
    X = _check_features(architecture, X)
    if y is None or isinstance(y, (str, bytes, dict)):
        raise TypeError(f"y must be an array of class labels 0..{architecture.n_classes - 1}, got {describe(y)}.")
    y_array = np.asarray(y)
    if y_array.shape != (len(X),):
        raise ValueError(f"y must have one label per row of X, shape ({len(X)},), got {y_array.shape}.")
    if y_array.dtype.kind not in "iu" or (len(y_array) and (y_array.min() < 0 or y_array.max() >= architecture.n_classes)):
        raise ValueError(f"y must hold integer class labels 0..{architecture.n_classes - 1}.")
    return X, y_array.astype(int)


def _forward(architecture: Architecture, params: np.ndarray, X: np.ndarray):
    parts = architecture.unpack(params)
    if architecture.hidden == 0:
        W, b = parts
        hidden = None
        logits = X @ W + b
    else:
        W1, b1, W2, b2 = parts
        hidden = np.tanh(X @ W1 + b1)
        logits = hidden @ W2 + b2
    logits = logits - logits.max(axis=1, keepdims=True)
    exp = np.exp(logits)
    proba = exp / exp.sum(axis=1, keepdims=True)
    return hidden, proba, logits


def predict_proba(architecture: Architecture, params, X) -> np.ndarray:
    """Class probabilities, shape ``(n, n_classes)``.

    Parameters
    ----------
    architecture : Architecture
        The model's shape.
    params : numpy.ndarray
        Flat parameter vector.
    X : array_like
        Features, shape ``(n, n_features)``.

    Returns
    -------
    numpy.ndarray
        Shape ``(n, n_classes)``; rows sum to 1.

    Examples
    --------
    >>> arch = Architecture(2, 2)
    >>> predict_proba(arch, init_params(arch), [[1.0, 2.0]]).tolist()
    [[0.5, 0.5]]
    """
    X = _check_features(architecture, X)
    return _forward(architecture, params, X)[1]


def per_example_loss(architecture: Architecture, params, X, y) -> np.ndarray:
    """Cross-entropy loss of each example, ``-log p(y_i | x_i)``, shape ``(n,)``.

    Parameters
    ----------
    architecture : Architecture
        The model's shape.
    params : numpy.ndarray
        Flat parameter vector.
    X : array_like
        Features, shape ``(n, n_features)``.
    y : array_like
        Class labels ``0 .. n_classes - 1``.

    Returns
    -------
    numpy.ndarray
        Shape ``(n,)``, in nats.

    Examples
    --------
    >>> arch = Architecture(2, 2)
    >>> per_example_loss(arch, init_params(arch), [[1.0, 2.0]], [1]).round(4).tolist()
    [0.6931]
    """
    X, y = _check_data(architecture, X, y)
    _, _, logits = _forward(architecture, params, X)
    log_norm = np.log(np.exp(logits).sum(axis=1))
    return log_norm - logits[np.arange(len(y)), y]


def per_example_gradients(architecture: Architecture, params, X, y) -> np.ndarray:
    """Gradient of each example's cross-entropy loss, one row per example: shape ``(n, n_params)``.

    Written out by hand (backpropagation for one example at a time, vectorised over examples),
    which is what Opacus and JAX's ``vmap`` do for you.

    Parameters
    ----------
    architecture : Architecture
        The model's shape.
    params : numpy.ndarray
        Flat parameter vector.
    X : array_like
        Features, shape ``(n, n_features)``.
    y : array_like
        Class labels ``0 .. n_classes - 1``.

    Returns
    -------
    numpy.ndarray
        Shape ``(n, n_params)``.

    Examples
    --------
    >>> arch = Architecture(1, 2)
    >>> per_example_gradients(arch, init_params(arch), [[2.0]], [0]).tolist()  # [dW, db]
    [[-1.0, 1.0, -0.5, 0.5]]
    """
    X, y = _check_data(architecture, X, y)
    params = _as_floats(params, "params")
    hidden, proba, _ = _forward(architecture, params, X)
    d_logits = proba.copy()
    d_logits[np.arange(len(y)), y] -= 1.0  # derivative of the cross-entropy with respect to the logits
    n = len(X)
    if architecture.hidden == 0:
        gW = X[:, :, None] * d_logits[:, None, :]
        return np.concatenate([gW.reshape(n, -1), d_logits], axis=1)
    _, _, W2, _ = architecture.unpack(params)
    gW2 = hidden[:, :, None] * d_logits[:, None, :]
    d_hidden = (d_logits @ W2.T) * (1.0 - hidden**2)
    gW1 = X[:, :, None] * d_hidden[:, None, :]
    return np.concatenate([gW1.reshape(n, -1), d_hidden, gW2.reshape(n, -1), d_logits], axis=1)


def accuracy(architecture: Architecture, params, X, y) -> float:
    """Share of rows whose most probable class is the label.

    Parameters
    ----------
    architecture : Architecture
        The model's shape.
    params : numpy.ndarray
        Flat parameter vector.
    X : array_like
        Features, shape ``(n, n_features)``.
    y : array_like
        Class labels ``0 .. n_classes - 1``.

    Returns
    -------
    float
        The accuracy, in [0, 1].

    Examples
    --------
    >>> arch = Architecture(1, 2)
    >>> accuracy(arch, np.array([1.0, -1.0, 0.0, 0.0]), [[1.0], [-1.0]], [0, 1])
    1.0
    """
    X, y = _check_data(architecture, X, y)
    return float((predict_proba(architecture, params, X).argmax(axis=1) == y).mean())
