/** Where a provider comes from and how its credential travels; a custom one can be removed. */
import { useState } from "react";
import type { CatalogueProvider } from "../api/types";
import { Details } from "../ui/bits";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { Time } from "../ui/time";
import { WriteButton } from "../ui/write-button";
import { authModeLabel, envLabel, SourceTag } from "./catalogue-labels";
import { useDeleteProvider } from "./catalogue-queries";
import { ProviderIcon } from "./provider-identity";

const field = (value: unknown, key: string) => (typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined);
const text = (value: unknown) => (typeof value === "string" ? value : undefined);

/** "API key in header X-Api-Key", "OAuth", from the declaration when there is one. */
function authDescription(provider: CatalogueProvider): string {
  const auth = field(provider.declaration, "auth");
  if (text(field(auth, "type")) === "api_key") return `API key in ${text(field(auth, "in")) ?? "header"} ${text(field(auth, "name")) ?? ""}`.trim();
  return provider.auth_modes.map(authModeLabel).join(", ");
}

export function ProviderSummary({ provider, onDeleted }: { provider: CatalogueProvider; onDeleted(): void }) {
  const custom = provider.source === "custom";
  return (
    <div className="stack">
      <div className="section-header">
        <h3 className="provider-label">
          <ProviderIcon provider={provider} />
          {provider.display_name} <span className="muted mono">{provider.id}</span>
        </h3>
        <SourceTag source={provider.source} />
      </div>
      <Details
        items={[
          ["About", text(field(provider.declaration, "description"))],
          ["Also named", provider.aliases.length ? <span className="mono">{provider.aliases.join(", ")}</span> : undefined],
          ["Credentials", authDescription(provider)],
          ["API base URL", custom ? <span className="mono">{text(field(provider.declaration, "api_base_url")) ?? "—"}</span> : undefined],
          ["Env", envLabel(provider.env)],
          ["Declared", provider.created_at ? <Time value={provider.created_at} /> : undefined],
        ]}
      />
      {custom ? <DeleteProvider provider={provider} onDeleted={onDeleted} /> : null}
    </div>
  );
}

function DeleteProvider({ provider, onDeleted }: { provider: CatalogueProvider; onDeleted(): void }) {
  const remove = useDeleteProvider(provider.id);
  const [confirming, setConfirming] = useState(false);
  return (
    <div>
      <WriteButton variant="danger" onClick={() => (remove.reset(), setConfirming(true))}>
        Delete provider {provider.id}
      </WriteButton>
      {confirming ? (
        <ConfirmDialog
          title={`Delete the provider ${provider.id} and its tools?`}
          confirmLabel="Delete provider"
          onConfirm={() => remove.mutate(undefined, { onSuccess: () => (setConfirming(false), onDeleted()) })}
          onCancel={() => setConfirming(false)}
          busy={remove.isPending}
          error={remove.error}
        >
          <p>Its connections stay until you revoke them on the Connections page, but no tool uses them any more.</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
