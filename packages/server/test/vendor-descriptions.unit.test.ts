/**
 * Every built-in tool whose vendor publishes an OpenAPI description, checked against it (the
 * operations vendored in vendor/openapi/<provider>.json): the method and path name a real
 * operation; path values, query parameters, headers and body fields are that operation's, the
 * required ones always sent, their types agreeing; the response mapping's pointers and the declared
 * response schema's names exist in its 2xx response. One test per tool, named by the tool.
 */
import { afterAll, describe, it } from "vitest";
import { checkTool } from "../scripts/vendor-openapi/tool-check.js";
import { PACKAGE_DESCRIBED, regenerateCommand, vendoredDescription } from "./support/vendored-descriptions.js";

const notes: string[] = [];

afterAll(() => {
  // What the descriptions did not let the check see, so that no one takes it as checked.
  if (notes.length) console.info(`What the vendors' descriptions did not let the check see, and their errata:\n${notes.map((note) => `  ${note}`).join("\n")}`);
});

describe.each(PACKAGE_DESCRIBED.map((provider) => [provider.declaration.id, provider] as const))("%s against its vendor's description", (id, provider) => {
  it.each(provider.tools.map((tool) => [tool.name, tool] as const))("%s", (name, tool) => {
    const result = checkTool(vendoredDescription(id), {
      tool,
      hooks: provider.hooks.tools?.[name],
      example: provider.examples?.[name],
      pathPrefix: provider.vendorDescription.pathPrefix,
    });
    const errata = (provider.vendorDescription.errata ?? []).filter((erratum) => erratum.tool === name);
    const unexplained = result.problems.filter((problem) => !errata.some((erratum) => erratum.problem === problem));
    const stale = errata.filter((erratum) => !result.problems.includes(erratum.problem));
    notes.push(...result.notes.map((note) => `${name}: ${note}`), ...errata.filter((e) => !stale.includes(e)).map((e) => `${name}: erratum of the description: ${e.problem} (${e.reason})`));
    const against = result.operation ? ` against ${result.operation}` : "";
    if (unexplained.length) {
      throw new Error(
        `${name}${against} (${provider.vendorDescription.package} ${provider.vendorDescription.file}):\n${unexplained.map((p) => `  - ${p}`).join("\n")}\n` +
          `(after changing the tool's method or path: ${regenerateCommand(id)})`,
      );
    }
    if (stale.length) throw new Error(`${name}${against}: these errata no longer occur; remove them from ${id}'s vendorDescription:\n${stale.map((e) => `  - ${e.problem}`).join("\n")}`);
  });
});
