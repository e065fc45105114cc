/** The built-in providers' vendored OpenAPI descriptions (vendor/openapi/<provider>.json), for the checks. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import type { OpenApiDocument } from "../../scripts/vendor-openapi/schema-views.js";
import { BUILT_IN_PROVIDERS } from "../../src/providers/built-in.js";
import type { BuiltInProvider, VendorPackageDescription } from "../../src/providers/built-in-provider.js";

export const VENDORED_DIR = new URL("../../vendor/openapi/", import.meta.url);

export type PackageDescribed = BuiltInProvider & { vendorDescription: VendorPackageDescription };

export const PACKAGE_DESCRIBED: PackageDescribed[] = BUILT_IN_PROVIDERS.filter((provider): provider is PackageDescribed => !!provider.vendorDescription && "package" in provider.vendorDescription);

export const NOT_DESCRIBED = BUILT_IN_PROVIDERS.filter((provider) => !provider.vendorDescription || "none" in provider.vendorDescription);

export const regenerateCommand = (id: string) => `npm run vendor:openapi -w @toolbroker/server -- ${id}`;

const cache = new Map<string, OpenApiDocument>();

/** A provider's vendored description; a missing one throws, saying how to write it. */
export function vendoredDescription(id: string): OpenApiDocument {
  let doc = cache.get(id);
  if (!doc) {
    const file = new URL(`${id}.json`, VENDORED_DIR);
    if (!existsSync(file)) throw new Error(`vendor/openapi/${id}.json is missing: run ${regenerateCommand(id)}`);
    doc = JSON.parse(readFileSync(file, "utf8")) as OpenApiDocument;
    cache.set(id, doc);
  }
  return doc;
}

/** The provider ids that have a vendored file. */
export const vendoredIds = () => readdirSync(VENDORED_DIR).filter((name) => name.endsWith(".json")).map((name) => name.slice(0, -".json".length));
