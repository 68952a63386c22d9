import { editsAlone, median, PARSE_SAME_WORK, ratioText as fixed, type WriteTarget } from './peer-writes.js';
import { inTurn } from './rounds.js';

/*
 * Edits alone, measured in short slices taken in turn: every target edits for `sliceSeconds`, the
 * next target then, and so on for `slices` cycles. A shared machine's speed changed by up to half
 * between the write rounds (minutes apart); slices a few seconds apart see the same machine, so
 * the totals compare the servers, not the moments they were measured in.
 */

interface SliceTotals {
  label: string;
  /** Edits per second of each cycle: every slice is as long, so their mean is the rate over all of them. */
  perCycle: number[];
}

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/** Interleaved edits alone over `slices` cycles of `sliceSeconds` per target, printed against Parse. */
export async function measureEditSlices(
  targets: readonly WriteTarget[],
  posts: number,
  connections: number,
  slices: number,
  sliceSeconds: number,
  serverPids: ReadonlySet<number>,
): Promise<void> {
  const totals = targets.map((t): SliceTotals => ({ label: t.label, perCycle: [] }));
  for (let cycle = 1; cycle <= slices; cycle++) {
    for (const t of inTurn(targets, cycle)) {
      const slice = await editsAlone(t, posts, connections, sliceSeconds, serverPids);
      totals.find((x) => x.label === t.label)!.perCycle.push(slice.rps);
    }
  }
  const parse = totals.find((x) => x.label === 'Parse');
  const sameWork = totals.find((x) => x.label === PARSE_SAME_WORK);
  console.log(
    `\nEdits alone in ${String(slices)} interleaved cycles of ${String(sliceSeconds)} s per server (total edits/s; ratio of totals; median of ratios within a cycle)`,
  );
  for (const t of totals) {
    const rate = mean(t.perCycle);
    const against = (other: SliceTotals | undefined) =>
      other === undefined
        ? 'n/a'
        : `${fixed(rate / mean(other.perCycle))} (cycles ${fixed(median(t.perCycle.map((v, i) => v / (other.perCycle[i] ?? NaN))))})`;
    const versus =
      t === parse || t === sameWork
        ? ''
        : `  against Parse ${against(parse)}  against Parse doing the same work ${against(sameWork)}`;
    console.log(`  ${t.label.padEnd(10)} ${rate.toFixed(1)}/s${versus}`);
  }
}
