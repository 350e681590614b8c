"""The "adapt" step of 3A: kernel inducing points (Nguyen, Chen & Lee, ICLR 2021), optional (lesson 06).

:func:`kip_adapt` moves the records of a :class:`~mic_dp_helpers.synthetic.group_means.SyntheticRelease`
so that kernel ridge regression trained on them fits a target set. On public target data it is
post-processing; on the private data no noise covers it and the result is marked not private.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from scipy.optimize import minimize

from mic_dp_helpers._threads import one_thread
from mic_dp_helpers._validation import check_labels, check_positive_float, check_size
from mic_dp_helpers.synthetic.group_means import SyntheticRelease, scale_to_unit

__all__ = ["kip_adapt"]

_MAX_ITERATIONS = 100_000  # L-BFGS-B iterations; each solves an n x n system


def _rbf(A: np.ndarray, B: np.ndarray, gamma: float) -> np.ndarray:
    sq = (A * A).sum(1)[:, None] + (B * B).sum(1)[None, :] - 2.0 * A @ B.T
    return np.exp(-gamma * np.maximum(sq, 0.0))


def _kip_loss_and_grad(flat: np.ndarray, shape: tuple[int, int], Y_s: np.ndarray, X_t: np.ndarray, Y_t: np.ndarray,
                       gamma: float, reg: float) -> tuple[float, np.ndarray]:
    """Kernel ridge regression loss of support (X_s, Y_s) on target (X_t, Y_t) and its gradient in X_s."""
    X_s = flat.reshape(shape)
    K_ss, K_ts = _rbf(X_s, X_s, gamma), _rbf(X_t, X_s, gamma)
    A = K_ss + reg * np.eye(len(X_s))
    alpha = np.linalg.solve(A, Y_s)
    residual = K_ts @ alpha - Y_t
    loss = 0.5 * float((residual**2).sum()) / len(X_t)
    R = residual / len(X_t)
    G_ts = R @ alpha.T  # dL/dK_ts
    B = np.linalg.solve(A, K_ts.T @ R)
    G_ss = -B @ alpha.T  # dL/dK_ss
    W = G_ts * K_ts
    grad = -2.0 * gamma * (X_s * W.sum(0)[:, None] - W.T @ X_t)
    S = (G_ss + G_ss.T) * K_ss
    grad += -2.0 * gamma * (X_s * S.sum(1)[:, None] - S @ X_s)
    return loss, grad.ravel()


def kip_adapt(release: SyntheticRelease, X_target, y_target, *, target_is_public: bool, gamma: float | None = None,
              reg: float = 1e-2, max_iter: int = 30) -> SyntheticRelease:
    """The "adapt" step: move the synthetic records so that kernel ridge regression on them fits a target set.

    Kernel inducing points (Nguyen, Chen & Lee, ICLR 2021) with the closed-form RBF kernel
    ``exp(-gamma ||a - b||^2)`` on ``[0, 1]`` features: minimize the squared error of kernel
    ridge regression trained on the release (labels one-hot, fixed) and evaluated on the target,
    over the release's features (L-BFGS-B within ``[0, 1]``, analytic gradient).

    Privacy: if the target data are public, adapting is post-processing of a DP release and
    keeps its guarantee. If they are the private data, no noise calibration covers this step
    (the paper runs it on private data): the result is marked ``differentially_private=False``.

    Parameters
    ----------
    release : SyntheticRelease
    X_target : array_like, shape (m, D)
        Target records in original units (scaled and clipped with the release's bounds).
    y_target : array_like, shape (m,)
    target_is_public : bool
        Whether the target data are public (keyword only, on purpose).
    gamma : float, optional
        RBF width; default ``1 / (D * variance of the scaled target)``.
    reg : float, default 0.01
        Ridge regularization.
    max_iter : int, default 30
        L-BFGS-B iterations.

    Returns
    -------
    SyntheticRelease
        A new release with adapted features and updated metadata.
    """
    if not isinstance(release, SyntheticRelease):
        raise TypeError(f"release must be a SyntheticRelease, got {type(release).__name__}.")
    if not isinstance(target_is_public, bool):
        raise TypeError("target_is_public must be True or False: say whether the target data are public.")
    X_t = scale_to_unit(X_target, release.lower, release.upper)
    y_t = check_labels(y_target, len(X_t), "y_target", "X_target")
    classes = np.unique(np.concatenate([release.y, y_t]))
    one_hot = lambda labels: (labels[:, None] == classes[None, :]).astype(float) - 1.0 / len(classes)  # noqa: E731
    Y_s, Y_t = one_hot(release.y), one_hot(y_t)
    dim = X_t.shape[1]
    gamma = 1.0 / (dim * max(float(X_t.var()), 1e-12)) if gamma is None else check_positive_float(gamma, "gamma")
    reg = check_positive_float(reg, "reg")
    max_iter = check_size(max_iter, "max_iter", 1, maximum=_MAX_ITERATIONS)
    shape = release.X_unit.shape
    with one_thread():
        result = minimize(_kip_loss_and_grad, release.X_unit.ravel(), args=(shape, Y_s, X_t, Y_t, gamma, reg),
                          jac=True, method="L-BFGS-B", bounds=[(0.0, 1.0)] * int(np.prod(shape)),
                          options={"maxiter": max_iter})
    still_dp = bool(release.metadata.get("differentially_private")) and target_is_public
    note = ("adapted with kernel inducing points on public target data: post-processing, the guarantee is unchanged. "
            if target_is_public else
            "adapted with kernel inducing points on PRIVATE target data: no noise covers this step, NOT differentially "
            "private. ")
    metadata = dict(release.metadata, differentially_private=still_dp, adapted=True, kip_loss=float(result.fun),
                    privacy_note=note + release.metadata.get("privacy_note", ""))
    return replace(release, X_unit=result.x.reshape(shape), metadata=metadata)
