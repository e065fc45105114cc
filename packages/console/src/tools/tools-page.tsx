/** Tools: the catalogue agents call (searchable), each provider's tools with the tenant's own and the OpenAPI import, and the tenant's own OAuth app per provider. */
import { useDeferredValue, useState } from "react";
import { StatusTag } from "../ui/bits";
import { EmptyState, ErrorMessage, Loading } from "../ui/feedback";
import { PageHeader, Section } from "../ui/page";
import { useProviders } from "./catalogue-queries";
import { OAuthAppSection } from "./oauth-app-section";
import { ProviderCatalogue } from "./provider-catalogue";
import { ProviderIcon } from "./provider-identity";
import { useToolSearch, type ToolFilters } from "./tool-queries";

export function ToolsPage() {
  const [query, setQuery] = useState("");
  const [provider, setProvider] = useState("");
  const [risk, setRisk] = useState<ToolFilters["risk"]>("");
  const [sideEffect, setSideEffect] = useState<ToolFilters["side_effect"]>("");
  const deferred = useDeferredValue(query.trim());
  const tools = useToolSearch({ q: deferred, provider, risk, side_effect: sideEffect });
  const providers = useProviders();
  const providerById = new Map((providers.data?.data ?? []).map((p) => [p.id, p]));
  // A custom OAuth provider is listed too: it has no broker-wide client, so it connects only with the tenant's own app.
  const oauthProviders = (providers.data?.data ?? []).filter((provider) => provider.auth_modes.includes("oauth2")).map((provider) => ({ id: provider.id, name: provider.display_name, custom: provider.source === "custom" }));

  return (
    <>
      <PageHeader title="Tools">
        <p>The tools agents can call, over the API and MCP. High-risk tools wait for an approval unless the policy says otherwise.</p>
      </PageHeader>
      <Section title="Catalogue" id="catalogue-heading">
        <div className="filters card">
          <div className="field">
            <label htmlFor="tool-search">Search names, titles and descriptions</label>
            <input id="tool-search" type="search" value={query} maxLength={200} placeholder="e.g. create issue" onChange={(event) => setQuery(event.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="tool-provider">Provider</label>
            <select id="tool-provider" value={provider} onChange={(event) => setProvider(event.target.value)}>
              <option value="">Any provider</option>
              {(providers.data?.data ?? []).map((p) => (
                <option key={p.id} value={p.id}>
                  {p.display_name} ({p.id})
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="tool-risk">Risk</label>
            <select id="tool-risk" value={risk} onChange={(event) => setRisk(event.target.value as ToolFilters["risk"])}>
              <option value="">Any risk</option>
              <option value="low">Low</option>
              <option value="high">High</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="tool-effect">Effect</label>
            <select id="tool-effect" value={sideEffect} onChange={(event) => setSideEffect(event.target.value as ToolFilters["side_effect"])}>
              <option value="">Reads and writes</option>
              <option value="read">Reads</option>
              <option value="write">Writes</option>
            </select>
          </div>
        </div>
        {tools.data ? <p className="field-hint" role="status">{tools.data.data.length} tools</p> : null}
        {tools.isPending ? <Loading label="Loading tools…" /> : null}
        <ErrorMessage error={tools.error} prefix="The tools could not be loaded" />
        {tools.data?.data.length === 0 ? <EmptyState>No tool matches these filters.</EmptyState> : null}
        {tools.data && tools.data.data.length > 0 ? (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Tools</caption>
              <thead>
                <tr>
                  <th scope="col">Provider</th>
                  <th scope="col">Tool</th>
                  <th scope="col">MCP name</th>
                  <th scope="col">Risk</th>
                  <th scope="col">Effect</th>
                  <th scope="col">Credentials</th>
                  <th scope="col">Description</th>
                </tr>
              </thead>
              <tbody>
                {tools.data.data.map((tool) => (
                  <tr key={tool.name}>
                    <td className="tool-name">
                      <span className="provider-label">
                        <ProviderIcon provider={providerById.get(tool.provider) ?? { display_name: tool.provider, declaration: null }} size={20} />
                        {providerById.get(tool.provider)?.display_name ?? tool.provider}
                      </span>
                    </td>
                    <td className="tool-name">
                      <span className="mono">{tool.name}</span>
                      {tool.title ? <div className="field-hint">{tool.title}</div> : null}
                    </td>
                    <td className="mono tool-name">{tool.mcp_name}</td>
                    <td className="tool-name">{tool.risk === "high" ? <StatusTag status="high risk" tone="warn" /> : <StatusTag status="low risk" tone="neutral" />}</td>
                    <td>{tool.side_effect}</td>
                    <td>{tool.auth_modes.map((mode) => (mode === "oauth2" ? "OAuth" : "API key")).join(", ")}</td>
                    <td className="tool-description">{tool.description}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </Section>
      <ProviderCatalogue />
      <OAuthAppSection providers={oauthProviders} />
    </>
  );
}
