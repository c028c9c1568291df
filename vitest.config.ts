import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/longest-first';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    pool: 'forks',
    // Vitest's default is one fork per core minus one: a single fork on CI's two cores. Most files wait on ffmpeg,
    // HTTP or Chromium rather than compute, so two forks use the machine better.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    globalSetup: ['test/global-setup.ts'],
    sequence: { sequencer: LongestFirst },
    reporters: ['default'],
  },
});
