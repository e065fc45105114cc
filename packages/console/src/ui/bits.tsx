/** Small presentational pieces shared by the pages. */
import type { ReactNode } from "react";

/** A status shown as words with a marker shape, so colour is never the only signal. */
export function StatusTag({ status, tone }: { status: string; tone: "good" | "bad" | "warn" | "neutral" }) {
  const marker = { good: "●", bad: "✕", warn: "▲", neutral: "○" }[tone];
  return (
    <span className={`tag tag-${tone}`}>
      <span aria-hidden="true">{marker} </span>
      {status}
    </span>
  );
}

export function JsonView({ value, label }: { value: unknown; label: string }) {
  return (
    <pre className="json" aria-label={label} tabIndex={0}>
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

/** A definition list of label/value pairs; undefined values are left out. */
export function Details({ items }: { items: [string, ReactNode | undefined][] }) {
  return (
    <dl className="details">
      {items
        .filter(([, value]) => value !== undefined)
        .map(([term, value]) => (
          <div key={term} className="details-item">
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  );
}

export function Badge({ count, label }: { count: number; label: string }) {
  if (count <= 0) return null;
  return (
    <span className="badge">
      {count}
      <span className="visually-hidden"> {label}</span>
    </span>
  );
}
