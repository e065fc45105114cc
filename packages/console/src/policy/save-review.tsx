/**
 * The step between editing and saving: the draft compared with the policy in force, then saved
 * only on confirmation. The review belongs to the draft it compared; an edit closes it.
 */
import { useEffect, useRef } from "react";
import type { PolicyComparison } from "../api/types";
import { ErrorMessage } from "../ui/feedback";
import { WriteButton } from "../ui/write-button";
import { DecisionDiff } from "./decision-diff";

type Props = { comparison: PolicyComparison; saving: boolean; saveError: unknown; appName(id: string): string; onConfirm(): void; onBack(): void };

export function SaveReview({ comparison, saving, saveError, appName, onConfirm, onBack }: Props) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [comparison]);
  return (
    <section className="card stack save-review" aria-labelledby="policy-review-heading">
      <h3 id="policy-review-heading" ref={heading} tabIndex={-1}>
        Review before saving
      </h3>
      <DecisionDiff comparison={comparison} appName={appName} />
      <ErrorMessage error={saveError} prefix="The policy was not saved" />
      <div className="button-row">
        <WriteButton variant="primary" busy={saving} onClick={onConfirm}>
          Save as version {comparison.current_version + 1}
        </WriteButton>
        <button type="button" className="button button-secondary" onClick={onBack}>
          Keep editing
        </button>
      </div>
    </section>
  );
}
