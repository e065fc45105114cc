/**
 * `npm run lint`: fails when an import in src/ goes up the layers or closes a cycle, between
 * modules or between folders (scripts/layering.ts, .dependency-cruiser.cjs, ARCHITECTURE.md).
 */
import { checkLayering } from "./layering.js";

const started = performance.now();
const { report, brokenRules, folderCycles } = await checkLayering();
process.stdout.write(report);
for (const { folders, imports } of folderCycles) {
  console.log(`  error no-folder-cycle: ${folders.join(", ")} import each other:`);
  for (const line of imports) console.log(`      ${line}`);
}
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(`${folderCycles.length} folder cycle(s); layering checked in ${seconds} s`);
if (brokenRules.length > 0 || folderCycles.length > 0) process.exitCode = 1;
