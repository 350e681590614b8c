"""Synthetic, seeded datasets for the lessons. Nothing is downloaded: every table is generated here.

All people, names and numbers below are invented; any resemblance to real people is chance.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mic_dp_helpers._validation import as_generator, check_dataframe, check_size

__all__ = [
    "medical", "public_register", "DIAGNOSES", "ZIP_CODES",
    "coffee_shop_revenue", "nonlinear_features", "COFFEE_SHOP_BOUNDS", "COFFEE_SHOP_TARGET", "NONLINEAR_FEATURES_BOUNDS",
    "purchases", "PURCHASE_CATEGORIES",
]

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

# Values built per generated row (7 columns, the 5 diagnosis logits, probabilities and their sums),
# for the size cap of :func:`~mic_dp_helpers._validation.check_size`.
_MEDICAL_VALUES_PER_ROW = 22


def medical(n: int = 1000, rng: int | np.random.Generator | None = 0) -> pd.DataFrame:
    """Generate the course's synthetic hospital table (one row per patient).

    Columns: ``name``, ``age`` (20-79), ``sex``, ``zip_code`` (5-digit string), ``salary``
    (yearly, in dollars, rounded to 100), ``diagnosis`` (one of :data:`DIAGNOSES`) and
    ``rare_disease`` (bool). Diagnoses depend on age and area, as in real data, so some
    groups of similar people all share one diagnosis (the homogeneity attack of lesson 01).

    Parameters
    ----------
    n : int, default 1000
        Number of patients (at least 1).
    rng : int, Generator or None, default 0
        Source of randomness: a seed for reproducibility, a Generator, or None for fresh randomness.

    Returns
    -------
    pandas.DataFrame

    Examples
    --------
    >>> df = medical(200, rng=1)
    >>> df.shape
    (200, 7)
    >>> bool(df["age"].between(20, 79).all())
    True
    """
    n = check_size(n, "n", 1, per_item=_MEDICAL_VALUES_PER_ROW)
    rng = as_generator(rng)

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
    rng: int | np.random.Generator | None = 0,
) -> pd.DataFrame:
    """Generate a public register (like a voter list) that names people with their age, sex and zip code.

    It lists a share ``coverage`` of the patients plus ``n_others`` people who are not patients,
    shuffled, so joining it with a de-identified medical table re-identifies some patients.

    Parameters
    ----------
    patients : pandas.DataFrame
        The medical table (from :func:`medical`), with ``name``, ``age``, ``sex`` and ``zip_code``.
    coverage : float, default 0.7
        Share of the patients the register lists, in [0, 1].
    n_others : int, default 300
        People in the register who are not patients (>= 0).
    rng : int, Generator or None, default 0
        Source of randomness: a seed for reproducibility, a Generator, or None for fresh randomness.

    Returns
    -------
    pandas.DataFrame
        Columns ``name``, ``age``, ``sex``, ``zip_code``, rows in random order.

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
    n_others = check_size(n_others, "n_others", 0, per_item=_MEDICAL_VALUES_PER_ROW)
    rng = as_generator(rng)
    listed = patients.sample(frac=coverage, random_state=rng)[["name", "age", "sex", "zip_code"]]
    others = medical(max(n_others, 1), rng=rng)[["name", "age", "sex", "zip_code"]].iloc[:n_others]
    register = pd.concat([listed, others], ignore_index=True)
    return register.sample(frac=1.0, random_state=rng).reset_index(drop=True)


# ------------------------------------------------------------------ lesson 05: coffee shop
#: Bounds for the coffee-shop columns, declared from domain knowledge *before* looking at any
#: data (a shop serves at most 500 customers a day, is open at most 24 hours, ...). Lesson 05
#: clips every value to these bounds; the data's own min and max are never used.
COFFEE_SHOP_BOUNDS = {
    "Number_of_Customers_Per_Day": (0.0, 500.0),
    "Average_Order_Value": (0.0, 12.0),
    "Operating_Hours_Per_Day": (0.0, 24.0),
    "Number_of_Employees": (0.0, 20.0),
    "Marketing_Spend_Per_Day": (0.0, 600.0),
    "Location_Foot_Traffic": (0.0, 1000.0),
    "Daily_Revenue": (0.0, 6000.0),
}

#: The coffee-shop target column.
COFFEE_SHOP_TARGET = "Daily_Revenue"


def coffee_shop_revenue(n: int = 2000, rng: int | np.random.Generator | None = 0) -> pd.DataFrame:
    """Generate a **synthetic** table of coffee-shop days with their revenue (lesson 05).

    The schema copies the public "coffee shop daily revenue" table that the MIC-DP paper
    uses, but every number is generated here: no real shop is described. Columns, one row
    per shop-day:

    ============================== ======================= =========================
    column                         values                  drives the revenue?
    ============================== ======================= =========================
    Number_of_Customers_Per_Day    integers 50-499         strongly
    Average_Order_Value            2.50-10.00 (dollars)    strongly
    Operating_Hours_Per_Day        integers 6-17           no
    Number_of_Employees            integers 2-14           no
    Marketing_Spend_Per_Day        10.00-500.00 (dollars)  weakly
    Location_Foot_Traffic          integers 50-999         no
    Daily_Revenue (target)         dollars, >= 0           --
    ============================== ======================= =========================

    ``Daily_Revenue = customers * order value + 1.8 * marketing + noise`` with Gaussian
    noise of standard deviation 200 dollars, clipped at 0 and rounded to cents. So the
    revenue depends mostly on customers and order value (|Pearson| about 0.7 and 0.6),
    weakly on marketing (about 0.2) and not on the other three columns.
    Public bounds for every column are in :data:`COFFEE_SHOP_BOUNDS`.

    Parameters
    ----------
    n : int, default 2000
        Number of rows (shop-days), at least 1.
    rng : int, Generator or None, default 0
        Source of randomness: a seed for reproducibility, a Generator, or None for fresh randomness.

    Returns
    -------
    pandas.DataFrame
        ``n`` rows, the seven columns above.

    Examples
    --------
    >>> df = coffee_shop_revenue(500, rng=1)
    >>> df.shape
    (500, 7)
    >>> bool(df["Number_of_Customers_Per_Day"].between(50, 499).all())
    True
    """
    n = check_size(n, "n", 1, per_item=7)
    rng = as_generator(rng)
    customers = rng.integers(50, 500, n)
    order_value = np.round(rng.uniform(2.5, 10.0, n), 2)
    hours = rng.integers(6, 18, n)
    employees = rng.integers(2, 15, n)
    marketing = np.round(rng.uniform(10.0, 500.0, n), 2)
    foot_traffic = rng.integers(50, 1000, n)
    revenue = customers * order_value + 1.8 * marketing + rng.normal(0.0, 200.0, n)
    return pd.DataFrame(
        {
            "Number_of_Customers_Per_Day": customers,
            "Average_Order_Value": order_value,
            "Operating_Hours_Per_Day": hours,
            "Number_of_Employees": employees,
            "Marketing_Spend_Per_Day": marketing,
            "Location_Foot_Traffic": foot_traffic,
            "Daily_Revenue": np.round(np.clip(revenue, 0.0, None), 2),
        }
    )


#: Declared bounds of every column of :func:`nonlinear_features`.
NONLINEAR_FEATURES_BOUNDS = {"linear": (-1.0, 1.0), "u_shaped": (-1.0, 1.0), "irrelevant": (-1.0, 1.0),
                             "target": (-1.0, 3.0)}


def nonlinear_features(n: int = 1000, rng: int | np.random.Generator | None = 0) -> pd.DataFrame:
    """Generate a small **synthetic** table where one feature drives the target non-linearly (lesson 05).

    Three features, each uniform on [-1, 1]: ``linear`` (the target rises with it),
    ``u_shaped`` (the target depends on its square: large at both ends, small in the middle)
    and ``irrelevant`` (independent of everything). The target is
    ``0.5 * linear + 2 * u_shaped**2 + noise`` with Gaussian noise of standard deviation 0.2.
    The Pearson correlation of ``u_shaped`` with the target is about 0, because the rise on
    one side cancels the fall on the other; MIC sees the dependence.

    Parameters
    ----------
    n : int, default 1000
        Number of rows, at least 1.
    rng : int, Generator or None, default 0
        Source of randomness: a seed for reproducibility, a Generator, or None for fresh randomness.

    Returns
    -------
    pandas.DataFrame
        Columns ``linear``, ``u_shaped``, ``irrelevant``, ``target``.

    Examples
    --------
    >>> df = nonlinear_features(200, rng=3)
    >>> list(df.columns)
    ['linear', 'u_shaped', 'irrelevant', 'target']
    """
    n = check_size(n, "n", 1, per_item=4)
    rng = as_generator(rng)
    linear, u_shaped, irrelevant = rng.uniform(-1.0, 1.0, (3, n))
    target = 0.5 * linear + 2.0 * u_shaped**2 + rng.normal(0.0, 0.2, n)
    return pd.DataFrame({"linear": linear, "u_shaped": u_shaped, "irrelevant": irrelevant, "target": target})


# ----------------------------------------------------------------------------------------------
# Lesson 04: a purchase log where one customer can own many rows.

#: Product categories of :func:`purchases`, from most to least frequent.
PURCHASE_CATEGORIES = ("groceries", "household", "clothing", "books", "electronics")

# Values built per customer: about 7 rows (up to 200 for a business) of 4 columns and their sort keys.
_PURCHASE_VALUES_PER_CUSTOMER = 64


def purchases(n_customers: int = 3000, rng: int | np.random.Generator | None = 0) -> pd.DataFrame:
    """Generate a year of loyalty-card purchases of a fictional shop (one row per purchase).

    Columns: ``customer_id`` (string such as ``"C00042"``), ``date`` (a day of 2024),
    ``category`` (one of :data:`PURCHASE_CATEGORIES`) and ``amount`` (euros, rounded to cents,
    at least 0.50). Customers make very different numbers of purchases: most make a handful,
    a long tail makes dozens, and about 0.5% are small businesses with 80 or more purchases
    each. So the privacy unit (a customer) owns a varying number of rows, and a few
    customers own many: the setting of contribution bounding. Frequent shoppers buy smaller
    baskets (the typical amount falls as ``visits ** -0.15``), so keeping only some of each
    customer's rows shifts the mean amount. Rows are sorted by date.

    Parameters
    ----------
    n_customers : int, default 3000
        Number of customers (at least 1). The table has about 7 rows per customer.
    rng : int, Generator or None, default 0
        Source of randomness: a seed for reproducibility, a Generator, or None for fresh randomness.

    Returns
    -------
    pandas.DataFrame

    Examples
    --------
    >>> log = purchases(200, rng=1)
    >>> list(log.columns)
    ['customer_id', 'date', 'category', 'amount']
    >>> bool((log["amount"] >= 0.5).all()) and log["customer_id"].nunique() == 200
    True
    """
    n_customers = check_size(n_customers, "n_customers", 1, per_item=_PURCHASE_VALUES_PER_CUSTOMER)
    rng = as_generator(rng)

    business = rng.random(n_customers) < 0.005
    # Purchases per customer: 1 + a negative binomial with mean 5 and a long tail; businesses many more.
    visits = 1 + rng.negative_binomial(0.7, 0.7 / (0.7 + 5.0), n_customers)
    visits = np.where(business, 80 + rng.poisson(120, n_customers), visits)
    customer = np.repeat(np.arange(n_customers), visits)
    n_rows = customer.size

    # Frequent shoppers buy smaller baskets: the typical amount falls with the number of visits.
    spending_level = rng.lognormal(0.0, 0.35, n_customers) * visits**-0.15
    category = rng.choice(len(PURCHASE_CATEGORIES), size=n_rows, p=[0.5, 0.2, 0.15, 0.1, 0.05])
    log_typical_amount = np.array([3.0, 3.1, 3.7, 2.9, 4.6])[category]
    amount = np.round(spending_level[customer] * rng.lognormal(log_typical_amount, 0.6), 2).clip(0.5, None)
    day = rng.integers(0, 366, n_rows)  # 2024 is a leap year

    order = np.lexsort((rng.random(n_rows), day))  # by date, ties in random order
    width = max(len(str(n_customers)), 5)
    ids = np.array([f"C{number:0{width}d}" for number in range(1, n_customers + 1)], dtype=object)
    return pd.DataFrame(
        {
            "customer_id": ids[customer[order]],
            "date": pd.Timestamp("2024-01-01") + pd.to_timedelta(day[order], unit="D"),
            "category": np.array(PURCHASE_CATEGORIES, dtype=object)[category[order]],
            "amount": amount[order],
        }
    )
