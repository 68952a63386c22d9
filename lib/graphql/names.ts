/**
 * GraphQL names for a Bucket's Object types and Metafields. GraphQL names are letters, digits and
 * underscores, not starting with a digit nor with "__"; slugs and keys may hold dashes and start
 * with a digit. Pure, so the mapping is unit-tested.
 */

/** Type names the schema defines itself, which no Object type may take. */
export const RESERVED_TYPE_NAMES: ReadonlySet<string> = new Set([
  'Query',
  'Mutation',
  'Subscription',
  'JSON',
  'Media',
  'SelectOption',
  'AnyObject',
  'ObjectStatus',
  'String',
  'Int',
  'Float',
  'Boolean',
  'ID',
]);

/** "blog-posts" → "blog_posts"; "3d" → "_3d": a valid field name. */
export function fieldName(raw: string): string {
  const name = raw.replace(/[^_0-9A-Za-z]/g, '_');
  const leading = /^[0-9]/.test(name) || name === '' ? `_${name}` : name;
  // "__" starts the names GraphQL keeps for introspection.
  return leading.startsWith('__') ? `x${leading}` : leading;
}

/** "blog-posts" → "BlogPosts". */
export function pascalName(raw: string): string {
  const words = raw.split(/[^0-9A-Za-z]+/).filter(Boolean);
  const name = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
  return /^[A-Za-z]/.test(name) ? name : `T${name}`;
}

/**
 * Unique names for `raws` (in order) made by `make`: a name already taken, reserved, or made
 * twice gets a number ("blog_posts_2"), so every slug or key keeps a field of its own.
 */
export function uniqueNames(
  raws: readonly string[],
  make: (raw: string) => string,
  reserved: ReadonlySet<string> = new Set(),
): Map<string, string> {
  const taken = new Set(reserved);
  const out = new Map<string, string>();
  for (const raw of raws) {
    if (out.has(raw)) continue;
    const base = make(raw);
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}_${String(n)}`;
    taken.add(name);
    out.set(raw, name);
  }
  return out;
}
