/** One Connect button per provider; a provider the broker cannot connect yet says which variables it needs. */
import { useState } from "react";
import type { CatalogueProvider, Env, ProviderReadiness } from "../api/types";
import { useProviders, useProviderTools } from "../tools/catalogue-queries";
import { ProviderIcon, providerScopes, ScopeTable } from "../tools/provider-identity";
import { useOAuthApp } from "../tools/tool-queries";
import { StatusTag } from "../ui/bits";
import { ErrorMessage, Loading } from "../ui/feedback";
import { Section } from "../ui/page";
import { WriteButton } from "../ui/write-button";
import { useProviderReadiness, useStartConnect } from "./connection-queries";

export function ProvidersPanel() {
  const health = useProviderReadiness();
  const catalogue = useProviders();
  const declared = new Map((catalogue.data?.data ?? []).map((provider) => [provider.id, provider]));
  const start = useStartConnect();
  const [env, setEnv] = useState<Env>("test");
  const [starting, setStarting] = useState<string | null>(null);
  const connect = (provider: string) => {
    setStarting(provider);
    start.mutate({ provider, env }, { onError: () => setStarting(null) });
  };
  return (
    <Section
      title="Connect an account"
      id="connect-heading"
      actions={
        <label className="inline-field">
          <span>Environment for new connections</span>
          <select value={env} onChange={(event) => setEnv(event.target.value as Env)}>
            <option value="test">test</option>
            <option value="live">live</option>
          </select>
        </label>
      }
    >
      {health.isPending ? <Loading label="Loading providers…" /> : null}
      <ErrorMessage error={health.error} prefix="The providers could not be loaded" />
      <ErrorMessage error={start.error} prefix="Connecting could not start" />
      <ul className="grid-2 plain-list">
        {(health.data?.providers ?? []).map((provider) => (
          <ProviderCard key={`${provider.id}-${env}`} provider={provider} declared={declared.get(provider.id)} env={env} busy={starting === provider.id} onConnect={() => connect(provider.id)} />
        ))}
      </ul>
    </Section>
  );
}

/** Ready when the broker has a client for it, or the tenant brought its own OAuth app for this env (Tools page). */
function ProviderCard({ provider, declared, env, busy, onConnect }: { provider: ProviderReadiness; declared: CatalogueProvider | undefined; env: Env; busy: boolean; onConnect: () => void }) {
  const ownApp = useOAuthApp(provider.id, env);
  const ready = provider.ready || Boolean(ownApp.data);
  const [showScopes, setShowScopes] = useState(false);
  const scopes = declared ? providerScopes(declared) : [];
  return (
    <li className="card stack">
      <div className="section-header">
        <h3 id={`provider-${provider.id}`} className="provider-label">
          <ProviderIcon provider={declared ?? { display_name: provider.id, declaration: null }} />
          {declared?.display_name ?? provider.id} <span className="muted mono">{provider.id}</span>
        </h3>
        {ready ? <StatusTag status={provider.ready ? "Ready" : "Ready (your OAuth app)"} tone="good" /> : <StatusTag status="Not configured" tone="warn" />}
      </div>
      {ready ? null : (
        <p className="field-hint">
          Set {(provider.missing ?? []).map((name, index) => (
            <span key={name}>
              {index > 0 ? ", " : ""}
              <code>{name}</code>
            </span>
          ))}{" "}
          on the broker and restart it, or bring your own OAuth app on the Tools page.
        </p>
      )}
      {scopes.length ? (
        <details className="provider-scopes" onToggle={(event) => setShowScopes((event.target as HTMLDetailsElement).open)}>
          <summary>
            Asks for {scopes.length} scope{scopes.length === 1 ? "" : "s"}: <span className="mono">{scopes.join(" ")}</span>
          </summary>
          {showScopes && declared ? <ProviderScopeTable provider={declared} /> : null}
        </details>
      ) : null}
      <WriteButton
        variant="primary"
        onClick={onConnect}
        disabled={!ready}
        busy={busy}
        title={ready ? `Connect a ${provider.id} account (${env})` : `Not configured: needs ${(provider.missing ?? []).join(", ")}`}
        aria-describedby={`provider-${provider.id}`}
      >
        Connect
      </WriteButton>
    </li>
  );
}

/** Which tools need which scope, read when the operator opens the list. */
function ProviderScopeTable({ provider }: { provider: CatalogueProvider }) {
  const tools = useProviderTools(provider.id);
  if (tools.isPending) return <Loading label="Loading tools…" />;
  return tools.data ? <ScopeTable provider={provider} tools={tools.data.data} /> : <ErrorMessage error={tools.error} prefix="The tools could not be loaded" />;
}
