/**
 * The console's request/response types are generated from the broker's OpenAPI description; this
 * fails when a server change alters a route the console calls and the file was not regenerated.
 */
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { GENERATED_FILE, generateApiTypes } from "../scripts/openapi-types.js";

it("the console's generated API types match the broker's OpenAPI description (run `npm run generate -w @toolbroker/console` if not)", async () => {
  const committed = readFileSync(GENERATED_FILE, "utf8");
  expect(committed === (await generateApiTypes()), "src/api/generated.ts has drifted: run `npm run generate -w @toolbroker/console`").toBe(true);
});
