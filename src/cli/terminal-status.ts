// What `call` and `batch` show while they wait: a spinner with the task's status, or a progress bar with
// done/total, rate and ETA. Both go to stderr and only when it is a terminal, so stdout stays the result
// and pipes, files and CI logs get nothing but it.
import { SingleBar } from 'cli-progress';
import spinners from 'cli-spinners';

export interface StatusSpinner {
  update(text: string): void;
  stop(): void;
}

export interface BatchProgress {
  update(done: number, total: number): void;
  stop(): void;
}

type Stream = NodeJS.WriteStream;

export function statusSpinner(stream: Stream = process.stderr): StatusSpinner {
  if (stream.isTTY !== true) return { update: () => undefined, stop: () => undefined };
  const { frames, interval } = spinners.dots;
  let text = '';
  let frame = 0;
  let timer: NodeJS.Timeout | undefined;
  // One line, rewritten in place; cut to the terminal's width so it never wraps (a wrapped line could
  // not be cleared with one carriage return).
  const render = () => {
    const width = stream.columns > 2 ? stream.columns - 1 : 79;
    stream.write(`\r\x1b[2K${`${frames[frame++ % frames.length]} ${text}`.slice(0, width)}`);
  };
  return {
    update(next) {
      text = next;
      if (!timer) {
        stream.write('\x1b[?25l');
        timer = setInterval(render, interval);
        // Never the reason the command stays alive.
        timer.unref();
      }
      render();
    },
    stop() {
      if (!timer) return;
      clearInterval(timer);
      timer = undefined;
      stream.write('\r\x1b[2K\x1b[?25h');
    },
  };
}

export function batchProgress(stream: Stream = process.stderr): BatchProgress {
  if (stream.isTTY !== true) return { update: () => undefined, stop: () => undefined };
  const bar = new SingleBar({
    stream,
    format: '{bar} {value}/{total} | {rate}/s | ETA {eta_formatted}',
    hideCursor: true,
    clearOnComplete: false,
    // ETA from the last 50 updates: a batch speeds up and slows down as domains change.
    etaBuffer: 50,
  });
  const started = Date.now();
  let running = false;
  return {
    update(done, total) {
      const seconds = Math.max(0.001, (Date.now() - started) / 1000);
      const rate = (done / seconds).toFixed(1);
      if (!running) {
        running = true;
        bar.start(total, done, { rate });
      } else {
        bar.setTotal(total);
        bar.update(done, { rate });
      }
    },
    stop() {
      if (running) bar.stop();
    },
  };
}
