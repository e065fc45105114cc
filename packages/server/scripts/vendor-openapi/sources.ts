/**
 * The npm packages vendors' descriptions come from: found unpacked under a directory
 * (`<dir>/<name>-<version>/package/`, the name without `@` and with `/` as `-`, as
 * `npm pack` + `tar` leave them), or packed there with `npm pack` when missing.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Json, OpenApiDocument } from "./schema-views.js";
import type { VendorSource } from "./extract.js";

export type PackageSource = { package: string; version: string; file: string; licence: string };

export const DEFAULT_PACKAGES_DIR = "/tmp/vendor/pkgs";

const unpackedName = (pkg: string, version: string) => `${pkg.replace(/^@/, "").replace(/\//g, "-")}-${version}`;

/** The unpacked package's root, packing and unpacking it first when it is not there. */
export function packageRoot(packagesDir: string, pkg: string, version: string): string {
  const dir = join(packagesDir, unpackedName(pkg, version));
  const root = join(dir, "package");
  if (existsSync(join(root, "package.json"))) return root;
  mkdirSync(dir, { recursive: true });
  console.error(`${pkg}@${version} is not unpacked in ${packagesDir}: npm pack ${pkg}@${version}`);
  const tarball = execFileSync("npm", ["pack", `${pkg}@${version}`, "--silent"], { cwd: dir, encoding: "utf8" }).trim().split("\n").pop()!;
  execFileSync("tar", ["-xzf", tarball], { cwd: dir });
  return root;
}

/** The description, parsed (each file once per run: Microsoft Graph's is 20 MB). */
const loaded = new Map<string, OpenApiDocument>();
export function loadDescription(packagesDir: string, source: PackageSource): OpenApiDocument {
  const path = join(packageRoot(packagesDir, source.package, source.version), source.file);
  let doc = loaded.get(path);
  if (!doc) {
    doc = JSON.parse(readFileSync(path, "utf8")) as OpenApiDocument;
    if (typeof doc.openapi !== "string" || !doc.openapi.startsWith("3.")) throw new Error(`${path} is not an OpenAPI 3 description (openapi: ${doc.openapi ?? doc.swagger})`);
    loaded.set(path, doc);
  }
  return doc;
}

/** The header a vendored file carries: the declared source plus what the package and description say. */
export function sourceHeader(packagesDir: string, source: PackageSource, doc: OpenApiDocument, now: Date): VendorSource {
  const packageJson = JSON.parse(readFileSync(join(packageRoot(packagesDir, source.package, source.version), "package.json"), "utf8")) as Json;
  const origin = ((doc.info?.["x-origin"] ?? []) as Json[]).map((entry) => String(entry.url)).filter(Boolean);
  return {
    package: source.package,
    version: source.version,
    file: source.file,
    licence: source.licence,
    package_licence: String(packageJson.license ?? "not stated"),
    description_licence: (doc.info?.license as Json | undefined) ?? null,
    terms_of_service: (doc.info?.termsOfService as string | undefined) ?? null,
    origin,
    extracted_at: now.toISOString().replace(/\.\d{3}Z$/, "Z"),
  };
}
