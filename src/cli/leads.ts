// `agent-utility leads serve` (the lead service alone) and `leads import <file>`.
import { parseArgs } from 'node:util';
import type { Config } from '../config.js';
import { createLogger } from '../logger.js';
import { formatImportSummary, ImportFileError, importPros } from '../leads/import.js';
import { startLeadsService } from '../leads/service.js';
import { CliUsageError } from './usage.js';

export async function runLeadsCommand(config: Config, args: string[]): Promise<number | 'running'> {
  const [sub, ...rest] = args;
  const log = createLogger(config.logLevel);
  switch (sub) {
    case 'serve': {
      const { values } = parseArgs({ args: rest, options: { port: { type: 'string' }, host: { type: 'string' } } });
      const port = values.port === undefined ? undefined : Number(values.port);
      if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) throw new CliUsageError(`--port must be 0–65535 (got ${values.port}).`);
      const s = await startLeadsService({ config, log, ...(port !== undefined ? { port } : {}), ...(values.host ? { host: values.host } : {}) });
      log.info('lead service is serving', { url: s.url });
      let closing = false;
      const stop = () => {
        if (closing) return;
        closing = true;
        s.close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
      return 'running';
    }
    case 'import': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: { 'dry-run': { type: 'boolean', default: false }, replace: { type: 'boolean', default: false } },
      });
      const file = positionals[0];
      if (!file) throw new CliUsageError('Usage: agent-utility leads import <file.csv|file.json> [--dry-run] [--replace]');
      try {
        const summary = await importPros(file, { dryRun: values['dry-run'], replace: values.replace, config, log });
        process.stdout.write(formatImportSummary(summary));
        return summary.exitCode;
      } catch (err) {
        if (err instanceof ImportFileError) {
          process.stderr.write(`${err.message}\n`);
          return 2;
        }
        throw err;
      }
    }
    default:
      throw new CliUsageError('Usage: agent-utility leads serve [--port N] | leads import <file> [--dry-run] [--replace]');
  }
}
