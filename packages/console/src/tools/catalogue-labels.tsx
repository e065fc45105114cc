/** How the catalogue's enums read on the page: words with a marker, never colour alone. */
import type { CatalogueEnv, CatalogueTool } from "../api/types";
import { StatusTag } from "../ui/bits";

const SOURCE = {
  built_in: { label: "built-in", className: "tag tag-neutral" },
  custom: { label: "custom", className: "tag tag-accent" },
  declared: { label: "custom", className: "tag tag-accent" },
  openapi: { label: "imported", className: "tag tag-accent" },
} as const;

export function SourceTag({ source }: { source: keyof typeof SOURCE }) {
  const { label, className } = SOURCE[source];
  return <span className={className}>{label}</span>;
}

export function RiskTag({ risk }: { risk: CatalogueTool["risk"] }) {
  return risk === "high" ? <StatusTag status="high risk" tone="warn" /> : <StatusTag status="low risk" tone="neutral" />;
}

export const envLabel = (env: CatalogueEnv) => (env === "both" ? "test and live" : env);

export const authModeLabel = (mode: "oauth2" | "api_key") => (mode === "oauth2" ? "OAuth" : "API key");
