/** The built-in providers of Atlassian (Jira, Confluence), Asana, Trello and GitLab. */
import type { BuiltInProvider } from "../built-in-provider.js";
import { asana } from "./asana.js";
import { confluence } from "./confluence.js";
import { gitlab } from "./gitlab.js";
import { jira } from "./jira.js";
import { trello } from "./trello.js";

export const atlassianProviders: readonly BuiltInProvider[] = [jira, confluence, asana, trello, gitlab];
