#!/usr/bin/env node
// The `reelsync-service` command: the built library service (out/service/cli.js): serve, key create, credits set,
// webhook-secret.
import { runBuilt } from './run-built.js';

await runBuilt('reelsync-service', 'service/cli.js');
