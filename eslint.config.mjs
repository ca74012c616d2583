// @ts-check
import js from '@eslint/js'
import globals from 'globals'
import tseslint from 'typescript-eslint'

const packageSources = {
  group: ['**/packages/*/src/**', '**/packages/*/src', '@pf/*/src/**'],
  message: 'Import a package by its name (@pf/...), never its src/.',
}
// One identity provider for every service (issue 39): its style is chosen once, by @pf/idp-clients.
const oneIdentityProvider = {
  name: '@pf/idp-clients',
  importNames: [
    'createRealmClient',
    'createTenantClient',
    'deriveRealmPassword',
    'deriveTenantPassword',
    'normalizeRealmClaims',
    'normalizeTenantClaims',
  ],
  message: 'A service reaches its identity provider through createIdentityProvider, whatever its style.',
}
const otherServices = {
  group: ['**/services/**', '@pf/provider', '@pf/webhook-receiver', '@pf/auth-exchange'],
  message: 'Services are deployed separately: never import another service.',
}

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
          patterns: [packageSources, otherServices],
        },
      ],
    },
  },
  {
    files: ['services/*/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [packageSources, otherServices], paths: [oneIdentityProvider] },
      ],
    },
  },
  {
    // Interface A's protocol lives in @pf/provider-kit (issue 37): the provider's src/ holds its data and its two
    // endpoints, never the pieces the protocol is built of.
    files: ['services/provider/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            oneIdentityProvider,
            ...['axios', '@aws-sdk/lib-storage', 'ipaddr.js', '@pf/signing'].map((name) => ({
              name,
              message: "The protocol (deliveries, callbacks, outbound safety) is @pf/provider-kit's.",
            })),
          ],
          patterns: [packageSources, otherServices],
        },
      ],
    },
  },
  {
    // The receiver's rooms: receiver/, worker/, config/ and bin/ reach the queue through queue/index.ts only, and
    // never BullMQ, ioredis or bull-board themselves (services/webhook-receiver/README.md#layout).
    files: [
      'services/webhook-receiver/src/receiver/**/*.ts',
      'services/webhook-receiver/src/worker/**/*.ts',
      'services/webhook-receiver/src/config/**/*.ts',
      'services/webhook-receiver/src/bin/**/*.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [oneIdentityProvider],
          patterns: [
            packageSources,
            otherServices,
            {
              group: [
                '../queue/*',
                './queue/*',
                'bullmq',
                'bullmq/*',
                'ioredis',
                'msgpackr',
                '@bull-board/*',
              ],
              message:
                "Everything BullMQ lives in queue/: import its interface, '../queue', and nothing else.",
            },
          ],
        },
      ],
    },
  },
  {
    // The workspace checks (test/ at the root) look across services, e.g. the deployment files against each
    // service's configuration loader, and the interface reference renders each service's OpenAPI document; no
    // service is deployed from here.
    files: ['test/**/*.ts', 'scripts/interface-docs/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [packageSources],
        },
      ],
    },
  },
  {
    files: ['**/*.cjs', '**/*.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
)
