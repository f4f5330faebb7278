// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // The client's generated types are openapi-typescript's output, checked by a test to be current.
  {
    ignores: [
      'dist',
      'build/',
      'data/',
      'node_modules/',
      'coverage/',
      'test-results/',
      'packages/*/dist/',
      'packages/client/src/generated/',
    ],
  },
  eslint.configs.recommended,
  tseslint.configs.strictTypeChecked,
  tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // A file a reader can hold in their head: a page, a service, a repository; a function that fits a screen
  // or two. A file that outgrows this is split by page, resource or concern, not by line count.
  {
    files: ['src/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 400 }],
      'max-lines-per-function': ['error', { max: 150 }],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'packages/*/scripts/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
    },
  },
  // Plain JavaScript outside the TypeScript project: linted without type information.
  { files: ['*.js', 'scripts/**/*.mjs', 'bin/**/*.js'], ...tseslint.configs.disableTypeChecked },
);
