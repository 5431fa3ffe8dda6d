"""Writing a results/*.json record, shared by the scripts that feed one (run as scripts: imported
from this folder). The checksum covers the readings; the file is written whole."""
import hashlib
import json
import os
from pathlib import Path


def write_result(path: Path, record: dict) -> None:
    """Store `record` at `path` with the sha256 of its readings: a temporary file renamed into
    place, so a run stopped midway never leaves half a file."""
    record["sha256"] = hashlib.sha256(json.dumps(record["readings"], sort_keys=True).encode()).hexdigest()
    part = path.with_suffix(".tmp")
    part.write_text(json.dumps(record, indent=1) + "\n")
    os.replace(part, path)
