/**
 * What Jira and Confluence share: Atlassian's OAuth 2.0 (3LO) and the cloud id of the site a
 * connection was granted, which goes into every API URL (https://api.atlassian.com/ex/<product>/<cloud id>).
 */
import type { ProviderDeclaration } from "../declaration-schema.js";

type OAuth2 = Extract<ProviderDeclaration["auth"], { type: "oauth2" }>;

/**
 * 3LO: `audience=api.atlassian.com` is required, `prompt=consent` shows the consent screen (and
 * with it the site picker) every time, and `offline_access` asks for a refresh token. Refresh
 * tokens rotate: each refresh answers a new one and the old one stops working after a short grace.
 */
export function atlassianOAuth(scopes: string[]): OAuth2 {
  return {
    type: "oauth2",
    authorize_url: "https://auth.atlassian.com/authorize",
    token_url: "https://auth.atlassian.com/oauth/token",
    scopes: [...scopes, "offline_access"],
    scope_separator: " ",
    authorize_params: { audience: "api.atlassian.com", prompt: "consent" },
    invalid_grant_errors: ["invalid_grant", "unauthorized_client"],
  };
}

/**
 * The site (cloud id) the user granted: the first of the resources the token can reach. The API
 * URL's host is fixed (api.atlassian.com); the value is one path segment of a UUID's shape.
 */
export const ATLASSIAN_CLOUD_ID: NonNullable<ProviderDeclaration["connection_values"]> = {
  cloud_id: {
    source: "api",
    path: "/oauth/token/accessible-resources",
    pointer: "/0/id",
    display_pointer: "/0/name",
    pattern: "^[0-9a-f-]{36}$",
  },
};

type AdfNode = { type?: string; text?: string; content?: AdfNode[] };

/**
 * Plain text as an Atlassian Document Format document (Jira's v3 API takes rich text only as
 * ADF): one paragraph per blank-line-separated block, single line breaks kept as hard breaks.
 */
export function textToAdf(text: string) {
  const paragraphs = text.split(/\n{2,}/).map((block) => {
    const content: Record<string, unknown>[] = [];
    block.split("\n").forEach((line, index) => {
      if (index > 0) content.push({ type: "hardBreak" });
      if (line !== "") content.push({ type: "text", text: line });
    });
    return content.length ? { type: "paragraph", content } : { type: "paragraph" };
  });
  return { type: "doc", version: 1, content: paragraphs };
}

/** ADF back to plain text, for a model to read: text nodes joined, blocks on their own lines. */
export function adfToText(node: unknown): string | null {
  if (node === null || node === undefined) return null;
  if (typeof node === "string") return node;
  const walk = (current: AdfNode): string => {
    if (current.type === "text") return current.text ?? "";
    if (current.type === "hardBreak") return "\n";
    const inner = (current.content ?? []).map(walk);
    const blocky = current.type === "doc" || current.type === "bulletList" || current.type === "orderedList" || current.type === "table";
    return inner.join(blocky ? "\n" : "");
  };
  return walk(node as AdfNode);
}
