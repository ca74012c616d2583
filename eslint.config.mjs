// @ts-check
import js from '@eslint/js'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['**/dist/**', '**/coverage/**', '**/node_modules/**', '.sandbox/**', '**/bench/bundle.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/packages/*/src/**', '**/packages/*/src', '@pf/*/src/**'],
              message: 'Import a package by its name (@pf/...), never its src/.',
            },
            {
              group: ['**/services/**', '@pf/provider', '@pf/webhook-receiver', '@pf/auth-exchange'],
              message: 'Services are deployed separately: never import another service.',
            },
          ],
        },
      ],
    },
  },
  {
    // The workspace checks (test/ at the root) look across services, e.g. the deployment files against each
    // service's configuration loader; no service is deployed from here.
    files: ['test/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/packages/*/src/**', '**/packages/*/src', '@pf/*/src/**'],
              message: 'Import a package by its name (@pf/...), never its src/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.cjs', '**/*.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
)
