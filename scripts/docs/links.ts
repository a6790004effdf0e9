// Markdown link checks for Herald's own docs: every page under docs/ is
// reachable from the README, and no link leaves the repository or points at a
// file that is not there. Pure functions; the unit test feeds them the tree.
import { dirname, join, normalize } from 'node:path';

export interface MarkdownLink {
  file: string;
  line: number;
  target: string;
}

/** Links `[text](target)` and images `![alt](target)` outside fenced code blocks. */
export function markdownLinks(file: string, text: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  let fenced = false;
  text.split('\n').forEach((line, index) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return;
    }
    if (fenced) return;
    const unquoted = line.replace(/`[^`]*`/g, ''); // a code span is not a link (a link's label may be one)
    for (const match of unquoted.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ file, line: index + 1, target: match[1]! });
    }
  });
  return links;
}

/** The repository path a relative link names (anchor dropped); undefined for URLs and same-page anchors. */
export function linkedPath(link: MarkdownLink): string | undefined {
  const target = link.target.split('#')[0]!;
  if (target === '' || /^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined;
  return normalize(join(dirname(link.file), decodeURIComponent(target))).replace(/\/$/, '');
}

/** Problems with the links: outside the repository (into a sibling directory) or to a path that does not exist. */
export function brokenLinks(links: MarkdownLink[], exists: (path: string) => boolean): string[] {
  const problems: string[] = [];
  for (const link of links) {
    const path = linkedPath(link);
    if (path === undefined) continue;
    const where = `${link.file}:${link.line}: ${link.target}`;
    if (path === '..' || path.startsWith('../')) problems.push(`${where} points outside the repository`);
    else if (!exists(path)) problems.push(`${where} points to a missing file`);
  }
  return problems;
}

/** Pages under docs/ that the README does not link to. */
export function unlinkedPages(readmeLinks: MarkdownLink[], docsPages: string[]): string[] {
  const linked = new Set(readmeLinks.map(linkedPath).filter((path) => path !== undefined));
  return docsPages.filter((page) => !linked.has(page));
}
