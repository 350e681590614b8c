"""DP-SGD from the inside: per-example gradients, clipping, Gaussian noise, Poisson sampling, accounting.

.. warning::
   **Teaching code, not production code.** The noise comes from NumPy's floating-point
   Gaussian sampler, which is not safe against floating-point attacks (Mironov 2012), and
   nothing here is hardened (timing, the choice of hyperparameters on private data, ...).
   Train real models with Opacus (PyTorch), TensorFlow Privacy or JAX Privacy.

One step of DP-SGD (Abadi et al., "Deep learning with differential privacy", CCS 2016):

1. **Poisson sampling**: every example joins the batch independently with probability ``q``
   (the ``sample_rate``), so the batch size itself is random;
2. **per-example gradients** of the loss, one row per example in the batch;
3. **per-example clipping**: each row is scaled down to L2 norm at most ``C``
   (``clip_norm``), so one example moves the summed gradient by at most ``C``;
4. **Gaussian noise** of standard deviation ``sigma * C`` (``noise_multiplier * clip_norm``)
   on every coordinate of the summed gradient;
5. the update divides by a **fixed, public normaliser** ``B`` (``expected_batch_size``, chosen
   before seeing the data, as in Abadi et al. 2016), never by the realised batch size and never
   by ``q * len(X)``.

Neighbouring datasets differ by **adding or removing one example** (``dp_accounting``'s default
``ADD_OR_REMOVE_ONE``), so the number of rows is *private*. Public, fixed beforehand: ``q``, ``B``,
``C``, ``sigma``, the learning rate, the steps and the features' ranges. One step is then the
Poisson-subsampled Gaussian mechanism (sensitivity ``C``, noise ``sigma * C``) plus
post-processing. Dividing by ``q * len(X)`` instead lets the noise's scale reveal ``len(X)``: one
full-batch step on 6 against 7 examples, claimed (1.0, 1e-5)-DP, has an exact epsilon above 4
(``tests/test_dpsgd.py``).
:func:`dpsgd_epsilon` asks Google's ``dp_accounting`` for the epsilon of the run and
:func:`compare_accounting` sets it beside the course's cruder composition rules (both live in
:mod:`mic_dp_helpers.ml.accounting` and are re-exported here).

The models (softmax regression and a network with one ``tanh`` hidden layer, trained on the
cross-entropy loss) live in :mod:`mic_dp_helpers.ml.model` and are re-exported here.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field

import numpy as np

from mic_dp_helpers._validation import as_generator, check_positive_float, check_size
from mic_dp_helpers.progress import progress_bar
from mic_dp_helpers.ml.accounting import (  # re-exported: one import for the lesson
    _check_sample_rate,
    compare_accounting,
    dpsgd_dp_event,
    dpsgd_epsilon,
    gaussian_epsilon,
    noise_multiplier_for_epsilon,
)
from mic_dp_helpers.ml.model import (  # re-exported: one import for the lesson
    Architecture,
    _as_floats,
    _check_data,
    _forward,
    accuracy,
    init_params,
    per_example_gradients,
    per_example_loss,
    predict_proba,
)

__all__ = ["Architecture", "TrainingRun", "init_params", "predict_proba", "per_example_loss", "per_example_gradients",
           "clip_per_example", "poisson_sample", "private_gradient_sum", "train_dpsgd", "accuracy", "dpsgd_dp_event",
           "dpsgd_epsilon", "noise_multiplier_for_epsilon", "gaussian_epsilon", "compare_accounting"]

# ------------------------------------------------------------------------------ validation
def _check_noise_multiplier(value, name: str = "noise_multiplier") -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(float(value)):
        raise TypeError(f"{name} must be a finite number >= 0 (0 means no noise: not private), got {value!r}.")
    if value < 0:
        raise ValueError(f"{name} must be >= 0, got {value}; the noise standard deviation is {name} * clip_norm.")
    return float(value)


def _check_gradients(grads) -> np.ndarray:
    try:
        array = np.asarray(grads, dtype=float)
    except (TypeError, ValueError) as error:
        raise TypeError(f"per_example_grads must be a 2-D array of numbers: {error}") from None
    if array.ndim != 2:
        raise ValueError(f"per_example_grads must be 2-D (one row per example), got shape {array.shape}.")
    if not np.isfinite(array).all():
        raise ValueError("per_example_grads contains NaN or infinite values; check the learning rate and the data.")
    return array


def _check_clip_norm(clip_norm) -> float:
    return check_positive_float(clip_norm, "clip_norm", allow_inf=True)


# ----------------------------------------------------------------------- the private step
def clip_per_example(per_example_grads, clip_norm: float) -> np.ndarray:
    """Scale each row down to L2 norm at most ``clip_norm`` (rows already within it are unchanged).

    Row ``g`` becomes ``g * min(1, clip_norm / ||g||)``: the direction is kept, only long rows
    shrink. Clipping the **summed** gradient instead would bound nothing about one example.

    Parameters
    ----------
    per_example_grads : array_like, shape (n, p)
        One gradient per row.
    clip_norm : float
        The bound ``C`` (> 0; ``inf`` leaves the rows unchanged, which is not private).

    Returns
    -------
    numpy.ndarray
        A new array of the same shape.

    Examples
    --------
    >>> clip_per_example([[3.0, 4.0], [0.3, 0.4]], 1.0).tolist()
    [[0.6000000000000001, 0.8], [0.3, 0.4]]
    """
    grads = _check_gradients(per_example_grads)
    clip_norm = _check_clip_norm(clip_norm)
    norms = np.linalg.norm(grads, axis=1, keepdims=True)
    with np.errstate(divide="ignore"):
        factor = np.minimum(1.0, clip_norm / np.where(norms > 0, norms, 1.0))
    return grads * factor


def poisson_sample(n: int, sample_rate: float, rng=None) -> np.ndarray:
    """Poisson sampling: a boolean mask where each of ``n`` examples is True with probability ``sample_rate``.

    Parameters
    ----------
    n : int
        Number of examples (>= 0).
    sample_rate : float
        Probability each example is in the batch, in (0, 1].
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.

    Returns
    -------
    numpy.ndarray
        Boolean mask of length ``n``.

    Examples
    --------
    >>> mask = poisson_sample(10_000, 0.1, rng=0)
    >>> 900 < int(mask.sum()) < 1100
    True
    """
    n = check_size(n, "n", 0)
    sample_rate = _check_sample_rate(sample_rate)
    return as_generator(rng).random(n) < sample_rate


def private_gradient_sum(per_example_grads, clip_norm: float, noise_multiplier: float, sample_rate: float = 1.0,
                         rng=None, size: int | None = None) -> np.ndarray:
    """One DP-SGD release: Poisson-sample the rows, clip each, sum, add ``N(0, (sigma C)^2)`` per coordinate.

    With ``noise_multiplier = sigma > 0`` this is the Poisson-subsampled Gaussian mechanism
    (add/remove-one neighbours, sensitivity ``C``); :func:`dpsgd_epsilon` with ``steps=1``
    gives its epsilon. ``sigma = 0`` adds no noise and is **not private**.

    Parameters
    ----------
    per_example_grads : array_like, shape (n, p)
        Gradients of every example of the dataset (the sampling happens here).
    clip_norm : float
        Per-example bound ``C`` (> 0).
    noise_multiplier : float
        ``sigma`` (>= 0): the noise standard deviation is ``sigma * C``.
    sample_rate : float, default 1.0
        Chance ``q`` that each example joins the batch, in (0, 1]; 1 uses every example.
    rng : None, int or numpy.random.Generator, optional
        Source of the sampling and the noise.
    size : int, optional
        If given, return ``size`` independent releases, shape ``(size, p)`` (for audits).

    Returns
    -------
    numpy.ndarray
        Shape ``(p,)``, or ``(size, p)``.

    Examples
    --------
    >>> grads = np.array([[3.0, 4.0], [0.0, 0.5]])
    >>> private_gradient_sum(grads, 1.0, 0.0).tolist()  # no noise, all rows: the clipped sum
    [0.6000000000000001, 1.3]
    >>> private_gradient_sum(grads, 1.0, 1.0, 0.5, rng=0, size=3).shape
    (3, 2)
    """
    clipped = clip_per_example(per_example_grads, clip_norm)
    clip_norm = float(clip_norm)
    sigma = _check_noise_multiplier(noise_multiplier)
    q = _check_sample_rate(sample_rate)
    if sigma > 0 and not math.isfinite(clip_norm):
        raise ValueError("clip_norm is infinite, so sigma * clip_norm is too: set a finite clip_norm for DP-SGD.")
    generator = as_generator(rng)
    n, p = clipped.shape
    count = 1 if size is None else check_size(size, "size", 1, per_item=n + p)
    if q < 1:
        masks = generator.random((count, n)) < q
        sums = masks.astype(float) @ clipped
    else:
        sums = np.broadcast_to(clipped.sum(axis=0), (count, p)).copy()
    if sigma > 0:
        sums += generator.normal(0.0, sigma * clip_norm, size=(count, p))
    return sums[0] if size is None else sums


def _clipped_gradient_sum(architecture: Architecture, params: np.ndarray, X: np.ndarray, y: np.ndarray,
                          clip_norm: float) -> np.ndarray:
    """Sum of the clipped per-example gradients (inputs already validated).

    Equal to ``clip_per_example(per_example_gradients(...), clip_norm).sum(axis=0)``. For logistic
    regression it avoids building the (n, p) matrix: example i's gradient is the outer product of
    ``[x_i, 1]`` and ``d_i`` (probabilities minus one-hot label), whose norm is ``||[x_i, 1]|| ||d_i||``.
    """
    if len(X) == 0:
        return np.zeros(architecture.n_params)
    if architecture.hidden:
        grads = per_example_gradients(architecture, params, X, y)
        norms = np.linalg.norm(grads, axis=1)
        factor = np.minimum(1.0, clip_norm / np.where(norms > 0, norms, 1.0))
        return factor @ grads
    _, proba, _ = _forward(architecture, params, X)
    d_logits = proba
    d_logits[np.arange(len(y)), y] -= 1.0
    norms = np.sqrt((np.einsum("ij,ij->i", X, X) + 1.0) * np.einsum("ij,ij->i", d_logits, d_logits))
    scaled = d_logits * np.minimum(1.0, clip_norm / np.where(norms > 0, norms, 1.0))[:, None]
    return np.concatenate([(X.T @ scaled).ravel(), scaled.sum(axis=0)])


@dataclass
class TrainingRun:
    """What :func:`train_dpsgd` returns: the parameters and everything needed to account for the run.

    Attributes
    ----------
    architecture : Architecture
    params : numpy.ndarray
        Final parameters.
    noise_multiplier, clip_norm, sample_rate : float
    steps : int
    expected_batch_size : float
        The public normaliser ``B`` the noisy sums were divided by.
    private : bool
        False when ``noise_multiplier`` is 0 or ``clip_norm`` infinite (plain SGD).
    batch_sizes : list of int
        Realised Poisson batch sizes. They are **private** (they depend on who is in the training
        set and on how many rows it has) and not part of the release: kept only for tests of the
        sampler; never publish or print them for a real model.
    """

    architecture: Architecture
    params: np.ndarray
    noise_multiplier: float
    clip_norm: float
    sample_rate: float
    steps: int
    private: bool
    batch_sizes: list[int] = field(default_factory=list, repr=False)
    expected_batch_size: float = math.nan

    def epsilon(self, delta: float, accountant: str = "pld") -> float:
        """Epsilon of the run at ``delta`` under add/remove-one neighbours; ``inf`` if not private.

        Parameters
        ----------
        delta : float
            Target delta, in (0, 1).
        accountant : {"pld", "rdp"}, default "pld"
            ``dp_accounting``'s accountant (see :func:`dpsgd_epsilon`): PLD is tight, RDP an upper
            bound that is larger.

        Returns
        -------
        float
            The smallest epsilon the accountant certifies for ``steps`` Poisson-subsampled Gaussian
            steps at ``sample_rate`` and ``noise_multiplier``.

        Examples
        --------
        >>> run = TrainingRun(Architecture(1, 2), np.zeros(4), noise_multiplier=0.0, clip_norm=1.0,
        ...                   sample_rate=0.5, steps=1, private=False)
        >>> run.epsilon(1e-5)
        inf
        """
        if not self.private:
            return math.inf
        return dpsgd_epsilon(self.sample_rate, self.noise_multiplier, self.steps, delta, accountant=accountant)


def train_dpsgd(architecture: Architecture, X, y, *, clip_norm: float, noise_multiplier: float, sample_rate: float,
                expected_batch_size: float, steps: int, learning_rate: float, rng=None, params=None,
                progress: bool = False) -> TrainingRun:
    """Train with DP-SGD (teaching code): Poisson batches, per-example clipping, Gaussian noise.

    The update is ``params -= learning_rate * noisy_sum / expected_batch_size``. The divisor is a
    public constant fixed before seeing the data (typically ``sample_rate`` times the planned
    dataset size): neither the realised batch size nor ``len(X)`` is used, since under add/remove
    neighbours both are private. ``noise_multiplier=0`` with ``clip_norm=inf`` is plain
    mini-batch SGD, the non-private baseline.

    Parameters
    ----------
    architecture : Architecture
    X : array_like, shape (n, n_features)
        Features, scaled with public bounds. ``n = 0`` is allowed: the empty dataset is a neighbour
        of every one-example dataset under add/remove, and each of its steps updates on noise only.
    y : array_like of int, shape (n,)
        Labels ``0 .. n_classes - 1``.
    clip_norm : float
        Per-example gradient bound ``C`` (> 0, or ``inf`` for no clipping).
    noise_multiplier : float
        ``sigma`` (>= 0).
    sample_rate : float
        Poisson sampling rate ``q`` in (0, 1], a public constant.
    expected_batch_size : float
        The public normaliser ``B`` (> 0) the noisy sum is divided by: the batch size expected
        when the run was planned, e.g. 64. It must not be computed from ``X``.
    steps : int
        Number of steps (>= 1).
    learning_rate : float
        Step size (> 0).
    rng : None, int or numpy.random.Generator, optional
        Source of the batches, the noise and the starting weights.
    params : array_like, optional
        Starting parameters (default :func:`init_params`).
    progress : bool, default False
        Show a progress bar (:func:`mic_dp_helpers.progress.progress_bar`).

    Returns
    -------
    TrainingRun

    Examples
    --------
    >>> X = np.array([[0.0], [0.1], [0.9], [1.0]] * 25)
    >>> y = np.array([0, 0, 1, 1] * 25)
    >>> run = train_dpsgd(Architecture(1, 2), X, y, clip_norm=1.0, noise_multiplier=1.0,
    ...                   sample_rate=0.5, expected_batch_size=50, steps=50, learning_rate=2.0, rng=0)
    >>> accuracy(run.architecture, run.params, X, y)
    1.0
    """
    if not isinstance(architecture, Architecture):
        raise TypeError(f"architecture must be an Architecture, got {type(architecture).__name__}.")
    X, y = _check_data(architecture, X, y)
    clip_norm = _check_clip_norm(clip_norm)
    sigma = _check_noise_multiplier(noise_multiplier)
    q = _check_sample_rate(sample_rate)
    normaliser = check_positive_float(expected_batch_size, "expected_batch_size")
    steps = check_size(steps, "steps", 1)
    learning_rate = check_positive_float(learning_rate, "learning_rate")
    if sigma > 0 and not math.isfinite(clip_norm):
        raise ValueError("noise_multiplier > 0 needs a finite clip_norm (the noise is noise_multiplier * clip_norm).")
    generator = as_generator(rng)
    params = init_params(architecture, generator) if params is None else _as_floats(params, "params").copy()
    architecture.unpack(params)  # validates the shape
    batch_sizes = []
    label = "DP-SGD steps" if sigma > 0 else "SGD steps"
    for _ in progress_bar(range(steps), label, disable=not progress):
        mask = generator.random(len(X)) < q
        batch_sizes.append(int(mask.sum()))
        total = _clipped_gradient_sum(architecture, params, X[mask], y[mask], clip_norm)
        if sigma > 0:
            total = total + generator.normal(0.0, sigma * clip_norm, size=total.shape)
        params = params - learning_rate * total / normaliser
    private = sigma > 0 and math.isfinite(clip_norm)
    return TrainingRun(architecture, params, sigma, clip_norm, q, steps, private, batch_sizes, normaliser)
