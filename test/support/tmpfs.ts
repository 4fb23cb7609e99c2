// A small tmpfs of a given size, for full-disk tests (needs root: CI and this machine run tests as root).
// mountTmpfs answers undefined, with the reason, where mounting is not allowed, so the test can say why it skipped.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

export interface Tmpfs {
  dir: string;
  /** Writes a file filling every free byte left; answers its path (delete it to give the space back). */
  fill(): string;
  unmount(): void;
}

export function mountTmpfs(dir: string, sizeBytes: number): Tmpfs | { error: string } {
  fs.mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes}`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (err) {
    return { error: `cannot mount a tmpfs at ${dir}: ${(err as Error).message.split('\n')[0]}` };
  }
  return {
    dir,
    fill: () => {
      const file = `${dir}/filler-${process.pid}-${Date.now()}`;
      const fd = fs.openSync(file, 'w');
      const chunk = Buffer.alloc(64 * 1024, 1);
      try {
        for (let size = chunk.length; size >= 512;) {
          try {
            fs.writeSync(fd, chunk, 0, size);
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
            size = Math.floor(size / 2); // the last blocks: smaller writes until not even 512 bytes fit
          }
        }
      } finally {
        fs.closeSync(fd);
      }
      return file;
    },
    unmount: () => execFileSync('umount', ['-l', dir], { stdio: 'pipe' }),
  };
}
