import assert from 'node:assert/strict';
import { BucketSuite } from '../support/bucket-suite.js';

describe('Object type emoji', () => {
  const suite = new BucketSuite('emoji');
  const ONE_EACH = ['🛒', '👍🏽', '👨‍👩‍👧', '🇫🇷', '🏴󠁧󠁢󠁥󠁮󠁧󠁿', '1️⃣', '❤️', ''];

  it('takes one emoji (with its modifiers, joiners, flag or keycap parts) or ""', async () => {
    for (const [i, emoji] of ONE_EACH.entries()) {
      const res = await suite.api.post('/object-types', { title: `Type ${i}`, emoji }).expect(200);
      assert.equal(res.body.object_type.emoji, emoji);
    }
  });

  it('refuses any other string on create and on PATCH, naming the field', async () => {
    for (const emoji of ['cart', '🛒🛒', '🇫', ':)', '7', ' 🛒']) {
      const res = await suite.api.post('/object-types', { title: 'Bad', emoji }).expect(400);
      assert.match(res.body.message, /body\.emoji .*must be one emoji or ""/);
    }
    await suite.api.post('/object-types', { title: 'Good', emoji: '📝' }).expect(200);
    const patched = await suite.api.patch('/object-types/good', { emoji: 'note' }).expect(400);
    assert.match(patched.body.message, /body\.emoji "note" must be one emoji or ""/);
  });
});
