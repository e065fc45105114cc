/** The versions saved for one env, newest first; each can be opened read-only in the viewer. */
import type { Env } from "../api/types";
import { EmptyState, ErrorMessage, Loading } from "../ui/feedback";
import { Section } from "../ui/page";
import { Time } from "../ui/time";
import { usePolicyVersions } from "./policy-queries";
import { useOperatorName } from "../names/name-queries";

/** The id of a version's "View version N" button, to give focus back to it. */
export const viewButtonId = (version: number) => `policy-version-${version}-view`;

export function VersionHistory({ env, viewing, onView }: { env: Env; viewing: number | null; onView(version: number | null): void }) {
  const versions = usePolicyVersions(env);
  const operatorName = useOperatorName();
  const rows = versions.data?.data ?? [];
  return (
    <Section title="Version history" id="policy-versions-heading">
      {versions.isPending ? <Loading label="Loading the policy versions…" /> : null}
      <ErrorMessage error={versions.error} prefix="The policy versions could not be loaded" />
      {versions.data && rows.length === 0 ? <EmptyState>No version saved for {env} yet: the risk defaults apply.</EmptyState> : null}
      {rows.length > 0 ? (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Policy versions for {env}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Version</th>
                <th scope="col">Saved</th>
                <th scope="col">By</th>
                <th scope="col">Rules</th>
                <th scope="col">
                  <span className="visually-hidden">View</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row, index) => (
                <tr key={row.version} className={row.version === viewing ? "selected" : undefined}>
                  <th scope="row">
                    {row.version}
                    {index === 0 ? <span className="muted"> (current)</span> : null}
                  </th>
                  <td>
                    <Time value={row.created_at} />
                  </td>
                  <td>{row.updated_by ? operatorName(row.updated_by) : "unknown"}</td>
                  <td>{row.rule_count}</td>
                  <td>
                    <button
                      type="button"
                      id={viewButtonId(row.version)}
                      className="button button-secondary"
                      aria-pressed={row.version === viewing}
                      onClick={() => onView(row.version === viewing ? null : row.version)}
                    >
                      View version {row.version}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {rows.length >= 200 ? <p className="field-hint">The broker lists the last 200 versions.</p> : null}
    </Section>
  );
}
