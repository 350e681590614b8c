import sys

from mic_dp_helpers.grading.cli import main

sys.exit(main())
