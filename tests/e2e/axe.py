"""axe-core in the browser tests: the checks of WCAG 2.0 and 2.1 at levels A and AA, and axe's best practices.

``./scripts/test`` installs axe-core from npm into ``.cache/axe`` (git-ignored). A test runs it in its page:

    assert_no_serious(page, "the score sheet, empty")

``serious_violations(page)`` gives what it found of impact serious or critical, each violation with
its nodes' selectors, for a test that wants to look at them itself.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

AXE_JS = Path(__file__).resolve().parents[2] / ".cache" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
SERIOUS = ("serious", "critical")

# Runs in the page: axe on the whole document or on one part of it, its violations made plain data.
_RUN = """async ([include, tags]) => {
  const result = await axe.run(include ? { include: [include] } : document, {
    runOnly: { type: "tag", values: tags },
    resultTypes: ["violations"],
  });
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    helpUrl: v.helpUrl,
    nodes: v.nodes.map((n) => ({ target: n.target.map(String), impact: n.impact, summary: n.failureSummary })),
  }));
}"""


def serious_violations(page: Any, include: str | None = None) -> list[dict[str, Any]]:
    """The violations of impact serious or critical in ``page`` (or in the part ``include`` selects).

    Each is ``{"id", "impact", "help", "helpUrl", "nodes": [{"target": [selector...], "impact", "summary"}]}``.
    """
    if not AXE_JS.is_file():
        pytest.fail(f"no axe-core at {AXE_JS}: ./scripts/test installs it (npm install --prefix .cache/axe axe-core)")
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE_JS))
    found: list[dict[str, Any]] = page.evaluate(_RUN, [include, TAGS])
    return [v for v in found if v["impact"] in SERIOUS]


def describe(violations: list[dict[str, Any]]) -> str:
    """The violations in lines a person can act on: the rule, what it asks, where, and why it fails."""
    lines = []
    for v in violations:
        lines.append(f"{v['impact']}: {v['id']}: {v['help']} ({v['helpUrl']})")
        for node in v["nodes"]:
            summary = " ".join((node.get("summary") or "").split())
            lines.append(f"    {' '.join(node['target'])}: {summary}")
    return "\n".join(lines)


def assert_no_serious(page: Any, name: str, include: str | None = None) -> None:
    """Fails the test when axe finds a serious or critical violation in ``page``, naming each and where."""
    violations = serious_violations(page, include)
    if violations:
        pytest.fail(
            f"axe-core finds {len(violations)} serious violation(s) in {name}:\n{describe(violations)}", pytrace=False
        )
