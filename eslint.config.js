// Lint rules: strict TypeScript, no console in shipped code, no floating promises, and the layering
// rules — which folder may import which (eslint.layers.js), and no transport (Express, MCP SDK, A2A SDK)
// below the front doors.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { forbiddenPatterns, LAYERS, TOOLS_MAY_USE } from './eslint.layers.js';

const TRANSPORTS = [
  { name: 'express', message: 'Engine, stores and tools import no transport.' },
  { name: 'node:http', message: 'Engine, stores and tools import no transport; use src/net for outbound calls.' },
];
const PROTOCOL_SDKS = { group: ['@modelcontextprotocol/*', '@a2a-js/*'], message: 'Engine, stores and tools import no protocol SDK.', allowTypeImports: true };
/** Below the front doors: no transport and no protocol SDK. */
const NO_TRANSPORT = new Set(['auth', 'registry', 'db', 'store', 'engine', 'dns', 'tools']);

function layerRule(self, allowed) {
  const noTransport = NO_TRANSPORT.has(self);
  return ['error', { paths: noTransport ? TRANSPORTS : [], patterns: [...forbiddenPatterns(self, allowed), ...(noTransport ? [PROTOCOL_SDKS] : [])] }];
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', '.tmp/**', 'bench/*.svg'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'error',
    },
  },
  ...Object.entries(LAYERS).map(([self, allowed]) => ({
    files: [`src/${self}/**/*.ts`],
    rules: { '@typescript-eslint/no-restricted-imports': layerRule(self, allowed) },
  })),
  { files: ['tools/**/*.ts'], rules: { '@typescript-eslint/no-restricted-imports': layerRule('tools', TOOLS_MAY_USE) } },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { 'no-console': 'off', '@typescript-eslint/no-non-null-assertion': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { ...globals.node } },
    rules: { 'no-console': 'off' },
  },
  {
    // The console's script runs in the browser.
    files: ['src/console/assets/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser } },
  },
);
