/** What an approver's edit changed, one JSON pointer a row: the value before and the value that runs. */
import type { Approval, ArgumentChange } from "../api/types";
import { Time } from "../ui/time";
import { useMemberNames } from "./approval-queries";

const shown = (change: ArgumentChange, side: "from" | "to") => (side in change ? JSON.stringify(change[side]) : "(absent)");

export function ArgumentChanges({ edit }: { edit: NonNullable<Approval["edit"]> }) {
  const names = useMemberNames();
  const editor = edit.edited_by.startsWith("member:") ? (names.get(edit.edited_by.slice("member:".length)) ?? edit.edited_by) : edit.edited_by;
  return (
    <div className="stack">
      <p className="muted">
        Edited by {editor}, <Time value={edit.edited_at} showRelative />. The edited call is the one that runs.
      </p>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">What the edit changed</caption>
          <thead>
            <tr>
              <th scope="col">Where</th>
              <th scope="col">Requested</th>
              <th scope="col">Runs with</th>
            </tr>
          </thead>
          <tbody>
            {edit.changes.map((change) => (
              <tr key={change.path}>
                <td>
                  <code>{change.path || "/"}</code>
                </td>
                <td className="mono change-from">{shown(change, "from")}</td>
                <td className="mono change-to">{shown(change, "to")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
