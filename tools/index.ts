// The explicit list of tools. A tool is listed here once its file exists; nothing is discovered by magic.
import type { AnyTool } from '../src/registry/define-tool.js';
import dnsLookup from './dns.lookup.js';

export const tools: AnyTool[] = [dnsLookup];
