// bench support: where the benches write their figures (bench/results/<name>.json, committed, so that the README's
// performance table, which scripts/bench-readme.ts generates from them, can be reproduced), and the machine they ran on.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const RESULTS_DIR = resolve(fileURLToPath(new URL('../bench/results', import.meta.url)));

export const quantile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

export const machine = () => ({ cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', node: process.versions.node, loadAverage: Number(loadavg()[0]!.toFixed(2)) });

/** Writes one bench's figures, stamped with the time and the machine; returns the file's path. */
export function writeResult(name: string, figures: object): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `${name}.json`);
  writeFileSync(file, `${JSON.stringify({ bench: name, measuredAt: new Date().toISOString(), machine: machine(), ...figures }, null, 2)}\n`);
  return file;
}

export function readResult<T>(name: string): (T & { measuredAt: string }) | null {
  const file = join(RESULTS_DIR, `${name}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T & { measuredAt: string }) : null;
}
