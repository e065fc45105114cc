/**
 * A refused catalogue change in the page's error style, with what the envelope adds: where an
 * invalid declaration or document is wrong (`details.path`, each fault of `details.fields`) and
 * which names a conflict is about (`details.names`).
 */
import { ApiError, fieldFaults } from "../api/errors";
import { ErrorMessage } from "../ui/feedback";

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string") : []);

export function CatalogueError({ error, prefix }: { error: unknown; prefix: string }) {
  if (!error) return null;
  const details = error instanceof ApiError ? error.details : undefined;
  const path = typeof details?.["path"] === "string" ? details["path"] : undefined;
  const faults = fieldFaults(error);
  const taken = strings(details?.["names"]);
  return (
    <div className="stack">
      <ErrorMessage error={error} prefix={prefix} />
      {faults.length > 1 ? (
        <ul className="faults" aria-label="What is wrong">
          {faults.map((fault, index) => (
            <li key={index}>
              <code>{fault.field || "/"}</code>: {fault.message}
            </li>
          ))}
        </ul>
      ) : path ? (
        <p className="field-hint">
          Where: <code>{path}</code>
        </p>
      ) : null}
      {taken.length > 0 ? (
        <p className="field-hint">
          Already taken: {taken.map((name, index) => (
            <span key={name}>
              {index > 0 ? ", " : ""}
              <code>{name}</code>
            </span>
          ))}
          . Delete those tools first, then import again.
        </p>
      ) : null}
    </div>
  );
}
