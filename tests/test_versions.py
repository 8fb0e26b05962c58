"""One release version: every package that states it agrees with pyproject.toml's.

scripts/set_version.py sets it everywhere (docs/releasing.md); this fails when a place was
edited by hand, or a new place was added to one manifest and not to the script.
"""

from __future__ import annotations

import importlib.metadata

from scripts.set_version import ROOT, SEMVER, release_version, stated_versions
from tests.test_contract import newest_release


def test_every_package_states_the_release_version() -> None:
    version = release_version()
    assert SEMVER.fullmatch(version), version
    wrong = {
        str(path.relative_to(ROOT)): stated
        for path, stated in stated_versions().items()
        if stated != version
    }
    assert not wrong, f"run: python scripts/set_version.py {version} ({wrong})"


def test_the_installed_referee_reports_it() -> None:
    assert importlib.metadata.version("referee") == release_version()


def test_the_changelog_has_a_section_for_it() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert f"## [{release_version()}]" in changelog


def test_the_newest_contract_image_is_this_version() -> None:
    """A release sets the version and builds its contract image together (docs/releasing.md)."""
    assert newest_release().name == f"v{release_version()}.binpb"
