// The stdio MCP server's first message, read before the configuration loads: a 2025-era `initialize` is
// answered there and then (early-initialize.ts), so a desktop client, which starts the server at every
// launch, waits for a Node start and a few small modules rather than for zod, the configuration and the SDK.
import type { Readable, Writable } from 'node:stream';
import { earlyInitializeAnswer } from '../mcp/early-initialize.js';
import { readOpening, type Opening } from '../mcp/stdio-opening.js';

export interface StdioOpening extends Opening {
  /** The id of the initialize request already answered; the SDK server's own answer to it is dropped. */
  answered?: string | number;
}

export async function openStdio(stdin: Readable, stdout: Writable): Promise<StdioOpening | undefined> {
  const opening = await readOpening(stdin);
  if (!opening || opening.era !== 'legacy') return opening;
  const early = earlyInitializeAnswer(opening.first);
  if (!early) return opening;
  stdout.write(early.line);
  return { ...opening, answered: early.id };
}
