/**
 * The built-in providers. Each is a declaration, the same data a tenant sends (and checked
 * against the same published schema), plus the few named hooks in its folder for what its
 * vendor does that data cannot say.
 */
import type { ProviderDeclaration, ToolDeclaration } from "../catalogue/declaration-schema.js";
import { chatDeclaration, chatTools } from "./chat/chat-declaration.js";
import { chatHooks } from "./chat/chat-hooks.js";
import type { ProviderHooks } from "./provider-types.js";
import { scmDeclaration, scmTools } from "./scm/scm-declaration.js";
import { scmHooks } from "./scm/scm-hooks.js";
import { trackerDeclaration, trackerTools } from "./tracker/tracker-declaration.js";
import { trackerHooks } from "./tracker/tracker-hooks.js";

export type BuiltInProvider = { declaration: ProviderDeclaration; tools: readonly ToolDeclaration[]; hooks: ProviderHooks };

export const BUILT_IN_PROVIDERS: readonly BuiltInProvider[] = [
  { declaration: scmDeclaration, tools: scmTools, hooks: scmHooks },
  { declaration: chatDeclaration, tools: chatTools, hooks: chatHooks },
  { declaration: trackerDeclaration, tools: trackerTools, hooks: trackerHooks },
];
