/** Tools: the catalogue agents call (searchable), each provider's tools with the tenant's own and the OpenAPI import, and the tenant's own OAuth app per provider. */
import { useDeferredValue, useState } from "react";
import { StatusTag } from "../ui/bits";
import { EmptyState, ErrorMessage, Loading } from "../ui/feedback";
import { PageHeader, Section } from "../ui/page";
import { useProviders } from "./catalogue-queries";
import { OAuthAppSection } from "./oauth-app-section";
import { ProviderCatalogue } from "./provider-catalogue";
import { useToolSearch } from "./tool-queries";

export function ToolsPage() {
  const [query, setQuery] = useState("");
  const deferred = useDeferredValue(query.trim());
  const tools = useToolSearch(deferred);
  const providers = useProviders();
  // A custom OAuth provider is listed too: it has no broker-wide client, so it connects only with the tenant's own app.
  const oauthProviders = (providers.data?.data ?? []).filter((provider) => provider.auth_modes.includes("oauth2")).map((provider) => ({ id: provider.id, custom: provider.source === "custom" }));

  return (
    <>
      <PageHeader title="Tools">
        <p>The tools agents can call, over the API and MCP. High-risk tools wait for an approval unless the policy says otherwise.</p>
      </PageHeader>
      <Section title="Catalogue" id="catalogue-heading">
        <div className="filters card">
          <div className="field">
            <label htmlFor="tool-search">Search names and descriptions</label>
            <input id="tool-search" type="search" value={query} maxLength={200} placeholder="e.g. create issue" onChange={(event) => setQuery(event.target.value)} />
          </div>
        </div>
        {tools.isPending ? <Loading label="Loading tools…" /> : null}
        <ErrorMessage error={tools.error} prefix="The tools could not be loaded" />
        {tools.data?.data.length === 0 ? <EmptyState>No tool matches “{deferred}”.</EmptyState> : null}
        {tools.data && tools.data.data.length > 0 ? (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Tools</caption>
              <thead>
                <tr>
                  <th scope="col">Tool</th>
                  <th scope="col">Risk</th>
                  <th scope="col">Effect</th>
                  <th scope="col">Credentials</th>
                  <th scope="col">Description</th>
                </tr>
              </thead>
              <tbody>
                {tools.data.data.map((tool) => (
                  <tr key={tool.name}>
                    <td className="mono tool-name">{tool.name}</td>
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
