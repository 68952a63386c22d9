import { MAX_REPORTED_PROBLEMS, ValidationErrors } from '../errors/http-errors.js';
import { formatPath } from './paths.js';
import { quote } from '../util/quote.js';

export interface JsonBounds {
  /** Levels of arrays and objects; a container value is level 1. */
  maxDepth: number;
  /** Keys of any one object. */
  maxKeys: number;
  /**
   * Also refuse keys MongoDB could store but never query back: a leading "$" or a ".". Keys
   * holding NUL are always refused: no BSON document can hold one.
   */
  storableKeys: boolean;
}

export interface BoundsReport {
  /** The first MAX_REPORTED_PROBLEMS problems, in document order. */
  problems: string[];
  /** Further problems, counted but not worded. */
  unlisted: number;
}

/** One container on the walk; the path is rebuilt from parents only when a problem needs it. */
interface Frame {
  value: object;
  depth: number;
  parent: Frame | null;
  segment: string | number;
}

const isContainer = (v: unknown): v is object => typeof v === 'object' && v !== null;

function pathOf(frame: Frame, root: string): string {
  const segments: (string | number)[] = [];
  for (let f = frame; f.parent !== null; f = f.parent) segments.push(f.segment);
  return formatPath(root, segments.reverse());
}

function keyProblem(key: string, storableKeys: boolean): string | null {
  if (storableKeys && (key.startsWith('$') || key.includes('.') || key.includes('\0')))
    return `key ${quote(key)} may not start with "$" or contain "." or a NUL character`;
  if (key.includes('\0')) return `key ${quote(key)} contains a NUL character, which keys may not hold`;
  return null;
}

/**
 * Problems with the shape of a parsed JSON value: nesting beyond `maxDepth` (reported once
 * where it is crossed, nothing below is looked at), objects with too many keys, and keys that
 * cannot be stored. The walk uses an explicit stack, never recursion, so checking a value
 * nested thousands of levels deep cannot overflow the stack it protects. Linear in the size
 * of the value, and only the first MAX_REPORTED_PROBLEMS problems are worded.
 */
export function jsonBoundsProblems(value: unknown, root: string, bounds: JsonBounds): BoundsReport {
  const report: BoundsReport = { problems: [], unlisted: 0 };
  const note = (frame: Frame, describe: (path: string) => string): void => {
    if (report.problems.length < MAX_REPORTED_PROBLEMS) report.problems.push(describe(pathOf(frame, root)));
    else report.unlisted++;
  };
  if (!isContainer(value)) return report;
  const stack: Frame[] = [{ value, depth: 1, parent: null, segment: '' }];
  // Children are pushed last-first so that problems come out in document order.
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    if (frame.depth > bounds.maxDepth) {
      note(frame, (path) => `${path} is nested deeper than ${bounds.maxDepth} levels`);
      continue;
    }
    const depth = frame.depth + 1;
    if (Array.isArray(frame.value)) {
      const items: unknown[] = frame.value;
      for (let i = items.length - 1; i >= 0; i--) {
        const child = items[i];
        if (isContainer(child)) stack.push({ value: child, depth, parent: frame, segment: i });
      }
      continue;
    }
    const record = frame.value as Record<string, unknown>;
    const keys = Object.keys(record);
    if (keys.length > bounds.maxKeys) {
      note(frame, (path) => `${path} has ${keys.length} keys, more than the ${bounds.maxKeys} allowed`);
      continue;
    }
    const storable: string[] = [];
    for (const key of keys) {
      const problem = keyProblem(key, bounds.storableKeys);
      if (problem === null) storable.push(key);
      else note(frame, (path) => `${path}: ${problem}`);
    }
    for (let i = storable.length - 1; i >= 0; i--) {
      const key = storable[i] as string;
      const child = record[key];
      if (isContainer(child)) stack.push({ value: child, depth, parent: frame, segment: key });
    }
  }
  return report;
}

/** Adds a report to a request's problems, keeping the count of those not worded. */
export function addBoundsReport(errors: ValidationErrors, report: BoundsReport): void {
  for (const problem of report.problems) errors.add(problem);
  errors.addUnlisted(report.unlisted);
}

/** Object keys plus array items in `value`, counted without recursion; stops once past `stopAfter`. */
export function countJsonValues(value: unknown, stopAfter: number): number {
  let count = 0;
  const stack: unknown[] = [value];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (!isContainer(node)) continue;
    const children: unknown[] = Array.isArray(node) ? node : Object.values(node);
    count += children.length;
    if (count > stopAfter) return count;
    for (const child of children) if (isContainer(child)) stack.push(child);
  }
  return count;
}
