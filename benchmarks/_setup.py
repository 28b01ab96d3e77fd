"""What each benchmark and fitting script does first, imported before the package.

The package of this checkout comes first on ``sys.path`` (installed or not), models load offline
and quietly, and the development data are found where ``$RAG_AXIOMS_SHARED_DATA`` points, else in
the folder ``shared/data`` beside the checkout.
"""

from __future__ import annotations

import os
import sys
import warnings
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[1]
if str(PROJECT_ROOT) not in sys.path:
    sys.path.insert(0, str(PROJECT_ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
warnings.filterwarnings("ignore")

#: The development data (read-only).
DEV_DATA = Path(os.environ.get("RAG_AXIOMS_SHARED_DATA", PROJECT_ROOT.parent / "shared" / "data"))
