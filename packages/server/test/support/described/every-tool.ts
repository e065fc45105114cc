/**
 * What the every-tool test needs besides the tool world: which fake serves a provider, and one
 * connection (OAuth through the sandbox) or secret item (an API key the sandbox issued) per provider.
 */
import { randomUUID } from "node:crypto";
import type { BuiltInProvider } from "../../../src/providers/built-in-provider.js";
import type { FakeProvider, FakeUpstreams } from "../fake-upstreams/index.js";
import { connectAccount } from "../connect.js";
import { asOperator, call } from "../http.js";
import type { ToolWorld } from "../tool-execution.js";

const HAND_WRITTEN: Record<string, "github" | "slack" | "linear"> = { scm: "github", chat: "slack", tracker: "linear" };

export function sandboxOf(fakes: FakeUpstreams, providerId: string): FakeProvider<unknown> {
  const handWritten = HAND_WRITTEN[providerId];
  const sandbox = handWritten ? fakes[handWritten] : fakes.described[providerId];
  if (!sandbox) throw new Error(`no sandbox serves ${providerId}`);
  return sandbox as FakeProvider<unknown>;
}

export type Handle = { connected_account_id: string } | { secret_item_id: string };

/** A value for each `connect_input` connection value: the sandbox does not care which. */
function connectInputs(provider: BuiltInProvider): Record<string, string> {
  const values = Object.entries(provider.declaration.connection_values ?? {}).filter(([, value]) => value.source === "connect_input");
  return Object.fromEntries(values.map(([name]) => [name, "sandbox"]));
}

export async function storeApiKey(world: ToolWorld, provider: BuiltInProvider): Promise<Handle> {
  const id = provider.declaration.id;
  const value = id === "tracker" ? world.fakes.linear.addApiKey() : world.fakes.described[id]!.issueApiKey();
  const inputs = connectInputs(provider);
  const created = await call(world.broker, "POST", "/v1/secrets", {
    ...asOperator(world.tenant),
    body: { provider: id, env: "test", name: `${id}-${randomUUID()}`, value, ...(Object.keys(inputs).length ? { connection_values: inputs } : {}) },
  });
  if (created.status !== 201) throw new Error(`secret item for ${id} not created: ${created.status} ${created.text}`);
  return { secret_item_id: created.body.secret_item_id as string };
}

/** OAuth through the sandbox for an oauth2 provider, else a stored API key. */
export async function handleFor(world: ToolWorld, provider: BuiltInProvider): Promise<Handle> {
  if (provider.declaration.auth.type === "api_key") return storeApiKey(world, provider);
  return { connected_account_id: await connectAccount(world.broker, world.tenant, provider.declaration.id, { env: "test" }) };
}
