/**
 * A lower bound on the bytes of `JSON.stringify(value)` (compact, UTF-8), computed without
 * building the string, and cut short once it passes `limit` (the answer is then some number
 * above `limit`). Rendered responses share subtrees (a related Object reached by many
 * references is rendered once), and JSON.stringify writes a shared subtree out at every
 * reference: sizing each object once, by identity, finds a response of hundreds of MB before
 * any of it is built. Escapes are not counted, which only makes the bound lower.
 */
export function jsonBytesAtLeast(value: unknown, limit: number): number {
  const sizes = new WeakMap<object, number>();

  const size = (v: unknown): number | undefined => {
    if (v === null) return 4;
    switch (typeof v) {
      case 'string':
        return Buffer.byteLength(v, 'utf8') + 2;
      case 'number':
        return Number.isFinite(v) ? String(v).length : 4;
      case 'boolean':
        return v ? 4 : 5;
      case 'object':
        return sizeOfObject(v);
      default:
        // undefined, functions and symbols are left out of objects (and null in arrays).
        return undefined;
    }
  };

  const sizeOfObject = (v: object): number => {
    const known = sizes.get(v);
    if (known !== undefined) return known;
    const withJson = v as { toJSON?: unknown };
    if (typeof withJson.toJSON === 'function') {
      return size((withJson.toJSON as () => unknown).call(v)) ?? 0;
    }
    // The opening bracket, then one byte per member for the comma before it (or, for the first
    // member, the closing bracket).
    let total = 1;
    if (Array.isArray(v)) {
      for (const item of v as unknown[]) {
        total += 1 + (size(item) ?? 4);
        if (total > limit) return total;
      }
    } else {
      for (const [key, item] of Object.entries(v)) {
        const s = size(item);
        if (s === undefined) continue;
        total += 1 + Buffer.byteLength(key, 'utf8') + 3 + s;
        if (total > limit) return total;
      }
    }
    total = Math.max(total, 2);
    sizes.set(v, total);
    return total;
  };

  return size(value) ?? 0;
}
