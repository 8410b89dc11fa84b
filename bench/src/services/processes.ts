import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A TCP port free on loopback right now (the service started next binds it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
      .once('error', reject)
      .listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
  });
}

/** SIGKILL, resolved once the process is gone; nothing when it has already ended. */
export async function killProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
