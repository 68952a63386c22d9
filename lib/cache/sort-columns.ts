import { RANK, type SortFields, type SortKey } from './sort-keys.js';

type Value = SortKey[number][1];

/** Bytes an array slot (a pointer) takes, and what a string costs besides its UTF-16 code units. */
const SLOT_BYTES = 8;
const STRING_OVERHEAD_BYTES = 24;

/** One sort field's values: the type rank of each, numbers (numbers, booleans, dates) packed, the rest beside. */
interface Column {
  ranks: Uint8Array;
  numbers: Float64Array;
  /** Strings and ObjectId bytes, by position; null when the field holds none (the common case). */
  others: Value[] | null;
}

/**
 * The sort keys of a kept order, stored by column so they cost what their values do: as arrays
 * of small arrays (sort-keys.ts's SortKey), keys of a number and an `_id` took 432 bytes of heap
 * each (measured), so an order of 20,000 took 8.6 MB; packed they take 9 bytes each. The `_id` field stores
 * nothing: its value is the entry's id, which the order keeps already (`idAt`).
 */
export class SortColumns {
  private constructor(
    private readonly columns: ReadonlyArray<Column | null>,
    readonly bytes: number,
  ) {}

  /** Packs `keys` (one per entry, in order) of `fields`. */
  static of(keys: readonly SortKey[], fields: SortFields): SortColumns {
    let bytes = 0;
    const columns = fields.map(([path], f) => {
      if (path === '_id') return null;
      const ranks = new Uint8Array(keys.length);
      const numbers = new Float64Array(keys.length);
      let others: Value[] | null = null;
      for (let i = 0; i < keys.length; i++) {
        const [rank, value] = (keys[i] as SortKey)[f] as SortKey[number];
        ranks[i] = rank;
        if (typeof value === 'number') numbers[i] = value;
        else if (value !== null) {
          others ??= new Array<Value>(keys.length).fill(null);
          others[i] = value;
          bytes += STRING_OVERHEAD_BYTES + (typeof value === 'string' ? value.length * 2 : value.length);
        }
      }
      bytes += ranks.byteLength + numbers.byteLength + (others ? keys.length * SLOT_BYTES : 0);
      return { ranks, numbers, others };
    });
    return new SortColumns(columns, bytes);
  }

  /** Entry `i`'s key, its `_id` value being `id` (the entry's id bytes). */
  keyAt(i: number, id: Uint8Array): SortKey {
    return this.columns.map((column) => {
      if (column === null) return [RANK.objectId, id] as const;
      const rank = column.ranks[i] as number;
      const other = column.others?.[i] ?? null;
      return [rank, other ?? (rank === RANK.null ? null : (column.numbers[i] as number))] as const;
    });
  }
}
