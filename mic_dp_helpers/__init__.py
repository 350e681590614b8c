"""Helpers for the Hands-On Differential Privacy course.

The lessons import from here: datasets, mechanisms, the privacy accountant, audits,
exercise checks and plotting. Start with :func:`check_environment`.
"""

from mic_dp_helpers.environment import CourseEnvironmentError, EnvironmentReport, check_environment

__version__ = "0.1.0"
__all__ = ["check_environment", "CourseEnvironmentError", "EnvironmentReport", "__version__"]
