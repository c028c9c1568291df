// Runs a built entry of out/ (made by `npm run build`) in this process. No TypeScript loader: the bins run with the
// production dependencies alone.
import { existsSync } from 'node:fs';

export async function runBuilt(command, outPath) {
  const entry = new URL(`../out/${outPath}`, import.meta.url);
  if (!existsSync(entry)) {
    process.stderr.write(`${command}: the app is not built (out/${outPath} is missing): run \`npm run build\`\n`);
    process.exit(1);
  }
  await import(entry.href);
}
