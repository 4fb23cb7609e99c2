// Lint rules: strict TypeScript, no console in shipped code, no floating promises, and the layering
// rule — engine, stores, registry and tools import no transport (Express, MCP SDK, A2A SDK, http front door).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const TRANSPORTS = [
  { name: 'express', message: 'Engine, stores and tools import no transport (DESIGN.md).' },
  { name: 'node:http', message: 'Engine, stores and tools import no transport; use src/net for outbound calls.' },
];
const TRANSPORT_PATTERNS = [
  { group: ['@modelcontextprotocol/*', '@a2a-js/*'], message: 'Engine, stores and tools import no protocol SDK (DESIGN.md).' },
  { group: ['**/http/*', '**/mcp/*', '**/a2a/*'], message: 'Engine, stores and tools import no front door (DESIGN.md).' },
];

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
  {
    files: ['src/engine/**/*.ts', 'src/store/**/*.ts', 'src/registry/**/*.ts', 'tools/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: TRANSPORTS, patterns: TRANSPORT_PATTERNS.map((p) => ({ ...p, allowTypeImports: true })) }],
    },
  },
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
