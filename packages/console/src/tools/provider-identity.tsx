/**
 * How a provider shows itself: its declared icon (an https URL or data: image; the console's CSP
 * takes data: images) or a monogram of its name, its display name, and the OAuth scopes it asks
 * for with the tools that need each one.
 */
import type { CatalogueProvider } from "../api/types";

const field = (value: unknown, key: string) => (typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined);

/** The declared icon, when it is one the page may load. */
export function providerIcon(provider: Pick<CatalogueProvider, "declaration">): string | undefined {
  const icon = field(provider.declaration, "icon");
  return typeof icon === "string" && /^(data:image\/(svg\+xml|png);base64,|https:\/\/)/.test(icon) ? icon : undefined;
}

/** The scopes the provider asks for by default (its declaration's `auth.scopes`). */
export function providerScopes(provider: Pick<CatalogueProvider, "declaration">): string[] {
  const scopes = field(field(provider.declaration, "auth"), "scopes");
  return Array.isArray(scopes) ? scopes.filter((scope): scope is string => typeof scope === "string") : [];
}

const monogram = (name: string) =>
  name
    .split(/[\s_-]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join("") || "?";

export function ProviderIcon({ provider, size = 28 }: { provider: Pick<CatalogueProvider, "declaration" | "display_name">; size?: number }) {
  const icon = providerIcon(provider);
  if (icon) return <img className="provider-icon" src={icon} alt="" width={size} height={size} />;
  return (
    <span className="provider-icon provider-monogram" aria-hidden="true" style={{ width: size, height: size }}>
      {monogram(provider.display_name)}
    </span>
  );
}

type ScopedTool = { name: string; mcp_name: string | null; scopes: string[] };

/** Each scope asked for, with the tools that need it; a tool's scope the provider does not ask for by default is listed too. */
export function ScopeTable({ provider, tools }: { provider: Pick<CatalogueProvider, "declaration" | "id">; tools: readonly ScopedTool[] }) {
  const asked = providerScopes(provider);
  const needed = tools.flatMap((tool) => tool.scopes);
  const scopes = [...new Set([...asked, ...needed])];
  if (scopes.length === 0) return <p className="field-hint">This provider asks for no OAuth scopes.</p>;
  return (
    <div className="table-wrap">
      <table className="scope-table">
        <caption className="visually-hidden">OAuth scopes of {provider.id} and the tools that need them</caption>
        <thead>
          <tr>
            <th scope="col">Scope</th>
            <th scope="col">Asked for</th>
            <th scope="col">Tools that need it</th>
          </tr>
        </thead>
        <tbody>
          {scopes.map((scope) => {
            const users = tools.filter((tool) => tool.scopes.includes(scope));
            return (
              <tr key={scope}>
                <td className="mono scope-name">{scope}</td>
                <td>{asked.includes(scope) ? "by default" : <span className="muted">when a tool needs it</span>}</td>
                <td>
                  {users.length === 0 ? (
                    <span className="muted">no tool names it</span>
                  ) : (
                    <ul className="plain-list inline-list">
                      {users.map((tool) => (
                        <li key={tool.name} className="mono tool-name">
                          {tool.name}
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
