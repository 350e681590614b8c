"""Synthetic, seeded datasets for the lessons. Nothing is downloaded: every table is generated here.

All people, names and numbers below are invented; any resemblance to real people is chance.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mic_dp_helpers._validation import as_generator, check_dataframe, check_int_at_least

__all__ = ["medical", "public_register", "DIAGNOSES", "ZIP_CODES"]

FIRST_NAMES = (
    "Ada Alan Amara Ana Ben Carla Chen Dara Eli Emma Farah Felix Grace Hugo Ines Ivan Jana Jon Kai Lea "
    "Leo Lina Luca Maya Mia Nils Noor Omar Pia Raj Rosa Sam Sara Tara Theo Uma Vera Wen Yara Zoe"
).split()
LAST_NAMES = (
    "Abbott Bauer Costa Diaz Evans Fischer Garcia Hansen Ito Jensen Kowalski Larsen Meyer Novak Okafor "
    "Perez Quinn Rossi Schmidt Tanaka Urban Vogel Weber Xu Young Zimmer"
).split()

#: Zip codes of two fictional cities with two areas each (the first three digits), six codes per area.
ZIP_CODES = tuple(f"{area}{suffix:02d}" for area in ("021", "024", "135", "139") for suffix in range(1, 7))

#: Diagnoses in the medical table, from common to rare.
DIAGNOSES = ("healthy", "hypertension", "diabetes", "asthma", "rare disease")


def medical(n: int = 1000, random_state: int | np.random.Generator | None = 0) -> pd.DataFrame:
    """Generate the course's synthetic hospital table (one row per patient).

    Columns: ``name``, ``age`` (20-79), ``sex``, ``zip_code`` (5-digit string), ``salary``
    (yearly, in dollars, rounded to 100), ``diagnosis`` (one of :data:`DIAGNOSES`) and
    ``rare_disease`` (bool). Diagnoses depend on age and area, as in real data, so some
    groups of similar people all share one diagnosis (the homogeneity attack of lesson 01).

    Parameters
    ----------
    n : int, default 1000
        Number of patients (at least 1).
    random_state : int, Generator or None, default 0
        Seed for reproducibility.

    Returns
    -------
    pandas.DataFrame

    Examples
    --------
    >>> df = medical(200, random_state=1)
    >>> df.shape
    (200, 7)
    >>> bool(df["age"].between(20, 79).all())
    True
    """
    n = check_int_at_least(n, "n", 1)
    rng = as_generator(random_state, "random_state")

    age = rng.integers(20, 80, n)
    sex = rng.choice(np.array(["F", "M"]), size=n)
    area_weights = np.array([0.4, 0.3, 0.2, 0.1])
    area = rng.choice(4, size=n, p=area_weights)
    zip_code = np.array(ZIP_CODES)[area * 6 + rng.integers(0, 6, n)]
    experience = np.clip(age - 22, 0, 40)
    salary = np.round(rng.lognormal(10.6 + 0.012 * experience + 0.15 * (area == 0), 0.35, n), -2).astype(int)

    # Diagnosis probabilities shift with age and area: the rare disease clusters in area 139,
    # where almost everybody over 60 also has hypertension.
    logits = np.column_stack(
        [
            np.full(n, 1.2),
            -1.8 + 0.06 * (age - 18) + np.where((area == 3) & (age >= 60), 6.0, 0.0),
            -2.0 + 0.04 * (age - 18),
            np.where(area == 1, 0.6, -1.2) - 0.01 * (age - 18),
            np.where(area == 3, np.where(age < 60, 0.0, -3.0), -6.0),
        ]
    )
    probabilities = np.exp(logits - logits.max(axis=1, keepdims=True))
    probabilities /= probabilities.sum(axis=1, keepdims=True)
    cumulative = probabilities.cumsum(axis=1)
    diagnosis_index = (rng.random(n)[:, None] > cumulative).sum(axis=1).clip(max=len(DIAGNOSES) - 1)
    diagnosis = np.array(DIAGNOSES)[diagnosis_index]

    names = np.char.add(
        np.char.add(np.array(FIRST_NAMES)[rng.integers(0, len(FIRST_NAMES), n)], " "),
        np.array(LAST_NAMES)[rng.integers(0, len(LAST_NAMES), n)],
    )
    return pd.DataFrame(
        {
            "name": names,
            "age": age,
            "sex": sex,
            "zip_code": zip_code,
            "salary": salary,
            "diagnosis": diagnosis,
            "rare_disease": diagnosis == "rare disease",
        }
    )


def public_register(
    patients: pd.DataFrame,
    coverage: float = 0.7,
    n_others: int = 300,
    random_state: int | np.random.Generator | None = 0,
) -> pd.DataFrame:
    """Generate a public register (like a voter list) that names people with their age, sex and zip code.

    It lists a share ``coverage`` of the patients plus ``n_others`` people who are not patients,
    shuffled, so joining it with a de-identified medical table re-identifies some patients.

    Examples
    --------
    >>> register = public_register(medical(100), coverage=0.5, n_others=10)
    >>> list(register.columns)
    ['name', 'age', 'sex', 'zip_code']
    >>> len(register)
    60
    """
    check_dataframe(patients, "patients", columns=["name", "age", "sex", "zip_code"])
    if not isinstance(coverage, (int, float)) or isinstance(coverage, bool) or not 0 <= coverage <= 1:
        raise ValueError(f"coverage must be a number between 0 and 1, got {coverage!r}.")
    n_others = check_int_at_least(n_others, "n_others", 0)
    rng = as_generator(random_state, "random_state")
    listed = patients.sample(frac=coverage, random_state=rng)[["name", "age", "sex", "zip_code"]]
    others = medical(max(n_others, 1), random_state=rng)[["name", "age", "sex", "zip_code"]].iloc[:n_others]
    register = pd.concat([listed, others], ignore_index=True)
    return register.sample(frac=1.0, random_state=rng).reset_index(drop=True)
