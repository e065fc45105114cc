/**
 * The tenant's own OAuth app per provider and env: its connects (and the refreshes of the
 * connections they make) use it instead of the broker-wide client. The secret is write-only.
 */
import { useState, type FormEvent } from "react";
import type { Env } from "../api/types";
import { useTenant } from "../tenant/tenant-context";
import { ErrorMessage, Loading, Notice } from "../ui/feedback";
import { Section } from "../ui/page";
import { WriteButton } from "../ui/write-button";
import { useOAuthApps, useRemoveOAuthApp, useSaveOAuthApp } from "./tool-queries";

type OAuthProvider = { id: string; name: string; custom: boolean };

export function OAuthAppSection({ providers }: { providers: OAuthProvider[] }) {
  const [env, setEnv] = useState<Env>("test");
  return (
    <Section
      title="Your own OAuth apps"
      id="oauth-apps-heading"
      actions={
        <label className="inline-field">
          <span>Environment</span>
          <select value={env} onChange={(event) => setEnv(event.target.value as Env)}>
            <option value="test">test</option>
            <option value="live">live</option>
          </select>
        </label>
      }
    >
      <p>Register an app at the provider with the redirect URI <code>{`${window.location.origin}/v1/connections/oauth/callback`}</code> to show your own name on its consent screen.</p>
      <ul className="grid-2 plain-list">
        {providers.map((provider) => (
          <OAuthAppCard key={`${provider.id}-${env}`} provider={provider.id} name={provider.name} custom={provider.custom} env={env} />
        ))}
      </ul>
    </Section>
  );
}

function OAuthAppCard({ provider, name, custom, env }: { provider: string; name: string; custom: boolean; env: Env }) {
  const { canWrite } = useTenant();
  const apps = useOAuthApps(env);
  const app = { ...apps, data: apps.data ? (apps.data.get(provider) ?? null) : undefined };
  const save = useSaveOAuthApp(provider, env);
  const remove = useRemoveOAuthApp(provider, env);
  const [clientId, setClientId] = useState("");
  const [clientSecret, setClientSecret] = useState("");
  const [saved, setSaved] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ client_id: clientId.trim(), client_secret: clientSecret }, { onSuccess: () => (setClientSecret(""), setSaved(`Saved: ${name} connects in ${env} use client ${clientId.trim()}.`)) });
  };
  const idPrefix = `oauth-${provider}-${env}`;

  return (
    <li className="card stack" aria-labelledby={`${idPrefix}-title`}>
      <h3 id={`${idPrefix}-title`}>
        {name} {name !== provider ? <span className="muted mono">{provider}</span> : null}
      </h3>
      {app.isPending ? <Loading label="Loading…" /> : null}
      <ErrorMessage error={app.error} prefix="The OAuth app could not be loaded" />
      {app.data === null ? <p className="muted">{custom ? "No OAuth app yet: connects cannot start until you save one." : "Uses the broker-wide client."}</p> : null}
      {app.data ? (
        <p>
          Client <span className="mono">{app.data.client_id}</span>
          {app.data.client_secret_hint ? <> (secret ends in <span className="mono">{app.data.client_secret_hint}</span>)</> : null}
        </p>
      ) : null}
      <form onSubmit={submit}>
        <div className="field">
          <label htmlFor={`${idPrefix}-client-id`}>Client id</label>
          <input id={`${idPrefix}-client-id`} value={clientId} maxLength={255} onChange={(event) => setClientId(event.target.value)} required disabled={!canWrite} />
        </div>
        <div className="field">
          <label htmlFor={`${idPrefix}-client-secret`}>Client secret</label>
          <input id={`${idPrefix}-client-secret`} type="password" autoComplete="off" value={clientSecret} maxLength={1000} onChange={(event) => setClientSecret(event.target.value)} required disabled={!canWrite} />
        </div>
        <WriteButton type="submit" variant="primary" busy={save.isPending} disabled={!clientId.trim() || !clientSecret}>
          Save OAuth app
        </WriteButton>{" "}
        {app.data ? (
          <WriteButton variant="danger" busy={remove.isPending} onClick={() => remove.mutate(undefined, { onSuccess: () => setSaved(custom ? `New ${name} connects in ${env} cannot start until an OAuth app is saved again.` : `New ${name} connects in ${env} use the broker-wide client again.`) })}>
            Stop using it
          </WriteButton>
        ) : null}
      </form>
      <ErrorMessage error={save.error ?? remove.error} prefix="The OAuth app was not changed" />
      {saved ? <Notice tone="success">{saved}</Notice> : null}
    </li>
  );
}
