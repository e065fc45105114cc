/**
 * Stores an API key for a provider that takes keys: shared, or for one end user. The value is
 * typed into a password field and cleared once stored; the broker answers only metadata and a hint.
 */
import { useState, type FormEvent } from "react";
import type { CatalogueProvider, Env } from "../api/types";
import { useTenant } from "../tenant/tenant-context";
import { ErrorMessage } from "../ui/feedback";
import { WriteButton } from "../ui/write-button";
import { useCreateSecretItem } from "./secret-queries";

type ConnectInput = { name: string; label: string; description?: string };

/** The values the provider asks for with a key (its `connection_values` with source `connect_input`, e.g. a Zendesk subdomain). */
function connectInputsOf(provider: CatalogueProvider | undefined): ConnectInput[] {
  const declared = (provider?.declaration as { connection_values?: Record<string, { source?: string; label?: string; description?: string }> } | null)?.connection_values ?? {};
  return Object.entries(declared)
    .filter(([, value]) => value.source === "connect_input")
    .map(([name, value]) => ({ name, label: value.label ?? name, ...(value.description ? { description: value.description } : {}) }));
}

type Props = { providers: CatalogueProvider[]; initialProvider: string; initialEnv: Env; onStored(message: { name: string; id: string; provider: string; hint: string | null }): void };

export function SecretForm({ providers, initialProvider, initialEnv, onStored }: Props) {
  const { canWrite } = useTenant();
  const create = useCreateSecretItem();
  const [provider, setProvider] = useState(providers.some((p) => p.id === initialProvider) ? initialProvider : (providers[0]?.id ?? ""));
  const [env, setEnv] = useState<Env>(initialEnv);
  const [owner, setOwner] = useState<"shared" | "end_user">("shared");
  const [endUserId, setEndUserId] = useState("");
  const [name, setName] = useState("");
  const [value, setValue] = useState("");
  const [inputs, setInputs] = useState<Record<string, string>>({});
  const chosen = providers.find((p) => p.id === provider);
  const asked = connectInputsOf(chosen);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const connection_values = Object.fromEntries(asked.map((input) => [input.name, (inputs[input.name] ?? "").trim()]));
    const body = { provider, env, name: name.trim(), value, ...(owner === "end_user" ? { end_user_id: endUserId.trim() } : {}), ...(asked.length ? { connection_values } : {}) };
    create.mutate(body, {
      onSuccess: (item) => {
        // The value leaves the page's state as soon as the broker has it.
        setValue("");
        setName("");
        onStored({ name: item.name, id: item.secret_item_id, provider: item.provider, hint: item.value_hint });
      },
    });
  };

  return (
    <form className="card stack" onSubmit={submit} aria-label="Store an API key">
      <div className="form-grid">
        <div className="field">
          <label htmlFor="secret-provider">Provider</label>
          <select id="secret-provider" value={provider} onChange={(event) => (setProvider(event.target.value), setInputs({}))} disabled={!canWrite}>
            {providers.map((p) => (
              <option key={p.id} value={p.id}>
                {p.display_name} ({p.id})
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="secret-env">Environment</label>
          <select id="secret-env" value={env} onChange={(event) => setEnv(event.target.value as Env)} disabled={!canWrite}>
            <option value="test">test</option>
            <option value="live">live</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="secret-owner">Who may use it</label>
          <select id="secret-owner" value={owner} onChange={(event) => setOwner(event.target.value as "shared" | "end_user")} disabled={!canWrite}>
            <option value="shared">Shared: every call of this tenant</option>
            <option value="end_user">One end user only</option>
          </select>
        </div>
        {owner === "end_user" ? (
          <div className="field">
            <label htmlFor="secret-end-user">End user id</label>
            <input id="secret-end-user" value={endUserId} maxLength={255} required onChange={(event) => setEndUserId(event.target.value)} disabled={!canWrite} />
          </div>
        ) : null}
        <div className="field">
          <label htmlFor="secret-name">Name</label>
          <input id="secret-name" value={name} maxLength={200} required placeholder="e.g. production" onChange={(event) => setName(event.target.value)} disabled={!canWrite} />
        </div>
        {asked.map((input) => (
          <div className="field" key={input.name}>
            <label htmlFor={`secret-value-${input.name}`}>{input.label}</label>
            <input id={`secret-value-${input.name}`} value={inputs[input.name] ?? ""} maxLength={63} required onChange={(event) => setInputs((current) => ({ ...current, [input.name]: event.target.value }))} disabled={!canWrite} />
            {input.description ? <p className="field-hint">{input.description}</p> : null}
          </div>
        ))}
        <div className="field">
          <label htmlFor="secret-value">API key</label>
          <input id="secret-value" type="password" autoComplete="off" spellCheck={false} value={value} maxLength={8192} required onChange={(event) => setValue(event.target.value)} disabled={!canWrite} />
          <p className="field-hint">Stored encrypted. Nobody can read it back, you included: the list shows only its last four characters.</p>
        </div>
      </div>
      <ErrorMessage error={create.error} prefix="The API key was not stored" />
      <div className="button-row">
        <WriteButton type="submit" variant="primary" busy={create.isPending} disabled={!provider || !name.trim() || !value || (owner === "end_user" && !endUserId.trim())}>
          Store API key
        </WriteButton>
      </div>
    </form>
  );
}
