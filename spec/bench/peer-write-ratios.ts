import {
  PARSE_SAME_WORK,
  medianEach,
  ms,
  ratioText as fixed,
  type WriteResults,
  type WriteRow,
} from './peer-writes.js';

/*
 * The write rounds against Parse. Two views: the ratio of each target's median round to Parse's
 * median round, and the median of the ratios taken within each round. On a shared machine every
 * server can slow down by half from one round to the next (other tenants' load); a server that
 * drew the slow rounds loses in the first view, not in the second, where it is only compared with
 * servers measured minutes apart at most.
 */

const ratio = (ours: number, theirs: number) =>
  Number.isFinite(ours) && Number.isFinite(theirs) ? ours / theirs : NaN;

/** What a target's row is against Parse's and against Parse doing the same work, in one round or over all. */
function against(r: WriteRow, parse: WriteRow, sameWork: WriteRow | undefined) {
  return {
    editsVsParse: ratio(r.editsAlone, parse.editsAlone),
    editsVsSameWork: sameWork ? ratio(r.editsAlone, sameWork.editsAlone) : NaN,
    list: ratio(r.listUnderWrites, parse.listUnderWrites),
    depth: ratio(r.depthUnderWrites, parse.depthUnderWrites),
    rotation: ratio(r.rotationUnderWrites, parse.rotationUnderWrites),
    p50: ratio(parse.editP50UnderReads, r.editP50UnderReads),
  };
}

type Against = ReturnType<typeof against>;
const AGAINST_FIELDS = ['editsVsParse', 'editsVsSameWork', 'list', 'depth', 'rotation', 'p50'] as const;

function printAgainst(label: string, a: Against): void {
  console.log(
    `  ${label.padEnd(10)} edits alone ${fixed(a.editsVsParse)}  against Parse doing the same work ${fixed(a.editsVsSameWork)}  ` +
      `list under writes ${fixed(a.list)}  depth=1 under writes ${fixed(a.depth)}  rotating under writes ${fixed(a.rotation)}  ` +
      `edit p50 (Parse's / ours) ${fixed(a.p50)}`,
  );
}

/** Each target's figures against Parse's: throughput ratios (higher is better) and Parse's p50 over ours. */
export function printWriteRatios({ medians, rounds }: WriteResults): void {
  const parse = medians.find((r) => r.label === 'Parse');
  if (!parse) return;
  const sameWork = medians.find((w) => w.label === PARSE_SAME_WORK);
  console.log('\nWrites, medians of the rounds, against Parse (>= 1.0 means as good or better)');
  for (const r of medians) {
    const reads = Number.isNaN(r.listUnderWrites)
      ? ''
      : `list ${r.listUnderWrites.toFixed(1)}/s  depth=1 ${r.depthUnderWrites.toFixed(1)}/s  ` +
        `rotating ${r.rotationUnderWrites.toFixed(1)}/s  edit p50 ${r.editP50UnderReads.toFixed(1)} ms  `;
    console.log(
      `  ${r.label.padEnd(10)} edits alone ${r.editsAlone.toFixed(1)}/s  ${reads}` +
        `CPU per edit alone: server ${ms(r.editServerCpuMs)}, engine ${ms(r.editEngineCpuMs)}`,
    );
    if (r !== parse && r !== sameWork) printAgainst(r.label, against(r, parse, sameWork));
  }
  console.log(
    '\nWrites, median of the ratios within each round (the view that a machine slowing between rounds does not move)',
  );
  for (const r of medians) {
    if (r === parse || r === sameWork) continue;
    const each = rounds.flatMap((rows) => {
      const ours = rows.find((x) => x.label === r.label);
      const theirs = rows.find((x) => x.label === 'Parse');
      return ours && theirs
        ? [
            against(
              ours,
              theirs,
              rows.find((x) => x.label === PARSE_SAME_WORK),
            ),
          ]
        : [];
    });
    printAgainst(r.label, medianEach(each, AGAINST_FIELDS));
  }
}
