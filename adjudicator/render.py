"""Plain-text rendering of a verdict for `fluxx-judge replay`."""

from __future__ import annotations

from adjudicator.replay import Step, Verdict


def _ruling_line(ruling_id: str) -> str:
    try:
        from rulings.corpus import one_line
    except ImportError:  # the corpus module is optional for the engine
        return ""
    try:
        return one_line(ruling_id)
    except Exception:
        return ""


def compact_table(table: dict) -> str:
    parts = [f"turn {table['turn']} (drawn {table['drawn']}, played {table['played']})"]
    if table.get("rules"):
        parts.append("rules: " + ", ".join(table["rules"]))
    if table.get("goals"):
        parts.append("goals: " + ", ".join(table["goals"]))
    for p, cards in table["hands"].items():
        line = f"{p}: hand [{', '.join(cards)}]"
        if table.get("keepers", {}).get(p):
            line += f", keepers [{', '.join(table['keepers'][p])}]"
        if table.get("temp_hands", {}).get(p) is not None:
            line += f", temporary hand [{', '.join(table['temp_hands'][p])}]"
        parts.append(line)
    parts.append(f"draw pile {table['draw_pile']} cards; discard [{', '.join(table['discard'])}]")
    return "\n      ".join(parts)


def render_step(step: Step, shown: set[str]) -> list[str]:
    head = "Set-up" if step.number == 0 else f"Step {step.number}: {step.label}"
    status = {"rejected": "  -> REFUSED", "waiting": "  -> waiting for a decision", "fault": "  -> SCENARIO ERROR"}.get(step.status, "")
    lines = [head + status]
    if step.note:
        lines.append(f"   note: {step.note}")
    for entry in step.entries:
        cite = f"  [{', '.join(entry.cites)}]" if entry.cites else ""
        lines.append(f"   - {entry.text}{cite}")
        for rid in entry.cites:
            if rid not in shown:
                shown.add(rid)
                text = _ruling_line(rid)
                if text:
                    lines.append(f"       {rid}: {text}")
    if step.decision:
        lines.append(f"   ? {step.decision.describe()} (options: {', '.join(step.decision.option_names)})")
    lines.append("   table: " + compact_table(step.table))
    for f in step.failures:
        lines.append(f"   FAIL {f}")
    return lines


def render_verdict(verdict: Verdict) -> str:
    if verdict.error is not None:
        return f"Cannot replay: {verdict.error}"
    sc = verdict.scenario
    lines = [f"{sc.title}  ({sc.id})"]
    if sc.note:
        lines.append(sc.note)
    lines.append("")
    shown: set[str] = set()
    for step in verdict.steps:
        lines.extend(render_step(step, shown))
        lines.append("")
    lines.append("Verdict: " + verdict.summary())
    if verdict.cites:
        lines.append("Rulings applied: " + ", ".join(verdict.cites))
    if verdict.failures:
        lines.append("Expectations that did not hold:")
        lines.extend(f"  - {f}" for f in verdict.failures)
    else:
        lines.append("All expectations hold.")
    return "\n".join(lines)
