/** What an OpenAPI import would create (or created), and the operations it leaves out with the reason. */
import type { ToolImportResult } from "../api/types";
import { EmptyState } from "../ui/feedback";
import { envLabel, RiskTag } from "./catalogue-labels";

export function ImportPreview({ result }: { result: ToolImportResult }) {
  const verb = result.dry_run ? "Would create" : "Created";
  return (
    <div className="stack" aria-live="polite">
      <h4>
        {verb} {result.data.length} tool{result.data.length === 1 ? "" : "s"}
      </h4>
      {result.data.length === 0 ? <EmptyState>No operation of the document can become a tool.</EmptyState> : null}
      {result.data.length > 0 ? (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">{verb}</caption>
            <thead>
              <tr>
                <th scope="col">Tool</th>
                <th scope="col">Risk</th>
                <th scope="col">Effect</th>
                <th scope="col">Env</th>
              </tr>
            </thead>
            <tbody>
              {result.data.map((tool) => (
                <tr key={tool.name}>
                  <td className="mono tool-name">{tool.name}</td>
                  <td className="tool-name">
                    <RiskTag risk={tool.risk} />
                  </td>
                  <td>{tool.side_effect}</td>
                  <td className="tool-name">{envLabel(tool.env)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <h4>Skipped ({result.skipped.length})</h4>
      {result.skipped.length === 0 ? (
        <p className="muted">Nothing: every operation becomes a tool.</p>
      ) : (
        <ul aria-label="Skipped operations" className="skipped-list">
          {result.skipped.map((entry) => (
            <li key={entry.operation}>
              <code>{entry.operation}</code>: {entry.reason}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
