/*
 * Token-level differences of two texts, for Studio's revision compare. Pure and import-free, so
 * Studio bundles it and the unit tests run it without a browser.
 */

/** A run of tokens both sides share, only the new side has, or only the old side had. */
export interface DiffRun {
  kind: 'same' | 'ins' | 'del';
  tokens: string[];
}

/**
 * Above this many cells (old tokens × new tokens, after the common ends are trimmed) the LCS
 * table would cost too much memory: the middle is then shown as deleted and inserted whole.
 */
export const MAX_LCS_CELLS = 4_000_000;

/** Words (letters, digits, `_`), runs of whitespace, and every other character alone. */
export function wordTokens(text: string): string[] {
  return text.match(/[\p{L}\p{N}_]+|\s+|[^\p{L}\p{N}_\s]/gu) ?? [];
}

/**
 * HTML as tokens: each tag whole, each entity whole, and the text between as wordTokens, so a
 * change inside a word never cuts a tag or an entity apart.
 */
export function htmlTokens(html: string): string[] {
  const out: string[] = [];
  for (const part of html.match(/<[^>]*>?|&#?\w+;|[^<&]+|&/g) ?? []) {
    if (part.startsWith('<') || (part.startsWith('&') && part.length > 1)) out.push(part);
    else out.push(...wordTokens(part));
  }
  return out;
}

function push(runs: DiffRun[], kind: DiffRun['kind'], token: string): void {
  const last = runs[runs.length - 1];
  if (last?.kind === kind) last.tokens.push(token);
  else runs.push({ kind, tokens: [token] });
}

/** The middle of a diff (common ends trimmed) by a longest common subsequence table. */
function lcsRuns(a: string[], b: string[], runs: DiffRun[]): void {
  if (a.length * b.length > MAX_LCS_CELLS) {
    for (const t of a) push(runs, 'del', t);
    for (const t of b) push(runs, 'ins', t);
    return;
  }
  const width = b.length + 1;
  // cell(i, j): the LCS length of a[i..] and b[j..]; the row and column past the ends stay 0.
  const lengths = new Uint32Array((a.length + 1) * width);
  const cell = (i: number, j: number) => lengths[i * width + j] ?? 0;
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i * width + j] = a[i] === b[j] ? cell(i + 1, j + 1) + 1 : Math.max(cell(i + 1, j), cell(i, j + 1));
    }
  }
  let i = 0;
  let j = 0;
  for (;;) {
    const [x, y] = [a[i], b[j]];
    if (x === undefined || y === undefined) break;
    if (x === y) {
      push(runs, 'same', x);
      i++;
      j++;
    } else if (cell(i + 1, j) >= cell(i, j + 1)) {
      push(runs, 'del', x);
      i++;
    } else {
      push(runs, 'ins', y);
      j++;
    }
  }
  for (const t of a.slice(i)) push(runs, 'del', t);
  for (const t of b.slice(j)) push(runs, 'ins', t);
}

/**
 * How `before` became `after`, as runs in order: the old side is the same and del runs, the new
 * side the same and ins runs. Where both a deletion and an insertion sit between two shared runs,
 * the deletion comes first.
 */
export function diffTokens(before: readonly string[], after: readonly string[]): DiffRun[] {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let endA = before.length;
  let endB = after.length;
  while (endA > start && endB > start && before[endA - 1] === after[endB - 1]) {
    endA--;
    endB--;
  }
  const runs: DiffRun[] = [];
  for (const t of before.slice(0, start)) push(runs, 'same', t);
  lcsRuns(before.slice(start, endA), after.slice(start, endB), runs);
  for (const t of before.slice(endA)) push(runs, 'same', t);
  return joinedAcrossSpaces(runs);
}

const isSpace = (run: DiffRun) => run.kind === 'same' && run.tokens.every((t) => /^\s+$/.test(t));

/**
 * Changes that only whitespace keeps apart, as one deletion and one insertion: "Lowercase no more"
 * to "Second version" reads as the one replaced phrase it is, not as words cut up around a space
 * both happen to have.
 */
function joinedAcrossSpaces(runs: DiffRun[]): DiffRun[] {
  const out: DiffRun[] = [];
  let del: string[] = [];
  let ins: string[] = [];
  const flush = () => {
    for (const t of del) push(out, 'del', t);
    for (const t of ins) push(out, 'ins', t);
    del = [];
    ins = [];
  };
  runs.forEach((run, i) => {
    if (run.kind === 'del') del.push(...run.tokens);
    else if (run.kind === 'ins') ins.push(...run.tokens);
    else if (isSpace(run) && (del.length > 0 || ins.length > 0) && i < runs.length - 1) {
      del.push(...run.tokens);
      ins.push(...run.tokens);
    } else {
      flush();
      for (const t of run.tokens) push(out, 'same', t);
    }
  });
  flush();
  return out;
}

/** A word diff of two plain texts. */
export function diffWords(before: string, after: string): DiffRun[] {
  return diffTokens(wordTokens(before), wordTokens(after));
}

/**
 * Two HTML fragments as one, with `<ins>` around inserted text and `<del>` around deleted text.
 * Tags of the new side are kept; tags only the old side had are dropped (their text stays,
 * marked deleted), so the result has the new side's structure. Whitespace alone is not marked.
 * The result is only as safe as its inputs: sanitize it before showing it.
 */
export function diffHtml(before: string, after: string): string {
  let out = '';
  for (const run of diffTokens(htmlTokens(before), htmlTokens(after))) {
    if (run.kind === 'same') {
      out += run.tokens.join('');
      continue;
    }
    if (run.kind === 'del' && run.tokens.every((t) => t.startsWith('<') || /^\s*$/.test(t))) continue;
    let open = false;
    for (const t of run.tokens) {
      const tag = t.startsWith('<');
      if (tag && open) {
        out += `</${run.kind}>`;
        open = false;
      }
      if (tag) {
        if (run.kind === 'ins') out += t;
        continue;
      }
      if (!open && /^\s+$/.test(t)) {
        // Whitespace before a run's first word: kept where the new side has it, never marked.
        if (run.kind === 'ins') out += t;
        continue;
      }
      if (!open) {
        out += `<${run.kind}>`;
        open = true;
      }
      out += t;
    }
    if (open) out += `</${run.kind}>`;
  }
  return out;
}
