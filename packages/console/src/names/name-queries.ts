/**
 * Names for the ids the broker's answers carry: a provider's display name for its id, and for an
 * actor (`{type, id}` in the audit log, an approval's `decided_by`) the person, app, key or end
 * user behind it. Read from the lists the console loads anyway (providers, members, agent apps,
 * control keys), cached by TanStack Query under the same keys as the pages that show them.
 */
import { useQuery } from "@tanstack/react-query";
import { api } from "../api/client";
import { useProviders } from "../tools/catalogue-queries";
import { useTenant } from "../tenant/tenant-context";

/** A provider's display name by its id; the id itself for one the catalogue does not (or no longer) list. */
export function useProviderNames(): (id: string) => string {
  const providers = useProviders();
  const names = new Map((providers.data?.data ?? []).flatMap((provider) => [[provider.id, provider.display_name] as const, ...provider.aliases.map((alias) => [alias, provider.display_name] as const)]));
  return (id) => names.get(id) ?? id;
}

export type ActorLabel = { name: string; kind: string; id: string };
export type Actor = { type: string; id: string };

const KIND: Record<string, string> = { operator: "member", agent_app: "agent app", control_key: "control key", end_user: "end user", system: "the broker", cli: "command line" };

/**
 * Who an actor is, in words. Operators are `issuer|subject` (the identity the broker verified): a
 * member's display name, else their email, else their sign-in subject. A member who has left is
 * shown by subject. Agent apps by name, control keys by their prefix, end users by their id.
 */
export function useActorNames(): (actor: Actor) => ActorLabel {
  const { tenant_id } = useTenant();
  const stale = { staleTime: 60_000 };
  const members = useQuery({ queryKey: [tenant_id, "members"], queryFn: () => api("get", "/v1/members"), ...stale });
  const apps = useQuery({ queryKey: [tenant_id, "agent-apps"], queryFn: () => api("get", "/v1/agent-apps"), ...stale });
  const keys = useQuery({ queryKey: [tenant_id, "keys"], queryFn: () => api("get", "/v1/keys"), ...stale });
  const people = new Map((members.data?.data ?? []).map((member) => [`${member.issuer}|${member.subject}`, member.display_name ?? member.email ?? member.subject]));
  const appNames = new Map((apps.data?.data ?? []).map((app) => [app.id, app.name]));
  const keyNames = new Map((keys.data?.data ?? []).map((key) => [key.id, `${key.prefix}… (${key.name})`]));
  return ({ type, id }) => {
    const kind = KIND[type] ?? type.replace(/_/g, " ");
    if (type === "operator") return { kind, id, name: people.get(id) ?? id.slice(id.lastIndexOf("|") + 1) };
    if (type === "agent_app") return { kind, id, name: appNames.get(id) ?? id };
    if (type === "control_key") return { kind, id, name: keyNames.get(id) ?? id };
    if (type === "system") return { kind, id, name: `Broker (${id.replace(/-/g, " ")})` };
    if (type === "cli") return { kind, id, name: "toolbroker CLI" };
    return { kind, id, name: id };
  };
}

/**
 * An operator as the broker records one in a plain string (an approval's `decided_by`, a policy
 * version's `updated_by`): `issuer|subject`, turned into the member's name; anything else (a
 * decision on the end user's hosted page, through a channel) is shown as it is.
 */
export function useOperatorName(): (recorded: string) => string {
  const actorName = useActorNames();
  return (recorded) => (recorded.includes("|") ? actorName({ type: "operator", id: recorded }).name : recorded);
}
