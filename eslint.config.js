// Type-checked lint rules: they catch what the compiler lets through (floating promises,
// unsafe any, switches that miss a case, assertions that assert nothing).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import layers from './lint/import-layers.js';

export default tseslint.config(
  // spec/typed-client/ is compiled by its test beside types generated at test time, so no project holds it;
  // lint/ is this configuration's own rule, plain JavaScript outside every TypeScript project.
  { ignores: ['dist/', 'node_modules/', 'data/', '.engine-cache/', 'eslint.config.js', 'lint/', 'spec/typed-client/'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The layers of lib/ (lint/layers.json): imports go down, so no two folders import each other.
    files: ['lib/**/*.ts'],
    plugins: { layers },
    rules: { 'layers/import-layers': 'error' },
  },
  {
    // Tests read supertest bodies, which are `any` by design; the assertions are what check
    // their shape, so the unsafe-any family would only add casts that prove nothing.
    files: ['spec/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);
