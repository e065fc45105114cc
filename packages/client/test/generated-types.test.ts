/**
 * The client's request/response types are generated from the broker's OpenAPI description. This
 * test regenerates them in memory and fails when the committed file no longer matches, so a
 * server change that alters the contract cannot slip past the client.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { brokerOpenApiDocument, clientSubset, CLIENT_PATHS, GENERATED_FILE, generateApiTypes } from "../scripts/openapi-types.js";

describe("generated API types", () => {
  it("match the server's current OpenAPI description (run `npm run generate -w @toolbroker/client` if not)", async () => {
    const expected = await generateApiTypes();
    const committed = readFileSync(GENERATED_FILE, "utf8");
    expect(committed === expected, "src/generated/api.ts has drifted from the broker's OpenAPI description: run `npm run generate -w @toolbroker/client`").toBe(true);
  });

  it("cover every route the client calls, and only those", async () => {
    const subset = clientSubset(await brokerOpenApiDocument());
    expect(Object.keys(subset.paths ?? {}).sort()).toEqual([...CLIENT_PATHS].sort());
    expect(Object.keys(subset.components?.schemas ?? {})).toContain("ErrorEnvelope");
  });
});
