/**
 * Turns the request's credential handle into something the call can use, checking that it belongs
 * to this tenant (else 404), to the tool's provider and env, and is still usable.
 */
import type { ConnectionCache } from "../connections/connection-cache.js";
import type { ConnectionRow } from "../connections/connection-queries.js";
import { BrokerError, notFound } from "../errors.js";
import type { Env } from "../ids.js";
import type { SecretItemService } from "../secrets/secret-item-service.js";
import type { CatalogueTool } from "./tool-catalogue.js";

export type CredentialHandle =
  | { kind: "oauth2"; connection: ConnectionRow }
  | { kind: "api_key"; secretItemId: string; open: () => Promise<string> };

export type HandleRequest = { connected_account_id?: string | null | undefined; secret_item_id?: string | null | undefined };

type ResolutionDeps = { connections: Pick<ConnectionCache, "find">; secretItems: Pick<SecretItemService, "resolve"> };

const mismatch = (message: string, reason: string) => new BrokerError("credential_mismatch", message, { reason });

export function createCredentialResolution({ connections, secretItems }: ResolutionDeps) {
  function checkScope(entry: CatalogueTool, env: Env, handle: { provider: string; env: string }, what: string) {
    if (handle.provider !== entry.provider.id) {
      throw mismatch(`the ${what} belongs to provider "${handle.provider}", but ${entry.tool.name} needs "${entry.provider.id}"`, "provider");
    }
    if (handle.env !== env) throw mismatch(`the ${what} is for env "${handle.env}", but this call runs in "${env}"`, "env");
  }

  return {
    async resolve(entry: CatalogueTool, tenantId: string, env: Env, request: HandleRequest): Promise<CredentialHandle> {
      const modes = entry.tool.authModes;
      if (request.connected_account_id) {
        if (!modes.includes("oauth2")) throw mismatch(`${entry.tool.name} takes a secret_item_id, not a connected account`, "auth_mode");
        const connection = await connections.find(tenantId, request.connected_account_id);
        if (!connection) throw notFound("connected account");
        checkScope(entry, env, connection, "connected account");
        if (connection.status !== "active") {
          throw new BrokerError("connection_unusable", `the connected account is ${connection.status}; an operator must reconnect it`, {
            connection_status: connection.status,
            reconnect_required: true,
          });
        }
        return { kind: "oauth2", connection };
      }
      if (request.secret_item_id) {
        if (!modes.includes("api_key")) throw mismatch(`${entry.tool.name} needs a connected_account_id (OAuth), not a secret item`, "auth_mode");
        const item = await secretItems.resolve(tenantId, request.secret_item_id);
        checkScope(entry, env, item, "secret item");
        return { kind: "api_key", secretItemId: item.id, open: item.open };
      }
      const needed = modes.includes("oauth2") ? "connected_account_id" : "secret_item_id";
      throw new BrokerError("credential_required", `${entry.tool.name} needs a ${needed}${modes.length > 1 ? " or secret_item_id" : ""}`, { accepts: modes });
    },
  };
}

export type CredentialResolution = ReturnType<typeof createCredentialResolution>;
