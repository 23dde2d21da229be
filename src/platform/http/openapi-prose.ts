import { readdirSync, readFileSync } from "node:fs";

/**
 * The document's prose, kept as Markdown in the repository and read once at start-up: the guides
 * of `info.description` (`docs/guides/*.md`) and the operations' descriptions
 * (`docs/reference/<tag>.md`, one `## <operationId>` section each). Choices: docs/openapi.md.
 */

export const GUIDES_DIR = new URL("../../../docs/guides/", import.meta.url);
export const REFERENCE_DIR = new URL("../../../docs/reference/", import.meta.url);

const FENCE = /^\s*(```|~~~)/;
// Lines that start a block of their own: never joined to the line before, as a wrapped paragraph is.
const BLOCK_START = /^\s*(#{1,6}\s|[-*+]\s|\d+[.)]\s|>|\||<|$)/;

/**
 * Joins each hard-wrapped paragraph (and list item) into one line. Swagger UI renders Markdown with
 * `breaks: true`, so a line break inside a paragraph would show; every other renderer reads the
 * joined text the same. Code blocks, tables, headings and HTML lines are kept as they are.
 */
export function reflow(markdown: string): string {
  const out: string[] = [];
  let inFence = false;
  let joinable = false;
  for (const line of markdown.split("\n")) {
    if (FENCE.test(line)) {
      inFence = !inFence;
      out.push(line);
      joinable = false;
      continue;
    }
    if (inFence) {
      out.push(line);
      continue;
    }
    if (joinable && !BLOCK_START.test(line)) {
      out[out.length - 1] += ` ${line.trim()}`;
      continue;
    }
    out.push(line);
    // Text and list items go on over the next lines; a heading, a table row or HTML does not.
    joinable = line.trim() !== "" && !/^\s*(#{1,6}\s|\||<)/.test(line);
  }
  return out.join("\n");
}

/** A guide: its title (the file's `# ` line) and its Markdown body, reflowed. */
export interface Guide {
  name: string;
  title: string;
  body: string;
}

/** Reads the guides named, in that order; each file starts with its `# Title` line. */
export function readGuides(names: readonly string[], dir: URL = GUIDES_DIR): Guide[] {
  return names.map((name) => {
    const text = readFileSync(new URL(`${name}.md`, dir), "utf8");
    const match = /^# (.+)\n/.exec(text);
    if (!match) throw new Error(`docs/guides/${name}.md must start with a "# Title" line`);
    return { name, title: match[1].trim(), body: reflow(text.slice(match[0].length).trim()) };
  });
}

/** The guide files present, by name (without `.md`), for the test that every one is shown. */
export function guideFiles(dir: URL = GUIDES_DIR): string[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith(".md"))
    .map((file) => file.slice(0, -3))
    .sort();
}

/**
 * Every operation's description from `docs/reference/*.md`: the text under each `## <operationId>`
 * heading, up to the next one (a file's own title and intro are for people reading the file).
 */
export function readReference(dir: URL = REFERENCE_DIR): Map<string, { text: string; file: string }> {
  const found = new Map<string, { text: string; file: string }>();
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith(".md"))
    .sort()) {
    const text = readFileSync(new URL(file, dir), "utf8");
    const sections = text.split(/^## /m).slice(1);
    for (const section of sections) {
      const newline = section.indexOf("\n");
      const id = section.slice(0, newline === -1 ? undefined : newline).trim();
      const body = newline === -1 ? "" : reflow(section.slice(newline + 1).trim());
      if (!/^[a-z][A-Za-z0-9]+$/.test(id))
        throw new Error(`docs/reference/${file}: "## ${id}" is not an operationId`);
      if (found.has(id)) throw new Error(`docs/reference/${file}: ${id} is described twice`);
      found.set(id, { text: body, file });
    }
  }
  return found;
}

/**
 * Each operation's description: its route's own, or else its `## <operationId>` section of
 * `docs/reference/<tag>.md`. test/platform/openapi-guides.test.ts requires one for every operation,
 * from one place only.
 */
export function addDescriptions(doc: Record<string, unknown>, reference: Map<string, { text: string }>) {
  for (const operations of Object.values(
    doc.paths as Record<string, Record<string, Record<string, unknown>>>,
  )) {
    for (const operation of Object.values(operations)) {
      const written = reference.get(String(operation.operationId));
      if (written && !operation.description) operation.description = written.text;
    }
  }
  return doc;
}
