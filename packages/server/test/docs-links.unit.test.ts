/**
 * Every relative link in the README and the docs points at a file that exists, and every `#anchor`
 * at a heading of its page: moving a section (or renaming a file a page links to) fails here.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const markdownIn = (folder: string) =>
  readdirSync(join(ROOT, folder)).filter((name) => name.endsWith(".md")).map((name) => join(ROOT, folder, name));
const DOCUMENTS = [join(ROOT, "README.md"), join(ROOT, "CONTRIBUTING.md"), ...markdownIn("docs"), ...markdownIn("packages/server/docs")];

/** The text outside fenced code blocks: a link in a shell example is not a link. */
function prose(markdown: string): string {
  let fenced = false;
  return markdown
    .split("\n")
    .filter((line) => {
      if (/^\s*(```|~~~)/.test(line)) return (fenced = !fenced), false;
      return !fenced;
    })
    .join("\n");
}

/** GitHub's anchor for a heading: the rendered text, lower-cased, punctuation dropped, spaces as `-`. */
export function slugOf(heading: string): string {
  const text = heading.replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/[`*]/g, "");
  return text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "").replace(/ /g, "-");
}

function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = slugOf(heading!);
    let unique = slug;
    for (let n = 1; anchors.has(unique); n++) unique = `${slug}-${n}`;
    anchors.add(unique);
  }
  return anchors;
}

function linksOf(markdown: string): string[] {
  const text = prose(markdown).replace(/`[^`\n]*`/g, "");
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]!);
  const definitions = [...text.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)].map((match) => match[1]!);
  return [...inline, ...definitions];
}

/** The links of `markdown` (the text of the file at `path`) that lead nowhere, each with why. */
export function brokenLinks(path: string, markdown: string): string[] {
  const broken: string[] = [];
  for (const link of linksOf(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(link)) continue;
    const [target = "", anchor] = link.split("#", 2);
    const file = target ? resolve(dirname(path), decodeURIComponent(target)) : path;
    if (target && !existsSync(file)) {
      broken.push(`${link}: no file ${relative(ROOT, file)}`);
      continue;
    }
    if (anchor === undefined || !file.endsWith(".md")) continue;
    const headings = anchorsOf(target ? readFileSync(file, "utf8") : markdown);
    if (!headings.has(anchor)) broken.push(`${link}: no heading #${anchor} in ${relative(ROOT, file)}`);
  }
  return broken;
}

describe("links in the README and the docs", () => {
  for (const path of DOCUMENTS) {
    it(`${relative(ROOT, path)}: every relative link and anchor resolves`, () => {
      expect(brokenLinks(path, readFileSync(path, "utf8"))).toEqual([]);
    });
  }

  it("lists every page of docs/ in the README's contents", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    for (const page of markdownIn("docs")) expect(readme, relative(ROOT, page)).toContain(`](docs/${relative(join(ROOT, "docs"), page)})`);
  });

  it("finds a missing file, a missing heading and a missing anchor on the same page", () => {
    const page = join(ROOT, "docs", "example.md");
    const markdown = [
      "# Example",
      "## Try it: `npm run demo`",
      "[ok](#try-it-npm-run-demo) [ok](../README.md#quick-start) [external](https://example.com/#x)",
      "[gone](no-such-page.md) [stale](../README.md#no-such-section) [here](#nowhere)",
      "```sh",
      "[in code](not-checked.md)",
      "```",
      "`[in a code span](not-checked-either.md)`",
    ].join("\n");
    expect(brokenLinks(page, markdown)).toEqual([
      "no-such-page.md: no file docs/no-such-page.md",
      "../README.md#no-such-section: no heading #no-such-section in README.md",
      "#nowhere: no heading #nowhere in docs/example.md",
    ]);
  });

  it("makes GitHub's anchors", () => {
    expect(slugOf("Microsoft 365 (Outlook, OneDrive, Teams), Zoom and Box")).toBe("microsoft-365-outlook-onedrive-teams-zoom-and-box");
    expect(slugOf("Policy: which calls run, which wait for a person, which are refused")).toBe("policy-which-calls-run-which-wait-for-a-person-which-are-refused");
    expect(slugOf("`approval_id` on a call")).toBe("approval_id-on-a-call");
  });
});
