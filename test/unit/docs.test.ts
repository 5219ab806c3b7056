/**
 * README.md is the front door and docs/ holds the manual (docs/contributing.md): README stays short
 * (at most about 250 lines), links every page of docs/, and every relative link of README.md and
 * docs/*.md points to a file that exists and, with a `#fragment`, to a heading of that file (as
 * GitHub makes heading anchors), so moving a section cannot leave a link behind.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** The text of a page outside its fenced code blocks. */
function prose(page: string): string {
  return page.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
}

/** GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces to `-`, repeats numbered. */
export function anchors(page: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of prose(page).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = m[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\- _]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n ? `${slug}-${n}` : slug);
  }
  return out;
}

/** The relative links of a page (not http(s), not mailto), outside code blocks. */
function links(page: string): string[] {
  return [...prose(page).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/i.test(l));
}

describe('README and docs/', () => {
  it('makes anchors the way GitHub does', () => {
    expect([...anchors('# Cash-in and cash-out\n## Scripts and CI: `--input` and `--dry-run`\n## BR Codes\n## BR Codes\n')]).toEqual([
      'cash-in-and-cash-out',
      'scripts-and-ci---input-and---dry-run',
      'br-codes',
      'br-codes-1',
    ]);
    expect(anchors("```sh\n# not a heading\n```\n## How paycli fills the interface's open points\n")).toEqual(new Set(['how-paycli-fills-the-interfaces-open-points']));
  });

  it('README.md is a front door: at most about 250 lines', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(260);
  });

  it('README.md links every page of docs/', () => {
    const linked = new Set(links(read('README.md')).map((l) => normalize(l.split('#')[0]!)));
    const pages = PAGES.filter((p) => p.startsWith('docs/'));
    expect(pages.length).toBeGreaterThan(5);
    expect(pages.filter((p) => !linked.has(p))).toEqual([]);
  });

  it('every relative link of README.md and docs/ points to a file, and a #fragment to one of its headings', () => {
    const broken: string[] = [];
    for (const file of PAGES) {
      for (const link of links(read(file))) {
        const [path, fragment] = link.split('#') as [string, string | undefined];
        const target = path ? relative(ROOT, resolve(ROOT, dirname(file), path)) : file;
        if (!existsSync(join(ROOT, target))) broken.push(`${file}: ${link}: no such file`);
        else if (fragment !== undefined && target.endsWith('.md') && !anchors(read(target)).has(fragment)) broken.push(`${file}: ${link}: no such heading in ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('every page of docs/ opens with its title', () => {
    for (const file of PAGES.filter((p) => p.startsWith('docs/'))) expect(read(file), file).toMatch(/^# \S/);
  });
});
