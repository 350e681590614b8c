"""JupyterLab still starts, serves a lesson and validates its events with the course's lean jsonschema pin.

The lock pins jsonschema 4.23 so that Jupyter's process start does not build rfc3987-syntax's parsers
(issue 18); these tests show nothing that JupyterLab needs was lost by it.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_jupyter_events_still_validate_events():
    from jupyter_events import EventLogger
    from jsonschema import ValidationError

    schema = {"$id": "https://example.org/course/test-event", "version": "1", "title": "t", "description": "d",
              "type": "object", "properties": {"lesson": {"type": "string"}}, "required": ["lesson"]}
    import io
    import logging

    sink = io.StringIO()
    logger = EventLogger(handlers=[logging.StreamHandler(sink)])  # with no handler, emit() skips everything
    logger.register_event_schema(schema)
    with pytest.raises(ValidationError):
        logger.emit(schema_id=schema["$id"], data={"lesson": 9})
    logger.emit(schema_id=schema["$id"], data={"lesson": "09"})
    assert '"lesson": "09"' in sink.getvalue()


def test_jupyterlab_serves_a_lesson_notebook(tmp_path):
    port, token = _free_port(), "course-test-token"
    command = [sys.executable, "-m", "jupyter", "lab", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
               f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={ROOT}", "--allow-root",
               f"--ServerApp.runtime_dir={tmp_path}"]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}/api/contents/notebooks/00_start_here.ipynb?token={token}"
        deadline, last_error = time.monotonic() + 60, None
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(url, timeout=5) as response:
                    model = json.load(response)
                break
            except OSError as error:
                last_error = error
                if server.poll() is not None:
                    pytest.fail(f"JupyterLab exited with code {server.returncode}")
                time.sleep(0.5)
        else:
            pytest.fail(f"JupyterLab did not answer within 60 s: {last_error}")
        assert model["type"] == "notebook" and model["content"]["cells"]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/lab?token={token}", timeout=10) as response:
            assert response.status == 200 and b"JupyterLab" in response.read()
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
