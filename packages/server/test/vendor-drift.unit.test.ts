/**
 * The vendored descriptions (vendor/openapi/<provider>.json) are what scripts/vendor-openapi.ts
 * would write from the built-in tools, without re-reading the vendors' packages: each file holds
 * exactly the operations its provider's tools call and the components those reach, and its source
 * header names the package, version, file and licence the provider's vendorDescription does.
 */
import { describe, expect, it } from "vitest";
import { componentDrift } from "../scripts/vendor-openapi/extract.js";
import { findOperation, HTTP_METHODS } from "../scripts/vendor-openapi/operations.js";
import { PACKAGE_DESCRIBED, regenerateCommand, vendoredDescription, vendoredIds } from "./support/vendored-descriptions.js";

describe("vendored descriptions", () => {
  it("belong each to a built-in provider whose vendorDescription names a package", () => {
    const described = new Set(PACKAGE_DESCRIBED.map((provider) => provider.declaration.id));
    expect(vendoredIds().filter((id) => !described.has(id)), "vendor/openapi/ files of no provider with a package source: delete them").toEqual([]);
  });

  describe.each(PACKAGE_DESCRIBED.map((provider) => [provider.declaration.id, provider] as const))("%s", (id, provider) => {
    it("names its source as the provider's vendorDescription does", () => {
      const source = vendoredDescription(id).info["x-toolbroker-source"];
      const { package: pkg, version, file, licence } = provider.vendorDescription;
      expect({ package: source?.package, version: source?.version, file: source?.file, licence: source?.licence }, `run ${regenerateCommand(id)}`).toEqual({ package: pkg, version, file, licence });
      expect(source?.extracted_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    });

    it("holds exactly the operations its tools call", () => {
      const doc = vendoredDescription(id);
      const called = new Set<string>();
      const missing: string[] = [];
      for (const tool of provider.tools) {
        const lookup = findOperation(doc, tool.request.method, tool.request.path, provider.vendorDescription.pathPrefix);
        if ("found" in lookup) called.add(`${lookup.found.method.toUpperCase()} ${lookup.found.path}`);
        else missing.push(`${tool.name}: ${lookup.problem}`);
      }
      const vendored = Object.entries(doc.paths).flatMap(([path, item]) => HTTP_METHODS.filter((method) => item[method]).map((method) => `${method.toUpperCase()} ${path}`));
      const unused = vendored.filter((operation) => !called.has(operation));
      expect({ missing, unused }, `tools and vendored operations differ: run ${regenerateCommand(id)}`).toEqual({ missing: [], unused: [] });
    });

    it("holds exactly the components its operations reach", () => {
      expect(componentDrift(vendoredDescription(id)), `run ${regenerateCommand(id)}`).toEqual({ missing: [], unused: [] });
    });
  });
});
