/** One Connect button per provider; a provider the broker cannot connect yet says which variables it needs. */
import { useState } from "react";
import type { Env, ProviderReadiness } from "../api/types";
import { useOAuthApp } from "../tools/tool-queries";
import { StatusTag } from "../ui/bits";
import { ErrorMessage, Loading } from "../ui/feedback";
import { Section } from "../ui/page";
import { WriteButton } from "../ui/write-button";
import { useProviderReadiness, useStartConnect } from "./connection-queries";

export function ProvidersPanel() {
  const health = useProviderReadiness();
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
          <ProviderCard key={`${provider.id}-${env}`} provider={provider} env={env} busy={starting === provider.id} onConnect={() => connect(provider.id)} />
        ))}
      </ul>
    </Section>
  );
}

/** Ready when the broker has a client for it, or the tenant brought its own OAuth app for this env (Tools page). */
function ProviderCard({ provider, env, busy, onConnect }: { provider: ProviderReadiness; env: Env; busy: boolean; onConnect: () => void }) {
  const ownApp = useOAuthApp(provider.id, env);
  const ready = provider.ready || Boolean(ownApp.data);
  return (
    <li className="card stack">
      <div className="section-header">
        <h3 id={`provider-${provider.id}`}>{provider.id}</h3>
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
