import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { brokenLinks, markdownLinks, unlinkedPages } from './links.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** Markdown files of the tree (tracked, and new ones not ignored), repository-relative. */
function markdownFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', '*.md'], { cwd: ROOT, encoding: 'utf8' });
  return out.split('\n').filter((path) => path !== '' && !path.includes('node_modules/') && existsSync(join(ROOT, path)));
}

const linksOf = (file: string) => markdownLinks(file, readFileSync(join(ROOT, file), 'utf8'));

describe('markdownLinks and brokenLinks', () => {
  it('finds links and images outside code, resolves them from the file, and names the bad ones', () => {
    const outside = ['..', '..', '..', 'shared', 'spec.md'].join('/'); // spelled apart: the tree must not contain the path itself
    const text = [
      'See [a](guide.md#part), ![pic](../console/x.png) and [site](https://example.com).',
      '`[not a link](nowhere.md)`',
      '```',
      '[also not](nowhere.md)',
      '```',
      `[up](${outside}) [gone](missing.md) [here](#top)`,
    ].join('\n');
    const links = markdownLinks('docs/guides/page.md', text);
    expect(links.map((link) => link.target)).toEqual(['guide.md#part', '../console/x.png', 'https://example.com', outside, 'missing.md', '#top']);
    const present = new Set(['docs/guides/guide.md', 'docs/console/x.png']);
    expect(brokenLinks(links, (path) => present.has(path))).toEqual([
      `docs/guides/page.md:6: ${outside} points outside the repository`,
      'docs/guides/page.md:6: missing.md points to a missing file',
    ]);
  });

  it('names the docs pages a README does not link', () => {
    const readme = markdownLinks('README.md', '[one](docs/a/one.md) [dir](docs/events/)');
    expect(unlinkedPages(readme, ['docs/a/one.md', 'docs/b/two.md'])).toEqual(['docs/b/two.md']);
  });
});

describe("the repository's Markdown", () => {
  const files = markdownFiles();

  it('links every page under docs/ from README.md', () => {
    const pages = files.filter((file) => file.startsWith('docs/'));
    expect(pages.length).toBeGreaterThan(10);
    expect(unlinkedPages(linksOf('README.md'), pages)).toEqual([]);
  });

  it('has no link outside the repository or to a missing file', () => {
    const links = files.flatMap(linksOf);
    expect(links.length).toBeGreaterThan(50);
    expect(brokenLinks(links, (path) => existsSync(join(ROOT, path)))).toEqual([]);
  });

  it('mentions no path into the sibling "shared" directory anywhere in the tree', () => {
    const needle = ['..', 'shared'].join('/');
    let out = '';
    try {
      out = execFileSync('git', ['grep', '-n', '-F', needle], { cwd: ROOT, encoding: 'utf8' });
    } catch (error) {
      if ((error as { status?: number }).status !== 1) throw error; // 1: no match
    }
    expect(out).toBe('');
  });
});
