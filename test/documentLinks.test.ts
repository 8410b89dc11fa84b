// Every relative link in the project's Markdown points at a file that exists (and, with an anchor,
// at a heading that exists): the README is read from GitHub, where a moved file is a dead link.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/corpus.js';

const DOCUMENTS = [
  'README.md',
  'CHANGELOG.md',
  ...readdirSync(join(REPO_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  ...readdirSync(join(REPO_ROOT, 'packages'))
    .map((p) => `packages/${p}/README.md`)
    .filter((f) => existsSync(join(REPO_ROOT, f))),
  ...readdirSync(join(REPO_ROOT, 'bench'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `bench/${f}`),
];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

function anchorsIn(path: string): Set<string> {
  const text = readFileSync(path, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1]!)));
}

describe("links between the project's documents", () => {
  it.each(DOCUMENTS)('%s: every relative link resolves', (document) => {
    const text = readFileSync(join(REPO_ROOT, document), 'utf8').replace(/```[\s\S]*?```/g, '');
    const dead: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!) || target!.startsWith('#')) continue;
      const [file, anchor] = target!.split('#') as [string, string | undefined];
      const path = join(REPO_ROOT, dirname(document), decodeURIComponent(file));
      if (!existsSync(path)) dead.push(`${target} (no ${relative(REPO_ROOT, path)})`);
      else if (anchor && statSync(path).isFile() && path.endsWith('.md') && !anchorsIn(path).has(anchor))
        dead.push(`${target} (no heading #${anchor})`);
    }
    expect(dead).toEqual([]);
  });
});
