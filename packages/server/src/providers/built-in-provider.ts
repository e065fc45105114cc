/**
 * What a built-in provider is: its declaration, the hooks its vendor needs, and where its tools are
 * checked. Apart from built-in.ts, which lists them, so each vendor family's folder can name the
 * type without importing the list that imports it.
 */
import type { ProviderDeclaration, ToolDeclaration } from "./declaration-schema.js";
import type { ProviderHooks } from "./provider-types.js";

/**
 * The vendor's own published API description a provider's tools are checked against (extracted
 * into packages/server/vendor/openapi/<provider>.json by scripts/vendor-openapi.ts), or, where the
 * vendor publishes none, what the tools are checked against instead.
 */
export type VendorDescription = VendorPackageDescription | { none: string };

export type VendorPackageDescription = {
  /** npm package and version the description was taken from, and the file inside it. */
  package: string;
  version: string;
  file: string;
  licence: string;
  /** Put before a tool's path to get the description's path (Gmail: "/gmail/v1"). */
  pathPrefix?: string;
  /**
   * Where the description is wrong and a tool follows the vendor's documented behaviour
   * instead: the check's exact problem text for that tool, and why. The vendor-description
   * test reports these instead of failing, and fails when one no longer occurs.
   */
  errata?: readonly { tool: string; problem: string; reason: string }[];
};

export type BuiltInProvider = {
  declaration: ProviderDeclaration;
  tools: readonly ToolDeclaration[];
  hooks: ProviderHooks;
  /** Arguments for every tool that its sandbox accepts: the suite and the demo call each tool with them. */
  examples?: Readonly<Record<string, Record<string, unknown>>>;
  vendorDescription?: VendorDescription;
  /**
   * The vendor family whose one OAuth app (BROKER_PROVIDER_<FAMILY>_CLIENT_ID and _SECRET) serves
   * this provider unless its own client is set: `google`, `microsoft`, `atlassian`. Not part of
   * the published declaration schema: a tenant gives each of its providers its own OAuth app.
   */
  oauthClientFamily?: string;
  /** Other ids that name this provider, and `<alias>.<operation>` its tools (GitHub's vendor name for `scm`). */
  aliases?: readonly string[];
};
