"""Lesson 09's helpers: contribution bounding, PipelineDP on the local backend and on Spark, the ledger."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from mic_dp_helpers.accounting.ledger import BudgetExceededError, PrivacyAccountant
from mic_dp_helpers.scale.pipeline import (bound_contributions, bounding_tradeoff, count_noise_scale, private_statistics,
                                     public_contribution_bounds, purchase_log, rows_for_pipeline,
                                     select_private_partitions, sum_noise_scale)
from mic_dp_helpers.attacks.audit import audit_epsilon

pipeline_dp = pytest.importorskip("pipeline_dp")


def _random_log(rng: np.random.Generator, n_people: int = 40) -> pd.DataFrame:
    rows_per_person = rng.integers(1, 30, n_people)
    person = np.repeat([f"p{i}" for i in range(n_people)], rows_per_person)
    return pd.DataFrame({"customer_id": person, "day": rng.integers(1, 12, person.size),
                         "amount": rng.uniform(0, 50, person.size)}).sample(frac=1.0, random_state=1)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("l0, linf", [(1, 1), (2, 3), (5, 1), (50, 50)])
def test_bounding_respects_both_bounds_and_keeps_real_rows(seed, l0, linf):
    rng = np.random.default_rng(seed)
    log = _random_log(rng)
    kept = bound_contributions(log, l0, linf, rng=rng)
    assert kept.index.isin(log.index).all() and kept.index.is_unique
    pd.testing.assert_frame_equal(kept, log.loc[kept.index])
    assert kept.groupby("customer_id")["day"].nunique().max() <= l0
    assert kept.groupby(["customer_id", "day"]).size().max() <= linf
    # Nobody loses more than the bounds require: min(days, L0) days each, min(rows, L∞) rows per kept day.
    days_kept = kept.groupby("customer_id")["day"].nunique()
    days_total = log.groupby("customer_id")["day"].nunique()
    assert (days_kept == days_total.clip(upper=l0)).all()
    cells = log.groupby(["customer_id", "day"]).size()
    kept_cells = kept.groupby(["customer_id", "day"]).size()
    assert (kept_cells == cells.loc[kept_cells.index].clip(upper=linf)).all()


def test_bounding_choice_is_uniform_not_the_first_rows():
    log = pd.DataFrame({"customer_id": ["a"] * 10, "day": np.arange(10)})
    rng = np.random.default_rng(0)
    counts = np.zeros(10)
    for _ in range(600):
        counts[bound_contributions(log, 3, 1, rng=rng)["day"].to_numpy()] += 1
    # Each day is kept with probability 3/10: 180 of 600, binomial sd 11.2; 5 sd either side (false rejection
    # below 10 * 6e-7). Keeping the first or last three days gives 600 and 0 (54 sd and 16 sd away).
    assert np.all(np.abs(counts - 180) < 5 * np.sqrt(600 * 0.3 * 0.7))


def test_bounding_validates_its_arguments():
    log = _random_log(np.random.default_rng(0))
    with pytest.raises(ValueError, match="max_partitions"):
        bound_contributions(log, 0, 1)
    with pytest.raises(TypeError, match="max_per_partition"):
        bound_contributions(log, 1, 1.5)
    with pytest.raises(KeyError, match="day"):
        bound_contributions(log.drop(columns="day"), 1, 1)
    assert bound_contributions(log.iloc[:0], 1, 1).empty


def _bounded_count_release(l0: int, linf: int, epsilon: float, *, bound_partitions: bool = True):
    """The first partition's count after bounding, plus Laplace noise for sensitivity l0 * linf (vectorised)."""

    def mechanism(dataset, size, rng):
        # Each sample bounds the data afresh (the choice of kept rows is part of the mechanism).
        counts = np.empty(size)
        for start in range(0, size, 2000):
            stop = min(size, start + 2000)
            kept = [bound_contributions(dataset, l0 if bound_partitions else 10**6, linf, rng=rng)
                    for _ in range(min(20, stop - start))]
            first = np.array([(k["day"] == 0).sum() for k in kept])
            counts[start:stop] = rng.choice(first, stop - start)
        return counts + rng.laplace(0.0, l0 * linf / epsilon, size)

    return mechanism


def test_bounded_count_passes_the_audit_and_unbounded_partitions_fail_it():
    # One person with one row on each of 8 days is added: the neighbour of the empty-but-for-others log.
    others = pd.DataFrame({"customer_id": [f"o{i}" for i in range(5)], "day": [0, 1, 2, 3, 4]})
    heavy = pd.DataFrame({"customer_id": ["h"] * 8, "day": np.arange(8)})
    with_heavy = pd.concat([others, heavy], ignore_index=True)
    rng = np.random.default_rng(2)
    correct = audit_epsilon(_bounded_count_release(1, 1, 1.0), others, with_heavy, n_samples=40_000, rng=rng)
    assert not correct.refutes(1.0), correct
    # Rows are bounded (1 per day) but partitions are not, while the noise assumes 1 partition: the
    # released coordinate is always affected, and the sum over 8 days would move by 8. Audit a vector.
    def broken(dataset, size, rng):
        counts = np.array([(dataset["day"] == d).sum() for d in range(8)], dtype=float)
        return counts + rng.laplace(0.0, 1.0, (size, 8))

    caught = audit_epsilon(broken, others, with_heavy, n_samples=40_000, rng=rng)
    assert caught.refutes(1.0), caught


def test_noise_scales_and_their_validation():
    assert count_noise_scale(3, 2, 0.5) == 12.0
    assert sum_noise_scale(2, 1, -30.0, 10.0, 0.25) == 240.0
    with pytest.raises(ValueError, match="epsilon"):
        count_noise_scale(1, 1, 0.0)
    with pytest.raises(ValueError, match="min_value"):
        sum_noise_scale(1, 1, 5.0, 1.0, 1.0)


def test_public_bounds_cover_the_requested_share():
    sample = purchase_log(3_000, rng=5)
    for quantile in (0.5, 0.9, 1.0):
        l0, linf = public_contribution_bounds(sample, quantile)
        assert (sample.groupby("customer_id")["day"].nunique() <= l0).mean() >= quantile
        assert (sample.groupby("customer_id")["day"].nunique() <= l0 - 1).mean() < quantile
        assert (sample.groupby(["customer_id", "day"]).size() <= linf).mean() >= quantile
    with pytest.raises(ValueError, match="quantile"):
        public_contribution_bounds(sample, 1.5)


def test_tradeoff_table_has_bias_falling_and_noise_rising():
    table = bounding_tradeoff(purchase_log(5_000, rng=1), [1, 4, 16], [1], epsilon=1.0, rng=0)
    assert table["bias"].is_monotonic_increasing and (table["bias"] <= 0).all()
    assert table["noise_sd"].is_monotonic_increasing


def test_pipeline_noise_is_what_pipeline_dp_says_and_charged_to_the_ledger():
    rows = rows_for_pipeline(purchase_log(4_000, rng=3))
    ledger = PrivacyAccountant(1.5)
    table = private_statistics(rows, pipeline_dp.LocalBackend(), epsilon=1.0, max_partitions=3, max_per_partition=2,
                               min_value=0.0, max_value=100.0, public_partitions=range(1, 367), ledger=ledger)
    assert list(table.index) == list(range(1, 367))
    assert np.allclose(table["count_sd"], math.sqrt(2) * count_noise_scale(3, 2, 0.5))
    assert np.allclose(table["sum_sd"], math.sqrt(2) * sum_noise_scale(3, 2, 0.0, 100.0, 0.5))
    assert table["mean"].between(0.0, 100.0).all()
    assert ledger.spent_epsilon == 1.0

    def untouchable():
        raise AssertionError("a refused query read the data")
        yield

    with pytest.raises(BudgetExceededError):
        private_statistics(untouchable(), pipeline_dp.LocalBackend(), epsilon=1.0, max_partitions=1,
                           max_per_partition=1, min_value=0.0, max_value=1.0, public_partitions=[1], ledger=ledger)
    assert ledger.spent_epsilon == 1.0
    with pytest.raises(ValueError, match="delta"):
        private_statistics(rows, pipeline_dp.LocalBackend(), epsilon=1.0, max_partitions=1, max_per_partition=1,
                           min_value=0.0, max_value=1.0)


def test_partition_selection_drops_rare_keys_and_keeps_common_ones():
    rng = np.random.default_rng(4)
    rows = [(f"u{i}", "common", 1.0) for i in range(2000)] + [(f"r{i}", f"rare{i}", 1.0) for i in range(200)]
    kept = select_private_partitions([rows[i] for i in rng.permutation(len(rows))], pipeline_dp.LocalBackend(),
                                     epsilon=1.0, delta=1e-6, max_partitions=1)
    # A key one person has is kept with probability delta = 1e-6 (truncated geometric thresholding,
    # Desfontaines et al. 2022; measured here: 2 of 666,200), so one of 200 such keys is kept in about 1 run
    # of 5,000 and two in about 1 of 5e7; a selection without a threshold keeps all 200.
    assert "common" in kept
    assert len(kept) <= 2, f"{len(kept) - 1} keys with one person each were released"


def _small_rows():
    return [("a", 1, 5.0), ("b", 1, 3.0), ("c", 2, 4.0)]


_STATS = dict(epsilon=1.0, max_partitions=1, max_per_partition=1, min_value=0.0, max_value=10.0,
              public_partitions=[1, 2])


@pytest.mark.parametrize("change, error, match", [
    (dict(backend=None), TypeError, "backend must be a PipelineDP backend"),
    (dict(backend="local"), TypeError, "backend must be a PipelineDP backend"),
    (dict(data=3.0), TypeError, "data must be a list"),
    (dict(data="rows"), TypeError, "data must be a list"),
    (dict(data=pd.DataFrame({"a": [1]})), TypeError, "data must be a list"),
    (dict(public_partitions=5), TypeError, "public_partitions must be None or a list"),
    (dict(public_partitions=[[1], [2]]), TypeError, "public_partitions must list partition keys"),
    (dict(min_value=0.0, max_value=0.0), ValueError, "min_value must be < max_value"),
    (dict(min_value="0"), TypeError, "min_value must be a finite number"),
    (dict(max_partitions=2**40), ValueError, "max_partitions must be at most"),
])
def test_private_statistics_bad_input_spends_nothing(change, error, match):
    ledger = PrivacyAccountant(5.0, 1e-3)
    arguments = dict(data=_small_rows(), backend=pipeline_dp.LocalBackend(), **_STATS, ledger=ledger)
    arguments.update(change)
    with pytest.raises(error, match=match):
        private_statistics(arguments.pop("data"), arguments.pop("backend"), **arguments)
    assert ledger.spent_epsilon == 0.0 and ledger.spent_delta == 0.0


@pytest.mark.parametrize("change, error, match", [
    (dict(backend=object()), TypeError, "backend must be a PipelineDP backend"),
    (dict(data=7), TypeError, "data must be a list"),
    (dict(max_partitions=2**31), ValueError, "max_partitions must be at most"),
])
def test_select_private_partitions_bad_input_spends_nothing(change, error, match):
    ledger = PrivacyAccountant(5.0, 1e-3)
    arguments = dict(data=_small_rows(), backend=pipeline_dp.LocalBackend(), epsilon=1.0, delta=1e-6,
                     max_partitions=1, ledger=ledger)
    arguments.update(change)
    with pytest.raises(error, match=match):
        select_private_partitions(arguments.pop("data"), arguments.pop("backend"), **arguments)
    assert ledger.spent_epsilon == 0.0 and ledger.spent_delta == 0.0


@pytest.mark.parametrize("change, error, match", [
    (dict(max_partitions=[]), ValueError, "max_partitions is empty"),
    (dict(max_per_partition=np.array([])), ValueError, "max_per_partition is empty"),
    (dict(max_partitions=3), TypeError, "max_partitions must be a list of candidate bounds"),
])
def test_bounding_tradeoff_rejects_empty_or_scalar_candidates(change, error, match):
    arguments = dict(max_partitions=[1, 2], max_per_partition=[1], epsilon=1.0)
    arguments.update(change)
    with pytest.raises(error, match=match):
        bounding_tradeoff(purchase_log(500, rng=0), **arguments)


@pytest.mark.parametrize("huge", [10**12, 10**9])
def test_purchase_log_refuses_a_huge_size_before_allocating(huge):
    with pytest.raises(ValueError, match="n_rows=.* is too large"):
        purchase_log(huge)


_SMALL_LOG = purchase_log(200, rng=0)


@pytest.mark.parametrize("call, name", [
    (lambda log, v: rows_for_pipeline(log, partition=v), "partition"),
    (lambda log, v: rows_for_pipeline(log, value=v), "value"),
    (lambda log, v: bound_contributions(log, 1, 1, person=v, rng=0), "person"),
    (lambda log, v: bound_contributions(log, 1, 1, partition=v, rng=0), "partition"),
    (lambda log, v: bound_contributions(log.iloc[:0], 1, 1, partition=v, rng=0), "partition"),
    (lambda log, v: bounding_tradeoff(log, [1], [1], 1.0, person=v), "person"),
    (lambda log, v: public_contribution_bounds(log, partition=v), "partition"),
])
def test_a_column_argument_that_is_not_one_name_is_a_clear_error(call, name):
    for bad in (["day"], pd.Series(["day"]), np.array(["day"]), {"day"}):
        with pytest.raises(TypeError, match=f"{name} must be one column name"):
            call(_SMALL_LOG, bad)


@pytest.mark.parametrize("change, error, match", [
    (lambda log: log, TypeError, "the value column 'category' must be numeric"),
    (lambda log: log.assign(category=np.nan), ValueError, "log has missing values"),
])
def test_rows_for_pipeline_needs_a_numeric_value_column_without_gaps(change, error, match):
    with pytest.raises(error, match=match):
        rows_for_pipeline(change(_SMALL_LOG), value="category")


def test_a_ledger_of_the_wrong_type_is_refused_before_anything_runs():
    import pipeline_dp

    rows = rows_for_pipeline(_SMALL_LOG)
    for run in (lambda: private_statistics(rows, pipeline_dp.LocalBackend(), epsilon=1.0, delta=1e-6, max_partitions=1,
                                           max_per_partition=1, min_value=0.0, max_value=10.0, ledger="ledger"),
                lambda: select_private_partitions(rows, pipeline_dp.LocalBackend(), epsilon=1.0, delta=1e-6,
                                                  max_partitions=1, ledger={"spent": 0})):
        with pytest.raises(TypeError, match="ledger must be a PrivacyAccountant or None"):
            run()


@pytest.mark.parametrize("rows", [[("a",)], [1, 2], [("a", 1, "x")]])
def test_malformed_rows_are_explained_and_stay_charged(rows):
    import pipeline_dp

    ledger = PrivacyAccountant(10.0, 1e-3)
    with pytest.raises(ValueError, match=r"PipelineDP could not read the data .* budget stays spent"):
        private_statistics(rows, pipeline_dp.LocalBackend(), epsilon=1.0, max_partitions=1, max_per_partition=1,
                           min_value=0.0, max_value=10.0, public_partitions=[1], ledger=ledger)
    assert ledger.spent_epsilon == 1.0  # the failure depends on the (private) rows: it is paid for


@pytest.mark.parametrize("bad", [np.array(2.0), 3, [[1, 2]]])
def test_bounding_tradeoff_needs_lists_of_candidates(bad):
    with pytest.raises(TypeError, match="max_partitions must be a list of candidate bounds"):
        bounding_tradeoff(_SMALL_LOG, bad, [1], 1.0)


@pytest.mark.parametrize("call", [
    lambda log: bound_contributions(log, 1, 1, rng=0),
    lambda log: bounding_tradeoff(log, [1], [1], 1.0),
    lambda log: public_contribution_bounds(log),
])
def test_rows_without_a_partition_are_not_silently_dropped(call):
    log = _SMALL_LOG.assign(day=np.where(np.arange(len(_SMALL_LOG)) % 5 == 0, np.nan, _SMALL_LOG["day"]))
    with pytest.raises(ValueError, match=r"log has missing values in \['day'\]|public_sample has missing values"):
        call(log)


# ------------------------------------------------------------------ equivalence (power: tests/scale_equivalence.py)
import scale_equivalence as equivalence  # noqa: E402


def _local(rows, **settings):
    return private_statistics(rows, pipeline_dp.LocalBackend(), **settings)


def test_local_bounding_is_exact_at_a_huge_epsilon():
    equivalence.check_bounding_exact(_local)


@pytest.mark.parametrize("order", ["ascending", "descending"])
def test_local_bounding_does_not_depend_on_position(order):
    equivalence.check_days_uniform(_local, order)
    equivalence.check_rows_uniform(_local, order)


def test_local_noise_has_pipeline_dps_sd_and_laplace_shape():
    equivalence.check_noise(_local)


@pytest.mark.parametrize("public, shares", [(True, {"Count": 1 / 2, "Sum": 1 / 2}),
                                            (False, {"Count": 1 / 3, "Sum": 1 / 3, "PartitionSelection": 1 / 3})])
def test_budget_split_is_read_from_pipeline_dp(public, shares):
    from mic_dp_helpers.scale.budget import budget_split

    table = budget_split(3.0, 1e-6, public_partitions=public).set_index("mechanism")
    assert table["epsilon"].to_dict() == pytest.approx({k: 3.0 * v for k, v in shares.items()})
    expected_delta = {k: (1e-6 if k == "PartitionSelection" else 0.0) for k in shares}
    assert table["delta"].to_dict() == pytest.approx(expected_delta)
    with pytest.raises(ValueError, match="delta"):
        budget_split(1.0, 0.0)


# ------------------------------------------------------------------ the job: files in, one release out, one ledger
def test_the_job_releases_once_and_charges_the_datas_ledger(tmp_path, monkeypatch):
    from mic_dp_helpers.scale import job
    from mic_dp_helpers.scale.job import load_ledger, read_release, run_job, write_purchase_files

    data = write_purchase_files(tmp_path / "purchases", 3_000, n_files=3, rng=4)
    assert len(list(data.glob("part-*.csv"))) == 3
    settings = dict(epsilon=1.0, max_partitions=8, max_per_partition=1, total_epsilon=2.5, total_delta=1e-6)
    released = run_job(data, tmp_path / "daily.csv", **settings)
    first, second = read_release(tmp_path / "daily.csv"), read_release(tmp_path / "daily.csv")
    pd.testing.assert_frame_equal(first, second)  # reading the file again is free and gives the same numbers
    pd.testing.assert_frame_equal(first, released)
    assert list(first.index) == list(range(1, 367))
    with pytest.raises(FileExistsError, match="written once"):
        run_job(data, tmp_path / "daily.csv", **settings)
    assert load_ledger(data / "ledger.json", 2.5, 1e-6).spent_epsilon == 1.0  # the refusal cost nothing
    run_job(data, tmp_path / "daily-2.csv", **settings)  # a second release is charged to the same ledger
    def untouchable(folder):
        raise AssertionError("a refused job read the data")

    monkeypatch.setattr(job, "read_purchase_rows", untouchable)
    with pytest.raises(BudgetExceededError):
        run_job(data, tmp_path / "daily-3.csv", **settings)
    ledger = load_ledger(data / "ledger.json", 2.5, 1e-6)
    assert ledger.spent_epsilon == 2.0 and len(ledger.ledger) == 2
    assert not (tmp_path / "daily-3.csv").exists()
    with pytest.raises(ValueError, match="total budget"):
        load_ledger(data / "ledger.json", 10.0, 1e-6)


def test_the_job_runs_from_the_command_line(tmp_path):
    from mic_dp_helpers.scale.job import main, read_release, write_purchase_files

    data = write_purchase_files(tmp_path / "purchases", 1_000, n_files=2, rng=1)
    assert main([str(data), str(tmp_path / "out.csv"), "--backend", "local", "--epsilon", "0.5",
                 "--max-partitions", "4", "--max-per-partition", "1"]) == 0
    assert np.allclose(read_release(tmp_path / "out.csv")["count_sd"], math.sqrt(2) * count_noise_scale(4, 1, 0.25))
    with pytest.raises(FileExistsError, match="not empty"):
        write_purchase_files(data, 100)


def test_the_ledger_lock_serialises_concurrent_jobs(tmp_path):
    """Two jobs started together on a budget for one: exactly one is charged and released, the other refused."""
    import fcntl
    import threading

    from mic_dp_helpers.scale.job import ledger_lock, load_ledger, run_job, write_purchase_files

    data = write_purchase_files(tmp_path / "purchases", 1_000, n_files=2, rng=2)
    with ledger_lock(data / "ledger.json") as lock, open(lock, "a") as other:
        with pytest.raises(BlockingIOError):  # held: another open of the lock file cannot take it
            fcntl.flock(other.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    with open(lock, "a") as other:  # released at the end of the block
        fcntl.flock(other.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        fcntl.flock(other.fileno(), fcntl.LOCK_UN)

    settings = dict(epsilon=1.0, max_partitions=4, max_per_partition=1, total_epsilon=1.5, total_delta=1e-6)
    outcomes = []

    def job(name):
        try:
            run_job(data, tmp_path / f"{name}.csv", **settings)
            outcomes.append("released")
        except BudgetExceededError:
            outcomes.append("refused")

    threads = [threading.Thread(target=job, args=(name,)) for name in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["refused", "released"]
    assert load_ledger(data / "ledger.json", 1.5, 1e-6).spent_epsilon == 1.0
    assert len(list(tmp_path.glob("*.csv"))) == 1


class _CountingResult:
    """Stands in for PipelineDP's lazy result and counts how often it is materialised (iterated or collected)."""

    def __init__(self, result, counter):
        self._result, self._counter = result, counter

    def __iter__(self):
        self._counter.append("iterate")
        return iter(self._result)


class _CountingSparkResult(_CountingResult):
    def collect(self):
        self._counter.append("collect")
        return self._result.collect()


def materialisations(monkeypatch, run) -> list:
    """How often ``run()`` materialises the lazy results of PipelineDP's ``DPEngine.aggregate`` and
    ``DPEngine.select_partitions``.

    Each materialisation of an uncached PipelineDP result draws its noise again: a second one is a second,
    uncharged release (on Spark, 514.9 then 512.1 for one partition's count).
    """
    import pipeline_dp

    counter = []

    def counting(method):
        def counted(self, *args, **kwargs):
            result = method(self, *args, **kwargs)
            wrapper = _CountingSparkResult if hasattr(result, "collect") else _CountingResult
            return wrapper(result, counter)

        return counted

    for name in ("aggregate", "select_partitions"):
        monkeypatch.setattr(pipeline_dp.DPEngine, name, counting(getattr(pipeline_dp.DPEngine, name)))
    run()
    return counter


def _one_release(backend):
    rows = rows_for_pipeline(purchase_log(2_000, rng=3))
    return lambda: private_statistics(rows, backend, epsilon=1.0, max_partitions=4, max_per_partition=1,
                                      min_value=0.0, max_value=20.0, public_partitions=range(1, 367))


def test_a_private_result_is_materialised_exactly_once(monkeypatch):
    assert materialisations(monkeypatch, _one_release(pipeline_dp.LocalBackend())) == ["iterate"]


def selection_rows() -> list:
    """300 people with one common key, 20 with a key of their own."""
    return [(f"u{i}", "common", 1.0) for i in range(300)] + [(f"r{i}", f"rare{i}", 1.0) for i in range(20)]


def test_a_partition_selection_is_materialised_exactly_once(monkeypatch):
    run = lambda: select_private_partitions(selection_rows(), pipeline_dp.LocalBackend(), epsilon=1.0,  # noqa: E731
                                            delta=1e-6, max_partitions=1)
    assert materialisations(monkeypatch, run) == ["iterate"]


def test_the_once_test_catches_a_result_read_twice(monkeypatch):
    from mic_dp_helpers.scale import pipeline

    collect = pipeline._collect
    monkeypatch.setattr(pipeline, "_collect", lambda result: (collect(result), collect(result))[1])
    assert len(materialisations(monkeypatch, _one_release(pipeline_dp.LocalBackend()))) == 2
