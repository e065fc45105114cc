/** The built-in providers of Atlassian (Jira, Confluence), Asana, Trello and GitLab. */
import type { BuiltInProvider } from "../built-in.js";

export const atlassianProviders: readonly BuiltInProvider[] = [];
