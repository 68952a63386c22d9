import assert from 'node:assert/strict';
import { checkLinkAddress } from '../../lib/util/link-address.js';

describe('link addresses in rich text', () => {
  it('takes web, mail and phone addresses and paths as given', () => {
    for (const href of [
      'https://example.com/a?b=1#c',
      'http://x.test',
      'mailto:a@b.test',
      'tel:+4912',
      '/about',
      '#top',
    ])
      assert.deepEqual(checkLinkAddress(href), { href });
    assert.deepEqual(checkLinkAddress('  HTTPS://Example.com  '), { href: 'HTTPS://Example.com' });
  });

  it('reads a bare host as https', () => {
    assert.deepEqual(checkLinkAddress('example.com/page'), { href: 'https://example.com/page' });
  });

  it('refuses script and data addresses, however they are spelled', () => {
    for (const href of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' java\tscript:alert(1)',
      'java\nscript:x',
      'data:text/html,x',
      'vbscript:x',
    ]) {
      const check = checkLinkAddress(href);
      assert.ok('problem' in check, href);
      assert.match(check.problem, /not allowed/);
    }
  });

  it('asks for an address when none is given', () => {
    assert.deepEqual(checkLinkAddress('   '), { problem: 'Enter a link address.' });
  });
});
