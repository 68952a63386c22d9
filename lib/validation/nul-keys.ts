/** Where a key holding a NUL character sits in a parsed JSON value. */
export interface NulKey {
  key: string;
  /** The path of the object holding the key, from `root` (e.g. `body.metadata`). */
  at: string;
}

/**
 * The first key holding a NUL character, which no MongoDB document can store (BSON keys end at
 * NUL). Walked with an explicit stack: a JSON body may be nested far deeper than the call stack.
 */
export function findNulKey(value: unknown, root: string): NulKey | null {
  const stack: { node: unknown; at: string }[] = [{ node: value, at: root }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { node, at } = next;
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      node.forEach((item: unknown, i) => stack.push({ node: item, at: `${at}[${i}]` }));
      continue;
    }
    for (const [key, child] of Object.entries(node)) {
      if (key.includes('\u0000')) return { key, at };
      stack.push({ node: child, at: `${at}.${key}` });
    }
  }
  return null;
}
