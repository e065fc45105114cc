/** One provider's tools, built-in and custom together; custom ones carry their risk and delete controls. */
import type { CatalogueTool } from "../api/types";
import { EmptyState, ErrorMessage, Loading } from "../ui/feedback";
import { envLabel, RiskTag, SourceTag } from "./catalogue-labels";
import { useProviderTools } from "./catalogue-queries";
import { ToolActions } from "./tool-actions";

const description = (tool: CatalogueTool) => (typeof tool.declaration?.["description"] === "string" ? tool.declaration["description"] : undefined);

export function ProviderTools({ provider }: { provider: string }) {
  const tools = useProviderTools(provider);
  const rows = tools.data?.data ?? [];
  return (
    <>
      {tools.isPending ? <Loading label="Loading tools…" /> : null}
      <ErrorMessage error={tools.error} prefix="The tools could not be loaded" />
      {tools.data && rows.length === 0 ? <EmptyState>No tools yet: import them from an OpenAPI document below.</EmptyState> : null}
      {rows.length > 0 ? (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Tools of {provider}</caption>
            <thead>
              <tr>
                <th scope="col">Tool</th>
                <th scope="col">Source</th>
                <th scope="col">Risk</th>
                <th scope="col">Effect</th>
                <th scope="col">Env</th>
                <th scope="col">Change</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((tool) => (
                <tr key={tool.name}>
                  <td>
                    <span className="mono tool-name">{tool.name}</span>
                    {tool.mcp_name ? (
                      <div className="field-hint">
                        MCP: <span className="mono">{tool.mcp_name}</span>
                      </div>
                    ) : null}
                    {description(tool) ? <div className="field-hint">{description(tool)}</div> : null}
                  </td>
                  <td className="tool-name">
                    <SourceTag source={tool.source} />
                  </td>
                  <td className="tool-name">
                    <RiskTag risk={tool.risk} />
                  </td>
                  <td>{tool.side_effect}</td>
                  <td className="tool-name">{envLabel(tool.env)}</td>
                  <td>{tool.source === "built_in" ? <span className="muted tool-name">by policy rules only</span> : <ToolActions tool={tool} />}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}
