"""The licenses GitHub detects, as its `license-simple` object names them (`GET /licenses` lists them):
a world file's repo may name one by SPDX id. Facts (key, name, the number in its node id `License<n>`)
as GitHub's API answers them; the node ids match GitHub's recorded answers (PyGithub's tests/ReplayData).
"""

from __future__ import annotations

from typing import Any

from .records import node_id

# SPDX id -> (GitHub's key, name, the number of its node id).
LICENSES: dict[str, tuple[str, str, int]] = {
    "AGPL-3.0": ("agpl-3.0", "GNU Affero General Public License v3.0", 1),
    "Apache-2.0": ("apache-2.0", "Apache License 2.0", 2),
    "BSD-2-Clause": ("bsd-2-clause", 'BSD 2-Clause "Simplified" License', 4),
    "BSD-3-Clause": ("bsd-3-clause", 'BSD 3-Clause "New" or "Revised" License', 5),
    "CC0-1.0": ("cc0-1.0", "Creative Commons Zero v1.0 Universal", 6),
    "GPL-3.0": ("gpl-3.0", "GNU General Public License v3.0", 9),
    "LGPL-3.0": ("lgpl-3.0", "GNU Lesser General Public License v3.0", 12),
    "MIT": ("mit", "MIT License", 13),
    "MPL-2.0": ("mpl-2.0", "Mozilla Public License 2.0", 14),
    "Unlicense": ("unlicense", "The Unlicense", 15),
}


def license_simple(base: str, spdx: str | None) -> dict[str, Any] | None:
    """The `license` of a repository: None for a repo without one."""
    if spdx is None:
        return None
    key, name, number = LICENSES[spdx]
    return {
        "key": key,
        "name": name,
        "spdx_id": spdx,
        "url": f"{base}/licenses/{key}",
        "node_id": node_id("License", number),
    }
