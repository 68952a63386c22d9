import { measureOnce, medianSample, type LoadOptions, type Page, type Sample, type Scenario } from './measure.js';
import { toRow, type Row } from './report.js';

/**
 * `items` in the order of round `round` (from 1): each round starts one later, so no server or
 * scenario always goes first. Whichever goes first in a round measured about 10% slower on a
 * 2-core machine (two trees swapped places and the gap followed the place, not the code).
 */
export function inTurn<T>(items: readonly T[], round: number): T[] {
  const k = items.length === 0 ? 0 : (round - 1) % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

/**
 * Every scenario measured once per round, interleaved round by round so a machine busy with
 * other work slows them all alike, each printed as it ends; then a row per scenario from its
 * median round. `pages` holds each scenario's checked page (its size goes in the row).
 */
export async function measureRounds(
  scenarios: readonly Scenario[],
  opts: LoadOptions,
  rounds: number,
  pages: ReadonlyMap<string, Page>,
): Promise<Row[]> {
  const width = Math.max(...scenarios.map((s) => s.name.length));
  const samples = new Map<string, Sample[]>(scenarios.map((s) => [s.name, []]));
  for (let round = 1; round <= rounds; round++) {
    console.log(`Round ${round} of ${rounds}`);
    for (const s of inTurn(scenarios, round)) {
      const sample = await measureOnce(s, opts);
      samples.get(s.name)!.push(sample);
      const r = sample.result;
      console.log(
        `  ${s.name.padEnd(width)} ${(r['2xx'] / r.duration).toFixed(1).padStart(8)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms`,
      );
    }
  }
  return scenarios.map((s) => {
    const all = samples.get(s.name)!;
    return toRow(s.name, s.server.mode, all, medianSample(all), pages.get(s.name)!.bytes);
  });
}
