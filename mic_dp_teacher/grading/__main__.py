import sys

from mic_dp_teacher.grading.cli import main

sys.exit(main())
