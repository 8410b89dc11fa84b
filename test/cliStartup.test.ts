// What every `arsession` command loads before it runs: the static, value imports reachable from
// the CLI's entry (type-only imports erased, dynamic import() deferred, as Node runs them), followed
// into the workspace packages by their `source` exports. A command loads what it needs when it
// runs; the command table itself must not load the readers, the writers or the server.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/corpus.js';

/** The module a workspace package's export (`@arsession/convert/pool`) names, as its source; undefined for a dependency. */
function workspaceSource(spec: string): string | undefined {
  const match = /^@arsession\/([^/]+)(\/.*)?$/.exec(spec);
  if (!match) return undefined;
  const dir = join(REPO_ROOT, 'packages', match[1]!);
  const exports = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).exports as Record<string, { source?: string }>;
  const entry = exports[`.${match[2] ?? ''}`];
  return entry?.source ? join(dir, entry.source) : undefined;
}

/** The specifiers a source file imports for their values when it loads (not types, not dynamic import()). */
function valueImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const specs: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.isTypeOnly) continue;
      const named = clause?.namedBindings;
      const onlyTypes =
        clause &&
        !clause.name &&
        named &&
        ts.isNamedImports(named) &&
        named.elements.length > 0 &&
        named.elements.every((e) => e.isTypeOnly);
      if (!onlyTypes) specs.push((statement.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && !statement.isTypeOnly) {
      const clause = statement.exportClause;
      if (clause && ts.isNamedExports(clause) && clause.elements.every((e) => e.isTypeOnly)) continue;
      specs.push((statement.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return specs;
}

/** Every module loaded with `entry`: our source files, and the dependencies by name. */
function loadedWith(entry: string): { files: Set<string>; dependencies: Set<string> } {
  const files = new Set<string>(),
    dependencies = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    for (const spec of valueImports(file)) {
      if (spec.startsWith('.')) {
        const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
        visit(existsSync(target) ? target : target.replace(/\.ts$/, '/index.ts'));
      } else if (spec.startsWith('@arsession/')) {
        const target = workspaceSource(spec);
        if (target) visit(target);
        else dependencies.add(spec);
      } else if (!spec.startsWith('node:')) dependencies.add(spec);
    }
  };
  visit(entry);
  return { files, dependencies };
}

/** The CLI run in-process on `argv`: its exit code and what it wrote to stdout. */
async function runMain(argv: string[]): Promise<{ code: number; out: string }> {
  const { main } = await import('../packages/cli/src/main.js');
  let out = '';
  const write = (s: string) => {
    out += s;
    return true;
  };
  const code = await main(argv, { stdout: { write }, stderr: { write: () => true } });
  return { code, out };
}

describe('arsession start-up', () => {
  it('the command table loads no reader, writer or server: each command loads those when it runs', () => {
    const { files, dependencies } = loadedWith(join(REPO_ROOT, 'packages', 'cli', 'src', 'main.ts'));
    const ours = [...files].map((f) => f.slice(REPO_ROOT.length + 1));
    expect(ours).toContain('packages/cli/src/commands/convert.ts');
    expect(ours).not.toContain('packages/convert/src/index.ts');
    expect(ours.filter((f) => f.startsWith('packages/convert/src/ifc/') || f.startsWith('packages/convert/src/usdz/'))).toEqual([]);
    // Not even the server's configuration: serve loads it when it runs or shows its usage.
    expect(ours.filter((f) => f.startsWith('packages/server/'))).toEqual([]);
    // Of the USD package, the zip reader alone (the pool unpacks parts archives): not its readers and writers.
    expect(ours.filter((f) => f.startsWith('packages/usd/src/') && !/\/(zip|errors)\//.test(f))).toEqual([]);
    for (const heavy of ['web-ifc', 'express', 'sharp', 'three', '@gltf-transform/core', 'better-sqlite3', 'bullmq', 'meshoptimizer'])
      expect(dependencies).not.toContain(heavy);
  });

  it('serve --help lists every setting with its default, loaded for the help alone', async () => {
    const { SETTINGS } = await import('@arsession/server/config');
    const { code, out } = await runMain(['serve', '--help']);
    expect(code).toBe(0);
    expect(out).toMatch(/^usage: arsession serve \[--role all\|api\|worker\]/);
    for (const setting of Object.values(SETTINGS)) expect(out).toMatch(new RegExp(`^    ${setting.env} +\\[`, 'm'));
  });

  it('--version answers with the converter version', async () => {
    const { CONVERTER_VERSION } = await import('@arsession/convert');
    const { code, out } = await runMain(['--version']);
    expect(code).toBe(0);
    expect(out).toBe(`arsession ${CONVERTER_VERSION}\n`);
  });
});
