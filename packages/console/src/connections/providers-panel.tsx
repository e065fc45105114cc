/**
 * One card per provider the tenant can use, built-in and its own (GET /v1/providers), with how to
 * connect each: Connect (OAuth) when the broker or the tenant has a client for it, Add API key
 * for a provider that takes keys (it opens the API keys page's form for that provider). A provider
 * that cannot connect yet says what it needs.
 */
import { useState } from "react";
import { useNavigate } from "react-router-dom";
import type { CatalogueProvider, Env, ProviderReadiness } from "../api/types";
import { useProviders, useProviderTools } from "../tools/catalogue-queries";
import { ProviderIcon, providerScopes, ScopeTable } from "../tools/provider-identity";
import { useOAuthApps } from "../tools/tool-queries";
import { StatusTag } from "../ui/bits";
import { ErrorMessage, Loading } from "../ui/feedback";
import { Section } from "../ui/page";
import { WriteButton } from "../ui/write-button";
import { useProviderReadiness, useStartConnect } from "./connection-queries";

const servesEnv = (provider: CatalogueProvider, env: Env) => provider.env === "both" || provider.env === env;

export function ProvidersPanel() {
  const health = useProviderReadiness();
  const catalogue = useProviders();
  const [env, setEnv] = useState<Env>("test");
  const ownApps = useOAuthApps(env);
  const readiness = new Map((health.data?.providers ?? []).map((provider) => [provider.id, provider]));
  const start = useStartConnect();
  const [starting, setStarting] = useState<string | null>(null);
  const connect = (provider: string) => {
    setStarting(provider);
    start.mutate({ provider, env }, { onError: () => setStarting(null) });
  };
  const usable = (catalogue.data?.data ?? []).filter((provider) => servesEnv(provider, env) && provider.auth_modes.length > 0);
  const card = (provider: CatalogueProvider) => (
    <ProviderCard
      key={`${provider.id}-${env}`}
      provider={provider}
      readiness={readiness.get(provider.id)}
      ownApp={ownApps.data?.has(provider.id) ?? false}
      env={env}
      busy={starting === provider.id}
      onConnect={() => connect(provider.id)}
    />
  );
  const custom = usable.filter((provider) => provider.source === "custom");
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
      {catalogue.isPending || health.isPending ? <Loading label="Loading providers…" /> : null}
      <ErrorMessage error={catalogue.error ?? health.error ?? ownApps.error} prefix="The providers could not be loaded" />
      <ErrorMessage error={start.error} prefix="Connecting could not start" />
      {custom.length > 0 ? (
        <>
          <h3 className="subheading">Your own providers</h3>
          <ul className="grid-2 plain-list" aria-label="Your own providers">
            {custom.map(card)}
          </ul>
          <h3 className="subheading">Built-in providers</h3>
        </>
      ) : null}
      <ul className="grid-2 plain-list" aria-label="Built-in providers">
        {usable.filter((provider) => provider.source === "built_in").map(card)}
      </ul>
    </Section>
  );
}

type CardProps = { provider: CatalogueProvider; readiness: ProviderReadiness | undefined; ownApp: boolean; env: Env; busy: boolean; onConnect: () => void };

/** OAuth is ready when the broker has a client for it, or the tenant brought its own app for this env (Tools page); a custom provider has only the latter. */
function ProviderCard({ provider, readiness, ownApp, env, busy, onConnect }: CardProps) {
  const navigate = useNavigate();
  const oauth = provider.auth_modes.includes("oauth2");
  const apiKey = provider.auth_modes.includes("api_key");
  const ready = oauth && (Boolean(readiness?.ready) || ownApp);
  const [showScopes, setShowScopes] = useState(false);
  const scopes = providerScopes(provider);
  const missing = readiness?.missing ?? [];
  return (
    <li className="card stack">
      <div className="section-header">
        <h3 id={`provider-${provider.id}`} className="provider-label">
          <ProviderIcon provider={provider} />
          {provider.display_name} <span className="muted mono">{provider.id}</span>
        </h3>
        {oauth ? ready ? <StatusTag status={readiness?.ready ? "Ready" : "Ready (your OAuth app)"} tone="good" /> : <StatusTag status="Not configured" tone="warn" /> : <StatusTag status="API key" tone="neutral" />}
      </div>
      <p className="field-hint">
        {oauth && apiKey ? "Connect through OAuth, or store an API key for it." : oauth ? "Connects through OAuth." : "Takes an API key: store it once, then agents name it by its secret_item_id."}
      </p>
      {oauth && !ready ? (
        provider.source === "custom" ? (
          <p className="field-hint">Your own provider has no broker-wide OAuth client: save your OAuth app for it on the Tools page ({env}) first.</p>
        ) : (
          <p className="field-hint">
            Set {missing.map((name, index) => (
              <span key={name}>
                {index > 0 ? ", " : ""}
                <code>{name}</code>
              </span>
            ))}{" "}
            on the broker and restart it, or bring your own OAuth app on the Tools page.
          </p>
        )
      ) : null}
      {scopes.length ? (
        <details className="provider-scopes" onToggle={(event) => setShowScopes((event.target as HTMLDetailsElement).open)}>
          <summary>
            Asks for {scopes.length} scope{scopes.length === 1 ? "" : "s"}: <span className="mono">{scopes.join(" ")}</span>
          </summary>
          {showScopes ? <ProviderScopeTable provider={provider} /> : null}
        </details>
      ) : null}
      <div className="button-row">
        {oauth ? (
          <WriteButton
            variant="primary"
            onClick={onConnect}
            disabled={!ready}
            busy={busy}
            title={ready ? `Connect a ${provider.display_name} account (${env})` : "Not configured yet"}
            aria-describedby={`provider-${provider.id}`}
          >
            Connect
          </WriteButton>
        ) : null}
        {apiKey ? (
          <WriteButton variant={oauth ? "secondary" : "primary"} onClick={() => navigate(`/api-keys?${new URLSearchParams({ provider: provider.id, env })}`)} aria-describedby={`provider-${provider.id}`}>
            Add API key
          </WriteButton>
        ) : null}
      </div>
    </li>
  );
}

/** Which tools need which scope, read when the operator opens the list. */
function ProviderScopeTable({ provider }: { provider: CatalogueProvider }) {
  const tools = useProviderTools(provider.id);
  if (tools.isPending) return <Loading label="Loading tools…" />;
  return tools.data ? <ScopeTable provider={provider} tools={tools.data.data} /> : <ErrorMessage error={tools.error} prefix="The tools could not be loaded" />;
}
