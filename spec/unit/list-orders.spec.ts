import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import {
  ListOrder,
  ListOrders,
  lastNoted,
  notedCounts,
  packIds,
  type KeptOrder,
  type NotesRead,
} from '../../lib/cache/list-orders.js';
import type { SortFields } from '../../lib/cache/sort-keys.js';

describe('ListOrder: a list order packed as ids (pure)', () => {
  const ids = Array.from({ length: 5 }, () => new ObjectId());
  const docs = (list: ObjectId[]) => list.map((_id) => ({ _id }));

  it('slices the ids back in order, clipped to the ends', () => {
    const order = ListOrder.of(docs(ids));
    assert.equal(order.length, 5);
    assert.equal(order.bytes, 60);
    assert.deepEqual(order.slice(1, 2), ids.slice(1, 3));
    assert.deepEqual(order.slice(4, 10), ids.slice(4));
    assert.deepEqual(order.slice(5, 3), []);
  });

  it('finds an id only at an id boundary', () => {
    // Two ids whose bytes, side by side, hold a third id straddling them.
    const a = new ObjectId('aaaaaaaaaaaaaaaa01020304');
    const b = new ObjectId('05060708090a0b0cbbbbbbbb');
    const straddling = new ObjectId('0102030405060708090a0b0c');
    const order = ListOrder.of(docs([a, b, straddling]));
    assert.equal(order.indexOf(straddling), 2);
    assert.equal(ListOrder.of(docs([a, b])).indexOf(straddling), -1);
    assert.equal(order.indexOf(b), 1);
    assert.equal(order.indexOf(new ObjectId()), -1);
  });

  const at = (order: ListOrder, typeGeneration: number): KeptOrder => ({
    order,
    generation: `g${String(typeGeneration)}`,
    bucketGeneration: 1,
    type: 'posts',
    typeGeneration,
    writeCount: typeGeneration,
    notesAt: undefined,
  });

  it('keys an order by its list and sort, and keeps no order over its bound', () => {
    const k1 = ListOrders.key('t', { random: false, fields: [['order', -1]] });
    const k2 = ListOrders.key('t', { random: false, fields: [['order', 1]] });
    assert.notEqual(k1, k2);
    const orders = new ListOrders(4 * (60 + 128 + 2 * k1.length), 10);
    orders.set(k1, at(ListOrder.of(docs(ids)), 1));
    assert.equal(orders.get(k1)?.order.length, 5);
    const tiny = new ListOrders(100, 10);
    tiny.set(k1, at(ListOrder.of(docs(ids)), 1));
    assert.equal(tiny.get(k1), undefined, 'an entry over a quarter of the bound is not kept');
  });

  /** Notes of one part holding `held`, noted `count` times, as read reaching `reach`. */
  const oneLog = (held: ObjectId[], count: number, reach: number, tail = 256) => ({
    parts: [{ ids: packIds(held), count }],
    reach,
    tail,
  });
  const counted = (notes: NotesRead | undefined) => notes && notedCounts(notes);

  it('serves the notes of writes it holds to a state they reach, by kind, and keeps the furthest', () => {
    const orders = new ListOrders(1_000_000, 10);
    const bucket = new ObjectId();
    assert.equal(orders.notes('own', bucket, 'posts'), undefined);
    orders.keepNotes('own', bucket, 'posts', oneLog(ids.slice(0, 3), 3, 7));
    assert.deepEqual(counted(orders.notes('own', bucket, 'posts', 7)), [3]);
    assert.deepEqual(counted(orders.notes('own', bucket, 'posts')), [3], 'any reach: the last read');
    assert.equal(orders.notes('own', bucket, 'posts', 8), undefined, 'a later state needs a later read');
    assert.equal(orders.notes('bucket', bucket, 'posts'), undefined, 'notes of the other kind');
    assert.equal(orders.notes('own', bucket, 'notes'), undefined, 'another type');
    assert.equal(orders.notes('own', new ObjectId(), 'posts'), undefined, 'another Bucket');
    orders.keepNotes('own', bucket, 'posts', oneLog(ids.slice(0, 2), 2, 6));
    assert.deepEqual(counted(orders.notes('own', bucket, 'posts')), [3], 'a slower reader’s older notes stay out');
    orders.keepNotes('own', bucket, 'posts', oneLog(ids.slice(0, 4), 4, 7));
    assert.deepEqual(counted(orders.notes('own', bucket, 'posts', 7)), [4], 'at the same reach, the later count');
    orders.keepNotes('own', bucket, 'posts', oneLog(ids.slice(3, 4), 4, 7, 1));
    assert.equal(orders.notes('own', bucket, 'posts')?.tail, 256, 'a read of fewer ids does not replace more');
    orders.keepNotes('own', bucket, 'posts', oneLog(ids.slice(3, 4), 4, 8, 1));
    assert.equal(orders.notes('own', bucket, 'posts')?.tail, 1, 'a read reaching further does');
  });

  it('gives the distinct Objects of the last writes each part noted, and nothing when a part holds fewer', () => {
    const [a, b, c, d] = ids.map((id) => id.toHexString());
    const notes = {
      parts: [
        { ids: packIds([ids[0]!, ids[1]!, ids[0]!, ids[2]!]), count: 9 },
        { ids: packIds([ids[3]!]), count: 1 },
      ],
      reach: 9,
      tail: 256,
    };
    const hex = (since: number[]) => lastNoted(notes, since)?.map((id) => id.toHexString());
    assert.deepEqual(hex([2, 0]), [a, c]);
    assert.deepEqual(hex([4, 1]), [a, b, c, d], 'each Object once');
    assert.deepEqual(hex([0, 0]), []);
    assert.equal(hex([5, 0]), undefined, 'a part holds fewer');
    assert.equal(hex([0, -1]), undefined, 'a part counts fewer than the order read (made again)');
    assert.equal(hex([1]), undefined, 'another number of parts');
  });

  it('keeps the order of the later state when a slower reader brings an earlier one', () => {
    const orders = new ListOrders(1_000_000, 10);
    orders.set('k', at(ListOrder.of(docs(ids)), 5));
    orders.set('k', at(ListOrder.of(docs(ids.slice(0, 2))), 4));
    assert.equal(orders.get('k')?.typeGeneration, 5);
    orders.set('k', at(ListOrder.of(docs(ids.slice(0, 2))), 6));
    assert.equal(orders.get('k')?.order.length, 2);
  });
});

describe('ListOrder.moved: an order following writes (pure)', () => {
  const fields: SortFields = [
    ['metadata.score', -1],
    ['_id', -1],
  ];
  const id = (n: number) => new ObjectId(n.toString(16).padStart(24, '0'));
  const post = (n: number, score: unknown) => ({ _id: id(n), metadata: { score } });
  // Scores 9, 7, 7, 1 as a read sorts them: the tie by _id descending.
  const order = ListOrder.of([post(1, 9), post(3, 7), post(2, 7), post(4, 1)], fields);
  const hex = (o: ListOrder | undefined) => o?.slice(0, 100).map((i) => parseInt(i.toHexString(), 16));

  it('moves a written Object to where its new sort value goes, ties by _id', () => {
    const sorted = order;
    assert.deepEqual(hex(sorted.moved([id(4)], [post(4, 8)], fields)), [1, 4, 3, 2]);
    assert.deepEqual(hex(sorted.moved([id(1)], [post(1, 7)], fields)), [3, 2, 1, 4]);
    assert.deepEqual(hex(sorted.moved([id(2)], [post(2, 0)], fields)), [1, 3, 4, 2]);
  });

  it('takes out a written Object that no longer matches, and puts in one that now does', () => {
    const sorted = order;
    assert.deepEqual(hex(sorted.moved([id(3), id(9)], [post(9, 5)], fields)), [1, 2, 9, 4]);
    assert.deepEqual(hex(sorted.moved([id(5)], [], fields)), [1, 3, 2, 4], 'a write of a non-match changes nothing');
  });

  it('sorts missing and null first, then numbers, strings, ObjectIds, booleans, dates (MongoDB’s type order)', () => {
    const asc: SortFields = [
      ['metadata.score', 1],
      ['_id', 1],
    ];
    const values = [new Date(0), true, id(77), 'b', 'a', 2, -1, null, undefined];
    let o = ListOrder.of([], asc);
    values.forEach((v, i) => {
      o = o.moved([id(i + 1)], [post(i + 1, v)], asc) ?? assert.fail('no key');
    });
    assert.deepEqual(hex(o), [8, 9, 7, 6, 5, 4, 3, 2, 1]);
  });

  it('moves many writes at once, twice over, to the order a fresh sort gives (200 seeded cases)', () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    type Post = ReturnType<typeof post>;
    const cmp = (a: unknown, b: unknown) =>
      (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
    // Descending by score, then by _id: the fields' order.
    const bySort = (a: Post, b: Post) =>
      cmp(b.metadata.score, a.metadata.score) || cmp(b._id.toHexString(), a._id.toHexString());
    for (let c = 0; c < 200; c++) {
      // Even cases sort numbers, odd ones strings (kept beside the packed columns).
      const value = () => (c % 2 === 0 ? rand(10) : `s${String(rand(10))}`);
      const all = new Map<number, Post>();
      for (let n = 1; n <= 1 + rand(60); n++) all.set(n, post(n, value()));
      let kept: ListOrder | undefined = ListOrder.of([...all.values()].sort(bySort), fields);
      for (let step = 0; step < 2; step++) {
        // Some written ones move, some stop matching, some (new ids) start to.
        const written = Array.from({ length: 1 + rand(12) }, () => 1 + rand(70));
        const matching: Post[] = [];
        for (const n of new Set(written)) {
          if (rand(4) === 0) all.delete(n);
          else matching.push(all.set(n, post(n, value())).get(n)!);
        }
        assert.ok(kept, `case ${c}, step ${step}: an order to move`);
        kept = kept.moved(
          written.map((n) => id(n)),
          matching,
          fields,
        );
        const fresh = ListOrder.of([...all.values()].sort(bySort), fields);
        assert.deepEqual(hex(kept), hex(fresh), `case ${c}, step ${step}`);
        assert.equal(kept?.bytes, fresh.bytes, `case ${c}, step ${step}: the same bytes counted`);
      }
    }
  });

  it('does not follow a value whose order is not known here, nor an order read without keys', () => {
    assert.equal(order.moved([id(1)], [post(1, [1, 2])], fields), undefined, 'arrays sort by an element');
    assert.equal(order.moved([id(1)], [post(1, { a: 1 })], fields), undefined);
    assert.equal(order.moved([id(1)], [post(1, 'a\u{1F600}')], fields), undefined, 'surrogate pairs');
    assert.equal(ListOrder.of([post(1, [3])], fields).followable, false);
    assert.equal(ListOrder.of([post(1, 3)]).moved([id(1)], [], fields), undefined);
  });
});
