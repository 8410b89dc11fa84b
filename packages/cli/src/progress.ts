import type { CommandIO } from './command.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * A spinner with elapsed time on stderr while long work runs, shown only on a terminal (never in
 * pipes, logs or `--json` runs). Returns the function that clears it.
 */
export function startProgress(io: CommandIO, label: string, enabled: boolean): () => void {
  if (!enabled || !io.stderr.isTTY) return () => {};
  const started = Date.now();
  let frame = 0;
  const draw = () => io.stderr.write(`\r${FRAMES[frame++ % FRAMES.length]} ${label} ${((Date.now() - started) / 1000).toFixed(1)} s `);
  draw();
  const timer = setInterval(draw, 100);
  return () => {
    clearInterval(timer);
    io.stderr.write('\r\x1b[K');
  };
}
