"""Plain-text rendering of a verdict for `fluxx-judge replay`."""

from __future__ import annotations

from adjudicator import citations
from adjudicator.replay import DisputeAnswer, Step, Verdict, VariationVerdict, ruling_answer

# a ruling's excerpt is shown the first time it is cited for an outcome: `shown` holds
# (ruling id, excerpt) pairs, so one cited at an allowed and then at a refused step is
# shown again where its statement differs
Shown = set[tuple[str, str]]


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
    for top, pile in table.get("under", {}).items():
        parts.append(f"under {top}: [{', '.join(pile)}]")
    if table.get("face_down"):
        parts.append(f"face down: {', '.join(table['face_down'])}")
    if table.get("face_out"):
        parts.append(f"held face-out: {', '.join(table['face_out'])}")
    for p, effect, card in table.get("lasting", []):
        parts.append(f"{p}: {effect.replace('_', ' ')} until {p}'s next turn ({card})")
    parts.append(f"draw pile {table['draw_pile']} cards; discard [{', '.join(table['discard'])}]")
    return "\n      ".join(parts)


def render_answer(answer: DisputeAnswer, shown: Shown) -> list[str]:
    """The question (and the kind of answer it asks), `Answer: ...`, the lines that
    decide it and their rulings."""
    lines = []
    if answer.question:
        lines.append(f"Question: {answer.question}")
    lines.append(f"Answer: {answer.text}")
    for entry in answer.lines:
        cite = f"  [{', '.join(entry.cites)}]" if entry.cites else ""
        lines.append(f"   - {entry.text}{cite}")
    if answer.rulings:
        lines.append("   Rulings:")
        for r in answer.rulings:
            shown.add((r.id, r.answer))
            lines.append(f"     {r.label}: {r.answer}" if r.answer else f"     {r.label}")
    return lines


def render_step(step: Step, shown: Shown, judged: bool = True) -> list[str]:
    head = "Set-up" if step.number == 0 else f"Step {step.number}: {step.words or step.label}"
    if step.number and step.words:
        head += f"  ({step.label}" + (f", line {step.line})" if step.line else ")")
    status = {"rejected": "  -> REFUSED", "waiting": "  -> waiting for a decision", "fault": "  -> SCENARIO ERROR"}.get(step.status, "")
    lines = [head + status]
    if step.note:
        lines.append(f"   note: {step.note}")
    for entry in step.entries:
        cite = f"  [{', '.join(entry.cites)}]" if entry.cites else ""
        lines.append(f"   - {entry.text}{cite}")
        for rid in entry.cites:
            text = ruling_answer(rid, step.outcome)
            if (rid, text) not in shown:
                shown.add((rid, text))
                if text:
                    lines.append(f"       {citations.label(rid)}: {text}")
    if step.decision:
        d = step.decision
        fate = ""
        if d.fate and d.kind in ("card", "cards", "discard", "discard_keepers"):
            fate = f"; the pick {d.fate[0]}, the rest {d.fate[1]}"
        lines.append(f"   ? {d.describe()} (options: {', '.join(d.option_names)}{fate})")
    lines.append("   table: " + compact_table(step.table))
    if judged:
        for f in ([step.refusal] if step.refusal else []) + step.failures:
            lines.append(f"   FAIL {f}")
    return lines


def render_verdict(verdict: Verdict) -> str:
    """The answer first, then the step by step, then each variation."""
    if verdict.error is not None:
        return f"Cannot replay: {verdict.error}"
    sc = verdict.scenario
    assert sc is not None         # without an error the file was read
    lines = [f"{sc.title}  ({sc.id})"]
    if sc.note:
        lines.append(sc.note)
    lines.append("")
    shown: Shown = set()
    if verdict.answer is not None:
        lines.extend(render_answer(verdict.answer, shown))
        lines.append("")
    lines.append("Step by step:")
    lines.append("")
    judged = verdict.has_expectations
    for step in verdict.steps:
        lines.extend(render_step(step, shown, judged))
        lines.append("")
    lines.append("Verdict: " + verdict.summary())
    if verdict.cites:
        lines.append("Rulings applied: " + ", ".join(verdict.cites))
    for v in verdict.variations:
        lines.append("")
        lines.extend(render_variation(v, shown, judged))
    lines.append("")
    if not judged:
        lines.append("The file states no expectations: the verdict above is the answer.")
    elif verdict.all_failures:
        lines.append("Expectations that did not hold:")
        lines.extend(f"  - {f}" for f in verdict.all_failures)
    else:
        lines.append("All expectations hold.")
    return "\n".join(lines)


def render_variation(v: VariationVerdict, shown: Shown, judged: bool) -> list[str]:
    number = ".".join(str(i + 1) for i in v.path)
    where = "from the set-up" if v.variation.after == 0 else f"after event {v.variation.after}"
    lines = [f"Variation {number}: {v.name}  (branches {where}; line {v.variation.line})"]
    verdict = v.verdict
    if verdict.error is not None:
        return lines + [f"   cannot replay: {verdict.error}"]
    for step in verdict.steps:
        if step.number == 0 or step.shared:
            continue
        lines.extend(_indent(render_step(step, shown, judged)))
    lines.append("   Verdict: " + verdict.summary())
    for sub in verdict.variations:
        lines.extend(_indent(render_variation(sub, shown, judged)))
    return lines


def _indent(lines: list[str]) -> list[str]:
    return ["   " + part for line in lines for part in line.split("\n")]
