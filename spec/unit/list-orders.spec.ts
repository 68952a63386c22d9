import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import { ListOrder, ListOrders } from '../../lib/cache/list-orders.js';

describe('ListOrder: a list order packed as ids (pure)', () => {
  const ids = Array.from({ length: 5 }, () => new ObjectId());

  it('slices the ids back in order, clipped to the ends', () => {
    const order = ListOrder.of(ids);
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
    const order = ListOrder.of([a, b, straddling]);
    assert.equal(order.indexOf(straddling), 2);
    assert.equal(ListOrder.of([a, b]).indexOf(straddling), -1);
    assert.equal(order.indexOf(b), 1);
    assert.equal(order.indexOf(new ObjectId()), -1);
  });

  it('keys an order by its list and sort, and keeps no order over its bound', () => {
    const k1 = ListOrders.key('t', { random: false, fields: [['order', -1]] });
    const k2 = ListOrders.key('t', { random: false, fields: [['order', 1]] });
    assert.notEqual(k1, k2);
    const orders = new ListOrders(4 * (60 + 128 + 2 * k1.length), 10);
    orders.set(k1, ListOrder.of(ids));
    assert.equal(orders.get(k1)?.length, 5);
    const tiny = new ListOrders(100, 10);
    tiny.set(k1, ListOrder.of(ids));
    assert.equal(tiny.get(k1), undefined, 'an entry over a quarter of the bound is not kept');
  });
});
