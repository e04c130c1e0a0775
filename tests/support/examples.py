"""How many examples the property tests run: Hypothesis profiles chosen by
``HYPOTHESIS_PROFILE``.

``ci`` runs what the suite always ran (Hypothesis's 100 examples, and the counts the tests
name); ``dev``, the default on a contributor's machine, a fifth of that, so that the same
properties are tried on every run, on fewer inputs. CI (``.ci/run``) exports
``HYPOTHESIS_PROFILE=ci``. Registered and loaded by ``tests/conftest.py``.
"""

from __future__ import annotations

import os

from hypothesis import settings

CI_EXAMPLES = 100
DEV_EXAMPLES = 20
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "dev")

settings.register_profile("ci", max_examples=CI_EXAMPLES)
settings.register_profile("dev", max_examples=DEV_EXAMPLES)


def load() -> None:
    settings.load_profile(PROFILE)


def examples(ci: int) -> int:
    """A test's own example count (``ci`` under the ``ci`` profile), scaled like the profile's
    default under another: the test keeps its proportion to the others."""
    return max(1, ci * settings.get_profile(PROFILE).max_examples // CI_EXAMPLES)


def is_ci() -> bool:
    return PROFILE == "ci"
