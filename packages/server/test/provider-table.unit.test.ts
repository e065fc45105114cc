/**
 * The table of built-in providers in docs/catalogue.md is the one scripts/provider-table.ts makes from the
 * declarations: adding a provider or a tool without re-running the script fails here.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BUILT_IN_PROVIDERS } from "../src/providers/built-in.js";
import { providerTable, TABLE_END, TABLE_START, withProviderTable } from "../src/providers/provider-table.js";

const PAGE = readFileSync(new URL("../../../docs/catalogue.md", import.meta.url), "utf8");

describe("the provider table of docs/catalogue.md", () => {
  it("is current: run `npm run provider-table -w @toolbroker/server` after changing a declaration", () => {
    expect(PAGE.includes(TABLE_START) && PAGE.includes(TABLE_END)).toBe(true);
    const current = PAGE.slice(PAGE.indexOf(TABLE_START) + TABLE_START.length, PAGE.indexOf(TABLE_END)).trim();
    expect(current).toBe(providerTable().trim());
    expect(withProviderTable(PAGE)).toBe(PAGE);
  });

  it("has a row per built-in provider with its tool count, the variables it needs and its aliases", () => {
    const table = providerTable();
    for (const { declaration, tools, aliases } of BUILT_IN_PROVIDERS) {
      const row = table.split("\n").find((line) => line.startsWith(`| \`${declaration.id}\` |`));
      expect(row, declaration.id).toBeDefined();
      expect(row!.split(" | ")[3], declaration.id).toBe(String(tools.length));
      if (declaration.auth.type === "oauth2") expect(row, declaration.id).toContain(`BROKER_PROVIDER_${declaration.id.toUpperCase()}_CLIENT_ID`);
      for (const alias of aliases ?? []) expect(row, declaration.id).toContain(`\`${alias}\``);
    }
  });

  it("refuses a page without its markers rather than writing the table somewhere", () => {
    expect(() => withProviderTable("# no table here")).toThrow(/markers/);
  });
});
