/**
 * One saved version of the policy, read-only, shown in place of the editor (which keeps any
 * unsaved text meanwhile). Focus moves to its heading when it opens.
 */
import { useEffect, useRef } from "react";
import type { Env } from "../api/types";
import { JsonView } from "../ui/bits";
import { ErrorMessage, Loading } from "../ui/feedback";
import { Time } from "../ui/time";
import { usePolicyVersion } from "./policy-queries";
import { useOperatorName } from "../names/name-queries";

export function VersionViewer({ env, version, current, onBack }: { env: Env; version: number; current: number | undefined; onBack(): void }) {
  const query = usePolicyVersion(env, version);
  const operatorName = useOperatorName();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [version]);
  const data = query.data;
  return (
    <section className="section" aria-labelledby="policy-version-heading">
      <div className="section-header">
        <h2 id="policy-version-heading" ref={heading} tabIndex={-1}>
          Version {version} ({env}), read-only
        </h2>
        <button type="button" className="button button-secondary" onClick={onBack}>
          Back to the current policy
        </button>
      </div>
      {query.isPending ? <Loading label={`Loading version ${version}…`} /> : null}
      <ErrorMessage error={query.error} prefix={`Version ${version} could not be loaded`} />
      {data ? (
        <div className="card stack">
          <p className="field-hint">
            Saved <Time value={data.updated_at} /> by {data.updated_by ? operatorName(data.updated_by) : "unknown"}; {data.rules.length} {data.rules.length === 1 ? "rule" : "rules"}.{" "}
            {version === current ? "This is the version in force." : "An earlier version: it is not in force, and it cannot be edited here."}
          </p>
          <JsonView value={data.rules} label={`Policy rules, version ${version} (read-only)`} />
        </div>
      ) : null}
    </section>
  );
}
