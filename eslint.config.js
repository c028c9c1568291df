import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const electronOnlyInShell = {
  paths: [{ name: 'electron', message: 'Only src/main/shell (and the preload) may import electron.' }],
};

/** A border inside the service: these files may import neither client code nor what `patterns` name. */
const serviceBorder = (files, ignores, patterns, moreRules = {}) => ({
  files,
  ignores,
  rules: {
    'no-restricted-imports': [
      'error',
      {
        paths: electronOnlyInShell.paths,
        patterns: [
          {
            group: ['**/main/**', '**/renderer/**', '**/preload/**'],
            message: 'The service never imports client code.',
          },
          ...patterns,
        ],
      },
    ],
    ...moreRules,
  },
});

/** What domain code (the service outside http/ and the composition root) may not import. */
const domainPatterns = [
  {
    group: ['**/http/**'],
    message:
      'Only routes and the composition root import src/server/http: domain code throws refusals (domain-errors.ts) that http/ maps to envelopes.',
  },
  {
    group: ['fastify', 'fastify/*', '@fastify/*'],
    message: 'Routes live under src/server/http only.',
  },
  {
    group: ['**/storage/migrations/*-*'],
    message: 'A shipped migration is frozen history: run-time code keeps its own copy of what it needs.',
  },
];

/** The shared ingest steps (src/server/ingest) serve both interfaces: library and datalake never import each other. */
const ingestBorders = [
  {
    files: ['src/server/library/**/*.ts'],
    group: ['**/datalake/**'],
    message:
      'The library (interface A) never imports the datalake (interface B): shared ingest steps live in src/server/ingest.',
  },
  {
    files: ['src/server/datalake/**/*.ts'],
    // A datalake video stands on a library video: it may read that row's type (library/videos), nothing more.
    group: ['**/library/**', '!**/library/videos'],
    message: 'The datalake never imports the library (interface A): shared ingest steps live in src/server/ingest.',
  },
  {
    files: ['src/server/ingest/**/*.ts'],
    group: ['**/library/**', '**/datalake/**'],
    message: 'The shared ingest steps serve both interfaces and import neither.',
  },
];

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', '.cache/**', 'test-artifacts/**', 'bin/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/ban-ts-comment': 'error',
      // Services implement async start/stop even when a given one has nothing to await.
      '@typescript-eslint/require-await': 'off',
      'no-restricted-imports': ['error', electronOnlyInShell],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['src/main/shell/**/*.ts', 'src/preload/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: electronOnlyInShell.paths,
          patterns: [
            {
              group: ['**/main/**', '**/server/**', '**/preload/**'],
              message: 'The renderer talks to main only through the contract.',
            },
            {
              group: ['node:*', 'fs', 'path', 'child_process', 'os', 'better-sqlite3'],
              message: 'No node modules in the renderer.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: electronOnlyInShell.paths,
          patterns: [
            {
              group: ['**/main/**', '**/server/**', '**/renderer/**', '**/preload/**'],
              message: 'src/shared imports only src/shared.',
            },
            {
              group: ['node:*', 'better-sqlite3', 'react'],
              message: 'src/shared stays free of node, electron and DOM code.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/common/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: electronOnlyInShell.paths,
          patterns: [
            {
              group: ['**/main/**', '**/server/**', '**/renderer/**', '**/preload/**'],
              message:
                'src/common is node code shared by client and service: it imports only src/common and src/shared.',
            },
          ],
        },
      ],
    },
  },
  // Client borders (src/main), one config per kind of folder, each with its whole pattern list (a later config's
  // options replace an earlier one's). Features reach one another only through the other's index.ts and never import
  // the composition roots (app, cli, web, shell); the shared client parts import no feature at all.
  ...(() => {
    const features = ['about', 'connection', 'library', 'search', 'service', 'settings', 'sync'];
    const roots = ['app', 'cli', 'web', 'shell'];
    const shared = ['jobs', 'api', 'store', 'ipc', 'media', 'desktop'];
    const overHttp = {
      group: ['**/server/**', '**/renderer/**'],
      message: 'The client reaches the service over HTTP only.',
    };
    const into = (names, after) => `^(\\.\\./)+(${names.join('|')})${after}`;
    const rule = (...patterns) => ({
      'no-restricted-imports': ['error', { paths: electronOnlyInShell.paths, patterns: [overHttp, ...patterns] }],
    });
    return [
      { files: ['src/main/**/*.ts'], ignores: ['src/main/shell/**'], rules: rule() },
      {
        files: features.map((f) => `src/main/${f}/**/*.ts`),
        ignores: ['**/*.test.ts'],
        rules: rule(
          {
            regex: into(features, '/'),
            message: "A feature reaches another only through its index.ts (import '../sync', not '../sync/engine').",
          },
          { regex: into(roots, '(/|$)'), message: 'Features do not import the composition roots.' },
        ),
      },
      {
        files: shared.map((f) => `src/main/${f}/**/*.ts`),
        ignores: ['**/*.test.ts'],
        rules: rule({
          regex: into([...features, ...roots], '(/|$)'),
          message: 'The shared client parts (jobs, api, store, ipc, media, desktop) import no feature.',
        }),
      },
    ];
  })(),
  {
    files: ['src/server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: electronOnlyInShell.paths,
          patterns: [
            {
              group: ['**/main/**', '**/renderer/**', '**/preload/**'],
              message: 'The service never imports client code.',
            },
          ],
        },
      ],
    },
  },
  // Service borders. Routes parse and answer: the database only through repositories. Services and repositories never
  // reach into routes, nor register any (fastify only under http/); the composition root (service.ts, cli.ts) wires
  // both. Storage and the indexer sit at the bottom and know nothing of the service above them.
  serviceBorder(
    ['src/server/**/*.ts'],
    ['src/server/http/**', 'src/server/service.ts', 'src/server/cli.ts', 'src/server/**/*.test.ts'],
    [...domainPatterns],
  ),
  ...ingestBorders.map(({ files, ...pattern }) =>
    serviceBorder(files, ['src/server/**/*.test.ts'], [...domainPatterns, pattern]),
  ),
  serviceBorder(
    ['src/server/http/**/*.ts'],
    ['src/server/http/**/*.test.ts'],
    [
      {
        group: ['better-sqlite3', '**/storage/db', '**/storage/migrations/**'],
        message: 'Routes reach the database only through repositories (stores and services).',
      },
    ],
    {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='prepare']",
          message: 'SQL lives in repositories, not in routes.',
        },
      ],
    },
  ),
  serviceBorder(
    ['src/server/storage/**/*.ts'],
    ['src/server/storage/**/*.test.ts'],
    [
      {
        group: [
          '**/http/**',
          '**/accounts/**',
          '**/library/**',
          '**/datalake/**',
          '**/jobs/**',
          '**/search/**',
          '**/indexer/**',
        ],
        message: 'Storage is the bottom layer: it imports only storage, src/common and src/shared.',
      },
    ],
  ),
  serviceBorder(
    ['src/server/indexer/**/*.ts'],
    [],
    [
      {
        group: [
          '**/http/**',
          '**/accounts/**',
          '**/library/**',
          '**/datalake/**',
          '**/jobs/**',
          '**/search/**',
          '**/storage/**',
        ],
        message: 'The indexer analyses media and knows nothing of the service around it.',
      },
    ],
  ),
);
