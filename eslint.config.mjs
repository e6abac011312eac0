// @ts-check
import eslint from '@eslint/js';
import { defineConfig } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

const TS_FILES = ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'ormconfig.ts'];
const TEST_FILES = ['test/**/*.ts', '**/*.spec.ts', 'bench/**/*.ts'];

export default defineConfig(
  {
    // Global ignores. Other JavaScript configs (jest, prettier) are tooling, not project code. The API's
    // generated types (`npm run client:types`) are openapi-typescript's output: tsc checks them, lint does not.
    ignores: [
      'dist/',
      'node_modules/',
      'data/',
      'coverage/',
      'test/generated/',
      '**/*.cjs',
      '**/*.mjs',
      '!eslint.config.mjs',
    ],
  },
  {
    files: TS_FILES,
    extends: [eslint.configs.recommended, ...tseslint.configs.strictTypeChecked],
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.check.json'],
        tsconfigRootDir: import.meta.dirname,
        // Constructor-parameter types of decorated classes are runtime values under decorator
        // metadata (Nest DI): consistent-type-imports must not turn those imports into `import type`.
        emitDecoratorMetadata: true,
        experimentalDecorators: true,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'inline-type-imports' },
      ],
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['../../*'], message: 'use the #app/ alias' }] },
      ],
      // Nest modules are decorated empty classes.
      '@typescript-eslint/no-extraneous-class': 'off',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      // Response DTOs and TypeORM entities are data classes: mapping to them from object literals and
      // spreading them into plain objects is how Nest code is written.
      '@typescript-eslint/no-unsafe-class-instance-assignment': 'off',
      '@typescript-eslint/no-misused-spread': 'off',
      // `() => void res.send()`-style arrow shorthands are idiomatic in handlers.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
    },
  },
  {
    // Express/Node callbacks typed as returning void that legitimately take async functions
    // (Express 5 forwards rejected promises to the error handler; loopback fake servers in tests).
    // Everywhere else `[].forEach(async …)` and friends stay errors.
    files: ['src/main.ts', 'src/app.setup.ts', ...TEST_FILES],
    rules: {
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
    },
  },
  {
    files: TEST_FILES,
    rules: {
      // jest: `expect(mock.method).toHaveBeenCalled()`.
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      // supertest's `res.body` is `any`.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
    },
  },
  {
    files: ['eslint.config.mjs'],
    extends: [eslint.configs.recommended],
  },
  prettier,
);
