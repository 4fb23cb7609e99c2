// The tool contract, checked for every registered tool: file name == tool name, unique names, a price,
// schemas that convert to JSON Schema, an example that passes its own input schema, sane annotations.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tools } from '../../tools/index.js';
import { ToolRegistry, microsToUsd, usdToMicros } from '../../src/registry/registry.js';

const toolsDir = path.resolve(import.meta.dirname, '../../tools');

describe('tool registry', () => {
  const registry = new ToolRegistry(tools);

  it('lists every tool file, and every listed tool has its own file named after it', () => {
    const files = fs
      .readdirSync(toolsDir)
      .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
      .map((f) => f.slice(0, -3));
    expect([...registry.names].sort()).toEqual(files.sort());
  });

  it('has unique names', () => {
    expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
  });

  for (const tool of tools) {
    describe(tool.name, () => {
      it('has a positive price in USD and a timeout', () => {
        expect(usdToMicros(tool.price)).toBeGreaterThan(0);
        expect(tool.timeoutMs).toBeGreaterThan(0);
      });
      it('converts input and output schemas to JSON Schema objects', () => {
        const d = registry.descriptor(tool.name);
        expect(d.input_schema.type).toBe('object');
        expect(d.output_schema.type).toBe('object');
        // Either named fields, or a map whose values are described (browser.scrape: one key per selector name).
        const described =
          Object.keys((d.output_schema.properties as object | undefined) ?? {}).length > 0 || typeof d.output_schema.additionalProperties === 'object';
        expect(described).toBe(true);
      });
      it('refuses unknown input fields, and says so in its published input schema', () => {
        expect(registry.descriptor(tool.name).input_schema.additionalProperties).toBe(false);
        expect(() => registry.parseInput(tool.name, { ...(tool.example as object), colour: 'red' })).toThrow('colour: is not a known field');
      });
      it('has an example that its own input schema accepts', () => {
        expect(tool.input.safeParse(tool.example).success).toBe(true);
      });
      it('annotates itself consistently: open world; a tool that is not read-only declares its side effects', () => {
        expect(tool.annotations.openWorldHint).toBe(true);
        // Derived from the annotations, so a new side-effect tool needs no change here.
        const sends = !tool.annotations.readOnlyHint;
        expect(tool.sideEffects ?? false).toBe(sends);
        if (sends) expect(tool.annotations).toMatchObject({ destructiveHint: false, idempotentHint: false });
      });
      it('describes itself in prose for a model', () => {
        expect(tool.description.length).toBeGreaterThan(60);
        expect(tool.title.length).toBeGreaterThan(3);
      });
    });
  }
});

describe('prices', () => {
  it('converts USD strings to integer micro-USD exactly and back', () => {
    expect(usdToMicros('0.005')).toBe(5000);
    expect(usdToMicros('12')).toBe(12_000_000);
    expect(usdToMicros('0.000001')).toBe(1);
    expect(() => usdToMicros('0.0000001')).toThrow();
    expect(() => usdToMicros('-1')).toThrow();
    expect(microsToUsd(5000)).toBe('0.005');
    expect(microsToUsd(12_000_000)).toBe('12');
  });
});
