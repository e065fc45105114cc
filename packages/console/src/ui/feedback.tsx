/** Loading, error and empty states: always words, never a blank page. */
import type { ReactNode } from "react";
import { errorMessage } from "../api/errors";

export function ErrorMessage({ error, prefix }: { error: unknown; prefix?: string }) {
  if (!error) return null;
  return (
    <p className="message message-error" role="alert">
      <span className="message-icon" aria-hidden="true">!</span>
      {prefix ? `${prefix}: ` : ""}
      {errorMessage(error)}
    </p>
  );
}

export function Notice({ children, tone = "info" }: { children: ReactNode; tone?: "info" | "success" }) {
  return (
    <p className={`message message-${tone}`} role="status">
      <span className="message-icon" aria-hidden="true">{tone === "success" ? "✓" : "i"}</span>
      {children}
    </p>
  );
}

export function Loading({ label = "Loading…" }: { label?: string }) {
  return (
    <p className="loading" role="status">
      {label}
    </p>
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

/** The result of an action, success or refusal, shown until the next one. */
export function OutcomeMessage({ outcome }: { outcome: { message: string; tone: "success" | "error" } | null }) {
  if (!outcome) return null;
  if (outcome.tone === "success") return <Notice tone="success">{outcome.message}</Notice>;
  return (
    <p className="message message-error" role="alert">
      <span className="message-icon" aria-hidden="true">!</span>
      {outcome.message}
    </p>
  );
}
