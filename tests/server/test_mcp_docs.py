"""docs/mcp.md is what scripts/mcp_docs.py makes of the tool registries now."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_mcp_page_is_current():
    spec = importlib.util.spec_from_file_location("mcp_docs", ROOT / "scripts" / "mcp_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert (ROOT / "docs" / "mcp.md").read_text(encoding="utf-8") == module.render(), (
        "docs/mcp.md is out of date: run python scripts/mcp_docs.py"
    )
