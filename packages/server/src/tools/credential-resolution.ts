/**
 * Turns the request's credential handle into something the call can use. A handle must belong to
 * this tenant and be one the caller may use — the caller's end user's own, or a shared one —
 * else it answers exactly as an unknown handle does (404). It must also fit the tool's provider
 * and env and still be usable. Without a handle, the one usable credential is chosen: the end
 * user's own first, else a shared one; none is credential_required, several credential_ambiguous.
 */
import type { ConnectionCache } from "../connections/connection-cache.js";
import type { Connection } from "../connections/connection.js";
import type { CredentialRefresher } from "../connections/credential-refresher.js";
import { plainValues, type ConnectionValues } from "../providers/connection-values.js";
import { BrokerError, notFound } from "../errors.js";
import type { TestOrLive } from "../ids.js";
import type { SecretItemService } from "../secrets/secret-item-service.js";
import type { CatalogueTool } from "../catalogue/tool-catalogue.js";

/**
 * The credential a call resolved to. A connection's tokens are opened (and refreshed) only by the
 * credential refresher, which the upstream call asks; an API key by its `open`, which only reads.
 * Plaintext is never part of a handle.
 */
export type CredentialHandle =
  | {
      kind: "oauth2";
      /** The connection's values for the provider's API base URL (providers/connection-values.ts). */
      connectionValues: ConnectionValues;
      connectionId: string;
      connection: Connection;
    }
  | { kind: "api_key"; secretItemId: string; connectionValues: ConnectionValues; open: () => Promise<string> };

export type HandleRequest = { connected_account_id?: string | null | undefined; secret_item_id?: string | null | undefined };

/** Who asks: the handles a caller may use depend on its tenant, env and end user. */
export type HandleOwner = { tenantId: string; env: TestOrLive; endUserId: string | null };

type ResolutionDeps = {
  connections: Pick<ConnectionCache, "find" | "listUsable">;
  refresher: Pick<CredentialRefresher, "assertOrigins">;
  secretItems: Pick<SecretItemService, "resolve" | "listUsable" | "assertOrigins">;
};

type Candidate = { kind: "oauth2" | "api_key"; id: string; endUserId: string | null; label: string | null; displayName: string };

const mismatch = (message: string, reason: string) => new BrokerError("credential_mismatch", message, { reason });

/** A handle of another end user is as unknown as a handle that does not exist. */
const usableBy = (owner: HandleOwner, handle: { endUserId: string | null }) => handle.endUserId === null || handle.endUserId === owner.endUserId;

export function createCredentialResolution({ connections, refresher, secretItems }: ResolutionDeps) {
  const oauth2Handle = (connection: Connection): CredentialHandle => ({
    kind: "oauth2",
    connectionId: connection.id,
    connectionValues: plainValues(connection.connectionValues),
    connection,
  });

  function checkScope(entry: CatalogueTool, env: TestOrLive, handle: { provider: string; env: string }, what: string) {
    if (handle.provider !== entry.provider.id) {
      throw mismatch(`the ${what} belongs to provider "${handle.provider}", but ${entry.tool.name} needs "${entry.provider.id}"`, "provider");
    }
    if (handle.env !== env) throw mismatch(`the ${what} is for env "${handle.env}", but this call runs in "${env}"`, "env");
  }

  async function connectionHandle(entry: CatalogueTool, owner: HandleOwner, id: string): Promise<CredentialHandle> {
    const connection = await connections.find(owner.tenantId, id);
    if (!connection || !usableBy(owner, connection)) throw notFound("connected account");
    checkScope(entry, owner.env, connection, "connected account");
    if (connection.status !== "active") {
      throw new BrokerError("connection_unusable", `the connected account is ${connection.status}; ${connection.endUserId ? "its end user" : "an operator"} must reconnect it`, {
        connection_status: connection.status,
        reconnect_required: true,
        ...(connection.reconnectReason ? { reason: connection.reconnectReason } : {}),
      });
    }
    // Before anything is opened or sent: the tokens go only where they were issued.
    await refresher.assertOrigins(connection, entry.provider);
    return oauth2Handle(connection);
  }

  async function secretItemHandle(entry: CatalogueTool, owner: HandleOwner, id: string): Promise<CredentialHandle> {
    const item = await secretItems.resolve(owner.tenantId, id);
    if (!usableBy(owner, item)) throw notFound("secret item");
    checkScope(entry, owner.env, item, "secret item");
    await secretItems.assertOrigins(item, entry.provider);
    return { kind: "api_key", secretItemId: item.id, connectionValues: item.connectionValues, open: item.open };
  }

  async function candidatesFor(entry: CatalogueTool, owner: HandleOwner): Promise<Candidate[]> {
    const scope = { tenantId: owner.tenantId, env: owner.env, provider: entry.provider.id, endUserId: owner.endUserId };
    const modes = entry.tool.authModes;
    const [connected, items] = await Promise.all([
      modes.includes("oauth2") ? connections.listUsable(scope) : [],
      modes.includes("api_key") ? secretItems.listUsable(scope) : [],
    ]);
    return [
      ...connected.map((connection) => ({ kind: "oauth2" as const, id: connection.id, endUserId: connection.endUserId, label: connection.label, displayName: connection.displayName })),
      ...items.map((item) => ({ kind: "api_key" as const, id: item.id, endUserId: item.end_user_id, label: item.label, displayName: item.name })),
    ];
  }

  /** The one usable credential, the end user's own before the shared ones. */
  async function defaultHandle(entry: CatalogueTool, owner: HandleOwner): Promise<CredentialHandle> {
    const all = await candidatesFor(entry, owner);
    const own = all.filter((candidate) => candidate.endUserId !== null);
    const pool = own.length > 0 ? own : all;
    if (pool.length === 1) {
      const [only] = pool as [Candidate];
      return only.kind === "oauth2" ? connectionHandle(entry, owner, only.id) : secretItemHandle(entry, owner, only.id);
    }
    const modes = entry.tool.authModes;
    if (pool.length === 0) {
      const needed = modes.includes("oauth2") ? "connected_account_id" : "secret_item_id";
      throw new BrokerError(
        "credential_required",
        `${entry.tool.name} needs a ${needed}${modes.length > 1 ? " or secret_item_id" : ""}, and no usable ${entry.provider.displayName} account is connected` +
          (owner.endUserId
            ? ` for this end user: the person must connect one in the application they use (it has been told), then call again`
            : ": an operator connects shared accounts in the console"),
        { accepts: modes, provider: entry.provider.id },
      );
    }
    throw new BrokerError("credential_ambiguous", `several ${entry.provider.displayName} accounts could serve ${entry.tool.name}; name one`, {
      candidates: pool.map((candidate) => ({
        ...(candidate.kind === "oauth2" ? { connected_account_id: candidate.id } : { secret_item_id: candidate.id }),
        label: candidate.label,
        display_name: candidate.displayName,
        owner: candidate.endUserId === null ? "shared" : "end_user",
      })),
    });
  }

  return {
    async resolve(entry: CatalogueTool, owner: HandleOwner, request: HandleRequest): Promise<CredentialHandle> {
      const modes = entry.tool.authModes;
      if (request.connected_account_id) {
        if (!modes.includes("oauth2")) throw mismatch(`${entry.tool.name} takes a secret_item_id, not a connected account`, "auth_mode");
        return connectionHandle(entry, owner, request.connected_account_id);
      }
      if (request.secret_item_id) {
        if (!modes.includes("api_key")) throw mismatch(`${entry.tool.name} needs a connected_account_id (OAuth), not a secret item`, "auth_mode");
        return secretItemHandle(entry, owner, request.secret_item_id);
      }
      return defaultHandle(entry, owner);
    },
  };
}

export type CredentialResolution = ReturnType<typeof createCredentialResolution>;
