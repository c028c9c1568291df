#!/usr/bin/env node
// The `reelsync` command: the built client command line (out/main/cli.js).
import { runBuilt } from './run-built.js';

await runBuilt('reelsync', 'main/cli.js');
