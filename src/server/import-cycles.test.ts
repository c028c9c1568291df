import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No import circles in the service (issue 29): a module and what it imports, followed to the end, never lead back to
 * it. Type-only imports count too: a circle of types is still two files that can only be read together.
 */

const SERVER = resolve(import.meta.dirname);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

function resolveImport(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec);
  return [`${base}.ts`, join(base, 'index.ts'), base].find((p) => p.endsWith('.ts') && existsSync(p));
}

/** Each service module's imports of other service modules. */
export function serviceImports(root = SERVER): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(root)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((f) => resolveImport(file, f.fileName))
      .filter((p): p is string => p !== undefined && p.startsWith(root));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Every circle, each once, as the paths (relative to `root`) that form it. */
export function importCircles(graph: Map<string, string[]>, root = SERVER): string[][] {
  const circles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') circles.push(stack.slice(stack.indexOf(next)).map((p) => relative(root, p)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return circles;
}

describe('service imports', () => {
  it('form no circle', () => {
    const graph = serviceImports();
    expect(graph.size).toBeGreaterThan(100);
    expect(importCircles(graph).map((c) => c.join(' -> '))).toEqual([]);
  });

  it('finds a circle when there is one', () => {
    const a = join(SERVER, 'a.ts');
    const b = join(SERVER, 'b.ts');
    const c = join(SERVER, 'c.ts');
    const graph = new Map([
      [a, [b]],
      [b, [c]],
      [c, [a]],
    ]);
    expect(importCircles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });
});
