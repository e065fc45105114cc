/**
 * The layering of src/ (ARCHITECTURE.md, "Layers"), as `npm run lint` checks it. dependency-cruiser
 * checks each import against .dependency-cruiser.cjs: no module cycle, nothing imports a layer
 * above its own. Its rules are per module, so this also folds modules into their folders (a
 * domain, or a top-level file) and finds the folders that import each other: catalogue →
 * providers → catalogue tangles two domains even when no single module cycle shows it.
 */
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { cruise, format, type ICruiseResult } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));

export type Layering = {
  /** dependency-cruiser's report of the module rules, one violation a line ("" when none). */
  report: string;
  /** The rules a module broke, by name, each once. */
  brokenRules: string[];
  /** Each set of folders that import each other, with one import per step between them. */
  folderCycles: { folders: string[]; imports: string[] }[];
};

/** Checks `baseDir/src` (this package's by default; the rule's own test passes a fixture). */
export async function checkLayering(baseDir: string = PACKAGE_DIR): Promise<Layering> {
  const options = await extractDepcruiseOptions(resolve(PACKAGE_DIR, ".dependency-cruiser.cjs"));
  const tsConfigFile = resolve(PACKAGE_DIR, "tsconfig.json");
  const settings = { ...options, tsConfig: { fileName: tsConfigFile }, baseDir: resolve(baseDir), outputType: "json" as const };
  const cruised = await cruise(["src"], settings, {}, { tsConfig: extractTSConfig(tsConfigFile) });
  const result = (typeof cruised.output === "string" ? JSON.parse(cruised.output) : cruised.output) as ICruiseResult;
  const report = await format(result, { outputType: "err" });
  const brokenRules = [...new Set(result.summary.violations.map((violation) => violation.rule.name))].sort();
  return { report: String(report.output), brokenRules, folderCycles: folderCyclesOf(folderImports(result)) };
}

/** `src/catalogue/x.ts` → `catalogue`; a top-level file is a folder of its own. */
const folderOf = (path: string) => path.split("/")[1]!;

/** Folder → the folders it imports, each with the first import that does. */
function folderImports(result: ICruiseResult): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  for (const module of result.modules) {
    if (!module.source.startsWith("src/")) continue;
    for (const dependency of module.dependencies) {
      if (!dependency.resolved.startsWith("src/")) continue;
      const [from, to] = [folderOf(module.source), folderOf(dependency.resolved)];
      if (from === to) continue;
      const imports = edges.get(from) ?? new Map<string, string>();
      edges.set(from, imports);
      if (!imports.has(to)) imports.set(to, `${module.source} → ${dependency.resolved}`);
    }
  }
  return edges;
}

/** Strongly connected components of two or more folders (Tarjan), with the imports inside each. */
function folderCyclesOf(edges: Map<string, Map<string, string>>): Layering["folderCycles"] {
  const index = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const cycles: Layering["folderCycles"] = [];
  const visit = (folder: string) => {
    index.set(folder, index.size);
    lowest.set(folder, index.get(folder)!);
    stack.push(folder);
    for (const next of edges.get(folder)?.keys() ?? []) {
      if (!index.has(next)) visit(next);
      if (stack.includes(next)) lowest.set(folder, Math.min(lowest.get(folder)!, lowest.get(next)!));
    }
    if (lowest.get(folder) !== index.get(folder)) return;
    const folders = stack.splice(stack.indexOf(folder)).sort();
    if (folders.length < 2) return;
    const imports = folders.flatMap((from) => [...(edges.get(from) ?? [])].filter(([to]) => folders.includes(to)).map(([to, example]) => `${from} → ${to} (${example})`));
    cycles.push({ folders, imports });
  };
  for (const folder of [...edges.keys()].sort()) if (!index.has(folder)) visit(folder);
  return cycles;
}
