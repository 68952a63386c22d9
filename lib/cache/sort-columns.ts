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

function otherBytes(value: Value): number {
  if (value === null || typeof value === 'number') return 0;
  return STRING_OVERHEAD_BYTES + (typeof value === 'string' ? value.length * 2 : value.length);
}

/**
 * The sort keys of a kept order, stored by column so they cost what their values do: as arrays
 * of small arrays (sort-keys.ts's SortKey), keys of a number and an `_id` took 432 bytes of heap
 * each (measured), so an order of 20,000 took 8.6 MB; packed they take 9 bytes each. The `_id`
 * field stores nothing: its value is the entry's id, which the order keeps already.
 */
export class SortColumns {
  constructor(
    private readonly columns: ReadonlyArray<Column | null>,
    readonly bytes: number,
  ) {}

  /** Packs `keys` (one per entry, in order) of `fields`. */
  static of(keys: readonly SortKey[], fields: SortFields): SortColumns {
    const built = new SortColumnsBuilder(fields, keys.length);
    for (const key of keys) built.add(key);
    return built.done();
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

  /** The columns, for a builder copying runs of them. */
  get parts(): ReadonlyArray<Column | null> {
    return this.columns;
  }
}

/**
 * Sort columns put together from runs of another's entries and single keys (an order following
 * writes): runs are copied as typed-array ranges, so a few writes into a long order cost a few
 * copies, not one key object per entry.
 */
export class SortColumnsBuilder {
  private readonly columns: Column[];
  private length = 0;

  constructor(
    fields: SortFields,
    private readonly capacity: number,
  ) {
    this.columns = fields.map(([path]) =>
      path === '_id'
        ? null
        : { ranks: new Uint8Array(capacity), numbers: new Float64Array(capacity), others: null as Value[] | null },
    ) as Column[];
  }

  private othersOf(column: Column): Value[] {
    column.others ??= new Array<Value>(this.capacity).fill(null);
    return column.others;
  }

  add(key: SortKey): void {
    this.columns.forEach((column: Column | null, f) => {
      if (column === null) return;
      const [rank, value] = key[f] as SortKey[number];
      column.ranks[this.length] = rank;
      if (typeof value === 'number') column.numbers[this.length] = value;
      else if (value !== null) this.othersOf(column)[this.length] = value;
    });
    this.length++;
  }

  /** Appends entries `from` to `to` (exclusive) of `source`, whose fields are the same. */
  copy(source: SortColumns, from: number, to: number): void {
    if (to <= from) return;
    source.parts.forEach((part, f) => {
      const column = this.columns[f] as Column | null;
      if (part === null || column === null) return;
      column.ranks.set(part.ranks.subarray(from, to), this.length);
      column.numbers.set(part.numbers.subarray(from, to), this.length);
      if (part.others) {
        const others = this.othersOf(column);
        for (let i = from; i < to; i++) others[this.length + i - from] = part.others[i] ?? null;
      }
    });
    this.length += to - from;
  }

  done(): SortColumns {
    const whole = this.length === this.capacity;
    // Copies when short of capacity, not views: an order kept for long must not hold spare room.
    const columns = this.columns.map((column: Column | null) =>
      column === null
        ? null
        : {
            ranks: whole ? column.ranks : column.ranks.slice(0, this.length),
            numbers: whole ? column.numbers : column.numbers.slice(0, this.length),
            others: column.others && (whole ? column.others : column.others.slice(0, this.length)),
          },
    );
    let bytes = 0;
    for (const column of columns) {
      if (column === null) continue;
      bytes += column.ranks.byteLength + column.numbers.byteLength;
      for (const value of column.others ?? []) bytes += SLOT_BYTES + otherBytes(value);
    }
    return new SortColumns(columns, bytes);
  }
}
