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
  if (notes.length) console.info(`What the vendors' descriptions did not let the check see:\n${notes.map((note) => `  ${note}`).join("\n")}`);
});

describe.each(PACKAGE_DESCRIBED.map((provider) => [provider.declaration.id, provider] as const))("%s against its vendor's description", (id, provider) => {
  it.each(provider.tools.map((tool) => [tool.name, tool] as const))("%s", (name, tool) => {
    const result = checkTool(vendoredDescription(id), {
      tool,
      hooks: provider.hooks.tools?.[name],
      example: provider.examples?.[name],
      pathPrefix: provider.vendorDescription.pathPrefix,
    });
    notes.push(...result.notes.map((note) => `${name}: ${note}`));
    if (result.problems.length) {
      const against = result.operation ? ` against ${result.operation}` : "";
      throw new Error(
        `${name}${against} (${provider.vendorDescription.package} ${provider.vendorDescription.file}):\n${result.problems.map((p) => `  - ${p}`).join("\n")}\n` +
          `(after changing the tool's method or path: ${regenerateCommand(id)})`,
      );
    }
  });
});
